"""Issue 9's defects, each by its name: the arbiter's desk from the terminal."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import typer
from typer.testing import CliRunner

from qiyuan.cli.tournament import register
from qiyuan.formats.trf import read_trf
from qiyuan.tournament import scoring, state

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


def event(tmp_path: Path, players: int = 4, rounds: int = 3, fmt: str = "swiss", **player_opts) -> Path:
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "测试赛", "--rounds", rounds, "--format", fmt, "--start", "2026-05-01")
    for i in range(players):
        run("event", "add-player", ev, f"棋手{i + 1}", "--rating", 2000 - 10 * i)
    return ev


def test_a_typed_result_is_cleared_with_number_and_blank_and_the_round_can_then_be_undone(tmp_path):
    ev = event(tmp_path)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0")
    assert read_trf(ev).entrants[0].rounds[0].result == "1"
    r = run("event", "undo", ev, 1, ok=False)
    assert r.exit_code == 2 and "clear them first" in r.stderr
    assert "cleared (was" in run("event", "result", ev, 1, "1 ", "--change").stdout
    assert read_trf(ev).entrants[0].rounds[0].result == " "
    run("event", "undo", ev, 1)
    assert all(not e.rounds for e in read_trf(ev).entrants)


def test_contradictory_results_for_one_game_in_one_command_are_refused(tmp_path):
    ev = event(tmp_path)
    run("event", "pair", ev)  # round 1: 1-2, 3-4
    before = ev.read_text()
    r = run("event", "result", ev, 1, "1 1-0", "2 1-0", ok=False)
    assert r.exit_code == 2 and "board 1-2 is given two different results in one command" in r.stderr
    assert ev.read_text() == before
    run("event", "result", ev, 1, "1 1-0", "2 0-1")  # the same result from both sides is fine
    assert [c.rounds[0].result for c in read_trf(ev).entrants[:2]] == ["1", "0"]


def test_withdrawing_a_withdrawn_player_again_is_refused(tmp_path):
    ev = event(tmp_path)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "3 1-0")
    run("event", "withdraw", ev, 2)
    run("event", "pair", ev)
    run("event", "result", ev, 2, *[f"{e.number} 1-0" for e in read_trf(ev).entrants
                                    if len(e.rounds) > 1 and e.rounds[1].colour == "b"])
    before = ev.read_text()
    r = run("event", "withdraw", ev, 2, ok=False)
    assert r.exit_code == 2 and "player 2 has already withdrawn after round 1" in r.stderr
    assert ev.read_text() == before and read_trf(ev).entrants[1].withdrawn_after == 1


def test_event_show_prints_a_double_forfeit_as_such(tmp_path):
    ev = event(tmp_path)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 --", "3 +-")
    lines = run("event", "show", ev, 1).stdout.splitlines()
    board1 = next(line for line in lines if line.split()[:2] == ["1", "1"])
    board2 = next(line for line in lines if line.split()[:2] == ["2", "3"])
    assert board1.split()[-1] == "--" and board2.split()[-1] == "+-"


def test_add_player_checks_id_numbers_and_birth_dates_like_the_desk(tmp_path, resident_id):
    ev = event(tmp_path, players=0)
    before = ev.read_text()
    r = run("event", "add-player", ev, "张三", "--id-number", "12345", "--birth", "1990-13-45", ok=False)
    assert r.exit_code == 2 and ev.read_text() == before
    assert "ID number: wrong length: 5 characters" in r.stderr and "birth date '1990-13-45' is not a date" in r.stderr
    good = resident_id(date(1990, 11, 11), "F")
    r = run("event", "add-player", ev, "李四", "--sex", "m", "--birth", "1990-11-11", "--id-number", good, ok=False)
    assert r.exit_code == 2 and "the record says male" in r.stderr  # the ID's gender digit says female
    run("event", "add-player", ev, "李四", "--sex", "w", "--birth", "1990-11-11", "--id-number", good)
    line = next(x for x in ev.read_text().splitlines() if x.startswith("001"))
    assert line[69:79] == "1990/11/11"  # TRF-16: YYYY/MM/DD
    assert read_trf(ev).entrants[0].id_number == good


def test_late_entry_after_the_last_round_of_an_event_is_refused(tmp_path):
    ev = event(tmp_path, players=4, rounds=2)
    for rnd in (1, 2):
        run("event", "pair", ev)
        run("event", "result", ev, rnd, *[f"{e.number} 1-0" for e in read_trf(ev).entrants
                                          if e.rounds[rnd - 1].colour == "b"])
    r = run("event", "add-player", ev, "迟到者", ok=False)
    assert r.exit_code == 2 and "all 2 rounds are paired: a late entry would play none" in r.stderr
    run("event", "finish", ev)
    r = run("event", "result", ev, 2, "1 0-1", ok=False)
    assert r.exit_code == 2 and "the event is finished: reopen it first" in r.stderr
    run("event", "reopen", ev)


def test_a_round_robin_s_rounds_follow_the_cycle(tmp_path):
    ev = event(tmp_path, players=5, rounds=3, fmt="round_robin")
    r = run("event", "pair", ev)
    assert "rounds planned set to 5 (was 3)" in r.stderr
    assert read_trf(ev).rounds_planned == 5
    for rnd in range(1, 6):
        if rnd > 1:
            run("event", "pair", ev)
        run("event", "result", ev, rnd, *[f"{e.number} ½-½" for e in read_trf(ev).entrants
                                          if len(e.rounds) >= rnd and e.rounds[rnd - 1].colour == "b"])
    t = read_trf(ev)
    assert all({c.opponent for c in e.rounds} - {None} == {n for n in range(1, 6)} - {e.number} for e in t.entrants)
    assert "round robin is complete" in run("event", "pair", ev, ok=False).stderr


def test_pairing_lists_show_scores_and_ratings_and_call_withdrawn_players_withdrawn(tmp_path):
    ev = event(tmp_path, players=6)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "3 1-0", "5 ½-½")
    run("event", "withdraw", ev, 2)
    run("event", "excuse", ev, 4, 2)
    out = run("event", "pair", ev).stdout
    assert "Pts" in out and "Rtg" in out
    rows = [line.split() for line in out.splitlines()[3:]]
    assert ["2", "棋手2", "0", "1990", "withdrawn"] == rows[-2] and rows[-1][-1] == "absent"
    board1 = rows[0]  # 5 and 6 met in round 1: 1 and 3 float down to them
    assert board1 == ["1", "5", "棋手5", "1", "1960", "1", "棋手1", "2", "2000"]  # number, name, score, rating


def test_standings_as_they_stood_after_an_earlier_round(tmp_path):
    ev = event(tmp_path)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "3 0-1")
    run("event", "pair", ev)
    run("event", "result", ev, 2, *[f"{e.number} 0-1" for e in read_trf(ev).entrants if e.rounds[1].colour == "b"])
    after1 = [line.split(",") for line in run("standings", ev, "--csv", "--after", 1).stdout.splitlines()[1:]]
    assert {r[1]: r[3] for r in after1} == {"1": "2", "4": "2", "2": "0", "3": "0"}
    r = run("standings", ev, "--after", 9, ok=False)
    assert r.exit_code == 2 and "--after 9: the event has rounds 1..2" in r.stderr


def test_excuse_for_any_future_round_or_a_range(tmp_path):
    ev = event(tmp_path, players=5, rounds=5)
    run("event", "excuse", ev, 3, "3-4", "--points", "half")
    assert read_trf(ev).entrants[2].excused == {3: "H", 4: "H"}
    r = run("event", "excuse", ev, 3, "6", ok=False)
    assert r.exit_code == 2 and "past the last round (5)" in r.stderr
    for rnd in range(1, 5):
        run("event", "pair", ev)
        run("event", "result", ev, rnd, *[f"{e.number} 1-0" for e in read_trf(ev).entrants
                                          if len(e.rounds) >= rnd and e.rounds[rnd - 1].colour == "b"])
    cells = read_trf(ev).entrants[2].rounds
    assert [c.result for c in cells[2:4]] == ["H", "H"] and cells[0].opponent and cells[1].opponent


def test_override_one_board_swaps_two_players_checked_against_the_hard_rules(tmp_path):
    ev = event(tmp_path, players=6)
    run("event", "pair", ev)  # 1-2, 3-4, 5-6
    run("event", "override", ev, 1, 2, 3)  # 1-3, 2-4
    t = read_trf(ev)
    assert (t.entrants[0].rounds[0].opponent, t.entrants[1].rounds[0].opponent) == (3, 4)
    run("event", "override", ev, 1, 1, 3)  # same board: who opens changes
    assert read_trf(ev).entrants[2].rounds[0].colour == "b"
    run("event", "result", ev, 1, "3 1-0", "2 1-0", "5 1-0")
    run("event", "pair", ev)
    before = ev.read_text()
    pairs = {(e.number, e.rounds[1].opponent) for e in read_trf(ev).entrants}
    a = next(x for x, y in pairs if x == 1)
    opp = dict(pairs)[a]
    former = read_trf(ev).entrants[0].rounds[0].opponent  # 3: a swap giving 1 his round-1 opponent again
    swap_with = dict(pairs)[former] if opp != former else None
    if swap_with is not None and swap_with != 1:
        r = run("event", "override", ev, 2, opp, former, ok=False)
        assert r.exit_code == 2 and "already met in round 1" in r.stderr and ev.read_text() == before


def test_round_cell_points_are_computed_in_one_place_and_eventfile_and_teams_do_not_import_each_other():
    import ast
    import inspect

    from qiyuan.formats import report_xlsx, trf
    from qiyuan.tournament import eventfile, standings, teams

    assert not hasattr(state, "cell_points")
    assert eventfile.cell_points is scoring.cell_points and trf.cell_points is scoring.cell_points
    assert teams.cell_points is scoring.cell_points and report_xlsx.score is scoring.score
    assert standings.points_table is scoring.points_table
    imported = {n.module for n in ast.walk(ast.parse(inspect.getsource(teams))) if isinstance(n, ast.ImportFrom)}
    assert "qiyuan.tournament.eventfile" not in imported
