"""URLs of the hall's phone pages (no log-in: a signed link per board or per round's check-in)."""

from django.urls import path

from . import views

app_name = "hall"
urlpatterns = [
    path("b/<str:token>/", views.board, name="board"),
    path("c/<str:token>/", views.checkin, name="checkin"),
    path("live/<slug:code>/", views.live, name="live"),
    path("live/<slug:code>.json", views.live_json, name="live_json"),
]
