"""The checks every grant passes (段级位授予), by hand or by confirming a proposal.

* the grade is one of 第四条's (九段 … 初段, 一级 … 十级);
* the body is recognised (BJSH §13(二)): the federation, a body of the policy, or —
  when the policy says so — a registered association (the office resolves it);
* a capped body's dan grade is not above the cap in force on the grant's date (第五条);
* it does not lower the grade held on that date, unless it is a demotion with a
  reason; nor does it turn a later grant into a silent lowering.

Pure: the office passes the grades held (``Holding``) and gets every problem at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from qiyuan.errors import Problem, problem
from qiyuan.grading.policy import Body, GrantPolicy
from qiyuan.grading.proposal import CLAUSE_CAP, Holding
from qiyuan.people.grades import is_dan, parse_grade, strength


def grant_problems(policy: GrantPolicy, *, grade: str, on: date, body: Body | None, body_name: str,
                   held: Holding | None = None, later: Sequence[Holding] = (), demote: bool = False,
                   reason: str = "") -> list[Problem]:
    """Every reason the grant of ``grade`` on ``on`` by ``body`` cannot be recorded (empty: it can).

    ``held`` is the grade held on ``on``; ``later`` the grants dated after it (oldest first) that are not
    demotions themselves."""
    out: list[Problem] = []
    code = parse_grade(grade)
    if code is None:
        out.append(problem("{grade!r} is not a grade (9d…1d, 1k…10k; 九段…初段, 一级…十级)", grade=grade,
                           code="grades.grade"))
    if not (body_name or "").strip():
        out.append(problem("the granting body is missing (e.g. {federation}, 中国棋院, RIF)",
                           federation=policy.federation, code="grades.body"))
    elif body is None:
        known = [policy.federation, *(b.name for b in policy.bodies)]
        message = ("{body!r} is not a recognised body (BJSH §13(二)): {known}, or a registered association"
                   if policy.member_associations else "{body!r} is not a recognised body (BJSH §13(二)): {known}")
        out.append(problem(message, body=body_name, known=", ".join(known), code="grades.body"))
    if demote and not (reason or "").strip():
        out.append(problem("a demotion needs a reason", code="grades.demote"))
    if code is None:
        return out
    if body is not None and body.capped and is_dan(code):
        cap = policy.cap_on(on)
        if cap is None:
            first = policy.caps[0].since.isoformat() if policy.caps else "—"
            out.append(problem("no cap is in force on {day} (the policy's first step is {first}, {clause})",
                               day=on.isoformat(), first=first, clause=CLAUSE_CAP, code="grades.cap"))
        elif strength(code) > strength(cap):
            out.append(problem("{grade} is above the cap {cap} in force on {day} ({clause})", grade=code, cap=cap,
                               day=on.isoformat(), clause=CLAUSE_CAP, code="grades.cap"))
    if held is not None and strength(code) < strength(held.grade):
        if not demote:
            out.append(problem("{grade} is lower than the {held} held on {day} ({body}, {since}); a demotion needs "
                               "--demote and a reason", grade=code, held=held.grade, day=on.isoformat(),
                               body=held.body or "—", since=held.granted_on.isoformat() if held.granted_on else "—",
                               code="grades.lower"))
    elif demote:
        out.append(problem("--demote: {grade} is not lower than the grade held on {day} ({held})", grade=code,
                           day=on.isoformat(), held=held.grade if held else "none", code="grades.demote"))
    for h in later:
        if strength(h.grade) < strength(code):
            out.append(problem("a later grant ({later} on {day}, {body}) would then lower the grade; record this one "
                               "in date order", later=h.grade, day=h.granted_on.isoformat() if h.granted_on else "—",
                               body=h.body or "—", code="grades.lower"))
            break
    return out

