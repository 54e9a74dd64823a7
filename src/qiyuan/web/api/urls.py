"""URLs of the JSON API, version 1 (``/api/v1/…``); anything else under ``/api/`` is a JSON 404."""

from django.urls import path, re_path

from . import views

app_name = "api"
urlpatterns = [
    path("v1/", views.index, name="index"),
    path("v1/openapi.json", views.schema, name="openapi"),
    path("v1/lists", views.lists, name="lists"),
    path("v1/lists/<slug:code>", views.rating_list, name="list"),
    path("v1/lists/<slug:code>/chain", views.list_chain, name="list_chain"),
    path("v1/lists/<slug:code>/witnesses", views.list_witnesses, name="list_witnesses"),
    path("v1/lists/<slug:code>/editions/<str:on>", views.edition, name="edition_current"),
    path("v1/lists/<slug:code>/editions/<str:on>/<int:number>", views.edition, name="edition"),
    path("v1/lists/<slug:code>/editions/<str:on>/<int:number>/entries", views.edition_entries,
         name="edition_entries"),
    path("v1/lists/<slug:code>/editions/<str:on>/<int:number>/changes", views.edition_changes,
         name="edition_changes"),
    path("v1/lists/<slug:code>/editions/<str:on>/<int:number>/distribution", views.distribution,
         name="edition_distribution"),
    path("v1/changes", views.changes, name="changes"),
    path("v1/dump", views.dump, name="dump"),
    path("v1/dump/<str:version>/<str:name>", views.dump_file, name="dump_file"),
    path("v1/players", views.players, name="players"),
    path("v1/players/<str:federation_id>", views.player, name="player"),
    path("v1/players/<str:federation_id>/history", views.player_history, name="player_history"),
    path("v1/events", views.events, name="events"),
    path("v1/events/<str:code>", views.event, name="event"),
    path("v1/calendar", views.calendar, name="calendar"),
    path("v1/calendar/", views.calendar),  # as the portal writes /calendar/
    re_path(r"^(?P<rest>.*)$", views.not_found, name="not_found"),
]
