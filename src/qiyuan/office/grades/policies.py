"""The grant policy in force (段级位授予办法) and installing a new one.

The newest installed ``PolicyVersion`` is in force; with none installed, the
texts' own frame is (``grading.policy.TEXTS_POLICY``: the 六段 cap, the recognised
bodies, no event class). Raising the cap (第五条) is installing the policy again
with one more dated ``[[cap]]`` step; a new policy is refused if a grant already
recorded would no longer agree with it. An event is judged by the classes and
tables of the policy its standard was recorded under (what was published before
it started), and by the cap in force on its last day.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from qiyuan.errors import joined, problem
from qiyuan.grading.policy import TEXTS_POLICY, Body, GrantPolicy, PolicyError, policy_from_toml
from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, use_case
from qiyuan.office.errors import InternalError
from qiyuan.office.federation.models import Association, DanGrant
from qiyuan.office.grades.errors import GradeRefused
from qiyuan.office.grades.models import PolicyVersion
from qiyuan.people.grades import is_dan, strength

@dataclass(frozen=True)
class PolicyInForce:
    """The policy the office applies now, and the installed version it comes from (None: the texts alone)."""

    policy: GrantPolicy
    version: PolicyVersion | None


def policy_in_force() -> PolicyInForce:
    version = PolicyVersion.objects.order_by("-installed_at", "-id").first()
    if version is None:
        return PolicyInForce(TEXTS_POLICY, None)
    return PolicyInForce(version_policy(version), version)


def version_policy(version: PolicyVersion) -> GrantPolicy:
    """The policy of an installed version (checked when installed: one that no longer reads is a fault)."""
    try:
        return policy_from_toml(version.text, file=f"policy #{version.pk}")
    except PolicyError as exc:
        raise InternalError([problem("the installed grant policy #{id} no longer reads: {why}", id=version.pk,
                                     why=joined(exc.problems, "; "))]) from exc


def resolve_body(policy: GrantPolicy, name: str) -> Body | None:
    """The recognised body called ``name``: the federation, a body of the policy, or — when the policy
    recognises them — a registered association by code or name (BJSH §13(二)4; capped)."""
    body = policy.body(name)
    if body is not None or not policy.member_associations or not (name or "").strip():
        return body
    key = name.strip()
    assoc = Association.objects.filter(code=key).first() or Association.objects.filter(name=key).first()
    return Body(assoc.name, assoc.name_en, True) if assoc is not None else None


@use_case(REGISTRY)
def install_policy(text: str, *, file: str, actor: object) -> PolicyVersion:
    """Put a grant policy in force: every problem of the file at once (``PolicyError``, with lines), then
    refused if a grant already recorded would be above its cap on the grant's day."""
    policy = policy_from_toml(text, file=file)
    current = PolicyVersion.objects.order_by("-installed_at", "-id").first()
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    problems = []
    if current is not None and current.sha256 == sha:
        problems.append(problem("this policy is in force already (installed {when} by {who})",
                                when=f"{current.installed_at:%Y-%m-%d %H:%M}", who=current.installed_by))
    for g in DanGrant.objects.select_related("player").order_by("granted_on", "id"):
        body = resolve_body(policy, g.granted_by)
        if body is None or not body.capped or not is_dan(g.grade):
            continue
        cap = policy.cap_on(g.granted_on)
        if cap is None or strength(g.grade) > strength(cap):
            problems.append(problem("{player} was granted {grade} by {body} on {day}; this policy's cap on that day "
                                    "is {cap}", player=g.player.federation_id, grade=g.grade, body=g.granted_by,
                                    day=g.granted_on.isoformat(), cap=cap or "none"))
    if problems:
        raise GradeRefused(problems)
    version = PolicyVersion.objects.create(name=policy.name, text=text, sha256=sha,
                                           installed_by=_actor_name(actor))
    record(actor, "dan.policy", version, name=policy.name, file=file, caps=[
        [c.since.isoformat(), c.grade] for c in policy.caps], classes=[c.name for c in policy.classes])
    return version


def _actor_name(actor: object) -> str:
    return actor.get_username() if hasattr(actor, "get_username") else str(actor or "")
