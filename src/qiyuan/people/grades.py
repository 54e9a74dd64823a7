"""Dan and kyu grades (段级位), strongest first: 9d … 1d, 1k … 10k. Pure data."""

from __future__ import annotations

DAN_GRADES: tuple[str, ...] = tuple(f"{n}d" for n in range(9, 0, -1)) + tuple(f"{n}k" for n in range(1, 11))

#: How grades are written in reports and lists: ``2d``, ``2段``, ``3k``, ``3级``.
GRADE_SPELLINGS: dict[str, str] = {
    **{g: g for g in DAN_GRADES},
    **{f"{n}段": f"{n}d" for n in range(1, 10)},
    **{f"{n}级": f"{n}k" for n in range(1, 11)},
}
