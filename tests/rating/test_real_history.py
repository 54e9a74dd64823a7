"""The reference engine on a real history: 59 Chinese national Renju/Gomoku events 2009–2019.

The games come from ../shared/data/renju-cn-games.tsv. The file has no
ratings, so the players of the first events are given starting ratings (as if
from an earlier list). The tests check what must hold on any real history.
"""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal
from itertools import combinations

import pytest
from rating_builders import SHARED

from qiyuan.rating.exact import round_half_up
from qiyuan.rating.history import compute_history
from qiyuan.rating.model import Event, EventFormat, Game, Gender, Player, Result
from qiyuan.rating.rules import BUILTIN_RULES

TSV = SHARED / "data" / "renju-cn-games.tsv"
RESULT = {"B": Result.WIN, "W": Result.LOSS, "D": Result.DRAW}  # player1 = black
EXTRA_ROUNDS = {"R": 90, "T": 91, "F1": 92, "F2": 93, "F3": 94}  # play-offs and finals, pooled (Art. 5(十))


def load_real_history():
    events: dict[str, Event] = {}
    games: list[Game] = []
    women: set[str] = set()
    for line in TSV.read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if cells[0] == "tournament":
            tid, name, start, end = cells[1], cells[2], cells[5], cells[6]
            events[tid] = Event(tid, name, date.fromisoformat(start), date.fromisoformat(end), EventFormat.SWISS)
        elif cells[0] == "game":
            _, _, tid, rnd, _, black, white, result = cells
            games.append(Game(tid, int(rnd) if rnd.isdigit() else EXTRA_ROUNDS[rnd], f"R{black}", f"R{white}", RESULT[result]))
            if "Women" in events[tid].name:
                women.update((f"R{black}", f"R{white}"))
    # A round robin is an event where every pair of its players met once.
    for tid, event in events.items():
        own = [g for g in games if g.event_id == tid]
        field = {p for g in own for p in (g.player1, g.player2)}
        pairs = {frozenset((g.player1, g.player2)) for g in own}
        if len(own) == len(pairs) == len(list(combinations(field, 2))):
            events[tid] = Event(tid, event.name, event.start_date, event.end_date, EventFormat.ROUND_ROBIN)
    ordered = sorted(events.values(), key=lambda e: (e.end_date, e.id))
    first = {p for g in games if g.event_id in {e.id for e in ordered[:6]} for p in (g.player1, g.player2)}
    ids = sorted({p for g in games for p in (g.player1, g.player2)})
    rng = random.Random(2011)
    players = [Player(id=p, name=p, gender=Gender.FEMALE if p in women else Gender.MALE,
                      rating=Decimal(rng.randrange(1700, 2300)) if p in first else None,
                      games=rng.randrange(0, 60) if p in first else 0)
               for p in ids]
    return players, ordered[6:], [g for g in games if g.event_id not in {e.id for e in ordered[:6]}]


@pytest.fixture(scope="module")
def real():
    if not TSV.exists():
        pytest.skip("../shared/data/renju-cn-games.tsv is not here")
    return load_real_history()


@pytest.mark.parametrize("name", ["cga-gomoku-2011", "bjsh-gomoku-2007"])
def test_real_history_lists_are_complete_and_consistent(real, name):
    players, events, games = real
    rules = BUILTIN_RULES[name]
    h = compute_history(rules, players, events, games)
    assert len(h.lists) > 10
    ids = {p.id for p in players}
    for lst in h.lists:
        assert {e.player_id for e in lst.entries} == ids
        for e in lst.entries:
            assert e.rating == (round_half_up(e.exact) if e.exact is not None else None)
            assert (e.rating is None) == (e.status in ("unrated", "removed"))
    rated_once = {e.player_id for lst in h.lists for e in lst.entries if e.rating is not None}
    first_ratings = [p for p in players if p.rating is None and p.id in rated_once]
    assert first_ratings, "newcomers meeting rated players get first ratings"
    statuses = {e.status for lst in h.lists for e in lst.entries}
    assert {"active", "unrated", "inactive"} <= statuses


def test_real_history_does_not_depend_on_row_order(real):
    players, events, games = real
    rules = BUILTIN_RULES["cga-gomoku-2011"]
    h1 = compute_history(rules, players, events, games)
    rng = random.Random(7)
    shuffled = [list(x) for x in (players, events, games)]
    for x in shuffled:
        rng.shuffle(x)
    h2 = compute_history(rules, *shuffled)
    assert h1.lists == h2.lists


@pytest.mark.parametrize("name", sorted(BUILTIN_RULES))
def test_real_history_both_engines_agree_and_list_by_list_equals_the_whole(real, name):
    """The engines agree on the real history, and computing it list by list from the states stored after
    each list (the office's way) gives the whole history's lists, changes and states, written alike."""
    from rating_builders import assert_same_history, core

    from qiyuan.rating.history import StartState

    players, events, games = real
    rules = BUILTIN_RULES[name]
    reference = compute_history(rules, players, events, games, engine="reference")
    fast = compute_history(rules, players, events, games, engine="fast")
    assert_same_history(fast, reference)
    lists, changes, start = [], [], None
    for until in fast.list_dates:
        part = compute_history(rules, players, events, games, start=start, until=until)
        lists += part.lists
        changes += [core(c) for c in part.changes]
        start = StartState(until, part.final_states)
    assert [repr(e) for lst in lists for e in lst.entries] == [repr(e) for lst in fast.lists for e in lst.entries]
    assert changes == [core(c) for c in fast.changes]
    assert {p: repr(s) for p, s in start.states.items()} == {p: repr(s) for p, s in fast.final_states.items()}
