"""Storing one checked grant: the step every grant shares (a use case around it writes the audit entry).

``record_grant`` checks the grant against the player's grants
(``grading.grant.grant_problems``: grade, body, cap on its date, lowering),
stores it with the certificate serial when the federation itself grants it, and
keeps the player's grade equal to that of his latest grant. It runs inside the
caller's transaction and lock (``office.db.REGISTRY``).
"""

from __future__ import annotations

import dataclasses
from datetime import date

from django.db.models.functions import Length

from qiyuan.errors import Problem
from qiyuan.grading.grant import grant_problems
from qiyuan.grading.policy import GrantPolicy
from qiyuan.office.events.models import Event
from qiyuan.office.federation.models import DanGrant, Player
from qiyuan.office.grades.errors import GradeRefused
from qiyuan.office.grades.history import held_on, later_grants
from qiyuan.office.grades.policies import policy_in_force, resolve_body
from qiyuan.people.grades import parse_grade


def next_serial(policy: GrantPolicy, year: int) -> str:
    """The next certificate serial of ``year``: ``{prefix}{year}-{n:05d}``, one above the highest in use (callers
    hold the registry lock; the unique constraint is the last word)."""
    head = f"{policy.serial_prefix}{year}-"
    used = (DanGrant.objects.filter(serial__startswith=head).order_by(Length("serial").desc(), "-serial")
            .values_list("serial", flat=True))
    last = next((int(s[len(head):]) for s in used.iterator() if s[len(head):].isdigit()), 0)
    return f"{head}{last + 1:05d}"


def check_grant(player: Player, grade: str, *, granted_on: date, granted_by: str, policy: GrantPolicy,
                demote: bool = False, reason: str = "", mine: list[DanGrant] | None = None) -> list[Problem]:
    """Every problem of granting ``grade`` to ``player`` (saved or about to be registered), at his record;
    ``mine``: his grants, when the caller has read them."""
    if mine is None:
        mine = list(player.dan_grants.all()) if player.pk else []
    problems = grant_problems(policy, grade=grade, on=granted_on, body=resolve_body(policy, granted_by),
                              body_name=granted_by, held=held_on(mine, granted_on, registry_dan=player.dan or ""),
                              later=later_grants(mine, granted_on), demote=demote, reason=reason)
    return [_placed(p, player) for p in problems]


def record_grant(player: Player, grade: str, *, granted_on: date, granted_by: str, policy: GrantPolicy | None = None,
                 event: Event | None = None, clause: str = "", demote: bool = False, reason: str = "") -> DanGrant:
    """Check and store one grant (no audit entry: the calling use case writes it). The player's grade becomes
    that of his latest grant."""
    policy = policy or policy_in_force().policy
    mine = list(player.dan_grants.all())
    problems = check_grant(player, grade, granted_on=granted_on, granted_by=granted_by, policy=policy,
                           demote=demote, reason=reason, mine=mine)
    if problems:
        raise GradeRefused(problems)
    body = resolve_body(policy, granted_by)
    name = body.name if body is not None else granted_by.strip()
    serial = next_serial(policy, granted_on.year) if policy.federation and name == policy.federation else ""
    grant = DanGrant.objects.create(player=player, grade=parse_grade(grade), granted_on=granted_on,
                                    granted_by=name, event=event, clause=clause, serial=serial,
                                    demotion_reason=reason.strip() if demote else "")
    latest = max([*mine, grant], key=lambda g: (g.granted_on, g.pk))
    if player.dan != latest.grade:
        player.dan = latest.grade
        Player.objects.filter(pk=player.pk).update(dan=latest.grade)  # only the grade (save() redoes the pinyin)
    return grant


def _placed(p: Problem, player: Player) -> Problem:
    """A problem of one player's grant, placed at his record (``CN000123: …``)."""
    return dataclasses.replace(p, file=player.federation_id)
