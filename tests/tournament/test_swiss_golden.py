"""Gomoku Swiss pairing: the spec's examples and small events worked by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest
from swiss_reference import reference_pairing
from tournament_sim import absent, bye, event, played, played_rounds, set_result

from qiyuan.tournament.state import player_states
from qiyuan.tournament.swiss import Board, PairingError, apply_pairing, pair_round


def boards(p) -> list[tuple[int, int]]:
    return [(b.opener, b.other) for b in p.boards]


def test_rule_4_spec_example_round_1_of_8_pairs_front_to_front() -> None:
    """法则四, odd round: the smallest number takes the front."""
    p = pair_round(event(8))
    assert p.round == 1
    assert boards(p) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert p.bye is None


def test_rule_1_spec_example_round_1_of_9_gives_9_the_bye() -> None:
    """法则一: an odd count gives one bye; 法则三 tie: the larger draw number floats out of the lowest group."""
    p = pair_round(event(9))
    assert boards(p) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert p.bye == 9


def test_rule_4_spec_example_round_2_even_round_takes_the_back() -> None:
    """法则四, even round: group on 2 points {1,3,5,7} pairs 1–7, 3–5 (抓后)."""
    t = event(8)
    apply_pairing(t, pair_round(t))
    for a in (1, 3, 5, 7):
        set_result(t, 1, a, a + 1, "1")
    p = pair_round(t)
    pairs = [frozenset(b) for b in boards(p)]
    assert pairs == [frozenset({1, 7}), frozenset({3, 5}), frozenset({2, 8}), frozenset({4, 6})]
    # who opens: equal openings (1 and 3 opened in round 1, 7 and 5 too) -> rule 2 or 3 decide
    assert p.bye is None


def test_odd_event_with_a_bye_round_by_round() -> None:
    """Five players, three rounds, worked by hand (see docs/tournament.md)."""
    t = event(5)
    p1 = pair_round(t)
    assert boards(p1) == [(1, 2), (3, 4)] and p1.bye == 5
    apply_pairing(t, p1)
    set_result(t, 1, 1, 2, "1")
    set_result(t, 1, 3, 4, "0")
    # round 2: groups {1,4,5} on 2, {2,3} on 0. 5 floats (ties: larger number), 1 takes the back: 4.
    # 5 meets the 0-point group: 2 and 3 tie on downs/ups, even round -> the larger, 3. 2 gets the bye.
    p2 = pair_round(t)
    assert boards(p2) == [(4, 1), (5, 3)] and p2.bye == 2
    apply_pairing(t, p2)
    set_result(t, 2, 4, 1, "1")
    set_result(t, 2, 5, 3, "=")
    # round 3: 4 (4 pts) floats to 5 (3 pts); {1,2} (2 pts) have met, both float; 2 (larger number)
    # first, takes 3 (1 pt); 1 floats on past the lowest group and gets the bye (2 already had it).
    p3 = pair_round(t, explain=True)
    assert boards(p3) == [(4, 5), (2, 3)] and p3.bye == 1
    text = "\n".join(p3.explanation)
    assert "1 floats on" in text and "4–5" in text
    assert "4 floats down" in text  # the only player of the 4-point group
    assert "board 1: 4 opens against 5 (rule 1" in text  # 4 opened once, 5 once and a bye (1.5)


def test_rule_1_withdrawn_player_is_not_paired() -> None:
    """Hard rule 4: a withdrawn player is not paired; the even count left needs no bye."""
    t = event(5)
    apply_pairing(t, pair_round(t))
    set_result(t, 1, 1, 2, "1")
    set_result(t, 1, 3, 4, "0")
    t.entrants[2].withdrawn_after = 1  # player 3
    p2 = pair_round(t, explain=True)
    assert boards(p2) == [(4, 1), (2, 5)] and p2.bye is None
    assert any("3 is not paired: withdrawn" in line for line in p2.explanation)


def test_rule_1_absent_player_prefilled_z_is_not_paired_and_is_no_bye() -> None:
    """Hard rule 4 / finer points: '0000 - Z' for the round: not paired, no bye used."""
    t = event(6)
    apply_pairing(t, pair_round(t))
    for a in (1, 3, 5):
        set_result(t, 1, a, a + 1, "1")
    absent(t, 2, 6)
    p = pair_round(t)
    assert p.round == 2
    assert 6 not in {x for b in boards(p) for x in b}
    assert p.bye is not None and p.bye != 6
    apply_pairing(t, p)
    assert t.entrants[5].rounds[1].result == "Z"
    assert player_states(t, 3)[6].had_bye is False


def blocked_low_group():
    """Six players after three rounds: {1,2,3,4} on 4 points, {5,6} on 1 point and 5–6 have met."""
    t = event(6)
    played(t, 1, 1, 5, "1")
    played(t, 1, 2, 6, "1")
    played(t, 1, 3, 4, "=")
    played(t, 2, 3, 5, "1")
    played(t, 2, 4, 6, "1")
    played(t, 2, 1, 2, "=")
    played(t, 3, 1, 3, "=")
    played(t, 3, 2, 4, "=")
    played(t, 3, 5, 6, "=")
    return t


def test_rule_2_lookahead_changes_the_pairing_of_the_group_above() -> None:
    """法则二 backtracking: {5,6} cannot pair, so the 4-point group must send two players down.

    Pairing the top group alone would give 1–4, 2–3 and leave 5–6 (met).
    As few as possible float: two. Float order (most ups, fewest downs,
    larger number): 2, 1, 4, 3; {2,1} and {2,4} leave a pair that has met,
    {2,3} works: 1–4 inside; 2 takes 5 and 3 takes 6.
    """
    t = blocked_low_group()
    p = pair_round(t, explain=True)
    assert p.round == 4
    assert boards(p) == [(4, 1), (5, 2), (6, 3)]
    assert p.bye is None
    text = "\n".join(p.explanation)
    assert "2 floats down" in text and "3 floats down" in text
    assert "passed over 1, 4" in text
    st = player_states(t, 4)
    ref = reference_pairing(4, [1, 2, 3, 4, 5, 6], st)
    assert ref == ([(1, 4), (2, 5), (3, 6)], None)


def test_rule_1_no_complete_pairing_raises_with_the_reason() -> None:
    """The spec's odd-cycle case: after 3 rounds of 6 the "not met" graph is two triangles."""
    t = event(6)
    played_rounds(t, [[(1, 4), (2, 5), (3, 6)], [(1, 5), (2, 6), (3, 4)], [(1, 6), (2, 4), (3, 5)]], "=")
    with pytest.raises(PairingError, match="round 4 cannot be paired"):
        pair_round(t)


