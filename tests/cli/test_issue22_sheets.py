"""Issue 22, items 5, 6 and 10: a round robin's printed schedule of all rounds before round 1,
a knock-out's eliminated players marked 淘汰 (not absent) and its bracket printed, the standings
marking a withdrawn player (terminal, CSV)."""

from __future__ import annotations

import csv
import io

from qiyuan.formats import hall_pdf
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.knockout import bracket_rounds
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.sheets import crosstable, pairing_sheet
from tests.cli.test_tournament_cli import run


def event(tmp_path, fmt, n, rounds=None):
    t = ev.new_event("赛", fmt=fmt, rounds=rounds)
    for i in range(n):
        ev.add_player(t, Entrant(0, f"P{i + 1}", rating=2000 - 10 * i))
    path = tmp_path / "e.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    return path


def test_a_round_robin_schedule_prints_every_round_before_round_1(tmp_path):
    path = event(tmp_path, "round_robin", 5)
    run("event", "print", path, "schedule", "-o", tmp_path / "s.pdf")
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")
    swiss = event(tmp_path, "swiss", 4)
    r = run("event", "print", swiss, "schedule", "-o", tmp_path / "x.pdf", ok=False)
    assert r.exit_code == 2 and "schedule is printed for a round robin" in r.stderr


def knockout(tmp_path):
    path = event(tmp_path, "knockout", 6)
    run("event", "pair", path)
    run("event", "result", path, 1, "4 1-0", "3 0-1")  # 5 and 3 are out
    run("event", "pair", path)
    return path


def test_knocked_out_players_are_eliminated_not_absent(tmp_path):
    t = read_trf(knockout(tmp_path))
    sheet = pairing_sheet(t, 2)
    assert {u.seat.number: u.why for u in sheet.unpaired} == {3: "out", 5: "out"}
    assert "out" in crosstable(t).splitlines()[3]
    assert "eliminated" in run("event", "show", tmp_path / "e.trf", 2).stdout


def test_the_bracket_is_printed(tmp_path):
    path = knockout(tmp_path)
    rounds = bracket_rounds(read_trf(path))
    assert [r[0].title for r in rounds] == ["四分之一决赛", "半决赛", "决赛"]
    assert [m.upper for m in rounds[1]] == ["1 P1", "2 P2"] and rounds[0][0].lower == "轮空"
    run("event", "print", path, "bracket", "-o", tmp_path / "b.pdf")
    assert hall_pdf.document(read_trf(path), "bracket").startswith(b"%PDF")


def test_standings_mark_a_withdrawn_player(tmp_path):
    path = event(tmp_path, "swiss", 4, rounds=3)
    run("event", "pair", path)
    run("event", "withdraw", path, 3)
    out = run("event", "standings", path).stdout
    assert "P3 (wd)" in out and "(wd) withdrew: 3 P3 after round 1" in out  # a short mark, a footnote (issue 33)
    rows = list(csv.DictReader(io.StringIO(run("event", "standings", path, "--csv").stdout)))
    assert {r["number"]: r["withdrawn_after"] for r in rows}["3"] == "1"
