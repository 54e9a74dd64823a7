"""Recording an event's grading standard before it starts (比赛等级和称号标准应在比赛开始前公布, BJSH §9(三)).

The standard names the class of the policy in force (its placing → grade tables
are then the published standard); the office's date of recording is the
evidence that it came before the start, so a standard can only be recorded for
an event that has not started. The imported event finds it by its name and
start date; the officer can also name it (``standard_for``).
"""

from __future__ import annotations

from datetime import date

from qiyuan.errors import NotFound, problem
from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, use_case
from qiyuan.office.grades.errors import GradeRefused
from qiyuan.office.grades.models import GradingStandard
from qiyuan.office.grades.policies import policy_in_force
from qiyuan.office.ratings.models import RatingList


def _name_key(name: str) -> str:
    return "".join((name or "").split())


@use_case(REGISTRY)
def record_standard(event_name: str, start_date: date, event_class: str, *, actor: object,
                    rating_list: RatingList | str | None = None, note: str = "", today: date | None = None
                    ) -> GradingStandard:
    """Record the grading standard of a coming event: its class under the policy in force, today."""
    today = today or date.today()
    in_force = policy_in_force()
    problems = []
    name = " ".join((event_name or "").split())
    if not name:
        problems.append(problem("the event's name is empty"))
    if in_force.version is None:
        problems.append(problem("no grant policy is installed, so there is no class to name: "
                                "`qiyuan office dan policy install FILE` first"))
    cls = in_force.policy.event_class(event_class)
    if in_force.version is not None and cls is None:
        problems.append(problem("class {cls!r} is not in the policy {policy} (classes: {known})", cls=event_class,
                                policy=in_force.policy.name,
                                known=", ".join(c.name for c in in_force.policy.classes) or "none"))
    if start_date <= today:
        problems.append(problem("the event starts on {start}: a standard must be recorded before the start "
                                "(BJSH §9(三)), and today is {today}", start=start_date.isoformat(),
                                today=today.isoformat()))
    rl = None
    if isinstance(rating_list, RatingList):
        rl = rating_list
    elif rating_list:
        rl = RatingList.objects.filter(code=rating_list).first()
        if rl is None:
            problems.append(problem("unknown rating list {list!r}", list=rating_list))
    if rl is not None and cls is not None and cls.lists and rl.code not in cls.lists:
        problems.append(problem("class {cls} covers lists {lists}, not {list}", cls=cls.name,
                                lists=", ".join(cls.lists), list=rl.code))
    if name and any(_name_key(s.event_name) == _name_key(name)
                    for s in GradingStandard.objects.filter(start_date=start_date)):
        problems.append(problem("a standard for {event} starting {start} is recorded already", event=name,
                                start=start_date.isoformat()))
    if problems:
        raise GradeRefused(problems)
    standard = GradingStandard.objects.create(
        event_name=name, start_date=start_date, event_class=event_class, rating_list=rl, note=note.strip(),
        recorded_on=today, recorded_by=actor.get_username() if hasattr(actor, "get_username") else str(actor),
        policy=in_force.version)
    record(actor, "dan.standard", standard, event=name, start=start_date, event_class=event_class,
           policy=in_force.policy.name)
    return standard


def standard_for(event, standard_id: int | None = None) -> GradingStandard | None:
    """The standard of an office event: the one named (by id), else the one recorded for its name and start
    date (whitespace aside), else none."""
    if standard_id is not None:
        standard = GradingStandard.objects.filter(pk=standard_id).select_related("policy").first()
        if standard is None:
            raise NotFound([problem("no grading standard #{id}", id=standard_id)])
        return standard
    key = _name_key(event.name)
    return next((s for s in GradingStandard.objects.filter(start_date=event.start_date).select_related("policy")
                 if _name_key(s.event_name) == key), None)
