"""Final ties decided (名次并列的决定): a play-off (加赛) or a lot (抽签) per tied group.

The Swiss text (瑞士制 五) lets players still equal after 辅分七 share the place; where a place
must be decided — a title, a prize, a dan placing — it is decided by a play-off or by lot.  The
arbiter records the decision for one tied group, and the final standings, the report, the
crosstable and everything that reads the places (dan proposals) order the group by it:

* ``playoff`` — the order the play-off gave, winner first (``XQU playoff 7 3``);
* ``lot`` as drawn in the hall — the order drawn (``XQU lot 7 3``);
* ``lot`` drawn by qiyuan — with a seed (``XQU lot seed 20260501 7 3``): the group's draw
  numbers in ascending order shuffled by ``random.Random(seed)``, so anyone can redo it.

A decision holds for the group it names: it is used only while exactly those players share a
place in the final standings (a result corrected afterwards that breaks the tie makes it idle,
and the printouts say so).  Pure functions over a ``Tournament``; the decision lines live in
the event file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from qiyuan.tournament.errors import EventError, EventInputError, problem, refuse
from qiyuan.tournament.model import Tournament

KINDS = ("playoff", "lot")


@dataclass(frozen=True, slots=True)
class Decision:
    """How one tied group's places were decided."""

    kind: str  # "playoff" or "lot"
    order: tuple[int, ...]  # draw numbers, best place first
    seed: int | None = None  # a lot drawn by qiyuan

    @property
    def group(self) -> frozenset[int]:
        return frozenset(self.order)

    def line(self) -> str:
        seed = f" seed {self.seed}" if self.seed is not None else ""
        return f"{self.kind}{seed} " + " ".join(map(str, self.order))

    def how_zh(self) -> str:
        """How the place was decided, as the printouts say it (Chinese sheets)."""
        if self.kind == "playoff":
            return "加赛决定"
        return f"抽签决定（随机种子 {self.seed}）" if self.seed is not None else "现场抽签决定"

    def how_en(self) -> str:
        if self.kind == "playoff":
            return "decided by play-off"
        return f"decided by lot (seed {self.seed})" if self.seed is not None else "decided by lot drawn in the hall"


def decisions(t: Tournament) -> list[Decision]:
    """The decisions recorded in the event file (``XQU`` lines; an unreadable one is skipped)."""
    out = []
    for line in t.extra.get("XQU", []):
        parts = line.split()
        if not parts or parts[0] not in KINDS:
            continue
        seed = None
        rest = parts[1:]
        if parts[0] == "lot" and rest[:1] == ["seed"] and len(rest) >= 2 and rest[1].isdigit():
            seed, rest = int(rest[1]), rest[2:]
        if len(rest) >= 2 and all(x.isdigit() for x in rest):
            out.append(Decision(parts[0], tuple(int(x) for x in rest), seed))
    return out


def lot_order(group: list[int], seed: int) -> tuple[int, ...]:
    """The order a lot drawn by qiyuan gives: the draw numbers ascending, shuffled by the seed."""
    order = sorted(group)
    random.Random(seed).shuffle(order)
    return tuple(order)


def tied_groups(places: dict[int, int]) -> list[list[int]]:
    """Groups of players sharing a place (two or more), best place first."""
    by_place: dict[int, list[int]] = {}
    for n, p in places.items():
        by_place.setdefault(p, []).append(n)
    return [sorted(g) for p, g in sorted(by_place.items()) if len(g) > 1]


def decide(t: Tournament, places: dict[int, int], players: list[int], kind: str, *,
           order: list[int] | None = None, seed: int | None = None) -> Decision:
    """Record how the tied group ``players`` is decided: ``playoff`` with the ``order`` the
    play-off gave, or ``lot`` with the ``order`` drawn in the hall or a ``seed`` (qiyuan draws).
    ``places``: the final places before any decision (the group must share one).  A decision
    recorded before for the same group is replaced.  Refused with every problem at once."""
    faults = []
    group = sorted(set(players))
    if kind not in KINDS:
        faults.append(problem("a tie is decided by playoff or lot, not {kind!r}", kind=kind))
    unknown = [n for n in group if n not in places]
    if unknown:
        faults.append(problem("no player {numbers}", numbers=", ".join(map(str, unknown))))
    if len(group) < 2 or len(group) != len(players):
        faults.append(problem("name each tied player once, at least two"))
    refuse(faults, EventInputError)
    shared = {places[n] for n in group}
    tied = [g for g in tied_groups(places) if set(group) <= set(g)]
    if len(shared) != 1 or not tied:
        raise EventError(problem("players {numbers} do not share a place (places {places}): nothing to decide",
                                 numbers=", ".join(map(str, group)),
                                 places=", ".join(str(places[n]) for n in group)))
    if set(tied[0]) != set(group):
        raise EventError(problem("place {place} is shared by {numbers}: decide the whole group at once",
                                 place=places[group[0]], numbers=", ".join(map(str, tied[0]))))
    if kind == "lot" and (order is None) == (seed is None):
        raise EventInputError(problem("a lot needs the order drawn in the hall or a seed for qiyuan to draw, "
                                      "one of them"))
    if kind == "playoff" and order is None:
        raise EventInputError(problem("a play-off needs the order it gave, winner first"))
    if order is not None and sorted(order) != group:
        raise EventInputError(problem("the order must list the tied players {numbers}, each once",
                                      numbers=", ".join(map(str, group))))
    made = Decision(kind, tuple(order) if order is not None else lot_order(group, seed), seed)
    kept = [d for d in decisions(t) if d.group != made.group]
    t.extra["XQU"] = [d.line() for d in [*kept, made]]
    return made


def undecide(t: Tournament, players: list[int]) -> None:
    """Remove the decision recorded for the group ``players``."""
    kept = [d for d in decisions(t) if d.group != frozenset(players)]
    if len(kept) == len(decisions(t)):
        raise EventError(problem("no decision is recorded for players {numbers}",
                                 numbers=", ".join(map(str, sorted(players)))))
    if kept:
        t.extra["XQU"] = [d.line() for d in kept]
    else:
        t.extra.pop("XQU", None)


def apply(t: Tournament, places: dict[int, int]) -> tuple[dict[int, int], dict[int, Decision]]:
    """The places with every recorded decision applied (a group sharing place p gets p, p+1, …
    in the decided order), and per player the decision that placed him."""
    out = dict(places)
    used: dict[int, Decision] = {}
    groups = {frozenset(g): g for g in tied_groups(places)}
    for d in decisions(t):
        if d.group in groups:
            first = places[d.order[0]]
            for k, n in enumerate(d.order):
                out[n] = first + k
                used[n] = d
    return out, used


def idle(t: Tournament, places: dict[int, int]) -> list[Decision]:
    """Decisions whose group no longer shares a place (a result changed since)."""
    groups = {frozenset(g) for g in tied_groups(places)}
    return [d for d in decisions(t) if d.group not in groups]
