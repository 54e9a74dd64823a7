"""The public calendar (赛事日历): approved events, upcoming and past (past ones link to their results),
filterable by list, city and month, in both languages; ``/calendar.ics`` the same as an iCalendar feed.

Read only: the approved registrations (``event_registration.public_calendar``);
what a registration holds that is not public (who registered it, the check's
details, the officer's reasons) is not shown.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from qiyuan.formats.ical import FeedEvent, feed
from qiyuan.office.event_registration import cities, public_calendar, upcoming_and_past
from qiyuan.office.ratings.models import RatingList

from ...calendar_labels import city_label, time_control_label
from ...labels import event_format_label
from ..editions import data_version
from ..filters import CalendarFilters, page_number
from ..http import digest, visitor_page


def _english() -> bool:
    return (get_language() or "").startswith("en")


def _name(r) -> str:
    return r.name_en if _english() and r.name_en else r.name


def _filters(request) -> CalendarFilters:
    """The page's filters from the query (unknown values are said, and ignored); the API reads the same."""
    return CalendarFilters.read(request.GET, set(RatingList.objects.values_list("code", flat=True)))


def _row(r) -> dict:
    return {"r": r, "name": _name(r), "format": event_format_label(r.format), "city": city_label(r.city),
            "name_lang": "zh-Hans" if _english() and not r.name_en else "",
            "time_control": time_control_label(r.time_minutes, r.time_increment),
            "list_title": (r.rating_list.title_en if _english() and r.rating_list.title_en else r.rating_list.title),
            "rating_check": rating_check(r)}


def rating_check(r) -> str:
    """What the registration's check says about rating, never a promise: rateable if played as registered, or — an
    event the office approved by override although its check fails — listed, but not rateable as registered."""
    if (r.assessment or {}).get("rateable"):
        return _("按注册内容举行可计算等级分")
    if r.overridden:
        return _("经特批列入日历；按注册内容不计算等级分")
    return _("按注册内容不计算等级分")


#: past events per page (the upcoming ones are all on the first)
PAST_PER_PAGE = 50


def index(request):
    """The calendar page; cached whole for visitors until the office next writes anything (every registration,
    approval and import is audited: ``data_version``) or the day changes (upcoming becomes past)."""
    key = (f"portal:calendar:{data_version()}:{timezone.localdate().isoformat()}:{get_language()}:"
           f"{digest(request.GET.urlencode())}")
    return visitor_page(request, key, lambda: _index(request))


def _index(request):
    chosen = _filters(request)
    problems = list(chosen.problems)
    number = page_number(request.GET, problems)
    upcoming, past = upcoming_and_past(
        public_calendar(**chosen.query()).select_related("rating_list", "event"), timezone.localdate())
    page = Paginator(past, PAST_PER_PAGE).get_page(number)  # past the last page: the last page
    return render(request, "portal/calendar.html", {
        "upcoming": [_row(r) for r in upcoming], "past": [_row(r) for r in page.object_list], "page": page,
        "page_qs": urlencode(chosen.pairs()) + "&" if chosen.pairs() else "",
        "problems": [p.text(_) for p in problems],
        "lists": RatingList.objects.order_by("code"), "cities": [(c, city_label(c)) for c in cities()],
        "chosen": {"list": chosen.rating_list, "city": chosen.city, "month": chosen.pairs().get("month", "")},
        "query": request.GET.urlencode(),
    })


def _description(r) -> str:
    tc = time_control_label(r.time_minutes, r.time_increment)
    return "\n".join([
        _row(r)["list_title"],
        _("%(format)s，%(rounds)d 轮") % {"format": event_format_label(r.format), "rounds": r.rounds},
        _("用时：%(tc)s") % {"tc": tc},
        _("裁判长：%(name)s") % {"name": r.chief_arbiter.name},
    ])


#: how far back the feed reaches (the page lists every past event)
FEED_DAYS_BACK = 366


def ics(request):
    """``/calendar.ics``: the approved events (the page's list and city filters apply) that have not ended more
    than a year ago, as iCalendar; cached and tagged by what it is made of, so a subscriber's poll is cheap."""
    chosen = _filters(request).query()
    chosen["month"] = None  # a subscription follows the calendar, not one month of it
    rows = public_calendar(**chosen).filter(end_date__gte=timezone.localdate() - timedelta(days=FEED_DAYS_BACK))
    made_of = list(rows.values_list("code", "decided_at", "event__code"))
    tag = '"' + hashlib.sha256(repr((get_language(), made_of)).encode()).hexdigest()[:32] + '"'
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
    else:
        key = f"calendar.ics:{request.get_host()}:{tag}"
        body = cache.get(key)
        if body is None:
            body = _feed(request, rows.select_related("chief_arbiter"))
            cache.set(key, body, 24 * 3600)
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    response["ETag"] = tag
    return response


def _feed(request, rows) -> bytes:
    events = []
    for r in rows:
        url = (reverse("portal:event", args=[r.event.code]) if r.event_id
               else reverse("portal:calendar") + f"#{r.code}")
        events.append(FeedEvent(
            uid=f"{r.code}@qiyuan-calendar", summary=_name(r), start=r.start_date, end=r.end_date,
            stamp=max(t for t in (r.registered_at, r.decided_at) if t is not None), location=city_label(r.city),
            description=_description(r), url=request.build_absolute_uri(url), categories=(r.rating_list.code,)))
    return feed(events, name=_("棋院赛事日历"), description=_("已批准的等级分赛事"))
