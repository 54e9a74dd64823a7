"""An explanation as JSON data (for the office to store beside a change, and a page to render): version 2.

``event_json(x)`` gives the numbers of ``qiyuan.rating.calculation.EventExplanation``
beyond the change's own fields (which the office already stores as version 1):
``{"v": 2, "games": [...], "steps": [...]}``; ``publication_json(p)`` those of a
``Publication``. Every number is text, exactly (``"2333.333333…"`` never appears:
a fraction is written ``"7000/3"``), so reading it back gives the same values
(``event_from_json``, ``publication_from_json``; property-tested).

* a step: ``[symbol, value, op, [[arg symbol, value], …], ref]``;
* a shown game: ``[round, opponent, result, W, rating, rating source, counted, skipped, board]``;
* a publication: ``{"v": 2, "list_date", "steps", "newcomer_window_from", "newcomer_parts":
  [[event, end date, games, Ru, ΔR], …], "newcomer_needed", "activity": {verdict, window_from, games,
  needed, rated_since, inactive_since, removal_on} | null, "latched_now", "removed_now"}``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating import calculation as C
from qiyuan.rating.state import NewcomerRecord

VERSION = 2


def _number(x) -> str | None:
    """An exact number as text: ``12``, ``2402.30``, ``7000/3`` (a fraction), ``None``."""
    if x is None:
        return None
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return str(x)


def _read_number(text: str | None):
    if text is None:
        return None
    if "/" in text:
        return Fraction(text)
    if "." in text or "E" in text or "e" in text:
        return Decimal(text)
    return int(text)


def _iso(d: date | None) -> str | None:
    return None if d is None else d.isoformat()


def _day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def step_json(s: C.Step) -> list:
    return [s.symbol, _number(s.value), s.op, [[a, _number(v)] for a, v in s.args], s.ref]


def step_from_json(d: list) -> C.Step:
    symbol, value, op, args, ref = d
    return C.Step(symbol, _read_number(value), op, tuple((a, _read_number(v)) for a, v in args), ref)


def _game_json(g: C.ShownGame) -> list:
    return [g.round, g.opponent_id, g.result, _number(g.W), g.rating, g.rating_source, g.counted, g.skipped, g.board]


def _game_from_json(d: list) -> C.ShownGame:
    rnd, opponent, result, w, rating, source, counted, skipped, board = d
    return C.ShownGame(rnd, opponent, result, None if w is None else Decimal(w), rating, source, counted, skipped,
                       board)


def event_json(x: C.EventExplanation) -> dict:
    """The explanation's games and steps (the change's own fields are stored separately)."""
    return {"v": VERSION, "games": [_game_json(g) for g in x.games], "steps": [step_json(s) for s in x.steps]}


def event_from_json(change, d: dict) -> C.EventExplanation:
    """The ``EventExplanation`` of ``change`` from ``event_json``'s data."""
    if d.get("v") != VERSION:
        raise ValueError(f"explanation version {d.get('v')!r}, expected {VERSION}")
    return C.EventExplanation(change, tuple(_game_from_json(g) for g in d["games"]),
                              tuple(step_from_json(s) for s in d["steps"]))


def publication_json(p: C.Publication) -> dict:
    a = p.activity
    return {
        "v": VERSION, "list_date": _iso(p.list_date), "steps": [step_json(s) for s in p.steps],
        "newcomer_window_from": _iso(p.newcomer_window_from),
        "newcomer_parts": [[r.event_id, _iso(r.end_date), r.games, _number(r.ru), _number(r.delta)]
                           for r in p.newcomer_parts],
        "newcomer_needed": p.newcomer_needed,
        "activity": None if a is None else {
            "verdict": a.verdict, "window_from": _iso(a.window_from), "games": a.games, "needed": a.needed,
            "rated_since": _iso(a.rated_since), "inactive_since": _iso(a.inactive_since),
            "removal_on": _iso(a.removal_on)},
        "latched_now": p.latched_now, "removed_now": p.removed_now,
    }


def publication_from_json(d: dict) -> C.Publication:
    if d.get("v") != VERSION:
        raise ValueError(f"explanation version {d.get('v')!r}, expected {VERSION}")
    a = d["activity"]
    return C.Publication(
        list_date=_day(d["list_date"]), steps=tuple(step_from_json(s) for s in d["steps"]),
        newcomer_window_from=_day(d["newcomer_window_from"]),
        newcomer_parts=tuple(NewcomerRecord(e, _day(end), games, None if ru is None else Fraction(ru),
                                            None if delta is None else Decimal(delta))
                             for e, end, games, ru, delta in d["newcomer_parts"]),
        newcomer_needed=d["newcomer_needed"],
        activity=None if a is None else C.Activity(
            a["verdict"], _day(a["window_from"]), a["games"], a["needed"], _day(a["rated_since"]),
            _day(a["inactive_since"]), _day(a["removal_on"])),
        latched_now=d["latched_now"], removed_now=d["removed_now"],
    )
