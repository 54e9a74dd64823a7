"""Small builders for rating tests: players, events, games, and one-call histories."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from qiyuan.rating.history import History, compute_history
from qiyuan.rating.model import Event, EventFormat, Game, Gender, Player, Result, RESULT_ALIASES, Standing
from qiyuan.rating.rules import BUILTIN_RULES, RuleSet

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
EXAMPLES = json.loads((SHARED / "spec" / "examples.json").read_text(encoding="utf-8"))

CGA = BUILTIN_RULES["cga-gomoku-2011"]
BJSH = BUILTIN_RULES["bjsh-gomoku-2007"]
GO = BUILTIN_RULES["cn-go-1995"]


def player(pid: str, rating: int | str | None = None, games: int = 100, gender: str = "M", **kw) -> Player:
    return Player(id=pid, name=f"棋手{pid}", gender=Gender(gender) if gender else None,
                  rating=Decimal(rating) if rating is not None else None,
                  games=games if rating is not None else 0, **kw)


def event(eid: str, start: date, days: int = 3, fmt: str = "swiss", **kw) -> Event:
    return Event(id=eid, name=f"赛事{eid}", start_date=start, end_date=start + timedelta(days=days - 1),
                 format=EventFormat(fmt), **kw)


def game(eid: str, rnd: int, a: str, b: str, result: str) -> Game:
    return Game(event_id=eid, round=rnd, player1=a, player2=b, result=RESULT_ALIASES[result])


def round_robin(eid: str, results: list[tuple[str, str, str]]) -> list[Game]:
    """Games of a round robin from (player1, player2, result) rows, one round each."""
    return [game(eid, i + 1, a, b, r) for i, (a, b, r) in enumerate(results)]


def core(c):
    """The numbers of a change both engines give (the reference adds its calculation lines and notes)."""
    return (c.player_id, c.event_id, c.list_date, c.games, c.W, c.We, c.K, c.delta, c.method, c.Rc, c.N, c.Pd, c.D,
            c.ru, c.Ro, c.raw_delta)


def assert_same_history(fast: History, reference: History) -> None:
    """Equal, and written alike (the office stores the states' decimals as text: 2320 and 2320.00 differ)."""
    assert [core(c) for c in fast.changes] == [core(c) for c in reference.changes]
    assert fast.lists == reference.lists
    assert [repr(e) for lst in fast.lists for e in lst.entries] == \
        [repr(e) for lst in reference.lists for e in lst.entries]
    assert fast.final_states == reference.final_states
    assert {p: repr(s) for p, s in fast.final_states.items()} == {p: repr(s) for p, s in reference.final_states.items()}


def rate(rules: RuleSet, players, events, games, standings=(), **kw) -> History:
    """The reference engine's history (every player explained), checked against the fast engine's."""
    reference = compute_history(rules, players, events, games, standings, engine="reference", explain=True, **kw)
    assert_same_history(compute_history(rules, players, events, games, standings, engine="fast", **kw), reference)
    return reference


def change(history: History, pid: str, eid: str):
    found = [c for c in history.changes if c.player_id == pid and c.event_id == eid]
    assert len(found) == 1, found
    return found[0]


def entry(history: History, pid: str, index: int = -1):
    return history.lists[index].by_player()[pid]


def standing(eid: str, pid: str, rank: int) -> Standing:
    return Standing(event_id=eid, player_id=pid, rank=rank)


__all__ = ["CGA", "BJSH", "GO", "EXAMPLES", "player", "event", "game", "round_robin", "rate", "change", "entry",
           "standing", "Result", "Decimal", "date", "core", "assert_same_history"]
