"""The states file of a bundle: ``{"date": LIST_DATE or null, "states": {player id: state}}`` — the states after
an edition (its ``outputs/states.json``), which are the next edition's start (its ``inputs/states.json``)."""

from __future__ import annotations

import json
from datetime import date

from qiyuan.rating.result import StartState
from qiyuan.rating.state import PlayerState
from qiyuan.rating.state_json import state_from_json, state_to_json


def states_bytes(on: date | None, states: dict[str, PlayerState]) -> bytes:
    data = {"date": on.isoformat() if on else None,
            "states": {pid: state_to_json(s) for pid, s in sorted(states.items())}}
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def read_states(data: bytes) -> StartState | None:
    """The start the file describes (None: the list's first edition starts from nothing). ``ValueError`` when the
    file is not a states file."""
    raw = json.loads(data.decode("utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("states"), dict):
        raise ValueError("not a states file: {\"date\": …, \"states\": {…}}")
    if raw.get("date") is None:
        if raw["states"]:
            raise ValueError("states without the date of their list")
        return None
    states = {pid: state_from_json(pid, s) for pid, s in raw["states"].items()}
    return StartState(date.fromisoformat(raw["date"]), states)
