"""Who opens (假先的决定): the three ordered rules of the Gomoku Swiss system.

1. The player who has opened fewer times opens (累积开局次数较少者优先开局);
   the pairing bye counts as half an opening (轮空者算开半局).
2. Nobody opens, or does not open, three rounds in a row
   (避免连续三轮假先或连续三轮假后手).
3. Otherwise the smaller draw number opens in odd rounds, the larger in even
   rounds (奇数轮签号在前者开局，偶数轮签号在后者开局).

Each rule decides only where the ones before it leave a tie. Rule 2 decides
when exactly one of the two ways would give somebody a third consecutive
opening or non-opening. A round without a role (bye, absence, forfeit written
with colour ``-``) breaks a run.
"""

from __future__ import annotations

from qiyuan.tournament.state import NOT_OPENED, OPENED, PlayerState


def _last_two(roles: tuple[str, ...], role: str) -> bool:
    return len(roles) >= 2 and roles[-1] == role and roles[-2] == role


def third_in_a_row(opener: PlayerState, other: PlayerState) -> bool:
    """Would letting ``opener`` open give anybody a third consecutive (non-)opening?"""
    return _last_two(opener.roles, OPENED) or _last_two(other.roles, NOT_OPENED)


def opener_rule(a: PlayerState, b: PlayerState, round_no: int) -> tuple[int, int, int]:
    """``(opener, other, rule)``: who opens and the number of the rule (1, 2 or 3) that decided."""
    ha, hb = a.openings_halves, b.openings_halves
    if ha != hb:
        return (a.number, b.number, 1) if ha < hb else (b.number, a.number, 1)
    a_bad, b_bad = third_in_a_row(a, b), third_in_a_row(b, a)
    if a_bad != b_bad:
        return (b.number, a.number, 2) if a_bad else (a.number, b.number, 2)
    small, large = (a, b) if a.number < b.number else (b, a)
    if round_no % 2 == 1:
        return small.number, large.number, 3
    return large.number, small.number, 3


def choose_opener(a: PlayerState, b: PlayerState, round_no: int) -> tuple[int, int]:
    """``(opener, other)`` for a game between ``a`` and ``b`` in round ``round_no``."""
    opener, other, _ = opener_rule(a, b, round_no)
    return opener, other
