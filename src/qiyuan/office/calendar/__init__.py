"""The event calendar's records (赛事注册): registered events, before they are played (Django app ``calendar``)."""
