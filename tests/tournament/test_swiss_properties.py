"""Properties of the Gomoku Swiss pairing on random events (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from swiss_reference import has_complete_pairing, reference_pairing
from tournament_checks import naive_opener, tutte_perfect
from tournament_sim import absent, enter_results, event

from qiyuan.tournament import swiss
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.state import player_states


def independent_feasible(pool: list[int], states: dict) -> bool:
    met = {n: states[n].opponents for n in pool}
    had_bye = {n: states[n].had_bye for n in pool}
    if len(pool) <= 14:
        return has_complete_pairing(pool, met, had_bye)
    return tutte_perfect(pool, met, had_bye)


def check_round(t: Tournament, r: int, p: swiss.Pairing, pool: list[int], states: dict) -> None:
    seen: list[int] = []
    for b in p.boards:
        seen += [b.opener, b.other]
        assert b.other not in states[b.opener].opponents, f"hard rule 2: {b} met before"
        assert b.opener == naive_opener(states[b.opener], states[b.other], r), f"opener rules: {b}"
    if p.bye is not None:
        seen.append(p.bye)
        assert not states[p.bye].had_bye, "hard rule 3: second bye"
    assert sorted(seen) == sorted(pool), "hard rule 1: everybody present paired exactly once"
    assert (p.bye is not None) == (len(pool) % 2 == 1)


def run_event(n: int, rounds: int, seed: int, *, compare_reference: bool, absences: bool) -> None:
    rng = random.Random(seed)
    t = event(n)
    for r in range(1, rounds + 1):
        if absences and n > 3:
            for e in t.entrants:
                if e.withdrawn_after is not None:
                    continue
                x = rng.random()
                if x < 0.04:
                    e.withdrawn_after = r - 1
                elif x < 0.08:
                    absent(t, r, e.number, rng.choice("ZHF"))
        states = player_states(t, r)
        pool = [
            e.number
            for e in t.entrants
            if not (e.withdrawn_after is not None and e.withdrawn_after < r) and len(e.rounds) < r
        ]
        feasible = independent_feasible(pool, states)
        if not feasible:
            with pytest.raises(swiss.PairingError):
                swiss.pair_round(t, r)
            return
        p = swiss.pair_round(t, r)
        check_round(t, r, p, pool, states)
        if compare_reference and len(pool) <= 10:
            ref = reference_pairing(r, pool, states)
            assert ref is not None
            pairs, bye = ref
            got = [frozenset((b.opener, b.other)) for b in p.boards]
            assert got == [frozenset(x) for x in pairs], (r, p.boards, pairs)
            assert p.bye == bye
        swiss.apply_pairing(t, p)
        enter_results(t, r, rng, draw_rate=0.15)
        for e in t.entrants:  # pad players not paired (withdrawn) so the round counts
            while len(e.rounds) < r:
                absent(t, len(e.rounds) + 1, e.number)


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(n=st.integers(2, 10), seed=st.integers(0, 10**6), absences=st.booleans())
def test_small_events_follow_the_reference_procedure(n: int, seed: int, absences: bool) -> None:
    """Exactly the spec's procedure (exhaustive look-ahead and floater search) on small events."""
    run_event(n, n - 1, seed, compare_reference=True, absences=absences)


@SETTINGS
@given(n=st.integers(11, 40), seed=st.integers(0, 10**6), absences=st.booleans())
def test_medium_events_keep_the_hard_rules(n: int, seed: int, absences: bool) -> None:
    run_event(n, min(n - 1, 12), seed, compare_reference=False, absences=absences)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 12), seed=st.integers(0, 10**6), absences=st.booleans())
def test_small_events_follow_the_reference_procedure_sweep(n: int, seed: int, absences: bool) -> None:
    run_event(n, n - 1, seed, compare_reference=True, absences=absences)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 200), seed=st.integers(0, 10**6), absences=st.booleans())
def test_events_up_to_200_players_all_rounds(n: int, seed: int, absences: bool) -> None:
    run_event(n, n - 1, seed, compare_reference=False, absences=absences)


def exact_only(t: Tournament, r: int) -> list[tuple[int, int]] | None:
    """The look-ahead run alone, its witness started from nothing (no optimistic pass)."""
    states = player_states(t, r)
    pool, fixed, fixed_bye, _ = swiss._pool(t, r)
    proc = swiss._Procedure(r, pool, states, explain=False)
    try:
        proc.start_witness(pool, [], None)
    except swiss.PairingError:
        return None
    proc.run()
    assert not proc.failed
    return proc.pairs + ([(proc.bye, 0)] if proc.bye is not None else [])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(12, 120), seed=st.integers(0, 10**6))
def test_optimistic_pass_equals_the_lookahead_run(n: int, seed: int) -> None:
    """When the optimistic pass completes a round it is exactly what the look-ahead alone gives."""
    rng = random.Random(seed)
    t = event(n)
    for r in range(1, min(n - 1, 15) + 1):
        expected = exact_only(t, r)
        if expected is None:
            with pytest.raises(swiss.PairingError):
                swiss.pair_round(t, r)
            return
        p = swiss.pair_round(t, r)
        got = [tuple(sorted((b.opener, b.other))) for b in p.boards]
        want = [tuple(sorted(x)) for x in expected if x[1] != 0]
        assert got == want and p.bye == next((a for a, b in expected if b == 0), None)
        swiss.apply_pairing(t, p)
        enter_results(t, r, rng, draw_rate=0.15)
