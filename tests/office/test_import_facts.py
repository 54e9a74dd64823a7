"""Issue 18, item 1: the office stores every fact `qiyuan rate` reads from a history, and publishing uses it.

A history folder imported into the office and published edition by edition gives exactly the lists and the
changes `qiyuan rate` writes for the same files (`rating_lists_csv.write_history`), after the same formatting:
boards of team games, national and international flags (both ways, and absent), formats, days, standings,
registration dates, reference ratings, dans and the bodies that granted them.
"""

from __future__ import annotations

import csv
import io
import uuid
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import sheets

from ._o2_fixtures import make_list

pytestmark = pytest.mark.django_db

RULE_SETS = ("cga-gomoku-2011", "bjsh-gomoku-2007", "cn-go-1995")


def _write(path: Path, header: list[str], rows: list[list]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows([["" if v is None else v for v in r] for r in rows])


def _national_team_match(tmp_path: Path) -> Path:
    """Two teams of two in a national team championship (format team, national 1), games on boards:
    a1 (2400) has the best score rate on board 1 and would lose 4.20 points."""
    d = tmp_path / "teams"
    d.mkdir()
    _write(d / "players.csv", ["id", "name", "gender", "rating", "games"],
           [["a1", "甲一", "M", "2400", "60"], ["a2", "甲二", "M", "2000", "60"],
            ["b1", "乙一", "M", "2100", "60"], ["b2", "乙二", "M", "2050", "60"]])
    _write(d / "events.csv", ["id", "name", "start_date", "end_date", "format", "national"],
           [["T1", "全国团体赛", "2020-05-01", "2020-05-02", "team", "1"]])
    _write(d / "games.csv", ["event_id", "round", "player1", "player2", "result", "board"],
           [["T1", "1", "a1", "b1", "0.5-0.5", "1"], ["T1", "1", "a2", "b2", "0-1", "2"],
            ["T1", "2", "a1", "b1", "1-0", "1"], ["T1", "2", "a2", "b2", "0-1", "2"]])
    return d


def _engine(src: Path, rules_name: str, out: Path):
    """`qiyuan rate` on the folder: its lists and changes.csv, written to ``out``."""
    from qiyuan.formats.history_csv import read_history
    from qiyuan.formats.rating_lists_csv import write_history
    from qiyuan.rating.history import compute_history
    from qiyuan.rating.rules import BUILTIN_RULES

    standings = src / "standings.csv"
    h = read_history(src / "players.csv", src / "events.csv", src / "games.csv",
                     standings if standings.exists() else None)
    hist = compute_history(BUILTIN_RULES[rules_name], h.players, h.events, h.games, h.standings)
    out.mkdir()
    write_history(out, hist, h.players)
    return hist


def _pristine(row: dict) -> bool:
    """A list row of a player nothing has happened to: the office's edition leaves him off."""
    return row["rating"] == "" and row["games"] == "0" and row["status"] == "unrated"


def _engine_texts(out: Path) -> tuple[dict[str, str], str]:
    """The engine's files as text: each list without its pristine rows, and changes.csv."""
    lists = {}
    for path in sorted(out.glob("*-*-*.csv")):
        rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
        lists[path.stem] = _csv([[r["player_id"], r["name"], r["rating"], r["games"], r["status"]]
                                 for r in rows if not _pristine(r)])
    changes = list(csv.reader(io.StringIO((out / "changes.csv").read_text(encoding="utf-8"))))[1:]
    return lists, _csv(sorted(changes))


def _office_texts(rl) -> tuple[dict[str, str], str]:
    """The office's published editions formatted as the engine's files (the same number formatting)."""
    import json

    from qiyuan.formats.rating_lists_csv import NO_DELTA_METHODS, decimal_text

    lists, changes = {}, []
    for ed in rl.editions.order_by("list_date", "number"):
        lists[ed.list_date.isoformat()] = _csv([[e["federation_id"], e["name"], "" if e["rating"] is None else
                                                 e["rating"], e["games"], e["status"]] for e in sheets.entries(ed)])
        for c in sheets.changes(ed):
            method = "not_rated" if c["method"] == "newcomer" and c["games"] == 0 else c["method"]  # as changes.csv
            no = method in NO_DELTA_METHODS
            ru = json.loads(c["explanation"]).get("ru") if no and method == "newcomer" else None
            changes.append([c["federation_id"], c["event_code"], str(c["games"]), decimal_text(c["W"]),
                            "" if no or c["We"] is None else decimal_text(c["We"]),
                            "" if no or c["K"] is None else str(c["K"]),
                            "" if no else decimal_text(c["delta"]), ed.list_date.isoformat(), method, _ru_text(ru)])
    return lists, _csv(sorted(changes))


def _ru_text(ru) -> str:
    from fractions import Fraction

    from qiyuan.formats.rating_lists_csv import decimal_text
    from qiyuan.rating.exact import to_decimal

    if ru in (None, ""):
        return ""
    return decimal_text(to_decimal(Fraction(ru)))


def _csv(rows: list[list]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def _office(src: Path, rules_name: str):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list(code=rules_name.upper(), rules=rules_name)
    import_file(src, rl, "tester")
    publish_due(rl, "tester")
    return rl


def _same(src: Path, rules_name: str, out: Path) -> None:
    _engine(src, rules_name, out)
    engine_lists, engine_changes = _engine_texts(out)
    office_lists, office_changes = _office_texts(_office(src, rules_name))
    assert office_changes == engine_changes
    assert office_lists == engine_lists


def test_national_team_match_board_rule_acts_in_the_office(tmp_path):
    """CGA Art. 6(四): a1, best on board 1 of a national team event, keeps 2400 in the office as in `qiyuan rate`
    (the office stored neither the board nor the national flag, and published 2396)."""
    from qiyuan.office.events.models import Event, Game

    src = _national_team_match(tmp_path)
    hist = _engine(src, "cga-gomoku-2011", tmp_path / "out")
    a1 = next(c for c in hist.changes if c.player_id == "a1")
    assert a1.delta == 0 and a1.raw_delta < 0  # the engine protects him
    rl = _office(src, "cga-gomoku-2011")
    assert Event.objects.get(code="T1").national is True
    assert sorted(Game.objects.values_list("board", flat=True)) == [1, 1, 2, 2]
    ed = rl.editions.order_by("list_date", "number").last()
    assert next(e["rating"] for e in sheets.entries(ed) if e["federation_id"] == "a1") == 2400
    office_lists, office_changes = _office_texts(rl)
    assert (office_lists, office_changes) == _engine_texts(tmp_path / "out")


def test_a_history_event_is_national_only_when_its_row_says_so(tmp_path):
    """events.csv `national` 0 or absent: not national (as for `qiyuan rate`); was always stored national."""
    from qiyuan.office.events.models import Event

    src = _national_team_match(tmp_path)
    (src / "events.csv").write_text("id,name,start_date,end_date,format\nT1,团体赛,2020-05-01,2020-05-02,team\n",
                                    encoding="utf-8")
    _same(src, "cga-gomoku-2011", tmp_path / "out")
    assert Event.objects.get(code="T1").national is False


def test_a_column_the_office_cannot_store_is_refused_by_name(tmp_path):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import ImportRefused, import_file

    src = _national_team_match(tmp_path)
    text = (src / "games.csv").read_text(encoding="utf-8").splitlines()
    (src / "games.csv").write_text("\n".join([text[0] + ",table"] + [t + ",7" for t in text[1:]]) + "\n",
                                   encoding="utf-8")
    with pytest.raises(ImportRefused) as exc:
        import_file(src, make_list(), "tester")
    assert any("'table'" in m and "teams/games.csv" in m for m in exc.value.messages)
    assert not Event.objects.exists()


def test_history_refusals_name_the_folder_not_the_servers_path(tmp_path):
    from qiyuan.office.events.models import RejectedReport
    from qiyuan.office.imports import ImportRefused, import_file

    src = _national_team_match(tmp_path)
    (src / "games.csv").write_text("event_id,round,player1,player2,result\nT1,1,a1,b1,7-9\n", encoding="utf-8")
    with pytest.raises(ImportRefused) as exc:
        import_file(src, make_list(), "tester")
    assert exc.value.messages and not any(str(tmp_path) in m for m in exc.value.messages)
    assert any(m.startswith("teams/games.csv") for m in exc.value.messages)
    assert not any(str(tmp_path) in r for r in RejectedReport.objects.get().reasons)


# --------------------------------------------------------------------------------------------- generated histories

GRADES = ("9d", "7d", "5d", "3d", "1d", "1k", "5k")
RESULTS = ("1-0", "0-1", "0.5-0.5", "1-0", "0-1", "+-", "-+", "--")
FORMATS = ("swiss", "round_robin", "team", "match", "knockout")


@st.composite
def histories(draw):
    """A small history: players with every optional fact, events of every format with their flags given, absent
    or both ways, team games on boards, standings sometimes."""
    n = draw(st.integers(4, 9))
    players = []
    for i in range(n):
        rated = draw(st.booleans())
        dan = draw(st.sampled_from(("",) + GRADES))
        players.append([f"P{i:02d}", f"棋手{i}", draw(st.sampled_from(("M", "F"))) if not rated or draw(st.booleans())
                        else "", dan, str(draw(st.integers(1500, 2700))) if rated else "",
                        str(draw(st.integers(0, 80))) if rated else "", draw(st.sampled_from(("", "0", "1"))),
                        draw(st.sampled_from(("", "2018-06-01", "2019-03-15", "2020-02-01"))),
                        str(draw(st.integers(1800, 2600))) if draw(st.integers(0, 4)) == 0 else "",
                        draw(st.sampled_from(("", "中国棋院", "北京市棋协"))) if dan else ""])
    flag_columns = draw(st.sets(st.sampled_from(("national", "international", "days"))))
    events, games, standings = [], [], []
    start = date(2019, 1, 10)
    for e in range(draw(st.integers(1, 4))):
        start += timedelta(days=draw(st.integers(5, 200)))
        length = draw(st.integers(1, 4))
        fmt = draw(st.sampled_from(FORMATS))
        eid = f"E{e}"
        events.append([eid, f"赛事{e}", start.isoformat(), (start + timedelta(days=length - 1)).isoformat(), fmt,
                       draw(st.sampled_from(("0", "1"))), draw(st.sampled_from(("0", "1"))),
                       str(draw(st.integers(1, 25)))])
        ids = [p[0] for p in players]
        entrants = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=n, unique=True))
        for rnd in range(1, draw(st.integers(1, 3)) + 1):
            order = draw(st.permutations(entrants))
            for b, k in enumerate(range(0, len(order) - 1, 2), start=1):
                board = str(draw(st.integers(1, 3))) if fmt == "team" and draw(st.integers(0, 5)) else ""
                games.append([eid, str(rnd), order[k], order[k + 1], draw(st.sampled_from(RESULTS)), board])
        if draw(st.booleans()):
            ranked = draw(st.permutations(entrants))
            standings += [[eid, pid, str(r)] for r, pid in enumerate(ranked, start=1)]
    return players, events, games, standings, sorted(flag_columns), draw(st.booleans())


