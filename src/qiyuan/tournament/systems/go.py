"""Go's McMahon and Go Swiss (围棋麦克马洪制、围棋瑞士制): one engine (:func:`qiyuan.tournament.mcmahon.pair_go_round`,
with handicaps), its checker and its generator, registered twice — ``go_mcmahon`` and ``go_swiss`` differ in the
settings an event starts with and in how the engine weighs the float.

The checker (围棋核查), by the criteria ``qiyuan.tournament.mcmahon`` pairs with.

A round's recorded pairing is judged against the engine's (:func:`qiyuan.tournament.systems.base.next_pairing` on
the event as it stood): the hard rules first (no repeat, no second bye, everybody present paired once), then the
bye — it goes to the lowest McMahon score, so a bye to a higher score is a deviation — then the boards, summed
over the round criterion by criterion as the engine weighs them (``mcmahon._Round.cost``: the squared McMahon-score
gaps, the float, handicap stones, club and association apart, the seeding inside a group, colours wanted). The
first criterion on which the recorded round is worse is named with its boards; an equally good alternative (the
same sums) is consistent.  On a board the engine pairs alike, black is checked as it gives it (the weaker player
in a handicap game; in an even game the one who has had white more often, then the weaker).
"""

from __future__ import annotations

import random
from functools import partial

from qiyuan.errors import problem
from qiyuan.tournament import go, mcmahon
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.go_tiebreaks import pairing_scores
from qiyuan.tournament.go_tiebreaks import standings as go_standings
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.systems.gomoku_swiss import plan as swiss_plan
from qiyuan.tournament.systems.base import Deviation, GeneratePlan, PairingSystem, RoundPairing, next_pairing, register
from qiyuan.tournament.systems.replay import before_round, hard_rules, recorded

__all__ = ["GO_SWISS", "MCMAHON", "check_round"]


def _pair(t: Tournament, rnd: int, explain: bool) -> RoundPairing:
    gp = mcmahon.pair_go_round(t, rnd)
    return RoundPairing(rnd, [(b.black, b.white) for b in gp.boards], [] if gp.bye is None else [gp.bye],
                        gp.explanation)


def _starts(settings: go.GoSettings):
    def start(t: Tournament) -> None:
        """A Go event scores 1/0 and carries its Go settings (``tournament.go``)."""
        t.points = go.GO_POINTS
        go.set_settings(t, settings)
    return start


def _plan(rng: random.Random, players: int | None, rounds: int | None) -> GeneratePlan:
    return swiss_plan(rng, players, rounds, grades=True)


def _places(t: Tournament) -> dict[int, int]:
    """By the event's Go placement criteria (MMS, SOS, …)."""
    return {row.number: row.place for row in go_standings(t, go.settings(t), go.players(t))}


#: per criterion of ``mcmahon._Round.cost``: the rule it is named by, what is wrong
_CRITERIA = (
    ("score", problem("sum of the squared McMahon-score gaps {value}; the rules' pairing has {best}")),
    ("float", problem("the float: who goes down and who comes up costs {value}; the rules' pairing {best}")),
    ("pairing", problem("handicap stones over the round {value}; the rules' pairing {best}")),
    ("keep-apart", problem("players of one club, family or association paired {value}; the rules' pairing {best}")),
    ("pairing", problem("the seeding inside the score groups costs {value}; the rules' pairing {best}")),
    ("opener", problem("colours wanted and not given {value}; the rules' pairing {best}")),
)


def _round(tr: Tournament, rnd: int, pairs: list[tuple[int, int]], swiss: bool) -> mcmahon._Round:
    """What the engine weighs in round ``rnd``, for the players on ``pairs`` (``swiss``: Go Swiss's float)."""
    s, ps = go.settings(tr), go.players(tr)
    mms2 = pairing_scores(tr, s, ps, rnd)
    rank = {e.number: mcmahon._rank(ps, s, e.number) for e in tr.entrants}
    met = {e.number: {c.opponent for c in e.rounds[: rnd - 1] if c.opponent} for e in tr.entrants}
    clubs = {e.number: (e.club.strip(), e.family.strip(), e.federation.strip()) for e in tr.entrants}
    players = [n for p in pairs for n in p]
    order = sorted(players, key=lambda n: (-mms2[n], -rank[n], -(tr.entrants[n - 1].rating or 0), n))
    return mcmahon._Round(tr, rnd, s, swiss, "split", mms2, rank, met, clubs, order)


def check_round(t: Tournament, rnd: int, *, swiss: bool = False) -> list[Deviation]:
    """The deviations of round ``rnd`` of the Go event ``t`` (``swiss``: a Go Swiss event)."""
    out = hard_rules(t, rnd)
    if out:
        return out
    tr = before_round(t, rnd)
    try:
        engine = next_pairing(tr)
    except EventError:
        return out
    boards, byes = recorded(t, rnd)
    mine = [(a, b) for a, b, _ in boards]
    want = {frozenset(p): p for p in engine.boards}
    if byes != list(engine.byes):
        s, ps = go.settings(tr), go.players(tr)
        mms2 = pairing_scores(tr, s, ps, rnd)
        if byes and engine.byes and mms2[byes[0]] > mms2[engine.byes[0]]:
            out.append(Deviation(rnd, None, "bye", problem(
                "the bye went to {number} (McMahon score {score}); the lowest score without a bye is {best}'s "
                "({best_score})", number=byes[0], score=mcmahon._half(mms2[byes[0]]), best=engine.byes[0],
                best_score=mcmahon._half(mms2[engine.byes[0]]))))
    if {frozenset(p) for p in mine} == set(want):
        for k, (a, b, colour) in enumerate(boards, 1):
            black = want[frozenset((a, b))][0]
            if colour in "bw" and black != a:
                out.append(Deviation(rnd, k, "opener", problem("{a} had black against {b}; by the rules {black} "
                                                               "has black", a=a, b=b, black=black)))
        return out
    ours, theirs = _round(tr, rnd, mine, swiss), _round(tr, rnd, list(engine.boards), swiss)
    mine_cost = [ours.cost(a, b) for a, b in mine]
    best = [sum(c[i] for c in (theirs.cost(a, b) for a, b in engine.boards)) for i in range(6)]
    value = [sum(c[i] for c in mine_cost) for i in range(6)]
    for i in range(6):
        if value[i] == best[i]:
            continue
        if value[i] > best[i]:
            rule, template = _CRITERIA[i]
            detail = problem(template.message, value=value[i], best=best[i])
            named = [k for k, ((a, b), c) in enumerate(zip(mine, mine_cost), 1)
                     if frozenset((a, b)) not in want and c[i]]
            out += [Deviation(rnd, k, rule, detail) for k in named] or [Deviation(rnd, None, rule, detail)]
        break
    return out


def _system(name: str, trf_type: str, settings: go.GoSettings, swiss: bool) -> PairingSystem:
    return register(PairingSystem(name, trf_type, _pair, partial(check_round, swiss=swiss), _plan, go=True, rated_as="swiss",
                                  start=_starts(settings), after_set=mcmahon.record_handicaps, places=_places,
                                  ranking="go"))


MCMAHON = _system("go_mcmahon", "Individual: McMahon (Go)", go.GoSettings(), swiss=False)
GO_SWISS = _system("go_swiss", "Individual: Swiss-System (Go)", go.GoSettings(criteria=["NBW", "SOSW", "SOSOSW"]),
                   swiss=True)
