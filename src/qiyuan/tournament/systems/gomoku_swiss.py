"""The Gomoku Swiss (五子棋瑞士制), by ``spec/gomoku-swiss.md``: the pairing entry point
(:func:`qiyuan.tournament.swiss.pair_round`, with the keep-apart rule when the arbiter set one), its checker and its
generator, registered as ``swiss``.

The checker (五子棋瑞士制核查):

A round's recorded pairing is judged against the engine's (:func:`qiyuan.tournament.systems.base.next_pairing` on
the event as it stood) on the system's criteria, group by group from the highest score down:

1. players who floated into the group and float on past it (score difference) — fewer is better;
2. who pairs up with them (轮高): most downs, then fewest ups;
3. how many of the group's own players float down (score difference) — fewer is better;
4. who floats down (轮低) or takes the bye: most ups, then fewest downs.

The first criterion on which the recorded pairing is worse is its deviation; draw numbers only break ties in the
text's procedure, so a pairing equal on every criterion is an equally good alternative (consistent).  Who opens
is fixed by the three opener rules on each board as recorded; the keep-apart rule may not be broken on more
boards than the engine's pairing needs.  An event paired by another program is judged on the hard rules and on
the score-difference criteria (1 and 3) only.
"""

from __future__ import annotations

import random
from decimal import Decimal

from qiyuan.errors import problem
from qiyuan.tournament import keepapart
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.openers import opener_rule
from qiyuan.tournament.state import PlayerState, player_states
from qiyuan.tournament.swiss import pair_round
from qiyuan.tournament.systems.base import Deviation, GeneratePlan, PairingSystem, RoundPairing, next_pairing, register
from qiyuan.tournament.systems.replay import before_round, hard_rules, is_foreign, recorded

__all__ = ["SYSTEM", "check_round", "criteria"]


def _pair(t: Tournament, rnd: int, explain: bool) -> RoundPairing:
    apart, reason = keepapart.apart_in_round(t, rnd)
    p = pair_round(t, rnd, explain=explain, apart=apart or None, apart_reason=reason)
    return RoundPairing(rnd, [(b.opener, b.other) for b in p.boards], [] if p.bye is None else [p.bye],
                        list(p.explanation), list(p.warnings))


