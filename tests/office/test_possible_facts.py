"""Issue 32, item 4: facts that cannot be true are refused at import (the fact named, with its file and cell);
facts that are possible but unusual are flagged by the plausibility audit for the officer's decision — and a
flag keeps its number when the publication that found it is rolled back."""

from __future__ import annotations

import importlib.util
from datetime import date, timedelta

import pytest
from openpyxl import load_workbook

from ._o2_fixtures import confirm_all, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _ranks(monkeypatch):
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


@pytest.fixture
def field(resident_id):
    out = []
    for i in range(12):
        sex = "w" if i % 3 == 0 else "m"
        out.append((f"选手{'甲乙丙丁戊己庚辛壬癸子丑'[i]}", sex, resident_id(date(2005, 1, 1 + i), "F" if sex == "w" else "M"),
                    "BJ" if i % 2 else "SH"))
    return out


def report(path, players, *, rounds=5, start=date(2024, 8, 10), end=None, name="2024年全国五子棋锦标赛", shift=0,
           flip=False, ratings=None):
    """A Swiss-like report among ``players``: ``shift`` moves the pairings and results (another event of the same
    players), ``flip`` turns every decisive result the other way round, ``ratings`` the report's rating column."""
    from qiyuan.formats.report_xlsx import ReportMeta, write_report
    from qiyuan.tournament.model import Entrant, RoundCell, Tournament

    n = len(players)
    cells = {i: [] for i in range(1, n + 1)}
    for rnd in range(1, rounds + 1):
        order = list(range(1, n + 1))
        k = (rnd + shift) % (n - 1) + 1
        order = [order[0]] + order[k:] + order[1:k]
        for a, b in zip(order[: n // 2], reversed(order[n // 2:])):
            res_a = "1" if (a + b + rnd + shift) % 3 else "="
            if flip and res_a == "1":
                res_a = "0"
            back = {"1": "0", "0": "1", "=": "="}[res_a]
            cells[a].append(RoundCell(b, "b", res_a))
            cells[b].append(RoundCell(a, "w", back))
    entrants = [Entrant(number=i, name=nm, sex=sx, title="", rating=(ratings or {}).get(i), federation=assoc,
                        id_number=idn, rounds=cells[i]) for i, (nm, sx, idn, assoc) in enumerate(players, start=1)]
    t = Tournament(name=name, city="北京", start_date=start, end_date=end or start + timedelta(days=3),
                   chief_arbiter="周裁判", deputy_arbiters=["吴裁判"], time_control="每方60分钟", rounds_planned=rounds,
                   entrants=entrants)
    write_report(t, path, ReportMeta(format="swiss", organizer="中国围棋协会五子棋分会",
                                     facts={"organiser_level": "state", "national": True, "international": False}))
    return path


def _set_cell(path, cell, value):
    wb = load_workbook(path)
    wb["竞赛报告"][cell] = value
    wb.save(path)
    return path


def _refused(path, rl):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import ImportRefused, import_file

    with pytest.raises(ImportRefused) as refused:
        import_file(path, rl, "officer", options=confirm_all())
    assert not Event.objects.exists()  # nothing stored
    return refused.value.problems


# -- refused: facts that cannot be true ------------------------------------------------------------------------


def test_an_event_ending_before_it_starts_is_refused_naming_the_end_date_cell(office, tmp_path, field):
    path = report(tmp_path / "r.xlsx", field, start=date(2024, 8, 10), end=date(2024, 8, 7))
    problems = _refused(path, office)
    found = [p for p in problems if p.code == "import.dates"]
    assert found and "ends (2024-08-07) before it starts (2024-08-10)" in str(found[0])
    assert found[0].file == "r.xlsx" and "Sheet 竞赛报告, cell C4" in str(found[0])


def test_an_event_ending_after_the_import_day_is_refused(office, tmp_path, field):
    path = report(tmp_path / "r.xlsx", field, start=date(2031, 8, 10))
    problems = _refused(path, office)
    found = [p for p in problems if p.code == "import.future"]
    assert found and "2031-08-13" in str(found[0]) and "after the day it is imported" in str(found[0])
    assert "cell C4" in str(found[0])


def test_more_rounds_played_than_declared_is_refused_naming_the_rounds_cell(office, tmp_path, field):
    path = _set_cell(report(tmp_path / "r.xlsx", field, rounds=5), "B10", 3)  # 轮数 3, five rounds in the table
    problems = _refused(path, office)
    found = [p for p in problems if p.code == "import.rounds"]
    assert found and "5 rounds are played but the event declares 3" in str(found[0])
    assert "Sheet 竞赛报告, cell B10" in str(found[0])


def test_fewer_rounds_played_than_declared_is_imported(office, tmp_path, field):
    from qiyuan.office.imports import import_file

    path = _set_cell(report(tmp_path / "r.xlsx", field, rounds=5), "B10", 7)  # an event stopped early: possible
    assert import_file(path, office, "officer", options=confirm_all()).events


def test_a_history_folder_with_an_event_in_the_future_is_refused(tmp_path):
    from qiyuan.office.imports import ImportRefused, import_file

    from ._o2_fixtures import history_dir

    folder = history_dir(tmp_path)
    events = folder / "events.csv"
    lines = events.read_text(encoding="utf-8").splitlines()
    head, first = lines[0].split(","), lines[1].split(",")
    first[head.index("end_date")] = "2031-01-05"
    first[head.index("start_date")] = "2031-01-01"
    events.write_text("\n".join([lines[0], ",".join(first), *lines[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(ImportRefused) as refused:
        import_file(folder, make_list(code="H"), "officer")
    assert any(p.code == "import.future" and "2031-01-05" in str(p) for p in refused.value.problems)


def test_the_impossible_facts_are_pure_and_name_each_place():
    from qiyuan.office.imports.model import ParsedEvent
    from qiyuan.office.imports.possible import impossible_facts

    ev = ParsedEvent(name="x", start_date=date(2024, 5, 3), end_date=date(2024, 5, 1), format="swiss", rounds=6,
                     rounds_declared=5)
    got = impossible_facts(ev, "trf", "e.trf", date(2024, 4, 1))
    assert [p.code for p in got] == ["import.dates", "import.future", "import.rounds"]
    assert [p.column for p in got] == ["052", "052", "XXR"]
    ev.rounds_declared = None  # a file that declares nothing: nothing to contradict
    assert [p.code for p in impossible_facts(ev, "trf", "e.trf", date(2025, 1, 1))] == ["import.dates"]


# -- flagged: possible, but to be looked at twice ---------------------------------------------------------------


def _flags(rl):
    from qiyuan.office.periods import compute_period, due_date
    from qiyuan.office.plausibility import audit_period

    return audit_period(compute_period(rl, due_date(rl, rl.rules())))


def _import(path, rl):
    from qiyuan.office.imports import import_file

    return import_file(path, rl, "officer", options=confirm_all())


def test_players_in_two_overlapping_events_are_flagged_not_refused(office, tmp_path, field):
    from qiyuan.office.plausibility import describe

    _import(report(tmp_path / "a.xlsx", field, start=date(2024, 8, 10)), office)
    _import(report(tmp_path / "b.xlsx", field, start=date(2024, 8, 12), name="2024年五子棋公开赛", shift=2), office)
    flags = [f for f in _flags(office) if f.kind == "overlap"]
    assert len(flags) == 1 and len(flags[0].players) == 12 and flags[0].blocking
    text = str(describe(flags[0]))
    assert "overlap, and 12 player(s) play in both" in text and "2024-08-12" in text


def test_a_league_beside_a_weekend_event_is_flagged_never_refused(office, tmp_path, field):
    """A league of 40–150 days runs beside weekend events legitimately: both are imported, the overlap flagged."""
    _import(report(tmp_path / "league.xlsx", field, rounds=7, start=date(2024, 7, 1), end=date(2024, 8, 25),
                   name="2024年五子棋联赛"), office)
    _import(report(tmp_path / "b.xlsx", field, start=date(2024, 8, 10), shift=3), office)
    kinds = [f.kind for f in _flags(office)]
    assert "overlap" in kinds and "duration" not in kinds  # 56 days for 7 rounds: a league's pace


def test_a_short_event_lasting_far_longer_than_its_rounds_need_is_flagged(office, tmp_path, field):
    from qiyuan.office.plausibility import describe

    _import(report(tmp_path / "a.xlsx", field, rounds=5, start=date(2023, 8, 10), end=date(2024, 8, 9)), office)
    flags = [f for f in _flags(office) if f.kind == "duration"]
    assert len(flags) == 1 and flags[0].detail["days"] == 366
    assert "5 round(s) over 366 days" in str(describe(flags[0]))


def test_one_player_reported_with_very_different_ratings_in_one_period_is_flagged(office, tmp_path, field):
    from qiyuan.office.plausibility import describe

    _import(report(tmp_path / "a.xlsx", field, start=date(2024, 7, 10), ratings={1: 2800}), office)
    _import(report(tmp_path / "b.xlsx", field, start=date(2024, 8, 10), shift=2, name="2024年五子棋公开赛",
                   ratings={1: 1800}), office)
    flags = [f for f in _flags(office) if f.kind == "ratings"]
    assert len(flags) == 1 and flags[0].detail["low"] == 1800 and flags[0].detail["high"] == 2800
    assert "ratings from 1800 to 2800" in str(describe(flags[0]))


def test_the_same_pairings_re_reported_with_the_results_flipped_are_flagged(office, tmp_path, field):
    from qiyuan.office.plausibility import describe

    _import(report(tmp_path / "a.xlsx", field, start=date(2024, 7, 10)), office)
    _import(report(tmp_path / "b.xlsx", field, start=date(2024, 8, 10), flip=True, name="2024年五子棋公开赛"), office)
    flags = [f for f in _flags(office) if f.kind == "flipped"]
    assert len(flags) == 1 and flags[0].detail["flipped"] == flags[0].detail["games"]
    assert "the results the other way round" in str(describe(flags[0]))


def test_an_ordinary_period_raises_none_of_the_new_flags(office, tmp_path, field):
    _import(report(tmp_path / "a.xlsx", field, start=date(2024, 7, 10), ratings={1: 1900}), office)
    _import(report(tmp_path / "b.xlsx", field, start=date(2024, 8, 10), shift=2, name="2024年五子棋公开赛",
                   ratings={1: 1950}), office)
    assert not {f.kind for f in _flags(office)} & {"overlap", "duration", "ratings", "flipped"}
