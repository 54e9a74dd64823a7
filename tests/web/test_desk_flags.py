"""Issue 18, item 4 at the desk: the review lists the plausibility flags; a report's flag blocks publication
until the officer marks it checked with a note (or accepts all with a reason) — the use case the CLI calls."""

from __future__ import annotations

import re

import pytest

from tests.web.test_office_desk import gomoku, report_bytes, six, upload  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _twice(event_code: str) -> None:
    """One player given a second game in round 1 (as a mistyped crosstable would)."""
    from qiyuan.office.events.models import Game

    g = Game.objects.filter(event__code=event_code, round=1).order_by("id").first()
    other = Game.objects.filter(event__code=event_code, round=2).exclude(player1=g.player1) \
        .exclude(player2=g.player1).first()
    Game.objects.create(event=g.event, round=1, player1=g.player1, player2=other.player1, result="0-1")


def test_the_officer_checks_a_flag_then_publishes(staff, login, gomoku, six, tmp_path, settings):  # noqa: F811
    from qiyuan.office.audit.models import AuditFlag
    from qiyuan.office.events.models import Event
    from qiyuan.office.ratings.models import Edition

    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    assert upload(c, report_bytes(tmp_path, six)).status_code == 302
    _twice(Event.objects.get().code)
    html = c.post("/desk/office/periods/", {"list": "gomoku", "action": "compute"}).content.decode()
    assert 'id="flag-list"' in html and "一轮中下了 2 局" in html, html[:4000]
    digest = re.search(r'name="digest" value="([0-9a-f]+)"', html).group(1)
    publish = {"list": "gomoku", "action": "publish", "date": "2026-04-01", "digest": digest, "confirm": "1"}
    r = c.post("/desk/office/periods/", publish, follow=True)
    assert Edition.objects.count() == 0 and "未标记为已核查" in r.content.decode()
    for flag in AuditFlag.objects.filter(checked_at__isnull=True):
        c.post("/desk/office/periods/", {"list": "gomoku", "action": "check_flag", "date": "2026-04-01",
                                         "flag": flag.pk, "note": "裁判长确认"})
    assert not AuditFlag.objects.filter(checked_at__isnull=True).exists()
    assert c.post("/desk/office/periods/", publish).status_code == 302 and Edition.objects.count() == 1