def _history_folder(root: Path, data) -> Path:
    players, events, games, standings, flags, with_boards = data
    d = root
    d.mkdir(parents=True)
    _write(d / "players.csv", ["id", "name", "gender", "dan", "rating", "games", "k_latched", "registered_on",
                               "reference_rating", "dan_granted_by"], players)
    extra = {"national": 5, "international": 6, "days": 7}
    _write(d / "events.csv", ["id", "name", "start_date", "end_date", "format", *flags],
           [e[:5] + [e[extra[f]] for f in flags] for e in events])
    _write(d / "games.csv", ["event_id", "round", "player1", "player2", "result"] + (["board"] if with_boards else []),
           [g if with_boards else g[:5] for g in games])
    if standings:
        _write(d / "standings.csv", ["event_id", "player_id", "rank"], standings)
    return d


def _check_generated(tmp_path: Path, rules_name: str, data) -> None:
    from django.db import transaction

    root = tmp_path / uuid.uuid4().hex
    src = _history_folder(root / "h", data)  # every generated history is a valid one (the reader takes it)
    with transaction.atomic():
        _same(src, rules_name, root / "out")
        transaction.set_rollback(True)


FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])
MANY = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("rules_name", RULE_SETS)
@FEW
@given(data=histories())
def test_office_equals_qiyuan_rate_on_generated_histories(tmp_path, rules_name, data):
    _check_generated(tmp_path, rules_name, data)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_SETS)
@MANY
@given(data=histories())
def test_office_equals_qiyuan_rate_on_many_generated_histories(tmp_path, rules_name, data):
    _check_generated(tmp_path, rules_name, data)