def test_everybody_met_everybody_names_the_player() -> None:
    t = event(4)
    played_rounds(t, [[(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 4), (2, 3)]], "1")
    with pytest.raises(PairingError, match="has already met every other player present"):
        pair_round(t)


def test_missing_result_of_an_earlier_round_is_an_error() -> None:
    t = event(4)
    apply_pairing(t, pair_round(t))
    with pytest.raises(PairingError, match="no result"):
        pair_round(t, 2)


def test_game_entered_by_hand_is_kept() -> None:
    t = event(6)
    played(t, 1, 5, 1, " ")
    p = pair_round(t, 1)
    assert boards(p)[0] == (5, 1)
    assert {x for b in boards(p)[1:] for x in b} == {2, 3, 4, 6}


def test_rule_1_forfeit_counts_as_a_meeting() -> None:
    """Finer points: a game won by forfeit is a meeting: no re-pairing."""
    t = event(2)
    played(t, 1, 1, 2, "+")
    with pytest.raises(PairingError):
        pair_round(t)


def test_apply_pairing_writes_open_games_and_the_bye() -> None:
    t = event(3)
    p = pair_round(t)
    apply_pairing(t, p)
    c1, c2, c3 = (e.rounds[0] for e in t.entrants)
    assert (c1.opponent, c1.colour, c1.result) == (2, "b", " ")
    assert (c2.opponent, c2.colour, c2.result) == (1, "w", " ")
    assert (c3.opponent, c3.colour, c3.result) == (None, "-", "U")


def test_rule_1_second_bye_never_given() -> None:
    """Hard rule 3: in round 2 of three players the bye goes to someone who has not had it."""
    t = event(3)
    apply_pairing(t, pair_round(t))
    set_result(t, 1, 1, 2, "1")
    p = pair_round(t)
    assert p.bye != 3 and Board(3, p.bye) not in p.boards
    assert p.bye == 2  # 1 and 3 on 2 points pair; 2 gets the bye


def test_prefilled_bye_entered_by_arbiter_is_respected() -> None:
    t = event(5)
    bye(t, 1, 2)
    p = pair_round(t)
    assert p.bye == 2
    assert boards(p) == [(1, 3), (4, 5)]


def test_rule_3_who_pairs_up_most_downs_first() -> None:
    """法则三, 轮高: 4 floats into {1, 2}; 2 was paired down once, so 2 pairs up although round 3 is odd.

    R1: 1 absent, 2–5 granted full-point byes. R2: 1 (0) beats 2 (2): 1 up, 2 down; 3–4 drawn; 5 F.
    Round 3: 5 (4 pts) floats to {3, 4} (3 pts) and takes 3 (tie, odd round: smaller); 4 floats to
    {1, 2} (2 pts) and takes 2 (most downs); 1 is left and has the bye.
    """
    t = event(5)
    absent(t, 1, 1)
    for n in (2, 3, 4, 5):
        absent(t, 1, n, "F")
    played(t, 2, 1, 2, "1")
    played(t, 2, 3, 4, "=")
    absent(t, 2, 5, "F")
    st = player_states(t, 3)
    assert (st[1].ups, st[2].downs) == (1, 1)
    p = pair_round(t)
    assert [frozenset(b) for b in boards(p)] == [frozenset({5, 3}), frozenset({4, 2})]
    assert p.bye == 1


def test_rule_3_who_floats_most_ups_then_fewest_downs() -> None:
    """法则三, 轮低: the order of the floating candidates (most ups, fewest downs, larger number)."""
    from qiyuan.tournament.state import PlayerState
    from qiyuan.tournament.swiss import _Procedure

    def s(n: int, ups: int, downs: int) -> PlayerState:
        return PlayerState(n, Decimal(2), set(), False, ups, downs, ())

    states = {1: s(1, 1, 0), 2: s(2, 0, 1), 3: s(3, 0, 0), 4: s(4, 1, 1), 5: s(5, 0, 0)}
    proc = _Procedure(3, list(states), states, explain=False)
    assert sorted(states, key=proc.floats_key) == [1, 4, 5, 3, 2]
    # who pairs up: most downs, fewest ups, then smaller (odd round) / larger (even round) number
    assert sorted(states, key=proc.pairs_up_key) == [2, 4, 3, 5, 1]
    even = _Procedure(4, list(states), states, explain=False)
    assert sorted(states, key=even.pairs_up_key) == [2, 4, 5, 3, 1]
