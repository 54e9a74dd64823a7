"""The calendar at the desk: the officer registers an event for its organiser, sees the check in the page's
language, amends, approves (an override needs its reason), refuses, withdraws — through the same use cases as
the command line; a report that differs from its registration is shown before the import is confirmed."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from qiyuan.office.audit.models import AuditLog
from qiyuan.office.calendar.models import Registration

from .test_office_desk import gomoku, report_bytes, six, upload  # noqa: F401 - fixtures

START = date.today() + timedelta(days=60)


@pytest.fixture
def lists(db):
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.ratings.models import RatingList

    RatingList.objects.create(code="CGA", title="中国五子棋等级分", rules_name="cga-gomoku-2011")
    Arbiter.objects.create(name="周裁判", level="national", recognised_national=True)
    Arbiter.objects.create(name="吴裁判", level="national", recognised_national=True)


def form(**changes) -> dict:
    data = {"name": "全国五子棋锦标赛", "list_code": "CGA", "start_date": START.isoformat(),
            "end_date": (START + timedelta(days=3)).isoformat(), "city": "北京", "organiser_level": "state",
            "national": "on", "format": "swiss", "rounds": "7", "expected_players": "36",
            "time_control": "每方60分钟", "rules_of_play": "national", "chief_arbiter": "周裁判",
            "arbiters": ["吴裁判"]}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_only_officers(staff, login, lists):
    for who in ("arbiter", "nobody"):
        assert login(staff[who]).get("/desk/calendar/").status_code == 403
    assert login(staff["officer"]).get("/desk/calendar/").status_code == 200


def test_register_see_the_check_and_approve(staff, login, lists):
    c = login(staff["officer"])
    r = c.post("/desk/calendar/new/", form())
    reg = Registration.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/desk/calendar/{reg.code}/"
    page = c.get(r["Location"]).content.decode()
    assert "按注册举行可计算等级分" in page and 'id="approve-form"' in page and 'name="override"' not in page
    r = c.post(f"/desk/calendar/{reg.code}/act/", {"action": "approve"}, follow=True)
    assert Registration.objects.get().status == "approved"
    assert AuditLog.objects.get(action="calendar.approve").actor == "officer"
    assert "全国五子棋锦标赛" in c.get("/desk/calendar/").content.decode()


def test_a_30_minute_event_is_told_why_and_approved_only_with_a_reason(staff, login, lists):
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form(time_control="每方30分钟"))
    reg = Registration.objects.get()
    page = c.get(f"/desk/calendar/{reg.code}/").content.decode()
    assert "按注册举行不能计算等级分" in page and "中国棋协办法第五条（八）" in page and 'name="override"' in page
    r = c.post(f"/desk/calendar/{reg.code}/act/", {"action": "approve", "override": ""}, follow=True)
    assert "cannot be approved as registered" in r.content.decode() or "不能" in r.content.decode()
    assert Registration.objects.get().status == "registered"
    c.post(f"/desk/calendar/{reg.code}/act/", {"action": "approve", "override": "表演赛，经协商计算"})
    reg.refresh_from_db()
    assert reg.status == "approved" and reg.overridden and reg.reason == "表演赛，经协商计算"


def test_bad_input_is_shown_every_problem_nothing_written(staff, login, lists):
    c = login(staff["officer"])
    past = (date.today() - timedelta(days=2)).isoformat()
    r = c.post("/desk/calendar/new/", form(start_date=past, end_date=past, time_control="快棋", rounds="x"))
    page = r.content.decode()
    assert r.status_code == 200 and Registration.objects.count() == 0
    assert "is in the past" in page or "过去" in page
    assert "快棋" in page and "&#x27;x&#x27;" in page


def test_amend_refuse_withdraw(staff, login, lists):
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form(time_control="30分钟"))
    reg = Registration.objects.get()
    page = c.get(f"/desk/calendar/{reg.code}/amend/").content.decode()
    assert 'value="30分钟"' in page and 'value="周裁判" selected' in page or "周裁判" in page
    r = c.post(f"/desk/calendar/{reg.code}/amend/", form(time_control="90分钟"))
    assert r.status_code == 302
    reg.refresh_from_db()
    assert reg.time_minutes == 90 and reg.assessment["rateable"]
    assert AuditLog.objects.get(action="calendar.amend").detail["changed"] == {"time_control": ["30分钟", "90分钟"]}
    c.post(f"/desk/calendar/{reg.code}/act/", {"action": "refuse", "reason": ""})
    assert Registration.objects.get().status == "registered"  # a refusal needs its reason
    c.post(f"/desk/calendar/{reg.code}/act/", {"action": "withdraw", "reason": "场地取消"})
    assert Registration.objects.get().status == "withdrawn"
    assert 'id="approve-form"' not in c.get(f"/desk/calendar/{reg.code}/").content.decode()
    assert c.get("/desk/calendar/R1999-001/").status_code == 404


def test_english_desk_page(staff, login, lists):
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form(time_control="每方30分钟"))
    c.get("/language/en/?next=/desk/calendar/")
    page = c.get(f"/desk/calendar/{Registration.objects.get().code}/").content.decode()
    assert "Not rateable as registered" in page and "first period must be at least 60 min" in page


def test_the_import_page_shows_differences_before_the_import_is_confirmed(staff, login, gomoku, six, tmp_path,
                                                                          settings):
    from qiyuan.office.event_registration import Details, register_event
    from qiyuan.office.events.models import Event

    settings.VAR_DIR = tmp_path
    reg = register_event(Details(name="2026年区五子棋赛", list_code="gomoku", start_date=date(2026, 2, 1),
                                 end_date=date(2026, 2, 1), city="北京", rounds=7, expected_players=6,
                                 time_control="60 min", chief_arbiter="裁判甲", organiser_level="state",
                                 national=True),
                         actor="organiser", today=date(2025, 10, 1))
    c = login(staff["officer"])
    r = upload(c, report_bytes(tmp_path, six))  # the facts the officer states agree with the registration
    page = r.content.decode()
    assert 'id="registration-differences"' in page and "rounds: registered 7, the report says 5" in page
    assert Event.objects.count() == 0
    r = c.post("/desk/office/imports/", {"confirming": "1"})
    assert r.status_code == 302
    reg.refresh_from_db()
    assert reg.event == Event.objects.get()
