"""The staff desk: an event run through the views, and every role refused what it must not do."""

from __future__ import annotations

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.tournament import eventfile as ev
from qiyuan.office.events.models import LiveEvent

NAMES = ["张一", "李二", "王三", "赵四", "钱五", "孙六"]


@pytest.fixture
def live(staff, login, make_association):
    """A Swiss event created by ``arbiter`` with six players entered."""
    make_association("BJ", "北京")
    c = login(staff["arbiter"])
    r = c.post("/desk/events/new/", {"code": "club-2026", "name": "2026年俱乐部五子棋赛", "fmt": "swiss", "rounds": 3,
                                     "city": "北京", "time_control": "60 min", "chief_arbiter": "裁判甲"})
    assert r.status_code == 302 and r["Location"] == "/desk/events/club-2026/"
    for i, name in enumerate(NAMES):
        r = c.post("/desk/events/club-2026/players/", {"name": name, "sex": "m" if i % 2 else "w",
                                                       "rating": 2000 - 10 * i, "association": "BJ"})
        assert r.status_code == 302
    return LiveEvent.objects.get(code="club-2026")


def tournament(code="club-2026"):
    return read_trf(LiveEvent.objects.get(code=code).trf_text)


def flash(client, url: str) -> list[str]:
    r = client.get(url)
    return [str(m) for m in r.context["messages"]]


def test_arbiter_creates_event_and_is_its_arbiter(live, staff):
    assert list(live.arbiters.all()) == [staff["arbiter"]]
    t = tournament()
    assert [e.name for e in t.entrants] == NAMES
    assert t.rounds_planned == 3
    from qiyuan.office.audit.models import AuditLog

    assert AuditLog.objects.filter(action="event.create", actor="arbiter").exists()
    assert AuditLog.objects.filter(action="event.add_player").count() == 6


def test_duplicate_event_code_is_refused(live, staff, login):
    c = login(staff["arbiter"])
    r = c.post("/desk/events/new/", {"code": "club-2026", "name": "x", "fmt": "swiss"})
    assert r.status_code == 200 and "该比赛代码已被使用" in r.content.decode()


def test_draw_pair_results_undo_override_withdraw_report(live, staff, login):
    c = login(staff["arbiter"])
    assert c.post("/desk/events/club-2026/draw/", {"how": "rating"}).status_code == 302
    assert [e.rating for e in tournament().entrants] == [2000, 1990, 1980, 1970, 1960, 1950]
    # pair round 1
    assert c.post("/desk/events/club-2026/pair/").status_code == 302
    t = tournament()
    assert all(len(e.rounds) == 1 and e.rounds[0].opponent for e in t.entrants)
    # pairing again before results is refused, with the reason shown
    c.post("/desk/events/club-2026/pair/")
    assert any("还有台次没有结果" in m for m in flash(c, "/desk/events/club-2026/"))
    # undo round 1 and set it by hand
    assert c.post("/desk/events/club-2026/undo/").status_code == 302
    assert all(not e.rounds for e in tournament().entrants)
    c.post("/desk/events/club-2026/pairing/", {"round": 1, "boards": "1 2\n1 3\n4 5\n"})
    msgs = flash(c, "/desk/events/club-2026/")
    assert any("第 2 台（1-3）：1 号棋手已在第 1 台（1-2）" in m for m in msgs) and any("没有编排：6" in m for m in msgs)
    c.post("/desk/events/club-2026/pairing/", {"round": 1, "boards": "1 4\n5 2\n3 6\n"})
    t = tournament()
    assert (t.entrants[0].rounds[0].opponent, t.entrants[0].rounds[0].colour) == (4, "b")
    assert (t.entrants[1].rounds[0].opponent, t.entrants[1].rounds[0].colour) == (5, "w")
    # results with one key per board; a bad key is refused and nothing is stored
    c.post("/desk/events/club-2026/results/", {"round": 1, "r-1-4": "1", "r-5-2": "y", "r-3-6": "="})
    assert any("无法识别的结果" in m for m in flash(c, "/desk/events/club-2026/"))
    assert tournament().entrants[0].rounds[0].result == " "
    c.post("/desk/events/club-2026/results/", {"round": 1, "r-1-4": "1", "r-5-2": "0", "r-3-6": "="})
    t = tournament()
    assert [e.rounds[0].result for e in t.entrants] == ["1", "1", "=", "0", "0", "="]
    # a result entered can no longer be undone by 'undo'
    c.post("/desk/events/club-2026/undo/")
    assert any("已有结果" in m for m in flash(c, "/desk/events/club-2026/"))
    # withdraw player 6 and excuse player 5 for round 2, then pair round 2 around them
    c.post("/desk/events/club-2026/withdraw/", {"number": 6})
    c.post("/desk/events/club-2026/excuse/", {"number": 5, "kind": "H"})
    c.post("/desk/events/club-2026/pair/")
    t = tournament()
    assert t.entrants[5].withdrawn_after == 1
    assert t.entrants[4].rounds[1].result == "H" and t.entrants[4].rounds[1].opponent is None
    paired = [e.number for e in t.entrants if len(e.rounds) > 1 and e.rounds[1].opponent]
    assert sorted(paired) == [1, 2, 3, 4]
    # the desk page, the print page, the competition report
    html = c.get("/desk/events/club-2026/").content.decode()
    assert 'id="result-form"' in html and "r-" in html
    assert c.get("/desk/events/club-2026/print/2/").status_code == 200
    r = c.get("/desk/events/club-2026/report.xlsx")
    assert r.status_code == 200 and r.content[:2] == b"PK"
    # a late entry after round 2 is paired: absent in the rounds missed
    c.post("/desk/events/club-2026/players/", {"name": "周七", "sex": "m", "rating": 1900})
    assert [x.result for x in tournament().entrants[6].rounds] == ["Z", "Z"]
    assert LiveEvent.objects.get(code="club-2026").versions.count() >= 10


