"""The rules page (规则): each built-in rule set in words, article by article, and the lookup tables 附表1/附表2."""

from __future__ import annotations

from decimal import Decimal

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import cache_page

from qiyuan.rating import rules, tables

from ...labels import rule_set_title
from ..rules_text import sections


def table2_bands() -> list[tuple[int, int | None, Decimal, Decimal]]:
    """附表2 as printed: (|D| from, |D| to or None for "and above", H, L)."""
    bands: list[tuple[int, int | None, Decimal, Decimal]] = []
    start = 0
    values = tables.PD_HUNDREDTHS
    for d in range(1, len(values) + 1):
        if d == len(values) or values[d] != values[start]:
            hi = None if d == len(values) else d - 1
            h = Decimal(values[start]).scaleb(-2)
            bands.append((start, hi, h, Decimal(1) - h))
            start = d
    return bands


def table1_rows() -> list[tuple[Decimal, int | None]]:
    """附表1: (p, dp) from p = 1.00 down to 0.00."""
    return [(Decimal(i).scaleb(-2), tables.DP_BY_P_HUNDREDTHS[i]) for i in range(100, -1, -1)]


def rule_sets() -> list[dict]:
    """Every built-in rule set as ``{"name", "title", "sections"}`` in the page's language."""
    return [{"name": name, "title": rule_set_title(name), "sections": sections(name, rule_set)}
            for name, rule_set in rules.BUILTIN_RULES.items()]


@cache_page(3600)
def rules_page(request, name: str | None = None):
    sets = rule_sets()
    if name is not None and name not in {s["name"] for s in sets}:
        raise Http404("no such rule set")
    return render(
        request,
        "portal/rules.html",
        {
            "sets": [s for s in sets if name is None or s["name"] == name],
            "table1": table1_rows(),
            "table2": table2_bands(),
            "dan_table": list(tables.DAN_KYU_RATINGS.items()),
        },
    )
