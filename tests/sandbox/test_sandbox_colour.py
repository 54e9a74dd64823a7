"""Black's advantage: the optional ``black`` column of games.csv, measured, and the colour rows (issue 36)."""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandbox_builders import write_files
from test_sandbox_cli import EVENTS, GAMES, PLAYERS, history, run

from qiyuan.errors import InputError
from qiyuan.formats.history_csv import read_history
from qiyuan.formats.sandbox_files import read_colours
from qiyuan.sandbox.colour import black_advantage
from qiyuan.sandbox.games import game_set


def coloured(games: str, black: list[str]) -> str:
    lines = games.strip().splitlines()
    return "\n".join([lines[0] + ",black"] + [f"{line},{b}" for line, b in zip(lines[1:], black)]) + "\n"


BLACK = ["P1", "P3", "P4", "", "P4", "P1", "P1", "P3", "P5", "P2", "P1", "P5"]  # known for all but one game


def test_the_black_column_gives_each_game_its_colours_whatever_the_order(tmp_path):
    files = write_files(tmp_path, PLAYERS, EVENTS, coloured(GAMES, BLACK))
    data = read_history(files["players"], files["events"], files["games"])
    colours = read_colours(files["games"], data.games)
    assert colours.tolist() == [1, -1, 1, 0, 1, 1, 1, -1, -1, 1, 1, 1]
    (tmp_path / "plain").mkdir()
    plain = write_files(tmp_path / "plain", PLAYERS, EVENTS, GAMES)
    assert read_colours(plain["games"], read_history(plain["players"], plain["events"], plain["games"]).games) is None


def test_a_black_that_is_neither_player_is_refused_with_its_line(tmp_path):
    files = write_files(tmp_path, PLAYERS, EVENTS, coloured(GAMES, ["P1", "P9", *BLACK[2:]]))
    with pytest.raises(InputError) as err:  # the history reader refuses it (the rule-set setting reads it too)
        read_history(files["players"], files["events"], files["games"])
    (p,) = err.value.problems
    assert (p.line, p.column) == (3, "black") and "P9" in p.message.format(**p.params)
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(files), exit_code=2)
    assert "nothing written" in result.stderr and "P9" in result.stderr


def test_blacks_score_is_measured_with_a_clustered_se(tmp_path):
    """Played games with known colours: E1 r1 P1 (Black) won 1, E1 r1 P3 (Black, player2) won 1, E1 r2 P4
    drew ½, E1 r3 P4 won 1, E2: P1 won 1, P1 lost 0, P3 (player2) lost 0, E3: P5 (player2) won 1, P2 won 1,
    P1 won 1 (the forfeit is not played)."""
    files = write_files(tmp_path, PLAYERS, EVENTS, coloured(GAMES, BLACK))
    data = read_history(files["players"], files["events"], files["games"])
    gs = game_set(data.players, data.events, data.games, date(2011, 3, 1), read_colours(files["games"], data.games))
    adv = black_advantage(gs)
    assert adv.games == 10 and adv.score == pytest.approx(7.5 / 10)
    assert adv.elo == pytest.approx(400 * math.log10(3)) and adv.se > 0
    assert black_advantage(game_set(data.players, data.events, data.games, date(2011, 3, 1))).games == 0


def test_evaluate_prints_blacks_advantage_and_the_colour_rows(tmp_path):
    files = write_files(tmp_path, PLAYERS, EVENTS, coloured(GAMES, BLACK))
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(files), "--from", "2012-01-01")
    assert "Black's advantage: Black scored" in result.stdout
    assert "elo+colour" in result.stdout and "glicko2+colour" in result.stdout
    plain = run("rules", "evaluate", "--rules", "cga-gomoku-2011",
                *history(write_files(tmp_path, PLAYERS, EVENTS, GAMES)), "--from", "2012-01-01")
    assert "not measured" in plain.stdout and "elo+colour" not in plain.stdout


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(st.text(max_size=6), min_size=12, max_size=12), extra=st.binary(max_size=40))
def test_mangled_black_columns_are_read_or_refused(tmp_path_factory, cells, extra):
    """Fuzz: any black cells and trailing bytes — the colours, or the project's input error; never a traceback."""
    tmp = tmp_path_factory.mktemp("fuzz")
    files = write_files(tmp, PLAYERS, EVENTS, GAMES)
    data = read_history(files["players"], files["events"], files["games"])
    body = coloured(GAMES, [c.replace("\n", " ").replace("\r", " ") for c in cells]).encode("utf-8") + extra
    path = Path(tmp) / "coloured.csv"
    path.write_bytes(body)
    try:
        colours = read_colours(path, data.games)
    except InputError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)
    else:
        assert colours is None or set(np.unique(colours).tolist()) <= {-1, 0, 1}