def test_add_registered_player_carries_id_to_report_but_never_to_public_page(live, staff, login, make_player,
                                                                              resident_id, client):
    from datetime import date

    idn = resident_id(date(2011, 2, 3), "F")
    p = make_player("陈静", "F", "SH", birth_date=date(2011, 2, 3), id_number=idn, dan="1d")
    c = login(staff["arbiter"])
    html = c.get("/desk/events/club-2026/?q=chenjing").content.decode()
    assert "陈静" in html and p.federation_id in html
    c.post("/desk/events/club-2026/players/", {"federation_id": p.federation_id})
    e = tournament().entrants[-1]
    assert (e.name, e.player_id, e.id_number, e.sex, e.title) == ("陈静", p.federation_id, idn, "w", "1d")
    c.logout()
    public = client.get("/events/club-2026/").content.decode()
    assert "陈静" in public and idn not in public and "2011-02-03" not in public
    c.post("/desk/events/club-2026/players/", {"federation_id": "CN999999"})


def test_arbiter_of_another_event_is_refused_everything(live, staff, login):
    c = login(staff["arbiter2"])
    assert c.get("/desk/events/club-2026/").status_code == 403
    before = LiveEvent.objects.get(code="club-2026").trf_text
    for action in ("players", "draw", "pair", "pairing", "undo", "results", "withdraw", "excuse", "finish"):
        assert c.post(f"/desk/events/club-2026/{action}/", {"name": "x", "sex": "m", "number": 1, "round": 1}
                      ).status_code == 403, action
    assert c.get("/desk/events/club-2026/print/1/").status_code == 403
    assert c.get("/desk/events/club-2026/report.xlsx").status_code == 403
    assert LiveEvent.objects.get(code="club-2026").trf_text == before
    # his own desk does not list the event
    assert "club-2026" not in c.get("/desk/").content.decode()


def test_officer_cannot_run_events_or_assign_arbiters(live, staff, login):
    c = login(staff["officer"])
    assert c.get("/desk/events/club-2026/").status_code == 403
    assert c.post("/desk/events/club-2026/pair/").status_code == 403
    assert c.get("/desk/events/new/").status_code == 403
    assert c.post("/desk/events/club-2026/assign/", {"username": "officer"}).status_code == 403


