"""Keep apart (同单位回避): players of one association, club or family do not meet in the first rounds.

An arbiter's rule, off by default, beyond the bare Gomoku Swiss text (a
departure recorded in ``docs/decisions.md``): for each kind the arbiter sets
(``XQA association 3`` — the first 3 rounds), two players with the same
non-empty association (所属单位), club (俱乐部) or family label are not paired
in those rounds.  The Swiss engine takes it as an added hard rule, honoured by
its look-ahead like a meeting; when no complete pairing of a round keeps them
apart, the rule is relaxed for that round and the pairing says so.

Round robins, knock-outs, matches and team events follow their tables: the
rule does not apply to them.
"""

from __future__ import annotations

from qiyuan.tournament.errors import EventInputError, problem
from qiyuan.tournament.explanation import Line
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
