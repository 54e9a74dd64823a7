"""Issue 14, item 3: a desk event starts from its registered, approved calendar event — the new-event form filled
in from the registration, and the event's report later matched to it."""

from __future__ import annotations

from qiyuan.office.calendar.models import Registration
from qiyuan.office.events.models import LiveEvent

from .test_calendar_desk import START, form, lists  # noqa: F401 - fixtures


def _approved(staff, login) -> Registration:
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form())
    reg = Registration.objects.get()
    c.post(f"/desk/calendar/{reg.code}/act/", {"action": "approve"})
    reg.refresh_from_db()
    assert reg.status == "approved"
    return reg


def test_new_event_form_is_filled_in_from_an_approved_registration(staff, login, lists):
    from qiyuan.office.event_registration import match
    from qiyuan.office.events.live import load
    from qiyuan.office.imports.parse import from_tournament

    reg = _approved(staff, login)
    c = login(staff["arbiter"])
    page = c.get("/desk/events/new/").content.decode()
    assert 'id="from-registration"' in page and f'<option value="{reg.code}">' in page
    page = c.get(f"/desk/events/new/?from={reg.code}").content.decode()
    assert f'name="code" value="{reg.code}"' in page and 'value="全国五子棋锦标赛"' in page
    assert f'value="{START.isoformat()}"' in page and 'name="rounds" value="7"' in page
    assert 'value="每方60分钟"' in page and 'name="chief_arbiter" value="周裁判"' in page
    assert 'name="organiser_level"' in page and '<option value="state" selected>' in page
    assert "checked" in page.split("吴裁判")[0].rsplit("<input", 1)[1]  # the other arbiter, from the registry
    # the arbiter submits the form as filled in
    post = {"registration": reg.code, "code": reg.code, "name": reg.name, "fmt": "swiss", "rounds": "7",
            "start": START.isoformat(), "end": reg.end_date.isoformat(), "city": "北京", "time_control": "每方60分钟",
            "chief_arbiter": "周裁判", "registry_arbiters": [reg.arbiters.get().pk], "organiser_level": "state"}
    r = c.post(f"/desk/events/new/?from={reg.code}", post)
    assert r.status_code == 302, r.content.decode()[-2000:]
    live = LiveEvent.objects.get(code=reg.code)
    t = load(live)
    assert (t.name, t.rounds_planned, t.chief_arbiter, t.deputy_arbiters) == (reg.name, 7, "周裁判", ["吴裁判"])
    # its report will be matched to the registration, with nothing differing but what was not yet played
    found = match(from_tournament(t, "swiss", "report"), reg.rating_list)
    assert found is not None and found.registration == reg


def test_a_registration_not_approved_cannot_start_an_event(staff, login, lists):
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form())
    reg = Registration.objects.get()
    page = login(staff["arbiter"]).get(f"/desk/events/new/?from={reg.code}").content.decode()
    assert "只有已批准、尚无成绩的注册赛事可以" in page and f'name="code" value="{reg.code}"' not in page
