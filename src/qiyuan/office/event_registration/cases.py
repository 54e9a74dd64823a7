"""The calendar's use cases: register, amend, approve, refuse, withdraw — one function each.

Each validates everything at once, runs in one transaction holding the
calendar's lock (``CALENDAR``: two registrations at the same moment see each
other, so a clash is never missed and no code is given twice), writes one
audit entry and raises ``CalendarError`` (every problem) or ``NotFound``.
A registration with problems is recorded; it is approved only when the check
finds nothing, or when the officer overrides with a reason (audited).
"""

from __future__ import annotations

import dataclasses
from datetime import date

from django.utils import timezone

from qiyuan.calendar.checks import Finding
from qiyuan.errors import Problem, problem
from qiyuan.office.audit.models import record
from qiyuan.office.calendar.models import Registration
from qiyuan.office.db import writing
from qiyuan.office.errors import NotFound
from qiyuan.office.event_registration.assess import check, clash_codes, list_text_rules, problems_of, stored
from qiyuan.office.event_registration.details import AMENDABLE, Details, Valid, validate
from qiyuan.office.event_registration.errors import CalendarError

#: the calendar's lock: registrations, their codes and their clash checks
CALENDAR = "calendar"

S = Registration.Status


def _today(today: date | None) -> date:
    return today or timezone.localdate()


def find_registration(code: str) -> Registration:
    """The registration with this code (``R2026-001``), or ``NotFound``."""
    found = Registration.objects.filter(code=(code or "").strip()).select_related(
        "rating_list", "chief_arbiter", "association", "event").first()
    if found is None:
        raise NotFound([problem("no registered event {ref!r} (`qiyuan office calendar list`)",
                                code="calendar.unknown", ref=code)])
    return found


def as_problem(f: Finding) -> Problem:
    """A finding as one of a refusal's problems (``calendar.problem``: the page shows the finding itself)."""
    if f.params:
        return problem("{clause}: " + f.message if f.clause else f.message, code="calendar.problem",
                       **({"clause": f.clause} if f.clause else {}), **f.params)
    return Problem(message=str(f), code="calendar.problem")


def _next_code(start: date) -> str:
    prefix = f"R{start.year}-"
    used = Registration.objects.filter(code__startswith=prefix).values_list("code", flat=True)
    numbers = [int(c[len(prefix):]) for c in used if c[len(prefix):].isdigit()]
    return f"{prefix}{max(numbers, default=0) + 1:03d}"


def _apply(reg: Registration, v: Valid) -> None:
    d = v.details
    reg.name, reg.name_en = " ".join(d.name.split()), " ".join(d.name_en.split())
    reg.rating_list = v.rating_list
    reg.start_date, reg.end_date = v.start, v.end
    reg.city = " ".join(d.city.split())
    reg.inside_regions = v.inside_regions
    reg.organiser, reg.organiser_level, reg.association = " ".join(d.organiser.split()), d.organiser_level, v.association
    reg.national, reg.international, reg.agreed_by_parties = d.national, d.international, d.agreed_by_parties
    reg.format, reg.rounds, reg.expected_players = d.format, v.rounds, v.expected_players
    reg.time_control = " ".join(d.time_control.split())
    reg.time_minutes, reg.time_increment = v.time_control.base_minutes, v.time_control.increment_seconds
    reg.rules_of_play, reg.rif_approved = d.rules_of_play, d.rif_approved
    reg.chief_arbiter = v.chief
    reg.grants_grades, reg.standard_published_on = d.grants_grades, v.standard_published_on


def details_of(reg: Registration) -> Details:
    """A registration's details as entered (what an amendment starts from)."""
    return Details(
        name=reg.name, name_en=reg.name_en, list_code=reg.rating_list.code, start_date=reg.start_date,
        end_date=reg.end_date, city=reg.city, inside_regions=reg.inside_regions, organiser=reg.organiser,
        organiser_level=reg.organiser_level, association=reg.association.code if reg.association else "",
        national=reg.national, international=reg.international, agreed_by_parties=reg.agreed_by_parties,
        format=reg.format, rounds=reg.rounds, expected_players=reg.expected_players, time_control=reg.time_control,
        rules_of_play=reg.rules_of_play, rif_approved=reg.rif_approved, chief_arbiter=reg.chief_arbiter.name,
        arbiters=tuple(reg.arbiter_names), grants_grades=reg.grants_grades,
        standard_published_on=reg.standard_published_on,
    )


