"""URLs of the public portal (公开网站): stable permalinks for lists, players, events."""

from django.urls import path

from .views import calendar, check, data, events, home, lists, players, rules

app_name = "portal"
urlpatterns = [
    path("", home.home, name="home"),
    path("language/<str:code>/", home.language, name="language"),
    path("lists/", lists.index, name="lists"),
    path("lists/<slug:list_code>/", lists.current, name="list_current"),
    path("lists/<slug:list_code>/history.csv", lists.history, name="list_history"),
    path("lists/<slug:list_code>/<str:on>/", lists.edition, name="list_edition"),
    path("lists/<slug:list_code>/<str:on>/<int:number>/", lists.edition, name="list_edition_n"),
    path("lists/<slug:list_code>/<str:on>/<int:number>/compare/", lists.compare, name="list_compare"),
    path("lists/<slug:list_code>/<str:on>/<int:number>/download.<str:fmt>", lists.download, name="list_download"),
    path("lists/<slug:list_code>/<str:on>/<int:number>/distribution/", data.distribution,
         name="list_distribution"),
    path("lists/<slug:list_code>/<str:on>/<int:number>/bundle.zip", check.bundle, name="list_bundle"),
    path("data/", data.open_data, name="open_data"),
    path("data/federation.pub.pem", check.public_key, name="public_key"),
    path("lists/<slug:list_code>/players/<str:federation_id>/proof.json", check.player_proof, name="player_proof"),
    path("players/", players.search, name="players"),
    path("players/<str:federation_id>/", players.player, name="player"),
    path("players/<str:federation_id>/what-if/", players.what_if, name="what_if"),
    path("players/<str:federation_id>/vs/<str:other_id>/", players.head_to_head, name="head_to_head"),
    path("events/", events.index, name="events"),
    path("events/<str:code>/", events.event, name="event"),
    path("calendar/", calendar.index, name="calendar"),
    path("calendar.ics", calendar.ics, name="calendar_ics"),
    path("rules/", rules.rules_page, name="rules"),
    path("rules/<slug:name>/", rules.rules_page, name="rules_set"),
]
