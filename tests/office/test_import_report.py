"""Competition report import: matching by ID number, every report check at once, nothing stored on a problem."""

from __future__ import annotations

import importlib.util
from datetime import date

import pytest
from openpyxl import load_workbook

from ._o2_fixtures import confirm_all, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _ranks(monkeypatch):
    """The report writer ranks by the tournament standings; without that module yet, rank by draw number."""
    if importlib.util.find_spec("qiyuan.tournament.standings") is None:
        monkeypatch.setattr("qiyuan.formats.report_xlsx._final_ranks", lambda t: {e.number: e.number for e in t.entrants})


@pytest.fixture
def office(make_association):
    from qiyuan.office.federation.models import Arbiter

    for code in ("BJ", "SH"):
        make_association(code)
    Arbiter.objects.create(name="周裁判", level="national", recognised_national=True)
    Arbiter.objects.create(name="吴裁判", level="national", recognised_national=True)
    return make_list()


#: what the report's organiser declares (its lines for the facts, issue 18)
DECLARED = {"organiser_level": "state", "national": True, "international": False}


def write(path, players, *, rounds=5, name="2024年全国五子棋锦标赛", start=date(2024, 8, 10), arbiters=("周裁判", "吴裁判"),
          time_control="每方60分钟", facts=DECLARED):
    """A report of a round robin-like Swiss among ``players`` = [(name, sex, id, assoc)], results by order."""
    from qiyuan.formats.report_xlsx import ReportMeta, write_report
    from qiyuan.tournament.model import Entrant, RoundCell, Tournament

    n = len(players)
    cells = {i: [] for i in range(1, n + 1)}
    for rnd in range(1, rounds + 1):
        order = list(range(1, n + 1))
        k = rnd % (n - 1) + 1
        order = [order[0]] + order[k:] + order[1:k]
        for a, b in zip(order[: n // 2], reversed(order[n // 2:])):
            res_a = "1" if (a + b + rnd) % 3 else "="
            cells[a].append(RoundCell(b, "b", res_a))
            cells[b].append(RoundCell(a, "w", {"1": "0", "=": "="}[res_a]))
    entrants = [Entrant(number=i, name=nm, sex=sx, title="", rating=None, federation=assoc, id_number=idn,
                        rounds=cells[i]) for i, (nm, sx, idn, assoc) in enumerate(players, start=1)]
    t = Tournament(name=name, city="北京", start_date=start, end_date=start + timedelta(3), chief_arbiter=arbiters[0],
                   deputy_arbiters=list(arbiters[1:]), time_control=time_control, rounds_planned=rounds,
                   entrants=entrants)
    write_report(t, path, ReportMeta(format="swiss", organizer="中国围棋协会五子棋分会", facts=dict(facts)))
    return path


def timedelta(days):
    from datetime import timedelta as td

    return td(days=days)


def field_of(resident_id, n=12):
    out = []
    for i in range(n):
        sex = "w" if i % 3 == 0 else "m"
        out.append((f"选手{'甲乙丙丁戊己庚辛壬癸子丑'[i]}", sex, resident_id(date(2005, 1, 1 + i), "F" if sex == "w" else "M"),
                    "BJ" if i % 2 else "SH"))
    return out


def test_report_import_registers_new_players_and_matches_by_id_number(office, tmp_path, resident_id, make_player):
    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import import_file

    rows = field_of(resident_id)
    known = make_player(name="旧名字", gender="F", association="SH", id_number=rows[0][2], birth_date=date(2005, 1, 1))
    path = write(tmp_path / "r.xlsx", rows)
    result = import_file(path, office, "officer", options=confirm_all())
    ev = Event.objects.get()
    assert result.new_players == 11 and Player.objects.count() == 12
    assert Entry.objects.get(event=ev, number=1).player == known  # by ID number, whatever the name
    assert any("differs from the registry" in n for n in map(str, result.notes))  # Art. 11(四) shown
    assert Game.objects.filter(event=ev).count() == 30
    assert ev.eligibility["eligible"] and ev.time_minutes == 60
    assert ev.chief_arbiter.name == "周裁判"


def test_bad_report_lists_every_problem_at_once_and_stores_nothing(office, tmp_path, resident_id):
    from qiyuan.office.events.models import Event, Game, RejectedReport
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import ImportRefused, import_file

    rows = field_of(resident_id)
    good_id = rows[1][2]
    rows[1] = (rows[1][0], rows[1][1], good_id[:17] + ("0" if good_id[17] != "0" else "1"), rows[1][3])  # check digit
    rows[2] = (rows[2][0], "w" if rows[2][1] == "m" else "m", rows[2][2], rows[2][3])  # gender vs ID
    rows[3] = (rows[3][0], rows[3][1], rows[3][2], "火星棋协")  # unknown association
    rows[5] = (rows[5][0], rows[5][1], rows[4][2], rows[5][3])  # entered twice (same ID as row 4)
    path = write(tmp_path / "bad.xlsx", rows)
    wb = load_workbook(path)
    ws = wb["成绩"]
    # results that disagree: flip one result cell of one player only
    for r in range(3, 15):
        cell = ws.cell(r, 9)
        if str(cell.value or "").endswith("1"):
            cell.value = str(cell.value)[:-1] + "0"
            break
    wb.save(path)
    with pytest.raises(ImportRefused) as exc:
        import_file(path, office, "officer", options=confirm_all())
    text = "\n".join(exc.value.messages)
    assert "bad check digit" in text
    assert "gender digit" in text
    assert "unknown association '火星棋协'" in text
    assert "entered twice" in text
    assert "disagree" in text or "does not match" in text or "成绩" in text
    assert exc.value.rejected
    assert not Event.objects.exists() and not Game.objects.exists() and not Player.objects.exists()
    rej = RejectedReport.objects.get()
    assert rej.reasons == exc.value.messages and rej.content is not None


def test_not_the_template_is_refused(office, tmp_path):
    from openpyxl import Workbook

    from qiyuan.office.imports import ImportRefused, import_file

    p = tmp_path / "other.xlsx"
    wb = Workbook()
    wb.active["A1"] = "something else"
    wb.save(p)
    with pytest.raises(ImportRefused, match="not a qiyuan competition report"):
        import_file(p, office, "officer", options=confirm_all())


def test_same_report_twice_is_refused(office, tmp_path, resident_id):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import ImportRefused, import_file

    path = write(tmp_path / "r.xlsx", field_of(resident_id))
    import_file(path, office, "officer", options=confirm_all())
    with pytest.raises(ImportRefused, match="already imported"):
        import_file(path, office, "officer", options=confirm_all())
    # the same event re-typed into another file is refused too
    again = write(tmp_path / "r2.xlsx", field_of(resident_id), time_control="60分钟")
    with pytest.raises(ImportRefused, match="already stored"):
        import_file(again, office, "officer", options=confirm_all())
    assert Event.objects.count() == 1


def test_report_failing_eligibility_shows_every_failed_condition(office, tmp_path, resident_id):
    from qiyuan.office.events.models import RejectedReport
    from qiyuan.office.imports import ImportRefused, import_file

    path = write(tmp_path / "r.xlsx", field_of(resident_id, 8), rounds=4, arbiters=("周裁判", "无名"),
                 time_control="30分钟")
    with pytest.raises(ImportRefused) as exc:
        import_file(path, office, "officer", options=confirm_all())
    text = "\n".join(exc.value.messages)
    for clause in ("CGA Art. 5(一)", "CGA Art. 5(三)", "CGA Art. 5(五)", "CGA Art. 5(八)"):
        assert clause in text
    assert RejectedReport.objects.count() == 1


def test_name_and_association_match_waits_for_confirmation(office, tmp_path, resident_id, make_player):
    from qiyuan.office.events.models import Entry, Event
    from qiyuan.office.imports import NeedsConfirmation, Options, import_file

    rows = field_of(resident_id)
    known = make_player(name=rows[1][0], gender="M", association=rows[1][3])  # no ID number in the registry
    path = write(tmp_path / "r.xlsx", rows)
    others_new = Options(confirm={str(n): "new" for n in range(1, 13) if n != 2})  # the proposals confirmed
    with pytest.raises(NeedsConfirmation) as exc:
        import_file(path, office, "officer", options=others_new)
    assert len(exc.value.messages) == 1 and known.federation_id in exc.value.messages[0]
    assert not Event.objects.exists()
    import_file(path, office, "officer", options=confirm_all(confirm={"2": known.federation_id}))
    assert Entry.objects.get(number=2).player == known


def test_a_desk_report_links_the_rated_event_to_its_desk_event(office, tmp_path, resident_id):
    """One event with both its desk and its rated record: the report the desk downloads names its desk event
    (赛事代码); the import links the two, so the portal lists the event once."""
    from openpyxl import load_workbook

    from qiyuan.formats.report_xlsx import DESK_CODE_LABEL, DESK_CODE_ROW, INFO_SHEET
    from qiyuan.office.events.models import Event, LiveEvent
    from qiyuan.office.imports import import_file

    live = LiveEvent.objects.create(code="T2026-B", name="2024年全国五子棋锦标赛")
    path = write(tmp_path / "r.xlsx", field_of(resident_id))
    wb = load_workbook(path)
    wb[INFO_SHEET].cell(DESK_CODE_ROW, 1).value = DESK_CODE_LABEL
    wb[INFO_SHEET].cell(DESK_CODE_ROW, 2).value = "T2026-B"
    wb.save(path)
    import_file(path, office, "officer", options=confirm_all())
    assert Event.objects.get().live_event == live and live.rated_event == Event.objects.get()
