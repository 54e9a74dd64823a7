"""Issue 22, item 6: knock-out mini-matches — two games with alternating openers, then at 1:1 one tie-break game
whose opener is drawn by lot (entered as drawn in the hall, or drawn by qiyuan with a recorded seed, kept in the
event file); the event says its tie-break game's time control; the bracket, the standings and the report show the
mini-match scores; the eliminated are 淘汰, never 缺席."""

from __future__ import annotations

import random
import shutil
import subprocess

from openpyxl import load_workbook

from qiyuan.formats.trf import read_trf
from qiyuan.tournament import minimatch as mm
from qiyuan.tournament.knockout import knockout_places, played_matches
from qiyuan.tournament.sheets import pairing_sheet
from tests.cli.test_tournament_cli import run


def event(tmp_path, players=6):
    ev = tmp_path / "ko.trf"
    done = run("event", "new", ev, "--name", "淘汰赛", "--format", "knockout", "--mini-matches", "10 min + 5 s")
    assert "mini-matches, tie-break game 10 min + 5 s" in done.stdout
    for i in range(players):
        run("event", "add-player", ev, f"P{i + 1}", "--rating", 2000 - 10 * i)
    return ev


def boards(ev, rnd):
    t = read_trf(ev)
    return [(e.number, e.rounds[rnd - 1].opponent) for e in t.entrants
            if len(e.rounds) >= rnd and e.rounds[rnd - 1].colour == "b"]


def test_two_games_with_alternating_openers_then_a_tie_break_game_drawn_by_lot(tmp_path):
    ev = event(tmp_path)
    run("event", "pair", ev)
    assert sorted(boards(ev, 1)) == [(3, 6), (4, 5)]  # the upper place opens game 1; seeds 1, 2 on a bye
    run("event", "result", ev, 1, "3 1-0", "4 ½-½")  # game 1 may be drawn
    run("event", "pair", ev)
    assert sorted(boards(ev, 2)) == [(5, 4), (6, 3)]  # the lower place opens game 2
    run("event", "result", ev, 2, "3 0-1", "4 1-0")  # 3-6 is 1:1; 4-5 1½:½, decided
    refused = run("event", "pair", ev, ok=False)  # the tie-break's opener must be drawn first
    assert refused.exit_code == 2 and "tie-break game of 1 tied match(es) (3-6)" in refused.stderr
    bad = run("event", "lot", ev, "--openers", "4", ok=False)
    assert bad.exit_code == 2 and "player 4 does not play in the tied match 3-6" in bad.stderr
    assert "round 3: tie-break openers drawn in the hall: 6" in run("event", "lot", ev, "--openers", "6").stdout
    run("event", "pair", ev)
    assert boards(ev, 3) == [(6, 3)]
    sheet = pairing_sheet(read_trf(ev), 3)  # the players through wait, the loser is out: none is "absent"
    assert {u.seat.number: u.why for u in sheet.unpaired} == {1: "waiting", 2: "waiting", 4: "waiting", 5: "out"}
    drawn = run("event", "result", ev, 3, "6 ½-½", ok=False)  # the tie-break game must have a winner
    assert drawn.exit_code == 2 and "needs a winner" in drawn.stderr
    run("event", "result", ev, 3, "6 1-0")
    t = read_trf(ev)
    assert t.extra[mm.GAMES] == ["1 1 1", "2 1 2", "3 1 T"] and t.extra[mm.LOTS] == ["3 hall 6"]
    assert t.extra[mm.SETTING] == ["10 min + 5 s"]
    run("event", "pair", ev)  # the semi-finals: 1-4 and 2-6
    assert sorted(boards(ev, 4)) == [(1, 4), (2, 6)]
    bracket = run("event", "bracket", ev).stdout
    assert "4 P4 – 5 P5  1½:½  → 4" in bracket and "3 P3 – 6 P6  1:1 (tie-break 0:1)  → 6" in bracket
    assert "at 1:1 a tie-break game (10 min + 5 s)" in bracket and "drawn in the hall: 6" in bracket


