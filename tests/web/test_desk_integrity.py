"""Issue 37, item 2 at the desk: the review lists the integrity flags beside the plausibility flags; the officer
holds a flag's event for review (the use case the CLI calls) and releases it; the public event page says "held
for review" without naming anyone."""

from __future__ import annotations

from datetime import date

import pytest

from tests.office.test_integrity_office import _phantom
from tests.web.test_office_desk import gomoku  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def test_the_officer_holds_a_phantom_event_then_releases_it(staff, login, gomoku, client):  # noqa: F811
    from qiyuan.office.audit.models import AuditFlag, EventHold
    from qiyuan.office.periods import due_date

    early, _ = _phantom(gomoku, date(2026, 2, 5), size=4, code="EARLY-1")  # not the list's first event
    event, people = _phantom(gomoku, date(2026, 3, 1))
    c = login(staff["officer"])
    html = c.post("/desk/office/periods/", {"list": "gomoku", "action": "compute"}).content.decode()
    assert 'data-kind="phantom"' in html and "疑似虚构比赛" in html and 'value="hold_flag"' in html, html[:3000]
    flag = AuditFlag.objects.get(kind="phantom")
    day = due_date(gomoku, gomoku.rules())
    c.post("/desk/office/periods/", {"list": "gomoku", "action": "hold_flag", "date": str(day), "flag": flag.pk,
                                     "reason": "主办方无法出示记录表"})
    assert EventHold.objects.filter(event=event, released_at__isnull=True).exists()
    page = c.get("/desk/office/periods/").content.decode()
    assert 'id="held-gomoku"' in page and "主办方无法出示记录表" in page
    c.logout()
    public = client.get(f"/events/{event.code}/").content.decode()
    notice = public.split('id="held-for-review"', 1)[1].split("</dd>", 1)[0]
    assert "暂缓待查" in notice and not any(p.name in notice for p in people)
    c = login(staff["officer"])
    c.post("/desk/office/periods/", {"list": "gomoku", "action": "release", "event": event.code, "reason": "已核实"})
    assert not EventHold.objects.filter(released_at__isnull=True).exists()
