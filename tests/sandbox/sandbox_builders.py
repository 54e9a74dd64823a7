"""Tiny hand-made histories for the rule sandbox's tests."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

from qiyuan.rating.model import RESULT_ALIASES, Event, EventFormat, Game, Gender, Player

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench"
TSV = REPO.parent / "shared" / "data" / "renju-cn-games.tsv"


def player(pid: str, rating: int | None = None, gender: str = "M", games: int = 30) -> Player:
    return Player(id=pid, name=f"棋手{pid}", gender=Gender(gender),
                  rating=Decimal(rating) if rating is not None else None, games=games if rating is not None else 0)


def event(eid: str, start: date, end: date | None = None, fmt: str = "swiss") -> Event:
    return Event(id=eid, name=f"赛事{eid}", start_date=start, end_date=end or start, format=EventFormat(fmt))


def game(eid: str, rnd: int, a: str, b: str, result: str) -> Game:
    return Game(event_id=eid, round=rnd, player1=a, player2=b, result=RESULT_ALIASES[result])


def write_files(tmp: Path, players: str, events: str, games: str) -> dict[str, Path]:
    out = {}
    for name, text in (("players", players), ("events", events), ("games", games)):
        path = tmp / f"{name}.csv"
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


def fixed_prior(men: float = 1800.0, women: float = 1400.0, sd: float = 350.0, centre: float = 2000.0):
    """A prior given by hand (CGA's entry ratings by default), for tests of one system at a time."""
    from qiyuan.sandbox.prior import Prior

    return Prior({"M": men, "F": women}, sd, centre, {"M": 0, "F": 0}, 0)


def starts(players, men: float = 1800.0, women: float = 1400.0):
    """The baselines' starts (rating, held) under ``fixed_prior``."""
    return fixed_prior(men, women).starts(players)


def real_files(tmp_path_factory) -> dict[str, Path]:
    """The real Chinese history as the history CSV files (the test is skipped where the data is not here)."""
    import sys

    import pytest

    if not TSV.exists():
        pytest.skip("../shared/data/renju-cn-games.tsv is not here")
    sys.path.insert(0, str(BENCH))
    from real_history import write_real_history

    return write_real_history(tmp_path_factory.mktemp("real"))
