"""How numbers read on the pages (显示格式): points and tie-breaks without a
trailing ``.0`` (``19``, ``18.5``), rating changes always signed with two
decimals (``+2.00``, ``-3.80``). Decimal only; rounding is 四舍五入 (ROUND_HALF_UP)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

_CENT = Decimal("0.01")


def _decimal(value) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return value if isinstance(value, Decimal) else Decimal(str(value))
    except InvalidOperation:
        return None


def points_text(value) -> str:
    """Points or a tie-break: ``19``, ``18.5``, ``0.25`` — never ``19.0``; text that is not a number as given."""
    d = _decimal(value)
    if d is None:
        return "" if value is None else str(value)
    if d == d.to_integral_value():
        return str(int(d))
    return f"{d.normalize():f}"


def signed_delta(value) -> str:
    """A rating change (ΔR) with its sign and two decimals: ``+2.00``, ``-3.80``, ``0.00``."""
    d = _decimal(value)
    if d is None:
        return "" if value is None else str(value)
    q = d.quantize(_CENT, rounding=ROUND_HALF_UP)
    return f"+{q:f}" if q > 0 else f"{abs(q):f}" if q == 0 else f"{q:f}"
