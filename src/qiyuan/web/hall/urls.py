"""URLs of the hall's phone pages (no log-in: each player's own signed credential; a round's check-in poster)."""

from django.urls import path

from . import views

app_name = "hall"
urlpatterns = [
    path("e/<slug:code>/<str:token>/", views.player, name="player"),
    path("c/<str:token>/", views.checkin, name="checkin"),
    path("live/<slug:code>/", views.live, name="live"),
    path("live/<slug:code>.json", views.live_json, name="live_json"),
]