def _summary(a: dict) -> dict:
    """The audit entry's account of a check."""
    return {"verdict": a["verdict"], "failures": [f"{f['clause']}: {f['message']}" if f["clause"] else f["message"]
                                                  for f in a["failures"]],
            "clashes": clash_codes(a["clashes"])}


def register_event(details: Details, *, actor: object, today: date | None = None) -> Registration:
    """Record a registration (赛事注册) and its check; recorded even when the check finds problems."""
    today = _today(today)
    with writing(CALENDAR):
        v = validate(details, today=today, text_rules_of=list_text_rules)
        assessment = check(v, today)
        reg = Registration(code=_next_code(v.start), applied_on=today, registered_by=_actor_name(actor),
                           status=S.REGISTERED)
        _apply(reg, v)
        reg.assessment = stored(assessment, today)
        reg.save()
        reg.arbiters.set(v.arbiters)
        record(actor, "calendar.add", reg, code=reg.code, name=reg.name, start=reg.start_date, end=reg.end_date,
               list=v.rating_list.code, **_summary(reg.assessment))
    return reg


def _actor_name(actor: object) -> str:
    if actor is None or isinstance(actor, str):
        return actor or ""
    return actor.get_username() if hasattr(actor, "get_username") else str(actor)


#: why an action is refused by the registration's status (each template whole, to be translated whole)
_CANNOT = {
    (S.APPROVED, "approved"): "{ref} is approved: it cannot be approved",
    (S.REFUSED, "approved"): "{ref} is refused: it cannot be approved",
    (S.WITHDRAWN, "approved"): "{ref} is withdrawn: it cannot be approved",
    (S.REFUSED, "refused"): "{ref} is refused: it cannot be refused",
    (S.WITHDRAWN, "refused"): "{ref} is withdrawn: it cannot be refused",
    (S.REFUSED, "withdrawn"): "{ref} is refused: it cannot be withdrawn",
    (S.WITHDRAWN, "withdrawn"): "{ref} is withdrawn: it cannot be withdrawn",
    (S.REFUSED, "amended"): "{ref} is refused: it cannot be amended",
    (S.WITHDRAWN, "amended"): "{ref} is withdrawn: it cannot be amended",
    (S.REFUSED, "entries"): "{ref} is refused: its entry list cannot be changed",
    (S.WITHDRAWN, "entries"): "{ref} is withdrawn: its entry list cannot be changed",
}
_HAS_RESULT = {
    "approved": "{ref} has its result already (event {event}): it cannot be approved",
    "refused": "{ref} has its result already (event {event}): it cannot be refused",
    "withdrawn": "{ref} has its result already (event {event}): it cannot be withdrawn",
    "amended": "{ref} has its result already (event {event}): it cannot be amended",
    "entries": "{ref} has its result already (event {event}): its entry list cannot be changed",
}


def refuse_unless(reg: Registration, allowed: tuple[str, ...], action: str) -> None:
    problems = []
    if reg.status not in allowed:
        problems.append(problem(_CANNOT[(reg.status, action)], code="calendar.state", ref=reg.code))
    if reg.event_id is not None:
        problems.append(problem(_HAS_RESULT[action], code="calendar.state", event=reg.event.code, ref=reg.code))
    if problems:
        raise CalendarError(problems)


