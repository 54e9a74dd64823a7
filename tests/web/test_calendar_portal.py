"""Issue 14 (4): the public calendar — approved events, upcoming and past (past ones link to their results),
filtered by list, city and month, in both languages; `/calendar.ics` lists the approved events and is a valid
iCalendar feed (parsed back and checked against RFC 5545's required properties)."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from icalendar import Calendar

from qiyuan.office.calendar.models import Registration
from qiyuan.office.event_registration import (
    Details,
    approve_registration,
    register_event,
    refuse_registration,
)

pytestmark = pytest.mark.django_db

TODAY = date.today()
SOON = TODAY + timedelta(days=40)
PAST = TODAY - timedelta(days=100)


@pytest.fixture
def calendar(db):
    """Approved events in two lists and two cities (one of them past, with its result), one refused, one
    awaiting the officer."""
    from qiyuan.office.events.models import Event
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.ratings.models import RatingList

    cga = RatingList.objects.create(code="CGA", title="中国五子棋等级分", title_en="CGA Gomoku rating list",
                                    rules_name="cga-gomoku-2011")
    RatingList.objects.create(code="BJSH", title="京沪五子棋等级分", rules_name="bjsh-gomoku-2007")
    Arbiter.objects.create(name="周裁判", level="national", recognised_national=True)
    Arbiter.objects.create(name="吴裁判", level="national", recognised_national=True)

    def reg(name, start, *, city="北京", list_code="CGA", today=TODAY, approve=True, **extra):
        d = Details(**{"name": name, "list_code": list_code, "start_date": start, "end_date": start + timedelta(days=2),
                       "city": city, "rounds": 7, "expected_players": 30, "time_control": "每方60分钟",
                       "chief_arbiter": "周裁判", "arbiters": ("吴裁判",), "organiser_level": "state", "national": True,
                       **extra})
        r = register_event(d, actor="officer", today=today)
        if approve:
            r = approve_registration(r.code, actor="officer", today=today, override_reason="test")
        return r

    out = {
        "national": reg("2027年全国五子棋锦标赛", SOON, name_en="2027 National Gomoku Championship"),
        "shanghai": reg("上海五子棋公开赛", SOON + timedelta(days=35), city="上海", list_code="BJSH",
                        organiser_level="local", agreed_by_parties=True),
        "past": reg("2024年全国五子棋锦标赛", PAST, today=PAST - timedelta(days=120)),
        "pending": reg("待批准的比赛", SOON + timedelta(days=3), city="广州", approve=False),
    }
    out["refused"] = refuse_registration(reg("被拒绝的比赛", SOON + timedelta(days=5), approve=False).code, "x",
                                         actor="officer")
    event = Event.objects.create(code="CGA-20240813-abc", name="2024年全国五子棋锦标赛", format="swiss",
                                 start_date=PAST, end_date=PAST + timedelta(days=2), rating_list=cga)
    Registration.objects.filter(pk=out["past"].pk).update(event=event)
    return out


def text_of(client, url: str) -> str:
    r = client.get(url)
    assert r.status_code == 200, url
    return r.content.decode()


def test_upcoming_and_past_approved_events_only(client, calendar):
    page = text_of(client, "/calendar/")
    upcoming, past = page.split('id="upcoming"')[1].split('id="past"')
    assert "2027年全国五子棋锦标赛" in upcoming and "上海五子棋公开赛" in upcoming
    assert upcoming.index("2027年全国五子棋锦标赛") < upcoming.index("上海五子棋公开赛")  # soonest first
    assert "2024年全国五子棋锦标赛" in past and 'href="/events/CGA-20240813-abc/"' in past  # its results
    assert "待批准的比赛" not in page and "被拒绝的比赛" not in page
    assert "officer" not in page  # who registered or decided is not public


def test_filters_list_city_month(client, calendar):
    assert "上海五子棋公开赛" not in text_of(client, "/calendar/?list=CGA")
    only_sh = text_of(client, "/calendar/?city=上海")
    assert "上海五子棋公开赛" in only_sh and "2027年全国五子棋锦标赛" not in only_sh
    month = f"{SOON:%Y-%m}"
    in_month = text_of(client, f"/calendar/?month={month}")
    assert "2027年全国五子棋锦标赛" in in_month and "2024年全国五子棋锦标赛" not in in_month
    assert "上海五子棋公开赛" not in text_of(client, f"/calendar/?month={SOON:%Y-%m}&list=CGA")


@pytest.mark.parametrize("query", ["month=2027-13", "month=abc", "month=%00", "list=NOPE", "city=" + "x" * 500,
                                   "list=%E4%00"])
def test_bad_filters_are_said_never_crash(client, calendar, query):
    r = client.get(f"/calendar/?{query}")
    assert r.status_code == 200


def test_english_page(client, calendar):
    client.get("/language/en/?next=/calendar/")
    page = text_of(client, "/calendar/")
    assert "Event calendar" in page and "2027 National Gomoku Championship" in page
    assert "Results and ratings" in page
    assert "Beijing" in page and "Shanghai" in page  # cities in pinyin
    visible = re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1])
    chinese = set(re.findall(r"[\u4e00-\u9fff]+", visible))
    assert chinese <= {"上海五子棋公开赛", "年全国五子棋锦标赛"}, chinese  # event names without an English one


def test_ics_validates_and_lists_the_approved_events(client, calendar):
    r = client.get("/calendar.ics")
    assert r.status_code == 200 and r["Content-Type"] == "text/calendar; charset=utf-8"
    raw = r.content
    assert raw.startswith(b"BEGIN:VCALENDAR\r\n") and raw.endswith(b"END:VCALENDAR\r\n")
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))  # RFC 5545 §3.1: lines folded at 75 octets
    cal = Calendar.from_ical(raw)
    assert cal.get("version") == "2.0" and cal.get("prodid")  # §3.7.3, §3.7.4: required once
    events = cal.walk("VEVENT")
    assert sorted(str(e["summary"]) for e in events) == ["2024年全国五子棋锦标赛", "2027年全国五子棋锦标赛",
                                                          "上海五子棋公开赛"]
    uids = [str(e["uid"]) for e in events]
    assert len(set(uids)) == 3  # §3.8.4.7: unique per event
    for e in events:
        assert e.get("dtstamp") is not None  # §3.6.1: DTSTAMP and UID are required
        start, end = e.decoded("dtstart"), e.decoded("dtend")
        assert type(start) is date and type(end) is date and end > start  # all-day; DTEND is exclusive
    national = next(e for e in events if str(e["summary"]) == "2027年全国五子棋锦标赛")
    assert national.decoded("dtstart") == SOON and national.decoded("dtend") == SOON + timedelta(days=3)
    assert str(national["location"]) == "北京" and "用时：60 分钟" in str(national["description"])
    past = next(e for e in events if str(e["summary"]) == "2024年全国五子棋锦标赛")
    assert str(past["url"]).endswith("/events/CGA-20240813-abc/")


def test_ics_is_the_same_bytes_each_time_and_filters_by_list(client, calendar):
    assert client.get("/calendar.ics").content == client.get("/calendar.ics").content
    cal = Calendar.from_ical(client.get("/calendar.ics?list=BJSH").content)
    assert [str(e["summary"]) for e in cal.walk("VEVENT")] == ["上海五子棋公开赛"]


def test_ics_in_english(client, calendar):
    client.get("/language/en/?next=/calendar/")
    cal = Calendar.from_ical(client.get("/calendar.ics").content)
    summaries = {str(e["summary"]) for e in cal.walk("VEVENT")}
    assert "2027 National Gomoku Championship" in summaries
    assert str(cal["x-wr-calname"]) == "Qiyuan event calendar"


def test_an_empty_calendar_is_a_valid_feed(client, db):
    cal = Calendar.from_ical(client.get("/calendar.ics").content)
    assert cal.walk("VEVENT") == [] and cal.get("prodid")
    assert "暂无即将举行的赛事" in text_of(client, "/calendar/")


def test_ics_is_tagged_by_what_it_is_made_of(client, calendar):
    first = client.get("/calendar.ics")
    tag = first["ETag"]
    assert client.get("/calendar.ics", HTTP_IF_NONE_MATCH=tag).status_code == 304
    approve_registration(calendar["pending"].code, actor="officer", override_reason="test")
    again = client.get("/calendar.ics", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] != tag
    assert "待批准的比赛" in again.content.decode()


def test_the_feed_leaves_out_events_over_a_year_old(client, calendar):
    from qiyuan.web.portal.views.calendar import FEED_DAYS_BACK

    Registration.objects.filter(pk=calendar["past"].pk).update(
        start_date=TODAY - timedelta(days=FEED_DAYS_BACK + 5), end_date=TODAY - timedelta(days=FEED_DAYS_BACK + 1))
    summaries = {str(e["summary"]) for e in Calendar.from_ical(client.get("/calendar.ics").content).walk("VEVENT")}
    assert "2024年全国五子棋锦标赛" not in summaries and "2027年全国五子棋锦标赛" in summaries
    assert "2024年全国五子棋锦标赛" in text_of(client, "/calendar/")  # the page lists every past event


def test_past_events_come_a_page_at_a_time_latest_first(client, calendar, monkeypatch):
    """The page lists every upcoming event and the past ones a page at a time (a federation's years of events
    are not one page); the filters stay on the pager's links, and a bad page number is said, not a 500."""
    from qiyuan.web.portal.views import calendar as view

    monkeypatch.setattr(view, "PAST_PER_PAGE", 1)
    older = PAST - timedelta(days=200)
    Registration.objects.filter(pk=calendar["past"].pk).update(start_date=older, end_date=older + timedelta(days=2))
    extra = Registration.objects.get(pk=calendar["past"].pk)
    extra.pk, extra.code, extra.name, extra.event = None, "R2024-999", "2024年全国五子棋冠军赛", None
    extra.start_date, extra.end_date = PAST, PAST + timedelta(days=2)
    extra.save()
    first = text_of(client, "/calendar/?list=CGA")
    past = first.split('id="past"')[1]
    assert "2024年全国五子棋冠军赛" in past and "2024年全国五子棋锦标赛" not in past  # latest first
    assert "2027年全国五子棋锦标赛" in first  # the upcoming events on the page as well
    assert 'href="?list=CGA&amp;page=2#past"' in first
    second = text_of(client, "/calendar/?list=CGA&page=2").split('id="past"')[1]
    assert "2024年全国五子棋锦标赛" in second and "2024年全国五子棋冠军赛" not in second
    bad = text_of(client, "/calendar/?page=x")
    assert "页码" in bad
