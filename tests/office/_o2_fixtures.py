"""Helpers of the office data tests (imports, periods, editions, exports): a small seeded federation."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

from qiyuan.office.demo import _history, _P

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def small_players(seed: int = 7, n: int = 40, rated: int = 20, go: bool = False) -> list[_P]:
    rng = random.Random(seed)
    out = []
    for i in range(1, n + 1):
        gender = "F" if i % 4 == 0 else "M"
        strength = rng.gauss(2300 if go else 1900, 150)
        dan = f"{max(1, min(9, int((strength - 2200) / 40)))}d" if go else ""
        p = _P(f"T{i:05d}", f"棋手{chr(0x4E00 + i * 37)}{chr(0x4E00 + i * 53)}", gender, strength, "BJ", "",
               date(2000, 1, 1), dan)
        if not go and i <= rated:
            p.rating, p.games = int(strength), 40
        out.append(p)
    return out


def history_dir(tmp_path: Path, *, seed: int = 7, first=date(2019, 1, 1), last=date(2020, 12, 1), per_year: int = 6,
                go: bool = False, prefix: str = "H") -> Path:
    rng = random.Random(seed)
    return _history(rng, tmp_path / f"hist{seed}{prefix}", small_players(seed, go=go), first, last, prefix, per_year,
                    go=go)


def make_list(code: str = "CGA", rules: str = "cga-gomoku-2011", game: str = "gomoku"):
    from qiyuan.office.ratings.models import RatingList

    return RatingList.objects.get_or_create(code=code, defaults={"title": code, "rules_name": rules, "game": game})[0]


#: what the officer states about an event whose file does not say it (issue 18: never assumed), on the command line
FACTS = ["--format", "swiss", "--national", "--not-international", "--confirm-all"]


def stated(**kw):
    """Options stating the facts of a state-level national Swiss event (a TRF or OpenGotha file does not say),
    confirming the proposed new players (``--confirm-all``) unless told otherwise."""
    from qiyuan.office.imports import Options

    return Options(**{"organiser_level": "state", "national": True, "international": False, "format": "swiss",
                      "confirm_all": True, **kw})


def confirm_all(**kw):
    """Options confirming every proposed new player and single name match (``--confirm-all``)."""
    from qiyuan.office.imports import Options

    return Options(confirm_all=True, **kw)
