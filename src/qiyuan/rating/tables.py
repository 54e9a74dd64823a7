"""附表1 and 附表2: the FIDE percentage-expectancy tables the rating texts use.

* 附表1 (Table 1, FIDE 8.1a): score fraction p → rating difference dp.
* 附表2 (Table 2, FIDE 8.1b): rating difference D → expected score PD of the
  higher-rated player (H); the lower-rated player expects L = 1 − H.

Both are used exactly as printed: no interpolation, no logistic formula. The
values are exact hundredths, kept as integers here and as ``Decimal`` at the
API. The data come from the package's ``data/tables.json`` (a copy of the
spec's tables, with the two OCR errors of the CGA text corrected).
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from importlib import resources

_TABLES = json.loads(resources.files("qiyuan.data").joinpath("tables.json").read_text(encoding="utf-8"))

HUNDREDTH = Decimal("0.01")

#: The smallest |D| that Table 2 prints as 1.00 (the band "> 735").
PD_TOP_D = 736


def _pd_by_abs_d() -> tuple[int, ...]:
    bands = _TABLES["table2_difference_to_expected"]["bands"]
    values: list[int] = []
    for band in bands:
        hi = PD_TOP_D if band["hi"] is None else band["hi"]
        if band["lo"] != len(values):
            raise ValueError(f"tables.json: Table 2 band starting at {band['lo']} is not contiguous")
        values.extend([band["H"]] * (hi - band["lo"] + 1))
    return tuple(values)


#: PD in hundredths for |D| = 0 … 736 (index 736 stands for every |D| > 735).
#: For a negative D the expectation is ``100 - PD_HUNDREDTHS[min(-D, 736)]``.
PD_HUNDREDTHS: tuple[int, ...] = _pd_by_abs_d()


def _dp_by_p() -> tuple[int | None, ...]:
    values = _TABLES["table1_score_to_dp"]["values"]
    return tuple(values[f"{i / 100:.2f}"] for i in range(101))


#: dp for p = 0.00 … 1.00 in hundredths (index = p × 100); ``None`` where the
#: text says dp is indeterminate (p = 0 and p = 1).
DP_BY_P_HUNDREDTHS: tuple[int | None, ...] = _dp_by_p()

#: 段级位 → starting rating (Go 1995 dan table; Beijing–Shanghai extends it to 10 kyu).
DAN_KYU_RATINGS: dict[str, int] = dict(_TABLES["dan_kyu_ratings"]["values"])


def pd_hundredths(d: int) -> int:
    """Expected score for rating difference ``d`` (own rating minus the opponent's), in hundredths."""
    if d >= 0:
        return PD_HUNDREDTHS[min(d, PD_TOP_D)]
    return 100 - PD_HUNDREDTHS[min(-d, PD_TOP_D)]


def expected_score(d: int) -> Decimal:
    """附表2: the expected score (预期得分率 Pd) of a player ``d`` points above his opponent."""
    if not isinstance(d, int):
        raise TypeError(f"the rating difference D must be an integer, not {d!r}")
    return Decimal(pd_hundredths(d)).scaleb(-2)


def score_fraction(w: Decimal | int, n: int) -> Decimal:
    """得分率 p = W / N rounded to hundredths, .005 up (四舍五入)."""
    if n <= 0:
        raise ValueError("a score fraction needs at least one game")
    return (Decimal(w) / Decimal(n)).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


def dp_for_score(p: Decimal, *, dp_at_extremes: int | None = None) -> int | None:
    """附表1: rating difference dp for score fraction ``p``.

    ``p`` is rounded to hundredths (half up) first. At p = 0 and p = 1 the text
    says dp is indeterminate (不定值): ``None``, unless ``dp_at_extremes`` (the
    later FIDE ±800) is given.
    """
    p = Decimal(p).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)
    if p < 0 or p > 1:
        raise ValueError(f"a score fraction lies between 0 and 1, not {p}")
    index = int(p * 100)
    dp = DP_BY_P_HUNDREDTHS[index]
    if dp is None and dp_at_extremes is not None:
        return dp_at_extremes if index == 100 else -dp_at_extremes
    return dp


def dan_rating(grade: str | None) -> int | None:
    """Starting rating of a 段级位 such as ``'5d'`` or ``'1k'`` (None if unknown)."""
    if grade is None:
        return None
    return DAN_KYU_RATINGS.get(grade.strip().lower())
