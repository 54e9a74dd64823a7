"""Granting grades (段级位授予): by confirming an event's proposals, or by hand.

* ``confirm_proposals`` — the officer confirms an event's proposals (all, or the
  players he names): the proposal is made again under the lock, and each line
  that grants becomes a ``DanGrant`` dated the event's last day, naming the event
  and the clause, with a certificate serial;
* ``grant_grade`` — one grade by hand: a grade earned elsewhere, a grade of a
  recognised body (中国棋院, RIF, 日本连珠社, an association: BJSH §13(二)), a
  demotion (with ``demote`` and a reason).

Both check every grant with ``grading.grant.grant_problems`` (grade, body, cap on
its date, lowering), refuse with every problem at once (``GradeRefused``) and
write nothing then; otherwise they write the grants and one audit entry per
grant. The checked write itself is ``store.record_grant`` (the registration of a
player with his grade uses it too, inside its own use case).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import date

from qiyuan.errors import problem
from qiyuan.grading.proposal import Outcome
from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, use_case
from qiyuan.office.events.models import Event
from qiyuan.office.federation.models import DanGrant, Player
from qiyuan.office.grades.errors import GradeRefused
from qiyuan.office.grades.proposals import event_proposal
from qiyuan.office.grades.store import record_grant


@use_case(REGISTRY)
def grant_grade(player: Player, grade: str, *, granted_on: date, granted_by: str, actor: object,
                event: Event | None = None, demote: bool = False, reason: str = "") -> DanGrant:
    """Grant (record) one grade by hand (see the module's docstring)."""
    player.refresh_from_db()  # under the registry's lock: check the record as it is now
    if player.merged_into_id:
        raise GradeRefused([problem("{player} is a duplicate merged into another record; grant to that one",
                                    player=player.federation_id)])
    grant = record_grant(player, grade, granted_on=granted_on, granted_by=granted_by, event=event,
                         clause="by hand" if event is not None else "", demote=demote, reason=reason)
    record(actor, "player.dan", player, grade=grant.grade, granted_on=granted_on, granted_by=grant.granted_by,
           event=event.code if event else None, serial=grant.serial or None,
           demotion_reason=grant.demotion_reason or None)
    return grant


@use_case(REGISTRY)
def confirm_proposals(event: Event, *, actor: object, players: Iterable[str] | None = None,
                      standard_id: int | None = None) -> list[DanGrant]:
    """Confirm an event's proposals: every line that grants, or those of the named players (federation IDs).
    Refused — nothing written — when the event is not a grading event, when a named player's line does not
    grant (the reason is given), or when nothing is left to grant."""
    ep = event_proposal(event, standard_id=standard_id)
    prop = ep.proposal
    if prop.failures:
        raise GradeRefused([problem("{event} is not a grading event and grants nothing", event=event.code),
                            *prop.failures])
    by_player = {line.placing.player: line for line in prop.lines}
    wanted = None if players is None else [p.strip().upper() for p in players if p.strip()]
    problems = []
    if wanted is not None:
        for fid in wanted:
            line = by_player.get(fid)
            if line is None:
                problems.append(problem("{player} did not play in {event}", player=fid, event=event.code))
            elif line.outcome is not Outcome.GRANT:  # why not, said at his record
                problems.append(dataclasses.replace(line.reason, file=fid))
    lines = [line for line in prop.grants if wanted is None or line.placing.player in wanted]
    if not problems and not lines:
        problems.append(problem("no proposal of {event} is left to grant", event=event.code))
    if problems:
        raise GradeRefused(problems)
    rows = {p.federation_id: p for p in Player.objects.filter(
        pk__in=[ep.player_pks[line.placing.player] for line in lines])}
    grants = []
    for line in lines:
        player = rows[line.placing.player]
        grant = record_grant(player, line.grade, granted_on=prop.grant_on, granted_by=ep.policy.federation,
                             policy=ep.policy, event=event, clause=line.clause)
        record(actor, "player.dan", player, grade=grant.grade, granted_on=prop.grant_on, granted_by=grant.granted_by,
               event=event.code, clause=line.clause, serial=grant.serial or None, policy=prop.policy)
        grants.append(grant)
    return grants