def test_arbiter_cannot_use_the_office_or_assign_himself(live, staff, login):
    c = login(staff["arbiter2"])
    assert c.get("/desk/office/periods/").status_code == 403
    assert c.post("/desk/office/periods/", {"list": "x", "action": "publish"}).status_code == 403
    assert c.get("/desk/office/imports/").status_code == 403
    assert c.post("/desk/events/club-2026/assign/", {"username": "arbiter2"}).status_code == 403
    assert not live.arbiters.filter(username="arbiter2").exists()


def test_admin_assigns_an_arbiter_who_can_then_run_the_event(live, staff, login):
    c = login(staff["admin"])
    assert c.get("/desk/events/club-2026/").status_code == 200
    assert c.post("/desk/events/club-2026/assign/", {"username": "arbiter2"}).status_code == 302
    c2 = login(staff["arbiter2"])
    assert c2.get("/desk/events/club-2026/").status_code == 200


def test_public_event_page_is_live(live, staff, login, client):
    c = login(staff["arbiter"])
    c.post("/desk/events/club-2026/pair/")
    c.logout()
    html = client.get("/events/club-2026/").content.decode()
    assert "2026年俱乐部五子棋赛" in html and 'id="round-1"' in html and "张一" in html
    assert "/desk/" not in html.split("<main")[1]  # no staff links on the public page


def test_parse_boards_reports_every_bad_line():
    from qiyuan.web.desk.views.events import parse_boards

    boards, bye, problems = parse_boards("1 2\n3-4\nfoo\n5 0\n6 0\n")
    assert boards == [(1, 2), (3, 4)] and bye == 5
    assert len(problems) == 2 and "foo" in problems[0]


def test_result_keys():
    from qiyuan.errors import InputError
    from qiyuan.web.desk.live import parse_result_key

    assert [parse_result_key(k) for k in ("1", "0", "=", "5", "+", "-", "--", " ", "½-½", "x")] == [
        "1-0", "0-1", "½-½", "½-½", "+-", "-+", "--", None, "½-½", ""]
    with pytest.raises(InputError):
        parse_result_key("2")


def test_new_player_id_number_is_checked_and_kept_for_the_report_only(live, staff, login, resident_id, client):
    from datetime import date

    c = login(staff["arbiter"])
    good = resident_id(date(2008, 8, 8), "F")
    bad = good[:-1] + ("0" if good[-1] != "0" else "1")
    c.post("/desk/events/club-2026/players/", {"name": "林八", "sex": "w", "birth": "2008-08-08", "id_number": bad})
    assert len(tournament().entrants) == 6
    c.post("/desk/events/club-2026/players/", {"name": "林八", "sex": "m", "id_number": good})  # sex disagrees
    assert len(tournament().entrants) == 6
    c.post("/desk/events/club-2026/players/", {"name": "林八", "sex": "w", "birth": "2008-08-08", "id_number": good})
    assert tournament().entrants[-1].id_number == good
    assert good not in client.get("/events/club-2026/").content.decode()


def test_event_run_at_the_desk_reaches_the_office_through_its_report(staff, login, make_player, resident_id,
                                                                     tmp_path, settings):
    """Desk → competition report → the officer's import: one path into the office."""
    from datetime import date

    from django.core.files.uploadedfile import SimpleUploadedFile

    from qiyuan.office.events.models import Event
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.ratings.models import RatingList

    settings.VAR_DIR = tmp_path
    RatingList.objects.create(code="bjsh", title="京沪五子棋等级分", rules_name="bjsh-gomoku-2007")
    Arbiter.objects.create(name="裁判甲", level="national")
    players = [make_player(n, g, "BJ", birth_date=date(1995, 1, i + 1), id_number=resident_id(date(1995, 1, i + 1), g))
               for i, (n, g) in enumerate([("甲", "M"), ("乙", "F"), ("丙", "M"), ("丁", "F"), ("戊", "M"), ("己", "F")])]
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": "bj-2026", "name": "2026年北京五子棋赛", "fmt": "swiss", "rounds": 5,
                                 "start": "2026-02-01", "end": "2026-02-02", "city": "北京",
                                 "time_control": "60 min", "chief_arbiter": "裁判甲"})
    for p in players:
        c.post("/desk/events/bj-2026/players/", {"federation_id": p.federation_id})
    c.post("/desk/events/bj-2026/draw/", {"how": "rating"})
    _play_out(c, "bj-2026", 5, 3)
    report = c.get("/desk/events/bj-2026/report.xlsx").content
    event = _officer_imports(login(staff["officer"]), "bj-2026", report, "bjsh")
    assert event.entries.count() == 6 and event.games.count() == 15