def test_a_lot_drawn_by_qiyuan_is_redone_from_its_recorded_seed(tmp_path):
    ev = event(tmp_path, players=4)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "2 ½-½")
    run("event", "pair", ev)
    run("event", "result", ev, 2, "1 0-1", "2 ½-½")  # both matches 1:1
    assert "seed 2027" in run("event", "lot", ev, "--seed", 2027).stdout
    run("event", "pair", ev)
    rng = random.Random(2027)
    expected = [(a, b) if rng.random() < 0.5 else (b, a) for a, b in [(1, 4), (2, 3)]]  # bracket order
    assert sorted(boards(ev, 3)) == sorted(expected)
    assert read_trf(ev).extra[mm.LOTS] == ["3 seed 2027"]


def test_standings_and_report_show_the_mini_match_scores_and_the_eliminated_as_out(tmp_path):
    ev = event(tmp_path, players=4)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "2 ½-½")
    run("event", "pair", ev)
    run("event", "result", ev, 2, "1 1-0", "2 ½-½")  # 1-4 2:0; 2-3 1:1
    run("event", "lot", ev, "--seed", 7)
    run("event", "pair", ev)
    run("event", "result", ev, 3, "3 1-0")
    run("event", "pair", ev)  # the final, 1-3
    run("event", "result", ev, 4, "1 ½-½")
    run("event", "pair", ev)
    run("event", "result", ev, 5, "1 1-0")
    t = read_trf(ev)
    assert knockout_places(t) == {1: 1, 3: 2, 2: 3, 4: 3}
    assert [m.text() for m in played_matches(t)[3]] == ["R1 v2 1:1 (tie-break 1:0) won", "R2 v1 ½:1½ lost"]
    table = run("standings", ev).stdout
    assert "R1 v2 1:1 (tie-break 1:0) won; R2 v1 ½:1½ lost" in table
    report = tmp_path / "report.xlsx"
    run("report", ev, "--xlsx", report)
    ws = load_workbook(report)["成绩"]
    rows = {r[1]: r for r in ws.iter_rows(min_row=3, values_only=True) if isinstance(r[1], int)}
    assert rows[4][8:13] == ("1后0", "1先0", "淘汰", "淘汰", "淘汰")  # out, not absent (缺席)
    assert rows[1][10] == "待赛"  # through, while 2-3 played its tie-break game
    assert "第1轮对2号 1:1（加赛 1:0）胜" in rows[3][-1] and "缺席" not in rows[4][-1]
    legend = " ".join(str(c) for row in ws.iter_rows(values_only=True) for c in row if c)
    assert "1:1 时加赛一局（用时 10 min + 5 s），加赛先手抽签：第3轮由程序抽签（种子 7）" in legend
    for sheet in ("bracket", "standings", "crosstable"):
        run("event", "print", ev, sheet, "-o", tmp_path / f"{sheet}.pdf")
        assert (tmp_path / f"{sheet}.pdf").read_bytes()[:4] == b"%PDF"
    if shutil.which("pdftotext"):  # the printed standings give each player's mini-matches
        text = subprocess.run(["pdftotext", str(tmp_path / "standings.pdf"), "-"], capture_output=True,
                              text=True).stdout
        assert "3 P3：第1轮对2号 1:1（加赛 1:0）胜；第2轮对1号 ½:1½负" in text


def test_mini_matches_go_with_a_knock_out_and_need_their_time_control(tmp_path):
    bad = run("event", "new", tmp_path / "x.trf", "--name", "x", "--mini-matches", " ", "--rounds", 3, ok=False)
    assert bad.exit_code == 2
    assert "go with a knock-out" in bad.stderr and "tie-break game's time control" in bad.stderr
    assert "leave out --rounds" in bad.stderr
    single = tmp_path / "single.trf"
    run("event", "new", single, "--name", "x", "--format", "knockout")
    for i in range(2):
        run("event", "add-player", single, f"P{i + 1}")
    run("event", "pair", single)
    assert "only a knock-out of mini-matches" in run("event", "lot", single, "--seed", 1, ok=False).stderr
