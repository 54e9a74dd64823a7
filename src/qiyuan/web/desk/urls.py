"""URLs of the staff desk (工作台). Every view here is wrapped in ``role_required``."""

from django.urls import path

from .views import calendar, events, grades, hall, home, office, users

app_name = "desk"
urlpatterns = [
    path("login/", home.LoginView.as_view(), name="login"),
    path("logout/", home.LogoutView.as_view(), name="logout"),
    path("", home.home, name="home"),
    path("users/", users.users, name="users"),
    path("users/<int:user_id>/roles/", users.user_roles, name="user_roles"),
    path("users/lockouts/lift/", users.lift, name="lift_lockout"),
    # the arbiter's desk
    path("events/new/", events.event_new, name="event_new"),
    path("events/<slug:code>/", events.event, name="event"),
    path("events/<slug:code>/details/", events.event_details, name="event_details"),
    path("events/<slug:code>/players/", events.add_player, name="add_player"),
    path("events/<slug:code>/players/list/", events.add_players, name="add_players"),
    path("events/<slug:code>/players/<int:number>/", events.edit_player, name="edit_player"),
    path("events/<slug:code>/players/<int:number>/remove/", events.remove_player, name="remove_player"),
    path("events/<slug:code>/draw/", events.draw, name="draw"),
    path("events/<slug:code>/pair/", events.pair, name="pair"),
    path("events/<slug:code>/lot/", events.tiebreak_lot, name="tiebreak_lot"),
    path("events/<slug:code>/pairing/", events.set_pairing, name="set_pairing"),
    path("events/<slug:code>/undo/", events.undo_round, name="undo_round"),
    path("events/<slug:code>/results/", events.results, name="results"),
    path("events/<slug:code>/withdraw/", events.withdraw, name="withdraw"),
    path("events/<slug:code>/excuse/", events.excuse, name="excuse"),
    path("events/<slug:code>/reinstate/", events.reinstate, name="reinstate"),
    path("events/<slug:code>/override/", events.override, name="override"),
    path("events/<slug:code>/keep-apart/", events.keep_apart, name="keep_apart"),
    path("events/<slug:code>/categories/", events.categories, name="categories"),
    path("events/<slug:code>/go-settings/", events.go_settings, name="go_settings"),
    path("events/<slug:code>/print/<slug:what>.pdf", events.print_pdf, name="print_pdf"),
    path("events/<slug:code>/finish/", events.finish, name="finish"),
    path("events/<slug:code>/provisional/", events.provisional, name="provisional"),
    path("events/<slug:code>/print/<int:rnd>/", events.print_round, name="print_round"),
    path("events/<slug:code>/report.xlsx", events.report, name="report"),
    path("events/<slug:code>/assign/", events.assign, name="assign"),
    # the hall: results from the players' phones, check-in (赛场报分)
    path("hall/<slug:code>/", hall.queue, name="hall"),
    path("hall/<slug:code>/sign/", hall.sign, name="hall_sign"),
    path("hall/<slug:code>/settle/", hall.settle, name="hall_settle"),
    path("hall/<slug:code>/check-in/", hall.checkin_act, name="hall_checkin"),
    path("hall/<slug:code>/check-in.pdf", hall.checkin_pdf, name="hall_checkin_pdf"),
    path("hall/<slug:code>/reissue/", hall.reissue, name="hall_reissue"),
    path("hall/<slug:code>/cards.pdf", hall.cards_pdf, name="hall_cards"),
    # the rating officer
    path("office/imports/", office.imports, name="imports"),
    path("office/imports/<int:batch_id>/", office.import_detail, name="import_detail"),
    path("office/periods/", office.periods, name="periods"),
    # dan and kyu grades (段级位授予)
    path("office/grades/", grades.grades, name="grades"),
    path("office/grades/events/<str:code>/", grades.grade_event, name="grade_event"),
    path("office/grades/certificates/<str:serial>.pdf", grades.certificate, name="certificate"),
    # the event calendar (赛事注册)
    path("calendar/", calendar.index, name="calendar"),
    path("calendar/new/", calendar.new, name="calendar_new"),
    path("calendar/registrations.<str:fmt>", calendar.export, name="calendar_export"),
    path("calendar/<str:code>/", calendar.detail, name="calendar_detail"),
    path("calendar/<str:code>/amend/", calendar.amend, name="calendar_amend"),
    path("calendar/<str:code>/act/", calendar.act, name="calendar_act"),
    path("calendar/<str:code>/entries/", calendar.entries, name="calendar_entries"),
]

#: Views reachable without a role (signing in and out).
PUBLIC_VIEWS = frozenset({"login", "logout"})
