"""The chief arbiter's event file (赛事文件): operations over a ``Tournament``.

Pure functions used by the ``qiyuan event`` commands: scoring of round cells
(积分), consistency of the pairings recorded (对阵), draw numbers (抽签),
entering results, withdrawals and absences, hand-made pairings checked against
the hard rules (法则一), undoing an unplayed round.  No I/O: the CLI reads and
writes the TRF file around them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from qiyuan.tournament.model import FORFEIT_RESULTS, Entrant, PointSystem, RoundCell

#: result seen from the other side of the board
COMPLEMENT = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+", " ": " "}
OPPOSITE = {"b": "w", "w": "b", "-": "-"}


def cell_points(cell: RoundCell, points: PointSystem) -> Decimal:
    """Points one round cell is worth under a point system (积分)."""
    r = cell.result
    if r in ("1", "W"):
        return points.win
    if r in ("=", "D"):
        return points.draw
    if r in ("0", "L"):
        return points.loss
    if r == "+":
        return points.forfeit_win
    if r == "-":
        return points.forfeit_loss
    byes = {"U": points.pairing_bye, "H": points.half_bye, "F": points.full_bye, "Z": points.zero_bye}
    return byes.get(r, Decimal(0))


def score(entrant: Entrant, points: PointSystem, upto: int | None = None) -> Decimal:
    """Total points (积分) of an entrant over his first ``upto`` rounds (all when None)."""
    cells = entrant.rounds if upto is None else entrant.rounds[:upto]
    return sum((cell_points(c, points) for c in cells), Decimal(0))


def cross_check(
    entrants: dict[int, Entrant], n_players: int, unknown_ok: Iterable[int] = ()
) -> Iterator[tuple[int, int, str, str]]:
    """Every round cell whose other side does not agree.

    Yields ``(number, round_index, field, message)`` with field ``"opponent"``,
    ``"colour"`` or ``"result"``.  Opponents in ``unknown_ok`` that are missing
    from ``entrants`` are skipped (their own line was already reported broken).
    """
    skip = set(unknown_ok)
    for number in sorted(entrants):
        a = entrants[number]
        for i, c in enumerate(a.rounds):
            if c.opponent is None:
                continue
            rnd = i + 1
            b = entrants.get(c.opponent)
            if b is None:
                if c.opponent not in skip:
                    yield number, i, "opponent", f"round {rnd}: opponent {c.opponent} is out of range (1..{n_players})"
                continue
            if b is a:
                yield number, i, "opponent", f"round {rnd}: player {number} is paired with himself"
                continue
            d = b.rounds[i] if i < len(b.rounds) else None
            if d is None or d.opponent != number:
                said = "nobody" if d is None or d.opponent is None else f"player {d.opponent}"
                yield (number, i, "opponent",
                       f"round {rnd}: player {number} is paired with {b.number}, "
                       f"but player {b.number}'s round {rnd} names {said}")
                continue
            if number > b.number:
                continue  # each pair once
            if not (d.result == COMPLEMENT[c.result] or c.result == d.result == "-"):
                yield (number, i, "result",
                       f"round {rnd}: results {number} {c.result!r} and {b.number} {d.result!r} do not agree")
            if d.colour != OPPOSITE[c.colour] and not (c.result in FORFEIT_RESULTS and "-" in (c.colour, d.colour)):
                yield (number, i, "colour",
                       f"round {rnd}: colours {number} {c.colour!r} and {b.number} {d.colour!r} must be b against w")
