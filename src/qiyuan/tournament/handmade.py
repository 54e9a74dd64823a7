"""Rounds the arbiter paired by hand (人工编排) or overrode (调整对阵), as the event file records them: ``XRH R``,
one line per round.  The event checker reports such a round as the arbiter's, not as a deviation."""

from __future__ import annotations

from qiyuan.tournament.model import Tournament

__all__ = ["HAND_MADE", "hand_made_rounds", "record_hand_made"]

#: the event file's record of a round paired or changed by hand
HAND_MADE = "XRH"


def hand_made_rounds(t: Tournament) -> list[int]:
    """Rounds the arbiter paired by hand or overrode (``XRH``), in order."""
    return sorted({int(text) for line in t.extra.get(HAND_MADE, []) if (text := line.strip()).isdigit()})


def record_hand_made(t: Tournament, rnd: int, made: bool = True) -> None:
    """Record (``made``) or forget (the round undone) that round ``rnd`` was paired by hand."""
    rounds = set(hand_made_rounds(t))
    rounds = rounds | {rnd} if made else rounds - {rnd}
    if rounds:
        t.extra[HAND_MADE] = [str(r) for r in sorted(rounds)]
    else:
        t.extra.pop(HAND_MADE, None)
