"""The checks of a registration on the office's records: the registration → ``PlannedEvent``, the other
registered events → ``Scheduled``, the list's rule set → its conditions; stored as JSON on the row.

``conditions`` is the one place that asks the rating core which conditions
the list's rule set checks (``check_eligibility``) and which text's
registration rules apply (``text_rules``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from qiyuan.calendar.checks import (
    Assessment,
    Clash,
    Finding,
    PlannedEvent,
    Scheduled,
    TextRules,
    assess,
    facts_in_advance,
    text_rules,
)
from qiyuan.office.calendar.models import Registration
from qiyuan.office.event_registration.details import Valid
from qiyuan.office.ratings.models import RatingList
from qiyuan.rating.eligibility import ArbiterFacts, Eligibility, EventFacts, OrganiserLevel, check_eligibility
from qiyuan.rating.model import EventFormat

#: the registrations a new one can clash with
LIVE = (Registration.Status.REGISTERED, Registration.Status.APPROVED)


def conditions(rating_list: RatingList, facts: EventFacts) -> tuple[Eligibility, TextRules]:
    """The list's rule set's eligibility conditions on ``facts``, and its text's registration rules."""
    rules = rating_list.rules()
    return check_eligibility(rules, facts), text_rules(rules.eligibility)


def list_text_rules(rating_list: RatingList) -> TextRules:
    """The registration rules of the list's rule set (its home regions, the notice it asks)."""
    return text_rules(rating_list.rules().eligibility)


def planned(v: Valid, applied_on: date) -> PlannedEvent:
    d = v.details
    return PlannedEvent(
        name=" ".join(d.name.split()), start=v.start, end=v.end, applied_on=applied_on, format=EventFormat(d.format),
        rounds=v.rounds, expected_players=v.expected_players, time_control=v.time_control,
        organiser_level=OrganiserLevel(d.organiser_level), national=d.national, international=d.international,
        agreed_by_parties=d.agreed_by_parties, city=" ".join(d.city.split()), inside_regions=v.inside_regions,
        rules_of_play=d.rules_of_play, rif_approved=d.rif_approved,
        arbiters=tuple(ArbiterFacts(a.name, a.level, a.recognised_national) for a in (v.chief, *v.arbiters)),
        grants_grades=d.grants_grades, standard_published_on=v.standard_published_on,
    )


def scheduled_beside(p: PlannedEvent, rating_list: RatingList, exclude: int | None = None) -> list[Scheduled]:
    """The other live registrations of the same game (五子棋 / 围棋) on overlapping dates that were
    registered before this one (``exclude``, a registration's pk; None: a new one, after them all):
    the registration made first keeps its approval path, a clash is reported on the later one only."""
    rows = Registration.objects.filter(status__in=LIVE, rating_list__game=rating_list.game,
                                       start_date__lte=p.end, end_date__gte=p.start)
    if exclude is not None:
        rows = rows.filter(pk__lt=exclude)
    rows = rows.order_by("start_date", "code")
    return [Scheduled(r.code, r.name, r.start_date, r.end_date, r.city, OrganiserLevel(r.organiser_level))
            for r in rows]


def check(v: Valid, applied_on: date, exclude: int | None = None) -> Assessment:
    """Every check of a registration at once (see ``qiyuan.calendar.checks``)."""
    p = planned(v, applied_on)
    eligibility, rules = conditions(v.rating_list, facts_in_advance(p))
    return assess(p, eligibility, rules, scheduled_beside(p, v.rating_list, exclude))


# -- the stored form ---------------------------------------------------------------------------------


def _finding(f: Finding) -> dict:
    return {"clause": f.clause, "message": f.message, "params": dict(f.params) if f.params else None}


def _clash(c: Clash) -> dict:
    f = c.finding()
    return {"code": c.code, "name": c.name, "start": c.start.isoformat(), "end": c.end.isoformat(),
            "same_city": c.same_city, "same_level": c.same_level, **_finding(f)}


def stored(a: Assessment, on: date) -> dict:
    """The assessment as the registration keeps it (``Registration.assessment``)."""
    return {"rateable": a.rateable, "approvable": a.approvable, "verdict": a.verdict(), "checked_on": on.isoformat(),
            "failures": [_finding(f) for f in a.failures], "clashes": [_clash(c) for c in a.clashes],
            "notes": [_finding(f) for f in a.notes]}


def findings(data: dict, key: str) -> list[Finding]:
    """The stored findings of one kind (``failures``, ``clashes``, ``notes``), to show or translate."""
    return [Finding(item.get("clause", ""), item.get("message", ""), item.get("params") or None)
            for item in data.get(key, []) if isinstance(item, dict)]


def problems_of(data: dict) -> list[Finding]:
    """What stands in the way of approval, as stored: the failures, then each clash."""
    return findings(data, "failures") + findings(data, "clashes")


def clash_codes(items: Iterable[dict]) -> list[str]:
    return [c["code"] for c in items]
