"""The tournament desk from the terminal: a 7-round event run by `qiyuan event …`,
the bbpPairings-like `qiyuan pair`, `standings`, `report`, and bad input (exit 2, nothing written)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
import typer
from openpyxl import load_workbook
from typer.testing import CliRunner

from qiyuan.cli.tournament import register
from qiyuan.formats.trf import read_trf
from qiyuan.tournament.eventfile import score

REPO = Path(__file__).resolve().parents[2]
TRF_DIR = REPO.parent / "shared" / "data" / "trf"

app = typer.Typer()
register(app)


@app.callback()
def _root() -> None:
    """qiyuan (test harness: the tournament commands only)."""


def run(*args, ok=True):
    result = CliRunner().invoke(app, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


def small_event(tmp_path: Path, players: int, rounds: int | None = None) -> Path:
    """An event file with players P1..Pn."""
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x", *(["--rounds", rounds] if rounds else []))
    for i in range(players):
        run("event", "add-player", ev, f"P{i + 1}")
    return ev


def boards_of(path: Path, rnd: int) -> list[tuple[int, int]]:
    t = read_trf(path)
    return [(e.number, e.rounds[rnd - 1].opponent) for e in t.entrants
            if len(e.rounds) >= rnd and e.rounds[rnd - 1].colour == "b" and e.rounds[rnd - 1].opponent]


def test_seven_round_event_from_the_terminal(tmp_path, resident_id):
    from datetime import date

    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "2026年五子棋等级赛", "--rounds", 7, "--start", "2026-05-01",
        "--end", "2026-05-03", "--time-control", "每方60分钟", "--chief", "王裁判", "--arbiter", "李一",
        "--arbiter", "赵二", "--city", "上海")
    for i in range(1, 10):
        run("event", "add-player", ev, f"选手{i}", "--rating", 2000 + 25 * i, "--sex", "m" if i % 2 else "w",
            "--title", f"{i % 5 + 1}d", "--association", "上海围棋协会五子棋委员会" if i < 5 else "北京",
            "--id-number", resident_id(date(1990, 1, i), "M" if i % 2 else "F"), "--birth", f"1990-01-{i:02d}")
    out = run("event", "draw", ev, "--seed", 2026).stdout
    assert out.startswith("draw: lot seed 2026")
    for rnd in range(1, 8):
        if rnd == 3:
            run("event", "add-player", ev, "迟到者", "--rating", 1900)  # late entry: Z in rounds 1-2
        if rnd == 4:
            assert "withdrawn after round 3" in run("event", "withdraw", ev, 2).stdout
        if rnd == 5:
            run("event", "excuse", ev, 5, 5, "--points", "half")
        pairing = run("event", "pair", ev).stdout
        assert pairing.startswith(f"Round {rnd}")
        items = []
        for k, (a, b) in enumerate(boards_of(ev, rnd)):
            items.append(f"{a} " + ("½-½" if k % 3 == 2 else "1-0" if (a + rnd) % 2 else "0-1"))
        if rnd == 6:
            items[0] = items[0].split()[0] + " +-"  # a forfeit
        run("event", "result", ev, rnd, *items)
    t = read_trf(ev)
    assert t.rounds_played == 7 and len(t.entrants) == 10
    met = set()
    for e in t.entrants:
        assert sum(c.result == "U" for c in e.rounds) <= 1
        for c in e.rounds:
            if c.opponent:
                pair = frozenset((e.number, c.opponent))
                assert (pair, e.number) not in met
                met.add((pair, e.number))
    late = t.entrants[9]
    assert late.rounds[:2] == [late.rounds[0]] * 2 and late.rounds[0].result == "Z"
    assert all(c.opponent is None for c in t.entrants[1].rounds[3:])
    assert t.entrants[4].rounds[4].result == "H"

    rows = list(csv.reader(io.StringIO(run("standings", ev, "--csv").stdout)))
    assert rows[0] == (["rank", "number", "name", "score"] + [f"tb{i}" for i in range(1, 8)]
                       + ["withdrawn_after", "place_decided_by"])
    scores = {int(r[1]): Decimal(r[3]) for r in rows[1:]}
    assert scores == {e.number: score(e, t.points) for e in t.entrants}
    assert [int(r[0]) for r in rows[1:]] == sorted(int(r[0]) for r in rows[1:])
    assert "Pts" in run("event", "crosstable", ev).stdout

    xlsx = tmp_path / "report.xlsx"
    r = run("report", ev, "--xlsx", xlsx, "--remark", "99: x", "--remark", "oops", ok=False)
    assert r.exit_code == 2 and "no player 99" in r.stderr and "'oops'" in r.stderr and not xlsx.exists()
    run("report", ev, "--xlsx", xlsx, "--organizer", "中国围棋协会五子棋分会", "--remark", "3: 原名王五")
    wb = load_workbook(xlsx)
    assert wb["竞赛报告"]["B3"].value == "2026年五子棋等级赛"
    ws = wb["成绩"]
    assert ws.cell(2, 15).value == "第7轮" and ws.cell(2, 16).value == "积分"
    assert sorted(ws.cell(r, 2).value for r in range(3, 13)) == list(range(1, 11))
    row3 = next(r for r in range(3, 13) if ws.cell(r, 2).value == 3)
    assert ws.cell(row3, 17).value.endswith("原名王五")
    row2 = next(r for r in range(3, 13) if ws.cell(r, 2).value == 2)
    assert ws.cell(row2, 17).value == "第3轮后退赛"


def test_pair_prints_bbp_format_and_writes_only_with_o(tmp_path):
    ev = small_event(tmp_path, 5, rounds=3)
    before = ev.read_text()
    out = run("pair", ev).stdout.splitlines()
    assert out == ["3", "1 2", "3 4", "5 0"]  # round 1, odd round: 1-2, 3-4; 5 gets the bye
    assert ev.read_text() == before
    out_file = tmp_path / "r1.trf"
    run("pair", ev, "-o", out_file)
    t = read_trf(out_file)
    assert [c.rounds[0].result for c in t.entrants] == [" ", " ", " ", " ", "U"]
    assert t.entrants[4].points == 2
    explained = run("pair", ev, "--explain")
    assert explained.stdout.splitlines()[0] == "3" and "bye" in explained.stderr


def test_standings_of_real_chess_files_use_their_own_points():
    rows = list(csv.reader(io.StringIO(run("standings", TRF_DIR / "lichess-swiss-2020-06-26.trf", "--csv").stdout)))
    assert rows[1][3] == rows[2][3] == "7.5" and {rows[1][2], rows[2][2]} == {"mattderkuerschner", "hansimpech"}
    text = run("standings", TRF_DIR / "fide-example1-karl-mala-2005.trf", "--wide").stdout.splitlines()
    assert len(text) == 286 and "Mikhaletz,Lubomir" in text[1] and "6.5" in text[1]
    assert text[-1].startswith("(wd) withdrew: 13 Bakhmatov,Eduard after round 1, ")  # the withdrawn, below
    fitted = run("standings", TRF_DIR / "fide-example1-karl-mala-2005.trf").stdout.splitlines()  # 80 columns: the
    assert max(map(len, fitted)) <= 80 and "Mikhaletz," in fitted[1] and fitted[2].strip() == "Lubomir"  # name wraps


def test_broken_file_exit_2_with_line_and_column_and_no_output(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text("012 x\n001    1      A                                                                  2.0          2 b 1\n"
                   "001    2      B                                                                  0.0          7 w 0\n")
    out = tmp_path / "out.trf"
    r = run("pair", bad, "-o", out, ok=False)
    assert r.exit_code == 2 and not out.exists()
    assert f"{bad}, line 2, column 92: round 1: player 1 is paired with 2, but player 2's round 1 names" in r.stderr
    assert "line 3, column 92: round 1: opponent 7 is out of range (1..2)" in r.stderr
    r = run("standings", tmp_path / "missing.trf", ok=False)
    assert r.exit_code == 2 and "cannot read the file" in r.stderr


def test_no_pairing_left_is_a_clear_error(tmp_path):
    ev = small_event(tmp_path, 4)
    for rnd, boards in enumerate([("1 2", "3 4"), ("1 3", "2 4"), ("1 4", "2 3")], start=1):
        run("event", "set-pairing", ev, rnd, *boards)
        run("event", "result", ev, rnd, *(f"{b.split()[0]} 1-0" for b in boards))
    before = ev.read_text()
    r = run("event", "pair", ev, ok=False)
    assert r.exit_code == 2 and r.stderr.startswith("error:") and ev.read_text() == before


def test_pairing_needs_the_results_of_the_round_before(tmp_path):
    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    r = run("event", "pair", ev, ok=False)
    assert r.exit_code == 2 and "round 1 has boards without a result: 1-2, 3-4" in r.stderr


def test_hand_pairing_breaking_the_hard_rules_is_refused(tmp_path):
    ev = small_event(tmp_path, 5)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "3 0-1")
    before = ev.read_text()
    r = run("event", "set-pairing", ev, 2, "1 2", "3 5", "--bye", 5, ok=False)
    assert r.exit_code == 2 and ev.read_text() == before
    assert "board 1 (1-2): 1 and 2 already met in round 1" in r.stderr
    assert "the bye: player 5 is already on board 2" in r.stderr
    assert "not paired: 4" in r.stderr
    run("event", "set-pairing", ev, 2, "1 3", "2 5", "--bye", 4)
    assert boards_of(ev, 2) == [(1, 3), (2, 5)]
    run("event", "undo", ev, 2)
    assert read_trf(ev).rounds_played == 1
    run("event", "pair", ev)
    assert "Round 2" in run("event", "show", ev, 2).stdout


def test_bad_results_are_all_reported_and_nothing_saved(tmp_path):
    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    before = ev.read_text()
    r = run("event", "result", ev, 1, "1 1-0", "3 9-9", "x 1-0", "7 1-0", ok=False)
    assert r.exit_code == 2 and ev.read_text() == before
    assert "unknown result '9-9'" in r.stderr and "'x 1-0'" in r.stderr and "no player 7" in r.stderr


def test_help_shows_the_decisions():
    text = run("event", "--help").stdout
    for phrase in ("bye", "absent", "forfeit", "seed", "hard rules"):
        assert phrase in text


def test_export_leaves_out_id_numbers_unless_asked(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    run("event", "add-player", ev, "张三", "--id-number", "110101199001011237")
    assert "110101199001011237" in ev.read_text()
    run("event", "export", ev, tmp_path / "public.trf")
    assert "110101199001011237" not in (tmp_path / "public.trf").read_text()
    run("event", "export", ev, tmp_path / "fed.trf", "--with-id-numbers")
    assert "110101199001011237" in (tmp_path / "fed.trf").read_text()


def test_knockout_seeded_by_rating_from_the_terminal(tmp_path):
    ev = tmp_path / "ko.trf"
    run("event", "new", ev, "--name", "淘汰赛", "--format", "knockout")
    ratings = [2100, 2400, 1900, 2300, 2000, 2200]  # seeds: 2, 4, 6, 1, 5, 3 by number
    for i, r in enumerate(ratings, start=1):
        run("event", "add-player", ev, f"K{i}", "--rating", r)
    out = run("pair", ev).stdout.splitlines()
    # bracket of 8: 1-8, 4-5, 2-7, 3-6 by seed; seeds 1 and 2 (players 2 and 4) get the byes
    assert out == ["4", "1 5", "6 3", "2 0", "4 0"]
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "6 0-1")
    r = run("event", "add-player", ev, "late", ok=False)
    assert r.exit_code == 2 and "no late entries" in r.stderr
    r = run("event", "set-pairing", ev, 2, "1 2", ok=False)
    assert r.exit_code == 2 and "come from its bracket" in r.stderr
    assert run("pair", ev).stdout.splitlines() == ["2", "2 1", "4 3"]  # the upper place opens
    run("event", "pair", ev)
    run("event", "result", ev, 2, "2 1-0")
    r = run("event", "result", ev, 2, "3 ½-½", ok=False)  # a draw does not decide the match
    assert r.exit_code == 2 and "play-off" in r.stderr
    run("event", "result", ev, 2, "3 1-0")  # the play-off's winner, entered as a win
    run("event", "pair", ev)
    run("event", "result", ev, 3, "2 0-1")
    assert "the knock-out is over: 3 won the final" in run("event", "pair", ev, ok=False).stderr
    rows = list(csv.reader(io.StringIO(run("standings", ev, "--csv").stdout)))
    assert [r[:3] for r in rows[1:]] == [["1", "3", "K3"], ["2", "2", "K2"], ["3", "1", "K1"], ["3", "4", "K4"],
                        ["5", "5", "K5"], ["5", "6", "K6"]]
    text = run("event", "bracket", ev).stdout
    assert "Round 3" in text and "→ 3" in text and "2 K2: bye" in text
    xlsx = tmp_path / "ko.xlsx"
    run("report", ev, "--xlsx", xlsx)
    ws = load_workbook(xlsx)["成绩"]
    assert [(ws.cell(r, 1).value, ws.cell(r, 2).value) for r in range(3, 9)] == [
        (1, 3), (2, 2), (3, 1), (3, 4), (5, 5), (5, 6)]
    assert load_workbook(xlsx)["竞赛报告"]["B9"].value == "淘汰制"


def test_round_robin_by_berger_tables(tmp_path):
    ev = tmp_path / "rr.trf"
    run("event", "new", ev, "--name", "循环赛", "--format", "round_robin")
    for i in range(5):
        run("event", "add-player", ev, f"R{i + 1}")
    seen = set()
    for rnd in range(1, 6):
        out = run("pair", ev).stdout.splitlines()
        run("event", "pair", ev)
        boards = [tuple(map(int, x.split())) for x in out[1:]]
        assert len(boards) == 2 and all(b[1] != 0 for b in boards)  # one player rests: not a bye
        seen |= {frozenset(b) for b in boards}
        run("event", "result", ev, rnd, *(f"{a} 1-0" for a, _ in boards))
        if rnd == 1:
            r = run("event", "add-player", ev, "late", ok=False)
            assert r.exit_code == 2 and "Berger table is fixed once round 1 is paired" in r.stderr
    assert len(seen) == 10  # everyone met everyone once
    assert "complete" in run("event", "pair", ev, ok=False).stderr
    run("report", ev, "--xlsx", tmp_path / "rr.xlsx")
    ws = load_workbook(tmp_path / "rr.xlsx")["成绩"]
    cells = [ws.cell(r, c).value for r in range(3, 8) for c in range(9, 14)]
    assert cells.count("轮休") == 5 and "缺席" not in cells
    assert load_workbook(tmp_path / "rr.xlsx")["竞赛报告"]["B9"].value == "循环制"


def test_bad_command_input_exit_2(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    r = run("event", "new", ev, "--name", "y", ok=False)
    assert r.exit_code == 2 and "exists" in r.stderr
    r = run("event", "new", tmp_path / "b.trf", "--name", "y", "--start", "2026-13-01", ok=False)
    assert r.exit_code == 2 and "--start must be a date" in r.stderr and not (tmp_path / "b.trf").exists()
    r = run("event", "new", tmp_path / "c.trf", "--name", "y", "--format", "league", ok=False)
    assert r.exit_code == 2 and "unknown format 'league'" in r.stderr
    r = run("event", "add-player", ev, "A", "--sex", "x", ok=False)
    assert r.exit_code == 2 and "sex must be m or w" in r.stderr
    for name in "ABC":
        run("event", "add-player", ev, name)
    r = run("event", "draw", ev, "--order", "1,2", ok=False)
    assert r.exit_code == 2 and "missing [3]" in r.stderr
    r = run("event", "draw", ev, "--order", "1,x", ok=False)
    assert r.exit_code == 2 and "numbers separated by commas" in r.stderr
    r = run("event", "excuse", ev, 1, 1, "--points", "lots", ok=False)
    assert r.exit_code == 2
    r = run("event", "bracket", ev, ok=False)
    assert r.exit_code == 2 and "not a knock-out" in r.stderr
    r = run("event", "show", ev, ok=False)
    assert r.exit_code == 2 and "is not paired" in r.stderr


def test_pair_with_o_writes_nothing_when_no_pairing_is_possible(tmp_path):
    ev = small_event(tmp_path, 2)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0")
    out = tmp_path / "out.trf"
    r = run("pair", ev, "-o", out, ok=False)
    assert r.exit_code == 2 and not out.exists() and r.stderr.startswith("error:")


def test_unwritable_output_is_a_clear_error(tmp_path):
    ev = small_event(tmp_path, 2)
    r = run("pair", ev, "-o", tmp_path / "no" / "such" / "dir.trf", ok=False)
    assert r.exit_code == 2 and "cannot write" in r.stderr
    r = run("report", ev, "--xlsx", tmp_path / "no" / "r.xlsx", ok=False)
    assert r.exit_code == 2 and "cannot write" in r.stderr


def test_commands_are_registered_on_the_qiyuan_app():
    from qiyuan.cli import app as qiyuan_app

    for args in (["pair", "--help"], ["standings", "--help"], ["report", "--help"], ["event", "pair", "--help"]):
        r = CliRunner().invoke(qiyuan_app, args)
        assert r.exit_code == 0, (args, r.stdout)
