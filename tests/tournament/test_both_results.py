"""Issue 31 (2): a both-win and a both-lose (the arbiter's decision, OpenGotha's RESULT_BOTHWIN/BOTHLOSE) are
entered, kept, shown and counted: a win (a loss) for each, never rated (docs/decisions.md)."""

from __future__ import annotations

import pytest

from qiyuan.errors import InputError
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import go
from qiyuan.tournament.eventfile import cross_check, parse_result
from qiyuan.tournament.go_tiebreaks import compute
from qiyuan.tournament.model import Entrant, RoundCell, Tournament
from qiyuan.tournament.sheets import board_result
from qiyuan.tournament.syntax import result_text


def _event(a: str, b: str) -> Tournament:
    t = Tournament(name="x", points=go.GO_POINTS, rounds_planned=1, entrants=[
        Entrant(1, "A", title="1d", rounds=[RoundCell(2, "b", a)]),
        Entrant(2, "B", title="1d", rounds=[RoundCell(1, "w", b)])])
    t.extra["XQM"] = ["go_mcmahon"]
    return t


def test_both_win_and_both_lose_are_entered_and_shown():
    assert parse_result("++") == ("1", "1") and parse_result("0-0") == ("0", "0")
    assert result_text("1", "1") == "++" and result_text("0", "0") == "0-0"
    assert board_result("1", "1") == "++" and board_result("0", "0") == "0-0" and board_result("+", "+") == "++"


def test_the_two_cells_may_say_the_same_only_for_both_win_and_both_lose_of_a_go_event():
    for same in ("1", "0", "+", "-"):
        t = _event(same, same)
        assert not list(cross_check({e.number: e for e in t.entrants}, 2, both=True))
        assert read_trf(write_trf(t)).entrants[1].rounds[0].result == same
        if same != "-":  # a Gomoku file saying 1 and 1 is a slip of the pen, not a decision: refused as before
            assert [f for *_, f, _ in cross_check({e.number: e for e in t.entrants}, 2)] == ["result"]
            del t.extra["XQM"]
            with pytest.raises(InputError, match="do not agree"):
                read_trf(write_trf(t))
    t = _event("=", "1")
    assert [f for *_, f, _ in cross_check({e.number: e for e in t.entrants}, 2, both=True)] == ["result"]


def test_both_win_is_a_win_for_each_both_lose_a_loss():
    v = compute(_event("1", "1"), go.GoSettings(), go.players(_event("1", "1")))
    assert v["NBW"] == {1: 2, 2: 2} and v["MMS"][1] == v["MMS"][2] == 2 * (30 + 1)
    v = compute(_event("0", "0"), go.GoSettings(), go.players(_event("0", "0")))
    assert v["NBW"] == {1: 0, 2: 0} and v["MMS"][1] == 2 * 30


def test_both_win_entered_only_in_a_go_event(tmp_path):
    from qiyuan.tournament.eventfile import EventError, enter_results

    t = _event(" ", " ")
    t.entrants[0].rounds[0].result = t.entrants[1].rounds[0].result = " "
    enter_results(t, 1, [(1, "++")])
    assert [e.rounds[0].result for e in t.entrants] == ["1", "1"]
    t = _event(" ", " ")
    del t.extra["XQM"]
    with pytest.raises(EventError, match="arbiter's decision of a Go event"):
        enter_results(t, 1, [(1, "++")])
