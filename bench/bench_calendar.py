"""Calendar benchmark: registering events (every check, the clash query, the audit entry) into a busy calendar,
and serving the public calendar and its iCalendar feed.

    python bench/bench_calendar.py [--events 2000]

Builds a fresh SQLite office in a temporary directory, registers ``--events`` events over five years in eight
cities through the use case (``register_event``) and approves them, then serves ``/calendar/`` and
``/calendar.ics`` with Django's test client. Baselines measured in the same run: the same rows written by a
plain ``Registration.objects.create`` (no checks, no lock, no audit), and the feed of an empty calendar.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

CITIES = ("北京", "上海", "杭州", "南京", "广州", "成都", "武汉", "天津")
LEVELS = ("state", "regional", "local", "other")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=2000)
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="qiyuan-bench-calendar-"))
    os.environ["QIYUAN_HOME"] = str(work)
    (work / "var").mkdir()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "qiyuan.web.settings")
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    from django.test import Client

    from qiyuan.office.calendar.models import Registration
    from qiyuan.office.event_registration import Details, approve_registration, register_event
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.setup import init_office

    init_office(actor="bench")
    for name in ("周裁判", "吴裁判"):
        Arbiter.objects.create(name=name, level="national", recognised_national=True)
    today = date.today()
    from django.core.cache import cache

    client = Client()
    client.get("/calendar/")  # warm up: URLs, templates, imports
    empty_ms = []
    for _ in range(5):
        cache.clear()
        t = time.perf_counter()
        assert client.get("/calendar.ics").status_code == 200
        empty_ms.append((time.perf_counter() - t) * 1000)

    def details(i: int) -> Details:
        start = today + timedelta(days=(i * 5 * 365) // args.events)
        return Details(name=f"赛事{i}", list_code="CGA", start_date=start, end_date=start + timedelta(days=i % 4),
                       city=CITIES[i % len(CITIES)], rounds=7, expected_players=30, time_control="每方60分钟",
                       chief_arbiter="周裁判", arbiters=("吴裁判",), organiser_level=LEVELS[i % len(LEVELS)],
                       national=True)

    each = []
    clashes = 0
    for i in range(args.events):
        t = time.perf_counter()
        reg = register_event(details(i), actor="bench", today=today)
        each.append(time.perf_counter() - t)
        clashes += len(reg.assessment["clashes"])
    t = time.perf_counter()
    for reg in Registration.objects.all():
        approve_registration(reg.code, actor="bench", override_reason="bench", today=today)
    approve_s = time.perf_counter() - t

    # baseline: the same rows written plainly (no validation, checks, lock or audit)
    first = Registration.objects.first()
    t = time.perf_counter()
    for i in range(args.events):
        d = details(i)
        Registration.objects.create(
            code=f"B{i:06d}", name=d.name, rating_list=first.rating_list, start_date=d.start_date,
            end_date=d.end_date, city=d.city, organiser_level=d.organiser_level, format="swiss", rounds=7,
            expected_players=30, time_control=d.time_control, time_minutes=60, chief_arbiter=first.chief_arbiter,
            applied_on=today, registered_by="bench", status="refused")
    plain_s = time.perf_counter() - t

    feed_ms, cached_ms, page_ms, page_cached_ms = [], [], [], []
    for _ in range(3):
        cache.clear()
        t = time.perf_counter()
        r = client.get("/calendar.ics")
        feed_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        assert client.get("/calendar.ics").content == r.content
        cached_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        p = client.get("/calendar/")
        page_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        assert client.get("/calendar/").content == p.content  # a visitor's page again: from the shared cache
        page_cached_ms.append((time.perf_counter() - t) * 1000)
    assert r.status_code == 200 and p.status_code == 200

    n = args.events
    print(f"calendar benchmark: {n} registrations over five years, {clashes} clashes found (SQLite, {work})")
    print(f"  register_event (validate, check, clash query, lock, audit): mean {statistics.mean(each) * 1000:.1f} ms, "
          f"p95 {sorted(each)[int(0.95 * n) - 1] * 1000:.1f} ms; total {sum(each):.1f} s "
          f"| baseline plain create: {plain_s / n * 1000:.1f} ms each")
    print(f"  approve_registration (checked again): {approve_s / n * 1000:.1f} ms each")
    in_feed = r.content.count(b"BEGIN:VEVENT")
    print(f"  /calendar.ics, {in_feed} events (those not ended over a year ago): built {statistics.median(feed_ms):.0f} ms, "
          f"cached {statistics.median(cached_ms):.0f} ms, {len(r.content) // 1024} KiB "
          f"| baseline empty feed: {statistics.median(empty_ms):.0f} ms")
    print(f"  /calendar/ page ({n} upcoming events): built {statistics.median(page_ms):.0f} ms, cached "
          f"{statistics.median(page_cached_ms):.1f} ms (until the office next writes or the day changes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
