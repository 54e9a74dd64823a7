"""Keep apart (同单位回避): players of one association, club or family do not meet in the first rounds.

An arbiter's rule, off by default, beyond the bare Gomoku Swiss text (a
departure recorded in ``docs/decisions.md``): for each kind the arbiter sets
(``XQA association 3`` — the first 3 rounds), two players with the same
non-empty association (所属单位), club (俱乐部) or family label are not paired
in those rounds.  The Swiss engine takes it as an added hard rule, honoured by
its look-ahead like a meeting; when no complete pairing of a round keeps them
all apart, the rule is relaxed board by board — only the fewest same-group pairs
the round needs may meet (:func:`relax`) — and the pairing's note names those boards.

Round robins, knock-outs, matches and team events follow their tables: the
rule does not apply to them.
"""

from __future__ import annotations

from qiyuan.tournament.errors import EventInputError, problem
from qiyuan.tournament.explanation import Line
from qiyuan.tournament.matching import maximum_matching
from qiyuan.tournament.model import Entrant, Tournament

#: the kinds of groups, and the entrant field each reads
KINDS = {"association": "federation", "club": "club", "family": "family"}
_NAMES = {"association": "same association", "club": "same club", "family": "same family"}


def rules(t: Tournament) -> dict[str, int]:
    """The keep-apart rules set for the event: kind -> number of rounds (the first K)."""
    out: dict[str, int] = {}
    for line in t.extra.get("XQA", []):
        parts = line.split()
        if len(parts) == 2 and parts[0] in KINDS and parts[1].isdigit():
            out[parts[0]] = int(parts[1])
    return out


def set_rule(t: Tournament, kind: str, rounds: int) -> dict[str, int]:
    """Keep players of the same ``kind`` apart in rounds 1..``rounds`` (0 removes the rule)."""
    faults = []
    if kind not in KINDS:
        faults.append(problem("keep apart by association, club or family, not {kind!r}", kind=kind))
    if not 0 <= rounds <= 99:
        faults.append(problem("the number of rounds must be 0..99, found {rounds}", rounds=rounds))
    if faults:
        raise EventInputError(faults)
    current = rules(t)
    if rounds:
        current[kind] = rounds
    else:
        current.pop(kind, None)
    if current:
        t.extra["XQA"] = [f"{k} {n}" for k, n in sorted(current.items())]
    else:
        t.extra.pop("XQA", None)
    return current


def group_of(e: Entrant, kind: str) -> str:
    return getattr(e, KINDS[kind]).strip()


def apart_in_round(t: Tournament, rnd: int) -> tuple[dict[int, set[int]], Line]:
    """Per player, who he must not meet in round ``rnd`` under the rules that still apply
    (his own group, himself included: one set shared by the group's members), and the
    rules' name for the pairing's notes ("" and {} when none applies)."""
    active = [kind for kind, k in sorted(rules(t).items()) if rnd <= k]
    apart: dict[int, set[int]] = {}
    for kind in active:
        groups: dict[str, list[int]] = {}
        for e in t.entrants:
            if label := group_of(e, kind):
                groups.setdefault(label, []).append(e.number)
        for members in groups.values():
            if len(members) < 2:
                continue
            together = set(members)
            for n in members:
                apart[n] = apart[n] | together if n in apart else together
    reason = Line()
    if active:
        reason = Line("the keep-apart rule (")
        for i, k in enumerate(active):
            reason += Line(_NAMES[k]) if i == 0 else Line(", ") + Line(_NAMES[k])
        reason += Line(")")
    return apart, reason


def relax(pool: list[int], met: dict[int, set[int]], had_bye: dict[int, bool],
          apart: dict[int, set[int]]) -> tuple[dict[int, set[int]], list[tuple[int, int]], int]:
    """When no complete pairing keeps every group apart, relax the rule board by board (放宽到
    最少的台次): the pairs of one group allowed to meet, as few as this finds, and the lower
    bound on how few there can be.

    ``met``: who each player met already (never allowed); ``had_bye``: who had the pairing bye
    (an odd pool gives the bye to someone who has not).  Returns the rule with those pairs taken
    out (a new mapping: the group sets are shared and stay untouched), the pairs, and the bound
    ``n/2 - ν`` (ν: the most boards of different groups at once) — equal to the number of
    pairs whenever the relaxation is the fewest possible.

    Greedy on maximum matchings (Edmonds, :mod:`qiyuan.tournament.matching`): pair as many as
    possible across groups; while players are left, allow one same-group pair between them
    (or from one of them to a player already paired, which the next matching re-routes).
    """
    players = list(pool)
    odd = len(players) % 2 == 1
    n = len(players) + (1 if odd else 0)  # the last vertex stands for the bye
    index = {p: i for i, p in enumerate(players)}
    allowed: set[frozenset[int]] = set()

    def legal(i: int, j: int) -> bool:
        if odd and n - 1 in (i, j):
            k = j if i == n - 1 else i
            return not had_bye.get(players[k], False)
        a, b = players[i], players[j]
        return b not in met.get(a, ()) and a not in met.get(b, ())

    def same(i: int, j: int) -> bool:
        if odd and n - 1 in (i, j):
            return False
        return players[j] in apart.get(players[i], ())

    def cross(i: int, j: int) -> bool:
        return i != j and legal(i, j) and not same(i, j)

    bound = n // 2 - sum(m > i for i, m in enumerate(maximum_matching(n, cross)))
    while True:
        mate = maximum_matching(n, lambda i, j: i != j and legal(i, j) and (
            not same(i, j) or frozenset((players[i], players[j])) in allowed))
        exposed = [i for i in range(n) if mate[i] < 0]
        if not exposed:
            break
        pick = next(((i, j) for k, i in enumerate(exposed) for j in exposed[k + 1:] if legal(i, j) and same(i, j)),
                    None)
        if pick is None:
            pick = next(((i, j) for i in exposed for j in range(n) if j != i and legal(i, j) and same(i, j)
                         and frozenset((players[i], players[j])) not in allowed), None)
        if pick is None:
            break  # even without the rule there is no complete pairing: the pairing says why
        allowed.add(frozenset((players[pick[0]], players[pick[1]])))
    relaxed = {p: set(s) for p, s in apart.items()}
    for a, b in (tuple(sorted(x)) for x in allowed):
        relaxed[a].discard(b)
        relaxed[b].discard(a)
    return relaxed, sorted(tuple(sorted(x)) for x in allowed), bound


def same_group_boards(boards: list[tuple[int, int]], apart: dict[int, set[int]]) -> list[tuple[int, int, int]]:
    """``(board number, a, b)`` of each board whose players the rule wanted apart."""
    return [(k, a, b) for k, (a, b) in enumerate(boards, 1) if b in apart.get(a, ())]
