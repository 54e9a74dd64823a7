"""The states file of a bundle: ``{"date": LIST_DATE or null, "states": {player id: state}}`` — the states after
an edition (its ``outputs/states.json``), which are the next edition's start (its ``inputs/states.json``).

A bundle comes from outside, so every value is checked for its type before the engine sees it: a state is
``{"g": "M"|"F"|null, "r": integer|null, "x": decimal text|null, "n": integer ≥ 0, "l": true|false,
"s": "active"|"inactive"|"unrated"|"removed", "rs": date|null, "is": date|null, "a": [[date, integer], …],
"nc": [[event, date, integer, fraction text|null, decimal text|null], …]}`` (docs/verification.md)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from qiyuan.rating.result import StartState
from qiyuan.rating.results import ACTIVE, INACTIVE, REMOVED, UNRATED
from qiyuan.rating.state import PlayerState
from qiyuan.rating.state_json import state_from_json, state_to_json

STATUSES = (ACTIVE, INACTIVE, UNRATED, REMOVED)
KEYS = ("g", "r", "x", "n", "l", "s", "rs", "is", "a", "nc")


def states_bytes(on: date | None, states: dict[str, PlayerState]) -> bytes:
    data = {"date": on.isoformat() if on else None,
            "states": {pid: state_to_json(s) for pid, s in sorted(states.items())}}
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _day(v) -> bool:
    if not isinstance(v, str):
        return False
    try:
        date.fromisoformat(v)
    except ValueError:
        return False
    return True


def _decimal(v) -> bool:
    if not isinstance(v, str) or len(v) > 60:
        return False
    try:
        return Decimal(v).is_finite()
    except (InvalidOperation, ValueError):
        return False


def _fraction(v) -> bool:
    if not isinstance(v, str) or len(v) > 60:
        return False
    try:
        Fraction(v)
    except (ValueError, ZeroDivisionError):
        return False
    return True


def _newcomer(r) -> bool:
    return (isinstance(r, list) and len(r) == 5 and isinstance(r[0], str) and _day(r[1]) and _int(r[2])
            and (r[3] is None or _fraction(r[3])) and (r[4] is None or _decimal(r[4])))


def state_problem(s) -> str:
    """What is wrong with one state's JSON (empty when nothing is)."""
    if not isinstance(s, dict):
        return "not an object"
    checks = {
        "g": s.get("g") in (None, "", "M", "F"),
        "r": s.get("r") is None or (_int(s["r"]) and abs(s["r"]) < 10**6),
        "x": s.get("x") is None or _decimal(s["x"]),
        "n": _int(s.get("n")) and 0 <= s["n"] < 10**9,
        "l": isinstance(s.get("l"), bool),
        "s": s.get("s") in STATUSES,
        "rs": s.get("rs") is None or _day(s["rs"]),
        "is": s.get("is") is None or _day(s["is"]),
        "a": isinstance(s.get("a", []), list) and all(
            isinstance(x, list) and len(x) == 2 and _day(x[0]) and _int(x[1]) for x in s.get("a", [])),
        "nc": isinstance(s.get("nc", []), list) and all(_newcomer(r) for r in s.get("nc", [])),
    }
    bad = [k for k, ok in checks.items() if not ok]
    return ", ".join(bad)


def read_states(data: bytes) -> StartState | None:
    """The start the file describes (None: the list's first edition starts from nothing). ``ValueError`` naming
    the player and the keys when the file is not a states file."""
    raw = json.loads(data.decode("utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("states"), dict):
        raise ValueError("not a states file: {\"date\": …, \"states\": {…}}")
    if raw.get("date") is None:
        if raw["states"]:
            raise ValueError("states without the date of their list")
        return None
    if not _day(raw["date"]):
        raise ValueError("its date is not a date (YYYY-MM-DD)")
    for pid, s in raw["states"].items():
        wrong = state_problem(s)
        if wrong:
            raise ValueError(f"{pid}: {wrong}: not of the form docs/verification.md gives")
    states = {pid: state_from_json(pid, s) for pid, s in raw["states"].items()}
    return StartState(date.fromisoformat(raw["date"]), states)