def amend_registration(code: str, changes: dict, *, actor: object, today: date | None = None) -> Registration:
    """Change what was registered (``changes``: ``Details`` field → value, as entered); checked again as a
    whole. An approved registration that changes goes back to the officer (its approval was for what it was)."""
    today = _today(today)
    with writing(CALENDAR):
        reg = find_registration(code)
        refuse_unless(reg, (S.REGISTERED, S.APPROVED), "amended")
        unknown = sorted(set(changes) - set(AMENDABLE))
        if unknown:
            raise CalendarError([problem("{fields}: not something an amendment changes (one of {known})",
                                         code="calendar.input", fields=", ".join(unknown),
                                         known=", ".join(AMENDABLE))])
        before = details_of(reg)
        after = dataclasses.replace(before, **changes)
        v = validate(after, today=today, text_rules_of=list_text_rules)
        now = _typed(v)
        changed = {f: [_plain(getattr(before, f)), _plain(getattr(now, f))] for f in AMENDABLE
                   if _plain(getattr(before, f)) != _plain(getattr(now, f))}
        if not changed:
            raise CalendarError([problem("nothing to amend: {ref} is registered so already", code="calendar.input",
                                         ref=reg.code)])
        was_approved = reg.status == S.APPROVED
        _apply(reg, v)
        reg.assessment = stored(check(v, reg.applied_on, exclude=reg.pk), today)
        if was_approved:
            reg.status, reg.overridden, reg.reason = S.REGISTERED, False, ""
        reg.save()
        reg.arbiters.set(v.arbiters)
        record(actor, "calendar.amend", reg, code=reg.code, changed=changed, approval_withdrawn=was_approved,
               **_summary(reg.assessment))
    return reg


def _typed(v: Valid) -> Details:
    """Validated details with typed values (what is stored), to compare with what was stored."""
    return dataclasses.replace(
        v.details, start_date=v.start, end_date=v.end, rounds=v.rounds, expected_players=v.expected_players,
        standard_published_on=v.standard_published_on, inside_regions=v.inside_regions, chief_arbiter=v.chief.name,
        arbiters=tuple(a.name for a in v.arbiters), association=v.association.code if v.association else "")


def _plain(value: object) -> object:
    """A detail as compared and audited: dates as text, sequences as lists, text without extra spaces."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [" ".join(str(x).split()) for x in value if str(x).strip()]
    if isinstance(value, str):
        return " ".join(value.split())
    return value


def approve_registration(code: str, *, actor: object, override_reason: str = "",
                         today: date | None = None) -> Registration:
    """Approve a registration: checked again first (a clash may have arrived since); with problems only when
    the officer overrides them with a reason, which the audit entry keeps with the problems overridden."""
    today = _today(today)
    with writing(CALENDAR):
        reg = find_registration(code)
        refuse_unless(reg, (S.REGISTERED,), "approved")
        v = validate(details_of(reg), today=min(today, reg.start_date), text_rules_of=list_text_rules)
        reg.assessment = stored(check(v, reg.applied_on, exclude=reg.pk), today)
        reason = " ".join((override_reason or "").split())
        overridden = not reg.assessment["approvable"]
        if overridden and not reason:
            raise CalendarError(
                [problem("{ref} cannot be approved as registered; amend it, or approve it with an override and "
                         "its reason", code="calendar.needs_override", ref=reg.code)]
                + [as_problem(f) for f in problems_of(reg.assessment)])
        reg.status, reg.overridden, reg.reason = S.APPROVED, overridden, reason
        reg.decided_by, reg.decided_at = _actor_name(actor), timezone.now()
        reg.save()
        record(actor, "calendar.approve", reg, code=reg.code, override=overridden, reason=reason,
               **_summary(reg.assessment))
    return reg


def refuse_registration(code: str, reason: str, *, actor: object) -> Registration:
    """Refuse a registration, with the reason the organiser is told."""
    with writing(CALENDAR):
        reg = find_registration(code)
        refuse_unless(reg, (S.REGISTERED, S.APPROVED), "refused")
        reason = " ".join((reason or "").split())
        if not reason:
            raise CalendarError([problem("a refusal needs its reason (--reason)", code="calendar.input")])
        previous = reg.status
        reg.status, reg.reason, reg.overridden = S.REFUSED, reason, False
        reg.decided_by, reg.decided_at = _actor_name(actor), timezone.now()
        reg.save()
        record(actor, "calendar.refuse", reg, code=reg.code, reason=reason, was=previous)
    return reg


def withdraw_registration(code: str, *, actor: object, reason: str = "") -> Registration:
    """The organiser withdraws the event (it will not be played as registered)."""
    with writing(CALENDAR):
        reg = find_registration(code)
        refuse_unless(reg, (S.REGISTERED, S.APPROVED), "withdrawn")
        previous = reg.status
        reg.status, reg.reason = S.WITHDRAWN, " ".join((reason or "").split())
        reg.decided_by, reg.decided_at = _actor_name(actor), timezone.now()
        reg.save()
        record(actor, "calendar.withdraw", reg, code=reg.code, reason=reg.reason, was=previous)
    return reg