def handicapped(games: str, black: list[str], stones: list[str], komi: list[str]) -> str:
    lines = games.strip().splitlines()
    return "\n".join([lines[0] + ",black,stones,komi"] + [f"{line},{b},{s},{k}" for line, b, s, k in
                                                          zip(lines[1:], black, stones, komi)]) + "\n"


STONES = ["0", "0", "2", "2", "0", "0", "0", "0", "", "0", "0", "0"]
KOMI = ["7.5", "7.5", "0.5", "0.5", "7.5", "7.5", "6.5", "6.5", "", "7.5", "7.5", "7.5"]


def test_go_handicaps_are_read_and_blacks_advantage_measured_per_stones_and_komi(tmp_path):
    """Go: Black's score per (stones, komi) on the played games with known colours — even games with komi
    7.5: Black won all six (P1, P3 as player2, P4, P1, P2, P1); with komi 6.5, P1 lost and P3 lost as
    Black: 0 of 2; two stones (komi 0.5): P4 drew, and the colourless game is not counted; the game
    without stones or komi is 0 stones, komi not given."""
    from qiyuan.formats.sandbox_files import read_handicaps
    from qiyuan.sandbox.colour import advantage_by_handicap

    files = write_files(tmp_path, PLAYERS, EVENTS, handicapped(GAMES, BLACK, STONES, KOMI))
    data = read_history(files["players"], files["events"], files["games"])
    stones, komi = read_handicaps(files["games"], data.games)
    assert stones.tolist()[:4] == [0, 0, 2, 2] and math.isnan(komi[8])
    groups = {(s, "—" if k != k else k): a for s, k, a in
              advantage_by_handicap(data.games, read_colours(files["games"], data.games), stones, komi)}
    assert groups[(0, 7.5)].games == 6 and groups[(0, 7.5)].score == 1.0
    assert groups[(0, 6.5)].games == 2 and groups[(0, 6.5)].score == 0.0
    assert groups[(2, 0.5)].games == 1 and groups[(2, 0.5)].score == 0.5
    assert groups[(0, "—")].games == 1  # P5 won as Black (player2) in E3, no stones or komi given
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(files), "--from", "2012-01-01")
    assert "Black's advantage with 0 stone(s), komi 6.5: Black scored 0.0000" in result.stdout


def test_a_bad_handicap_is_refused_with_its_line(tmp_path):
    bad = write_files(tmp_path, PLAYERS, EVENTS, handicapped(GAMES, BLACK, ["12", *STONES[1:]], ["x", *KOMI[1:]]))
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(bad), exit_code=2)
    assert "'12' is not a number of handicap stones" in result.stderr and "'x' is not a komi" in result.stderr
    assert "nothing written" in result.stderr


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stones=st.lists(st.text(max_size=4), min_size=12, max_size=12),
       komi=st.lists(st.text(max_size=5), min_size=12, max_size=12))
def test_mangled_handicaps_are_read_or_refused(tmp_path_factory, stones, komi):
    """Fuzz: any stones and komi cells — the handicaps, or the project's input error; never a traceback."""
    from qiyuan.formats.sandbox_files import read_handicaps

    tmp = tmp_path_factory.mktemp("fuzz")
    files = write_files(tmp, PLAYERS, EVENTS, GAMES)
    data = read_history(files["players"], files["events"], files["games"])
    clean = [[c.replace("\n", " ").replace("\r", " ").replace(",", ";").replace('"', "") for c in x]
             for x in (stones, komi)]
    path = Path(tmp) / "handicapped.csv"
    path.write_text(handicapped(GAMES, BLACK, *clean), encoding="utf-8")
    try:
        got = read_handicaps(path, data.games)
    except InputError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)
    else:
        assert got is not None and got[0].min() >= 0
