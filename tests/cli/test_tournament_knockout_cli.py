"""Knock-out from the terminal: standings with a header, the score and the round
reached (no Swiss tie-breaks), in text and CSV; result entry refuses a draw."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.cli.test_tournament_cli import run


def knockout(tmp_path: Path) -> Path:
    """6 players (seeds by rating 2, 4, 6, 1, 5, 3), played to the final: 3 beats 2."""
    ev = tmp_path / "ko.trf"
    run("event", "new", ev, "--name", "淘汰赛", "--format", "knockout")
    for i, r in enumerate([2100, 2400, 1900, 2300, 2000, 2200], start=1):
        run("event", "add-player", ev, f"K{i}", "--rating", r)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "6 0-1")
    run("event", "pair", ev)
    run("event", "result", ev, 2, "2 1-0", "3 1-0")
    run("event", "pair", ev)
    return ev


def test_knockout_standings_csv_has_score_and_round_reached(tmp_path: Path):
    ev = knockout(tmp_path)
    rows = list(csv.reader(io.StringIO(run("standings", ev, "--csv").stdout)))
    assert rows[0] == ["rank", "number", "name", "score", "reached"]
    assert ["1", "3", "K3", "4", "final (still in)"] in rows  # final not played yet: both still in
    run("event", "result", ev, 3, "2 0-1")
    rows = list(csv.reader(io.StringIO(run("standings", ev, "--csv").stdout)))
    assert rows[1:] == [["1", "3", "K3", "6", "winner"], ["2", "2", "K2", "4", "final"],
                        ["3", "1", "K1", "2", "semi-final"], ["3", "4", "K4", "2", "semi-final"],
                        ["5", "5", "K5", "0", "quarter-final"], ["5", "6", "K6", "0", "quarter-final"]]


def test_knockout_standings_text_has_a_header_and_says_knock_out(tmp_path: Path):
    ev = knockout(tmp_path)
    run("event", "result", ev, 3, "2 0-1")
    for cmd in (["standings", ev], ["event", "standings", ev]):
        lines = run(*cmd).stdout.splitlines()
        assert "knock-out" in lines[0] and "round reached" in lines[0]
        assert lines[1].split() == ["Rk", "No", "Name", "Pts", "Reached"]
        assert lines[2].split() == ["1", "3", "K3", "6", "winner"]
        assert lines[-1].split() == ["5", "6", "K6", "0", "quarter-final"]


def test_knockout_result_refuses_a_draw(tmp_path: Path):
    ev = tmp_path / "ko.trf"
    run("event", "new", ev, "--name", "ko", "--format", "knockout")
    for i in range(4):
        run("event", "add-player", ev, f"K{i + 1}", "--rating", 2000 - i)
    run("event", "pair", ev)
    before = ev.read_bytes()
    for result in ("½-½", "=-=", "1-1", "--"):
        r = run("event", "result", ev, 1, f"1 {result}", ok=False)
        assert r.exit_code == 2 and "needs a winner" in r.stderr and "play-off" in r.stderr
        assert ev.read_bytes() == before
    run("event", "result", ev, 1, "1 1-0", "2 0-1")
    run("event", "pair", ev)
    r = run("event", "result", ev, 1, "1 0-1", "--force", ok=False)  # the bracket follows from the winners
    assert r.exit_code == 2 and "undo" in r.stderr
