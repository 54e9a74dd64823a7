"""Issue 14 (3): from registration to result — an imported report is matched to its registration; whatever
differs from what was registered (dates, time control, arbiters, rounds) is shown to the officer before the
import stores anything; once stored, the registration points at the rated event."""

from __future__ import annotations

from datetime import date

import pytest

from ._o2_fixtures import confirm_all

from qiyuan.calendar.compare import Outline, differences, registered_for
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.calendar.models import Registration
from qiyuan.office.errors import NeedsConfirmation
from qiyuan.office.event_registration import Details, register_event, withdraw_registration

from .test_import_report import field_of, office, write  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

START = date(2024, 8, 10)


def registered(**changes) -> Registration:
    """The report's event as its organiser registered it in April (``write`` makes the report)."""
    fields = {"name": "2024年全国五子棋锦标赛", "list_code": "CGA", "start_date": START, "end_date": date(2024, 8, 13),
              "city": "北京", "rounds": 5, "expected_players": 12, "time_control": "每方60分钟",
              "chief_arbiter": "周裁判", "arbiters": ("吴裁判",), "organiser_level": "state", "national": True,
              **changes}
    return register_event(Details(**fields), actor="organiser", today=date(2024, 4, 1))


def test_a_report_as_registered_is_imported_and_linked(office, tmp_path, resident_id):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import import_file

    reg = registered()
    result = import_file(write(tmp_path / "r.xlsx", field_of(resident_id)), office, "officer", options=confirm_all())
    event = Event.objects.get()
    reg.refresh_from_db()
    assert reg.event == event and event.registration == reg
    assert f"registered as {reg.code} (registered, 2024-08-10 – 2024-08-13): the report is as registered" in map(str, result.notes)
    assert AuditLog.objects.get(action="import").detail["registration"] == reg.code


def test_differences_are_shown_before_anything_is_stored(office, tmp_path, resident_id):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import Options, import_file

    reg = registered(time_control="每方90分钟", rounds=7, arbiters=(), end_date=date(2024, 8, 12))
    path = write(tmp_path / "r.xlsx", field_of(resident_id))
    with pytest.raises(NeedsConfirmation) as exc:
        import_file(path, office, "officer", options=confirm_all())
    assert exc.value.pending_matches == []
    text = [str(p) for p in exc.value.differences]
    prefix = f"r.xlsx: differs from its registration {reg.code} (2024年全国五子棋锦标赛): "
    assert text == [prefix + "dates: registered 2024-08-10 – 2024-08-12, the report says 2024-08-10 – 2024-08-13",
                    prefix + "rounds: registered 7, the report says 5",
                    prefix + "time control: registered 每方90分钟, the report says 每方60分钟",
                    prefix + "arbiters: registered —, the report says 吴裁判"]
    assert Event.objects.count() == 0
    result = import_file(path, office, "officer", options=confirm_all(accept_registration_differences=True))
    reg.refresh_from_db()
    assert reg.event == Event.objects.get()
    assert any("the report differs: dates: registered 2024-08-10 – 2024-08-12" in n for n in map(str, result.notes))


def test_withdrawn_registrations_and_other_lists_are_not_matched(office, tmp_path, resident_id):
    from qiyuan.office.imports import import_file

    withdraw_registration(registered(time_control="每方90分钟").code, actor="organiser")
    import_file(write(tmp_path / "r.xlsx", field_of(resident_id)), office, "officer", options=confirm_all())
    assert Registration.objects.get().event is None


# -- the pure comparison --------------------------------------------------------------------------------


def outline(**changes) -> Outline:
    base = {"name": "2024年全国五子棋锦标赛", "start": START, "end": date(2024, 8, 13), "city": "北京",
            "format": "swiss", "rounds": 7, "time_control": "每方60分钟", "chief_arbiter": "周裁判",
            "arbiters": ("吴裁判", "郑裁判")}
    return Outline(**{**base, **changes})


def test_same_event_written_differently_has_no_differences():
    assert differences(outline(), outline(name="2024年 全国五子棋锦标赛", time_control="60 min",
                                          arbiters=("郑裁判", "吴裁判"))) == ()


def test_every_difference_is_named():
    found = differences(outline(), outline(start=date(2024, 8, 11), city="上海", format="round_robin", rounds=9,
                                           time_control="30分钟", chief_arbiter="吴裁判", arbiters=("周裁判",)))
    assert [f.message.split(":")[0] for f in found] == ["dates", "city", "format", "rounds", "time control",
                                                       "chief arbiter", "arbiters"]


def test_which_registration_a_report_belongs_to():
    a, b = outline(), outline(name="2024年北京五子棋公开赛", start=date(2024, 9, 1), end=date(2024, 9, 2))
    assert registered_for(outline(), [(a, "a"), (b, "b")]) == "a"
    # renamed, but on the same dates in the same city: the only one there
    assert registered_for(outline(name="2024全国锦标赛", start=date(2024, 8, 11)), [(a, "a"), (b, "b")]) == "a"
    # the same name every year: the one on overlapping dates
    next_year = outline(start=date(2025, 8, 10), end=date(2025, 8, 13))
    assert registered_for(outline(), [(next_year, "next"), (a, "a")]) == "a"
    assert registered_for(outline(city="广州", name="别的比赛"), [(a, "a")]) is None


def test_a_desk_event_starts_from_its_approved_registration(office):
    from qiyuan.office.event_registration import approve_registration, desk_start, runnable

    waiting = registered(name="待批准", city="广州", organiser_level="regional")
    reg = approve_registration(registered(arbiters=("吴裁判",)).code, actor="officer", today=date(2024, 4, 1))
    assert [r.code for r in runnable(date(2024, 8, 1))] == [reg.code]  # approved ones only
    assert waiting.code not in [r.code for r in runnable(date(2024, 8, 1))]
    start = desk_start(reg)
    assert (start.name, start.start, start.end, start.city, start.format, start.rounds, start.time_control,
            start.chief_arbiter, start.arbiters) == ("2024年全国五子棋锦标赛", START, date(2024, 8, 13), "北京",
                                                     "swiss", 5, "每方60分钟", "周裁判", ("吴裁判",))
    assert runnable(date(2024, 8, 30)).count() == 0  # over for more than a week
