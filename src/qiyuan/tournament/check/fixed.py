"""Checkers of the systems whose pairing the rules fix outright: the round robin by Berger tables (with who
opens), the knock-out by its seeded bracket (and mini-matches), a match, a team event by its tables.  Each round's
recorded boards are compared with the engine's (:func:`qiyuan.tournament.eventfile.next_pairing` on the event as
it stood): any other pairing, or another opener, is a deviation; the hard rules are checked apart.

Go's McMahon and Go Swiss weigh their pairings: ``check.go``.
"""

from __future__ import annotations

from qiyuan.errors import problem
from qiyuan.tournament.check.base import Deviation, System, register
from qiyuan.tournament.check.replay import before_round, hard_rules, recorded
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.eventfile import ROUND_ROBINS, event_format, next_pairing

__all__ = ["check_round"]

#: the rule a different pairing breaks, by format
_RULE = {"round_robin": "table", "double_round_robin": "table", "knockout": "bracket"}


def check_round(t, rnd: int) -> list[Deviation]:
    """The deviations of round ``rnd`` of ``t`` against the pairing its format fixes."""
    fmt = event_format(t)
    out = hard_rules(t, rnd, repeats=False, one_bye=False)
    if any(d.rule in ("twice", "absent", "repeat") for d in out):
        return out
    tr = before_round(t, rnd)
    try:
        engine = next_pairing(tr)
    except EventError as exc:
        return out + [Deviation(rnd, None, _RULE.get(fmt, "pairing"), p) for p in exc.problems]
    boards, byes = recorded(t, rnd)
    rule = _RULE.get(fmt, "pairing")
    want = {frozenset(p): p for p in engine.boards}
    for k, (a, b, colour) in enumerate(boards, 1):
        pair = want.get(frozenset((a, b)))
        if pair is None:
            partner = {x: y for p in engine.boards for x, y in (p, p[::-1])}
            out.append(Deviation(rnd, k, rule, problem("{a}-{b}: by the rules {a} meets {c}", a=a, b=b,
                                                       c=partner.get(a, "-"))))
        elif colour in "bw" and pair[0] != a:
            out.append(Deviation(rnd, k, "opener", problem("{a} opened against {b}; by the rules {opener} opens",
                                                           a=a, b=b, opener=pair[0])))
    if sorted(byes) != sorted(engine.byes) and fmt not in ROUND_ROBINS:
        out.append(Deviation(rnd, None, "bye", problem("the bye: {players} in the file, {best} by the rules",
                                                        players=", ".join(map(str, byes)) or "-",
                                                        best=", ".join(map(str, engine.byes)) or "-")))
    return out


SYSTEM = register(System(("round_robin", "double_round_robin", "knockout", "match", "team"), check_round))