def plan(rng: random.Random, players: int | None, rounds: int | None, *, grades: bool = False) -> GeneratePlan:
    """A Swiss event (Gomoku's or Go's): 8..40 players, 5..11 rounds (at most half the players), withdrawals,
    excuses and late entries between rounds, a keep-apart rule and prize categories now and then."""
    n = players or rng.randint(8, 40)
    planned = max(1, min(rounds or rng.randint(5, 11), n // 2))
    return GeneratePlan(n, planned, decisive=grades, changes=True, keep_apart=True, categories=True, grades=grades)


def _fmt(score: Decimal) -> str:
    return format(score.normalize(), "f")


def criteria(st: dict[int, PlayerState], opponent: dict[int, int | None]) -> list[tuple[Decimal, list]]:
    """Per score group, highest first: ``(score, [floated on, who paired up, floated down, who floated])``
    (see the module's text), each smaller is better.  ``opponent``: each player paired, None for the bye."""
    scores = {n: st[n].score for n in opponent}
    out = []
    for s in sorted(set(scores.values()), reverse=True):
        def lower(n: int) -> bool:
            o = opponent[n]
            return o is None or scores[o] < s

        on = sum(1 for n in opponent if scores[n] > s and lower(n))
        members = [n for n in opponent if scores[n] == s]
        up = sorted((-st[n].downs, st[n].ups) for n in members if opponent[n] is not None
                    and scores[opponent[n]] > s)
        down = [n for n in members if lower(n)]
        out.append((s, [on, up, len(down), sorted((-st[n].ups, st[n].downs) for n in down)]))
    return out


def _opponents(boards, byes) -> dict[int, int | None]:
    opp: dict[int, int | None] = {}
    for a, b, *_ in boards:
        opp[a], opp[b] = b, a
    for n in byes:
        opp[n] = None
    return opp


def check_round(t, rnd: int) -> list[Deviation]:
    """The deviations of round ``rnd`` of the Gomoku Swiss event ``t``."""
    out = hard_rules(t, rnd)
    boards, byes = recorded(t, rnd)
    tr = before_round(t, rnd)
    st = player_states(tr, rnd)
    foreign = is_foreign(t)  # paired by another program: hard rules and score differences only
    for k, (a, b, colour) in enumerate(boards, 1):  # who opens: the three rules, board by board
        if foreign or colour not in "bw" or a not in st or b not in st:
            continue
        opener, other, rule = opener_rule(st[a], st[b], rnd)
        if opener != a:
            out.append(Deviation(rnd, k, "opener", problem(
                "{a} opened against {b}; opener rule {rule} gives the opening to {opener}", a=a, b=b, rule=rule,
                opener=opener)))
    if any(d.rule != "opener" for d in out):
        return out  # a broken hard rule: the criteria have no pairing to weigh
    try:
        engine = next_pairing(tr)
    except EventError:
        return out  # no pairing the rules give (the hard rules above judged the round)
    mine = _opponents(boards, byes)
    theirs = _opponents(engine.boards, engine.byes)
    if mine == theirs:
        return out
    out += _keep_apart(tr, rnd, boards, engine.boards)
    ours, rules = criteria(st, mine), criteria(st, theirs)
    engine_pairs = {frozenset(p) for p in engine.boards}
    for (s, crit), (s2, best) in zip(ours, rules):
        if s != s2 or crit == best:
            continue
        if foreign:
            crit, best = [crit[0], 0, crit[2], 0], [best[0], 0, best[2], 0]
            if crit == best:
                continue
        i = next(i for i in range(4) if crit[i] != best[i])
        if crit[i] < best[i]:
            break  # better than the engine's on the first criterion that differs: an equally good or better one
        out += _worse(rnd, s, i, crit[i], best[i], boards, byes, mine, st, engine_pairs)
        break
    return out


_WHAT = {
    0: ("score", problem("{count} player(s) floated past the {score}-point group; the rules' pairing needs {best}")),
    1: ("float", problem("who pairs up in the {score}-point group: most downs, then fewest ups, pair up first "
                 "(chosen: {chosen})")),
    2: ("score", problem("{count} player(s) of the {score}-point group floated down; the rules' pairing needs {best}")),
    3: ("float", problem("who floats down from the {score}-point group: most ups, then fewest downs, float first "
                 "(chosen: {chosen})")),
}


def _worse(rnd, s, i, value, best, boards, byes, mine, st, engine_pairs) -> list[Deviation]:
    """Name the boards of the criterion on which the recorded round is worse."""
    rule, template = _WHAT[i]
    score = {n: st[n].score for n in mine}
    if i in (0, 2):
        params = {"count": value, "best": best}
    else:
        players = [n for n in mine if score[n] == s and (
            (i == 1 and mine[n] is not None and score[mine[n]] > s)
            or (i == 3 and (mine[n] is None or score[mine[n]] < s)))]
        params = {"chosen": ", ".join(f"{n} (ups {st[n].ups}, downs {st[n].downs})" for n in sorted(players))}
    detail = problem(template.message, score=_fmt(s), **params)
    named = [k for k, (a, b, _) in enumerate(boards, 1) if frozenset((a, b)) not in engine_pairs
             and score[a] != score[b] and (score[a] == s or score[b] == s or max(score[a], score[b]) > s
                                           > min(score[a], score[b]))]
    if i in (2, 3) and any(score[n] == s for n in byes):
        named.append(None)
    return [Deviation(rnd, k, rule, detail) for k in named] or [Deviation(rnd, None, rule, detail)]


def _keep_apart(tr, rnd, boards, engine_boards) -> list[Deviation]:
    apart, _ = keepapart.apart_in_round(tr, rnd)
    if not apart:
        return []
    ours = keepapart.same_group_boards([(a, b) for a, b, _ in boards], apart)
    best = keepapart.same_group_boards(list(engine_boards), apart)
    if len(ours) <= len(best):
        return []
    return [Deviation(rnd, k, "keep-apart", problem("{a} and {b} are to be kept apart in round {round}; the rules' "
                                                    "pairing needs {best} such board(s)", a=a, b=b, round=rnd,
                                                    best=len(best)))
            for k, a, b in ours]


SYSTEM = register(PairingSystem("swiss", "Individual: Swiss-System (Gomoku)", _pair, check_round, plan))
