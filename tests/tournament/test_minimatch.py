"""Knock-out mini-matches, as a property: whatever the results, every match is two games with the openers
alternating, a tie-break game only at 1:1 (its opener the lot's), and the bracket ends with one winner."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import minimatch as mm
from qiyuan.tournament.knockout import knockout_places, knockout_rounds, pending_tiebreak
from qiyuan.tournament.model import Entrant


def event(n: int):
    t = ev.new_event("淘汰赛", fmt="knockout", tiebreak_time_control="10 min")
    for i in range(n):
        ev.add_player(t, Entrant(0, f"P{i + 1}", rating=2000 - i))
    return t


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 9), data=st.data())
def test_every_match_is_two_games_then_a_tie_break_only_at_one_all(n, data):
    t = event(n)
    seeds = []
    for _ in range(40):
        rnd, tied = pending_tiebreak(t)
        if tied:
            seed = data.draw(st.integers(0, 10**6))
            seeds.append(seed)
            ev.draw_tiebreak_lot(t, seed=seed)
        try:
            p = ev.pair_next(t)
        except ev.EventError:
            break
        slot = mm.slot_of(t, p.number)
        if slot.game == "2":  # the lower place opens the second game of each match
            first = {frozenset(b): b for b in ev.round_boards(t, p.number - 1)[0]}
            assert all(first[frozenset(b)] == (b[1], b[0]) for b in p.boards)
        if slot.game == mm.TIEBREAK:
            assert sorted(map(frozenset, p.boards)) == sorted(map(frozenset, tied))
            assert p.boards == mm.tiebreak_openers(mm.Lot(p.number, seed=seeds[-1]), tied)
        choices = ["1-0", "0-1"] if slot.game == mm.TIEBREAK else ["1-0", "0-1", "½-½"]
        ev.enter_results(t, p.number, [(a, data.draw(st.sampled_from(choices))) for a, _ in p.boards])
    rounds = knockout_rounds(t)
    final = rounds[-1]
    assert len(final) == 1 and final[0].winner is not None
    assert sorted(knockout_places(t).values()).count(1) == 1
    for matches in rounds:
        for m in matches:
            if m.is_bye:
                continue
            s = m.score
            assert s.games == 2 and (s.tiebreak is not None) == (s.upper == s.lower)
