"""Render the sheets of issue 22 to PNG (docs/img/): the entry list, a round robin's schedule, a
knock-out's bracket, and a 9-round championship's standings and crosstable with a two-way tie
for first decided by lot.

* docs/img/entry-list.png          — ``qiyuan event print … entries`` (参赛名单)
* docs/img/round-robin-schedule.png — ``… schedule`` of a 10-player round robin (赛程表, page 1)
* docs/img/knockout-bracket.png    — ``… bracket`` of a 12-player knock-out after round 2 (对阵图)
* docs/img/knockout-minimatch-bracket.png — ``… bracket`` of an 8-player knock-out of mini-matches (scores, lot)
* docs/img/standings-tie-lot.png   — ``… standings`` of the 9-round championship: places 1-2 by lot
* docs/img/crosstable-tie-lot.png  — ``… crosstable`` of the same event (the note under it)

    .venv/bin/python scripts/render_arbiter_sheets.py
"""

from __future__ import annotations

import random
import tempfile
from datetime import date
from pathlib import Path

from qiyuan.formats import hall_pdf
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import ties
from qiyuan.tournament.knockout import pending_tiebreak
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.standings import undecided_places

from render_docs_img import ASSOCIATIONS, GIVEN, SURNAMES, png  # noqa: E402 (the sibling script)

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"


def names(n: int, seed: int) -> list[tuple[str, str, int, str]]:
    rng = random.Random(seed)
    return [(rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN), rng.choice("mw"), 1700 + rng.randrange(800),
             rng.choice(ASSOCIATIONS)) for _ in range(n)]


def field(fmt: str, n: int, seed: int, **kw) -> ev.Tournament:
    t = ev.new_event({"round_robin": "2026年全国五子棋锦标赛", "knockout": "2026年五子棋淘汰赛"}.get(fmt, "2026年五子棋公开赛"),
                     fmt=fmt, start=date(2026, 5, 1), end=date(2026, 5, 5), city="北京", chief_arbiter="王裁判", **kw)
    for name, sex, rating, assoc in names(n, seed):
        ev.add_player(t, Entrant(0, name, sex=sex, rating=rating, federation=assoc, title=f"{rating // 400 - 2}d"))
    return t


def championship() -> ev.Tournament:
    """10 players, round robin, 9 rounds: 1 and 2 draw each other and beat all others, whose games
    are drawn: tied on score and every tie-break; then a lot with a recorded seed."""
    t = field("round_robin", 10, 9)
    for rnd in range(1, 10):
        p = ev.pair_next(t)
        items = []
        for a, b in p.boards:
            if {a, b} == {1, 2}:
                items.append((a, "½-½"))
            elif a in (1, 2) or b in (1, 2):
                items.append((a if a in (1, 2) else b, "1-0"))
            else:
                items.append((a, "½-½"))
        ev.enter_results(t, rnd, items)
    ties.decide(t, undecided_places(t), [1, 2], "lot", seed=20260505)
    return t


def mini_matches() -> ev.Tournament:
    """8 players, mini-matches: the quarter-finals' two games (some 1:1), their tie-break by a lot with a seed,
    then the semi-finals' two games."""
    t = field("knockout", 8, 8, tiebreak_time_control="10 min + 5 s")
    rng = random.Random(8)
    for _ in range(2):
        p = ev.pair_next(t)
        ev.enter_results(t, p.number, [(a, rng.choice(["1-0", "0-1", "½-½"])) for a, _ in p.boards])
    if pending_tiebreak(t)[1]:
        ev.draw_tiebreak_lot(t, seed=20260503)
        p = ev.pair_next(t)
        ev.enter_results(t, p.number, [(a, rng.choice(["1-0", "0-1"])) for a, _ in p.boards])
    for _ in range(2):
        p = ev.pair_next(t)
        ev.enter_results(t, p.number, [(a, "1-0") for a, _ in p.boards])
    return t


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        sheets = []
        entries = field("swiss", 24, 3, rounds=9)
        ev.draw_numbers(entries, seed=20260501)
        sheets.append((entries, "entries", "entry-list"))
        sheets.append((field("round_robin", 10, 9), "schedule", "round-robin-schedule"))
        ko = field("knockout", 12, 12)
        rng = random.Random(5)
        for rnd in (1, 2):
            p = ev.pair_next(ko)
            ev.enter_results(ko, rnd, [(a, rng.choice(["1-0", "0-1"])) for a, _ in p.boards])
        sheets.append((ko, "bracket", "knockout-bracket"))
        sheets.append((mini_matches(), "bracket", "knockout-minimatch-bracket"))
        champ = championship()
        sheets += [(champ, "standings", "standings-tie-lot"), (champ, "crosstable", "crosstable-tie-lot")]
        for t, what, stem in sheets:
            pdf = d / f"{stem}.pdf"
            pdf.write_bytes(hall_pdf.document(t, what))
            png(pdf, OUT / f"{stem}.png")
            print(OUT / f"{stem}.png")


if __name__ == "__main__":
    main()
