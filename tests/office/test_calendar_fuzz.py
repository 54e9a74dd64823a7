"""Bad input never crashes the calendar: whatever an organiser types into any field of a registration (or an
amendment), the outcome is a recorded registration or the calendar's refusal with every problem, and a refusal
writes nothing."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.office.audit.models import AuditLog
from qiyuan.office.calendar.models import Registration
from qiyuan.office.event_registration import AMENDABLE, CalendarError, amend_registration, register_event

from .test_calendar import TODAY, national, office  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])

#: what people type: digits, dates, Chinese, control characters, huge numbers, nothing
typed = st.one_of(
    st.text(max_size=30), st.text(alphabet="0123456789-+ 分钟秒minh:/", max_size=12),
    st.sampled_from(["", " ", "2027-02-30", "2027-04-10", "0", "-1", "99999999999999999999", "３", "\x00", "每方30分钟",
                     "45 min + 30 s", "周裁判", "无名氏", "BJ", "swiss", "rif", "state"]),
    st.integers(-10**30, 10**30), st.none(), st.booleans(),
    st.dates(min_value=date(1, 1, 1)),
)
FIELDS = [f.name for f in dataclasses.fields(national())]


@FUZZ
@given(st.dictionaries(st.sampled_from(FIELDS), typed, min_size=1, max_size=6))
def test_any_input_is_recorded_or_refused_whole(office, changes):
    if "arbiters" in changes and not isinstance(changes["arbiters"], (list, tuple)):
        changes["arbiters"] = (changes["arbiters"],) if isinstance(changes["arbiters"], str) else ()
    before = Registration.objects.count(), AuditLog.objects.count()
    try:
        details = dataclasses.replace(national(), **changes)
        reg = register_event(details, actor="fuzz", today=TODAY)
    except CalendarError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        assert (Registration.objects.count(), AuditLog.objects.count()) == before
    else:
        assert reg.pk and Registration.objects.count() == before[0] + 1


@FUZZ
@given(st.dictionaries(st.sampled_from(AMENDABLE), typed, min_size=1, max_size=4))
def test_any_amendment_is_taken_or_refused_whole(office, changes):
    if "arbiters" in changes and not isinstance(changes["arbiters"], (list, tuple)):
        changes["arbiters"] = ()
    reg = Registration.objects.first() or register_event(national(), actor="fuzz", today=TODAY)
    snapshot = Registration.objects.filter(pk=reg.pk).values().get()
    try:
        amend_registration(reg.code, changes, actor="fuzz", today=TODAY)
    except CalendarError as exc:
        assert exc.problems
        assert Registration.objects.filter(pk=reg.pk).values().get() == snapshot
