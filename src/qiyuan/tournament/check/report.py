"""The checker's verdict as lines in the reader's language (the command line's and the event page's one
wording), and as a record the office stores (plain JSON data) and reads back."""

from __future__ import annotations

from collections.abc import Callable

from qiyuan.errors import Problem, problem
from qiyuan.tournament.check.base import RULES, Deviation, Verdict
from qiyuan.tournament.model import Tournament

__all__ = ["FORMAT_NAMES", "check_imported", "verdict_from_record", "verdict_lines", "verdict_record"]

#: the formats an import may find, in words (a page shows no codes)
FORMAT_NAMES = {"swiss": problem("Swiss system"), "round_robin": problem("round robin"),
                "double_round_robin": problem("double round robin"), "knockout": problem("knock-out"),
                "match": problem("match"), "team": problem("team event")}


def verdict_lines(v: Verdict, translate: Callable[[str], str]) -> list[str]:
    """One line per hand-made round and per deviation (round, board, rule, what), then the verdict."""
    def say(p: Problem) -> str:
        return p.text(translate)

    lines = [say(problem("round {round}: paired by the arbiter by hand (not judged)", round=r)) for r in v.by_hand]
    for d in v.deviations:
        what = problem("{rule}: {detail}", rule=RULES.get(d.rule, RULES["pairing"]), detail=d.detail)
        if d.round is None:
            lines.append(say(problem("standings: {what}", what=what)))
        elif d.board is None:
            lines.append(say(problem("round {round}: {what}", round=d.round, what=what)))
        else:
            lines.append(say(problem("round {round}, board {board}: {what}", round=d.round, board=d.board,
                                     what=what)))
    if v.reason is not None:
        lines.append(say(v.reason))
    elif v.deviations:
        lines.append(say(problem("{count} deviation(s) in {rounds} rounds", count=len(v.deviations),
                                 rounds=v.rounds)))
    else:
        lines.append(say(problem("consistent: {rounds} rounds paired as the rules say", rounds=v.rounds)))
    return lines


def _problem_record(p: Problem) -> dict:
    return {"message": p.message, "params": {k: _problem_record(x) if isinstance(x, Problem) else x
                                             for k, x in (p.params or {}).items()}}


def _problem(data: dict) -> Problem:
    params = {k: _problem(x) if isinstance(x, dict) else x for k, x in (data.get("params") or {}).items()}
    return problem(str(data.get("message", "")), **params)


def verdict_record(v: Verdict) -> dict:
    """The verdict as plain data (what the office stores with an imported event)."""
    return {"system": v.system, "status": v.status, "rounds": v.rounds, "by_hand": list(v.by_hand),
            "reason": None if v.reason is None else _problem_record(v.reason),
            "deviations": [{"round": d.round, "board": d.board, "rule": d.rule, "detail": _problem_record(d.detail)}
                           for d in v.deviations]}


def verdict_from_record(data: dict) -> Verdict:
    """A stored verdict back (see :func:`verdict_record`)."""
    v = Verdict(str(data.get("system", "")), int(data.get("rounds") or 0))
    v.by_hand = [int(r) for r in data.get("by_hand") or []]
    v.reason = _problem(data["reason"]) if data.get("reason") else None
    v.deviations = [Deviation(d.get("round"), d.get("board"), str(d.get("rule", "pairing")), _problem(d["detail"]))
                    for d in data.get("deviations") or []]
    return v


def check_imported(t: Tournament, fmt: str, check: Callable[[Tournament], Verdict]) -> Verdict:
    """The verdict on an event file the office imports: the file's own system (``XQM``), or, for a file that does
    not record one, the format the import found (``fmt``): a Swiss event from elsewhere is judged on the hard rules
    and score differences; another format from elsewhere is not checkable (its tables are another program's)."""
    if "XQM" in t.extra or fmt in ("", "swiss"):
        return check(t)
    return Verdict(fmt, reason=problem("not checkable: system {system}", system=FORMAT_NAMES.get(fmt, fmt)))