def test_round_robin_is_paired_by_the_berger_tables(staff, login):
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": "rr-2026", "name": "循环赛", "fmt": "round_robin", "rounds": 3})
    for i, name in enumerate(["甲", "乙", "丙", "丁"]):
        c.post("/desk/events/rr-2026/players/", {"name": name, "sex": "m", "rating": 2000 - i})
    met = set()
    for rnd in range(1, 4):
        c.post("/desk/events/rr-2026/pair/")
        t = tournament("rr-2026")
        boards = ev.unfinished_boards(t, rnd)
        assert len(boards) == 2
        met |= {frozenset(b) for b in boards}
        c.post("/desk/events/rr-2026/results/", {"round": rnd, **{f"r-{a}-{b}": "=" for a, b in
                                                                  [(x.number, x.rounds[rnd - 1].opponent)
                                                                   for x in t.entrants
                                                                   if x.rounds[rnd - 1].colour == "b"]}})
    assert len(met) == 6  # everybody met everybody once
    html = c.get("/events/rr-2026/").content.decode()
    assert 'http-equiv="refresh"' in html


def test_desk_pairs_with_the_event_file_pairing_and_stops_a_complete_round_robin(staff, login):
    """The desk has no pairing of its own: ``eventfile.pair_next`` (the CLI's too) refuses a 4th round of a
    4-player round robin without a planned number of rounds."""
    from qiyuan.web.desk import live as L

    assert not hasattr(L, "next_pairing") and not hasattr(L, "pair_next")
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": "rr-open", "name": "循环赛", "fmt": "round_robin"})
    for i, name in enumerate(["甲", "乙", "丙", "丁"]):
        c.post("/desk/events/rr-open/players/", {"name": name, "sex": "m", "rating": 2000 - i})
    for rnd in range(1, 4):
        c.post("/desk/events/rr-open/pair/")
        t = tournament("rr-open")
        c.post("/desk/events/rr-open/results/", {"round": rnd, **{f"r-{a}-{b}": "1" for a, b in
                                                                  ev.unfinished_boards(t, rnd)}})
    c.post("/desk/events/rr-open/pair/")
    assert ev.rounds_paired(tournament("rr-open")) == 3
    assert any("循环赛已全部完成" in m for m in flash(c, "/desk/events/rr-open/"))


