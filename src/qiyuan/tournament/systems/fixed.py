"""The checker of the systems whose pairing the rules fix outright (the round robin by Berger tables with who opens,
the knock-out by its seeded bracket and mini-matches, a match, a team event by its tables): each round's recorded
boards are compared with the engine's (:func:`qiyuan.tournament.systems.base.next_pairing` on the event as it
stood): any other pairing, or another opener, is a deviation; the hard rules are checked apart."""

from __future__ import annotations

from qiyuan.errors import problem
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.systems.base import CheckFn, Deviation, next_pairing
from qiyuan.tournament.systems.replay import before_round, hard_rules, recorded

__all__ = ["fixed_checker"]


def fixed_checker(rule: str, *, byes: bool = True) -> CheckFn:
    """The checker of a fixed pairing: a board other than the engine's breaks ``rule`` (``table``, ``bracket``,
    ``pairing``); ``byes``: the pairing bye is the rules' too (a round robin's resting player is not a bye)."""

    def check_round(t: Tournament, rnd: int) -> list[Deviation]:
        out = hard_rules(t, rnd, repeats=False, one_bye=False)
        if any(d.rule in ("twice", "absent", "repeat") for d in out):
            return out
        try:
            engine = next_pairing(before_round(t, rnd))
        except EventError as exc:
            return out + [Deviation(rnd, None, rule, p) for p in exc.problems]
        boards, bye_players = recorded(t, rnd)
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
        if byes and sorted(bye_players) != sorted(engine.byes):
            out.append(Deviation(rnd, None, "bye", problem("the bye: {players} in the file, {best} by the rules",
                                                            players=", ".join(map(str, bye_players)) or "-",
                                                            best=", ".join(map(str, engine.byes)) or "-")))
        return out

    return check_round
