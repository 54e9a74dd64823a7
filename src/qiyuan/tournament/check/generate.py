"""Random finished events (随机赛事生成) for the checker's property tests and for anyone testing a pairing program:
players (associations, clubs, families, categories by birth year), rounds played by the engine itself, random
results with draws and forfeits, withdrawals, absences (excused 0, half or full), late entries and the
keep-apart rule — seeded: the same seed gives the same event.  Pure: a ``Tournament`` out; the command line
writes it as an event file.

What each system's event looks like is the system's own plan (``plan`` of its module in
:mod:`qiyuan.tournament.systems`); this module plays it.  Every event is run through the arbiter's own functions (:mod:`qiyuan.tournament.eventfile`), so what they refuse
never happens here; the final ranks are written into the file as its standings.
"""

from __future__ import annotations

import random
from datetime import date

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import categories as cat
from qiyuan.tournament import keepapart
from qiyuan.tournament.knockout import pending_tiebreak
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.model import Entrant, Tournament
from qiyuan.tournament.standings import final_places
from qiyuan.tournament.state import rounds_paired
from qiyuan.tournament.systems import SYSTEMS, GeneratePlan, names, system_named
from qiyuan.tournament.teams import join_team

__all__ = ["GENERATED", "generate_event"]

#: the formats the generator makes: every registered pairing system
GENERATED = names()
#: grades the generator gives Go players
_GO_GRADES = ("20k", "15k", "10k", "8k", "5k", "3k", "2k", "1k", "1d", "2d", "3d", "5d")

#: prize categories a generated event may have (women, age groups, rating bands)
_CATEGORIES = ("women", "U12", "U18", "rating -1799", "rating 1800-2199", "rating 2200-")

_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂"


def _entrant(rng: random.Random, i: int, go_event: bool = False) -> Entrant:
    name = rng.choice(_SURNAMES) + rng.choice(_GIVEN) + rng.choice(_GIVEN) + str(i)
    return Entrant(number=0, name=name, sex=rng.choice("mw"), rating=rng.randint(1000, 2600),
                   title=rng.choice(_GO_GRADES) if go_event else "",
                   federation=rng.choice(("BJ", "SH", "GD", "ZJ", "JS")), club=rng.choice(("", "Club A", "Club B",
                                                                                           "Club C")),
                   family=rng.choice(("",) * 8 + (f"F{i % 3}",)), birth=f"{rng.randint(1960, 2016)}/01/01")


def _results(t: Tournament, rnd: int, rng: random.Random, boards: list[tuple[int, int]], decisive: bool) -> None:
    items = []
    for a, _b in boards:
        x = rng.random()
        if x < 0.03:
            text = rng.choice(("+-", "-+"))
        elif x < 0.13 and not decisive:
            text = "1-1"
        else:
            text = rng.choice(("1-0", "0-1"))
        items.append((a, text))
    if items:
        ev.enter_results(t, rnd, items)


def generate_event(fmt: str, seed: int, *, players: int | None = None, rounds: int | None = None) -> Tournament:
    """A finished event of the registered system ``fmt`` from ``seed``: ``players`` (default 8..40; a match 2)
    and ``rounds`` (a Swiss, a match or a Go event; default 5..11, fewer when the field is small), as the system's
    plan has it.  Go players get grades (20k…5d) and decisive results."""
    if fmt not in SYSTEMS:
        raise EventError([ev.problem("the generator makes {choices}, not {format!r}", choices=", ".join(SYSTEMS),
                                     format=fmt)])
    rng = random.Random(seed)
    plan = system_named(fmt).plan(rng, players, rounds)
    t = ev.new_event(f"Generated {fmt} {seed}", fmt=fmt, rounds=plan.rounds, start=date(2026, 5, 1),
                     end=date(2026, 5, 3), city="Hangzhou", chief_arbiter="Generator", boards=plan.boards,
                     tiebreak_time_control=plan.mini_matches)
    ev.add_players(t, [(i, _entrant(rng, i, plan.grades)) for i in range(1, plan.players + 1)])
    if plan.boards:
        for e in t.entrants:
            join_team(t, f"Team {(e.number - 1) // plan.boards + 1}", e.number)
    ev.draw_numbers(t, seed=rng.randrange(10**6))
    if plan.keep_apart and rng.random() < 0.4:
        keepapart.set_rule(t, rng.choice(("club", "family", "association")), rng.randint(1, 3))
    if plan.categories and rng.random() < 0.4:
        cat.set_categories(t, rng.sample(_CATEGORIES, rng.randint(1, 3)))
    for rnd in range(1, 100):
        if t.rounds_planned and rnd > t.rounds_planned:
            break
        if plan.changes and rnd > 1:
            _changes(t, rng, rnd, plan)
        if plan.mini_matches and pending_tiebreak(t)[1]:  # a tie-break game: its openers drawn by lot first
            ev.draw_tiebreak_lot(t, seed=rng.randrange(10**6))
        try:
            pairing = ev.pair_next(t)
        except EventError:
            break  # the event is complete (or cannot go on: it ends here)
        _results(t, rnd, rng, pairing.boards, decisive=plan.decisive)
    if plan.changes and rounds_paired(t) < (t.rounds_planned or 0):
        t.rounds_planned = rounds_paired(t)
    ev.finish(t)
    places = final_places(t)
    for e in t.entrants:
        e.rank = places.get(e.number)
    return t


def _changes(t: Tournament, rng: random.Random, rnd: int, plan: GeneratePlan) -> None:
    """Between two rounds of a Swiss event: a withdrawal, an excuse, a late entry, now and then."""
    active = [e.number for e in t.entrants if ev.is_active(e, rnd) and e.withdrawn_after is None]
    if len(active) > 6 and rng.random() < 0.2:
        ev.withdraw(t, rng.choice(active), rnd - 1)
    if len(active) > 6 and rng.random() < 0.2:
        n = rng.choice(active)
        if ev.is_active(t.entrants[n - 1], rnd):
            ev.excuse(t, n, rnd, rng.choice("ZHF"))
    if t.rounds_planned and rnd < t.rounds_planned and rng.random() < 0.15:
        ev.add_player(t, _entrant(rng, len(t.entrants) + 1, plan.grades))