def _officer_imports(officer, code: str, report: bytes, rating_list: str):
    """The officer uploads the desk's report (a state-level national event); it must be imported."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from qiyuan.office.events.models import Event

    r = officer.post("/desk/office/imports/", {"file": SimpleUploadedFile(f"{code}.xlsx", report),
                                               "rating_list": rating_list, "organiser_level": "state", "national": "yes",
                                               "international": "no", "agreed_by_parties": "no", "dan_event": "no",
                                               "confirm_all": "on"})
    assert r.status_code == 302, r.content.decode()[:3000]
    return Event.objects.get()  # the only event of the test


def _play_out(c, code: str, rounds: int, boards_per_round: int) -> None:
    for rnd in range(1, rounds + 1):
        c.post(f"/desk/events/{code}/pair/")
        t = tournament(code)
        boards = ev.unfinished_boards(t, rnd)
        assert len(boards) == boards_per_round, (rnd, boards)
        results = {f"r-{a}-{b}": ("1" if (a + rnd) % 3 else "=") for a, b in boards}
        c.post(f"/desk/events/{code}/results/", {"round": rnd, **results})
        assert not ev.unfinished_boards(tournament(code), rnd)


def test_desk_event_report_is_imported_into_a_cga_list(staff, login, make_player, resident_id, tmp_path, settings):
    """The whole path for a CGA list: create the event at the desk (chief arbiter only), add the arbiters
    from the registry and the organiser afterwards, enter players, pair and enter 5 rounds, download the
    report, and the officer imports it — eligible under CGA Art. 4–5 (two recognised arbiters, state
    organiser, 60 min, 5 Swiss rounds for ≤ 20 players)."""
    from datetime import date
    from io import BytesIO

    from django.core.files.uploadedfile import SimpleUploadedFile
    from openpyxl import load_workbook

    from qiyuan.office.events.models import Event
    from qiyuan.office.registry import add_arbiter
    from qiyuan.office.ratings.models import RatingList

    settings.VAR_DIR = tmp_path
    RatingList.objects.create(code="cga", title="中国五子棋等级分", rules_name="cga-gomoku-2011")
    chief = add_arbiter("裁判甲", "national", recognised_national=True, actor="clerk")
    second = add_arbiter("裁判乙", "first", recognised_national=True, actor="clerk")
    add_arbiter("裁判丙", "second", actor="clerk")
    people = [(f"棋手{i}", "MF"[i % 2], date(1990 + i, 3, i + 1)) for i in range(10)]
    players = [make_player(n, g, "BJ", birth_date=b, id_number=resident_id(b, g)) for n, g, b in people]
    c = login(staff["arbiter"])
    r = c.post("/desk/events/new/", {"code": "cga-2026", "name": "2026年全国五子棋公开赛", "fmt": "swiss", "rounds": 5,
                                     "start": "2026-04-01", "end": "2026-04-03", "city": "北京",
                                     "time_control": "60 min", "chief_arbiter": "裁判甲"})
    assert r.status_code == 302, r.content.decode()[:3000]
    page = c.get("/desk/events/cga-2026/details/").content.decode()
    assert "裁判乙" in page and "中国五子棋协会认可" in page and 'id="registry-arbiter-names"' in page
    r = c.post("/desk/events/cga-2026/details/", {
        "name": "2026年全国五子棋公开赛", "start": "2026-04-01", "end": "2026-04-03", "city": "北京",
        "time_control": "60 min", "chief_arbiter": "裁判甲", "registry_arbiters": [chief.pk, second.pk],
        "other_arbiters": "记录员丁、 记录员戊", "organizer": "中国围棋协会五子棋分会", "host": "北京棋院",
        "organiser_level": "state"})
    assert r.status_code == 302
    t = tournament("cga-2026")
    assert t.chief_arbiter == "裁判甲" and t.deputy_arbiters == ["裁判乙", "记录员丁", "记录员戊"]  # chief not twice
    assert "裁判乙、记录员丁、记录员戊" in c.get("/desk/events/cga-2026/").content.decode()
    for p in players:
        c.post("/desk/events/cga-2026/players/", {"federation_id": p.federation_id})
    c.post("/desk/events/cga-2026/draw/", {"how": "lot"})
    _play_out(c, "cga-2026", 5, 5)
    report = c.get("/desk/events/cga-2026/report.xlsx").content
    info = {row[0]: row[1] for row in load_workbook(BytesIO(report))["竞赛报告"].iter_rows(values_only=True) if row[0]}
    assert info["裁判员"] == "裁判乙、记录员丁、记录员戊" and info["主办单位"] == "中国围棋协会五子棋分会"
    assert info["承办单位"] == "北京棋院" and "state" in info["说明"]
    event = _officer_imports(login(staff["officer"]), "cga-2026", report, "cga")
    assert event.entries.count() == 10 and event.games.count() == 25
    assert event.chief_arbiter == chief and list(event.arbiters.all()) == [second]
    assert event.organiser == "中国围棋协会五子棋分会" and event.eligibility["failures"] == []
    public = c.get("/events/cga-2026/").content.decode()
    assert "裁判乙" in public and "中国围棋协会五子棋分会" in public


def test_event_details_refused_to_an_arbiter_of_another_event_and_checked(live, staff, login):
    other = login(staff["arbiter2"])
    assert other.get("/desk/events/club-2026/details/").status_code == 403
    assert other.post("/desk/events/club-2026/details/", {"name": "x"}).status_code == 403
    c = login(staff["arbiter"])
    r = c.post("/desk/events/club-2026/details/", {"name": "2026年俱乐部五子棋赛", "start": "2026-05-02",
                                                   "end": "2026-05-01", "organiser_level": "national-ish",
                                                   "time_control": "quick"})
    assert r.status_code == 200
    assert set(r.context["form"].errors) == {"end", "organiser_level", "time_control"}
    assert tournament().start_date is None
