from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.office.calendar"
    label = "calendar"
    verbose_name = "Event calendar: registered events (赛事注册)"
    default_auto_field = "django.db.models.BigAutoField"
