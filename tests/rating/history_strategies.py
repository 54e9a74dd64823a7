"""Hypothesis strategies: small random rating histories (players, events, games, standings)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from hypothesis import strategies as st

from qiyuan.rating.model import Event, EventFormat, Game, Gender, Player, Result, Standing
from qiyuan.rating.rules import BUILTIN_RULES

RESULTS = [Result.WIN, Result.LOSS, Result.DRAW, Result.WIN, Result.LOSS, Result.DRAW, Result.FORFEIT_WIN,
           Result.NOT_PLAYED]
FORMATS = list(EventFormat)
DANS = [None, None, "1d", "5d", "9d", "1k", "5k"]


@st.composite
def players(draw, n: int, all_rated: bool = False) -> list[Player]:
    out = []
    for i in range(n):
        rated = all_rated or draw(st.booleans())
        out.append(Player(
            id=f"P{i:02d}", name=f"棋手{i}",
            gender=draw(st.sampled_from([Gender.MALE, Gender.FEMALE])),
            dan=None if all_rated else draw(st.sampled_from(DANS)),
            rating=Decimal(draw(st.integers(1500, 2700))) if rated else None,
            games=draw(st.integers(0, 60)) if rated else 0,
            k_latched=draw(st.booleans()) if rated else False,
        ))
    return out


@st.composite
def histories(draw, all_rated: bool = False, max_players: int = 9, max_events: int = 4):
    """(rules, players, events, games, standings)."""
    rules = BUILTIN_RULES[draw(st.sampled_from(sorted(BUILTIN_RULES)))]
    people = draw(players(draw(st.integers(3, max_players)), all_rated=all_rated))
    ids = [p.id for p in people]
    events, games, standings = [], [], []
    for e in range(draw(st.integers(1, max_events))):
        start = date(2011, 1, 1) + timedelta(days=draw(st.integers(0, 700)))
        days = draw(st.integers(1, 25))
        fmt = draw(st.sampled_from(FORMATS))
        eid = f"E{e}"
        events.append(Event(eid, f"赛事{e}", start, start + timedelta(days=days - 1), fmt,
                            international=draw(st.booleans())))
        field = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=len(ids), unique=True))
        pairs = [(a, b) for i, a in enumerate(field) for b in field[i + 1:]]
        chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=min(len(pairs), 14), unique=True))
        for rnd, (a, b) in enumerate(chosen, start=1):
            games.append(Game(eid, rnd, a, b, draw(st.sampled_from(RESULTS))))
        if draw(st.booleans()):
            standings.append(Standing(eid, draw(st.sampled_from(field)), 1))
    return rules, people, events, games, standings
