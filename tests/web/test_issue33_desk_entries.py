"""Issue 33, item 4 on the desk: an entrant corrected (the use case ``event edit-player`` calls: checked like a new
entry, his number and games kept, the audit naming each change) or removed before round 1 (``event remove-player``;
afterwards the page says withdraw)."""

from __future__ import annotations

from qiyuan.office.audit.models import AuditLog
from qiyuan.office.events.live import LiveEventStore
from qiyuan.tournament import arbiter as uc

from .test_desk import NAMES, flash, live, tournament  # noqa: F401 - fixtures


def form_of(e, **changes) -> dict:
    data = {"name": e.name, "sex": e.sex, "title": "", "rating": e.rating or "", "association": "BJ",
            "id_type": "resident", "id_number": "", "nationality": "", "club": "", "family": ""}
    data.update(changes)
    return data


def test_the_desk_corrects_an_entrant_and_the_audit_names_the_change(live, staff, login):
    c = login(staff["arbiter"])
    html = c.get("/desk/events/club-2026/").content.decode()
    assert 'href="/desk/events/club-2026/players/2/"' in html
    page = c.get("/desk/events/club-2026/players/2/").content.decode()
    assert 'id="edit-player"' in page and f'value="{NAMES[1]}"' in page and 'id="remove-player"' in page
    e = tournament().entrants[1]
    r = c.post("/desk/events/club-2026/players/2/", form_of(e, name="李四改", title="初段", rating=1888))
    assert r.status_code == 302
    e = tournament().entrants[1]
    assert (e.number, e.name, e.title, e.rating, e.federation) == (2, "李四改", "1d", 1888, "北京")
    entry = AuditLog.objects.filter(action="event.edit_player").get()
    assert entry.detail["changed"]["name"] == {"from": NAMES[1], "to": "李四改"}
    assert set(entry.detail["changed"]) == {"name", "title", "rating"}
    page = c.get("/desk/events/club-2026/players/2/").content.decode()
    assert 'value="初段"' in page  # the grade in words, as the arbiter typed it


def test_a_bad_correction_comes_back_with_its_reasons_and_changes_nothing(live, staff, login):
    c = login(staff["arbiter"])
    before = live.__class__.objects.get(code="club-2026").trf_text
    e = tournament().entrants[1]
    r = c.post("/desk/events/club-2026/players/2/", form_of(e, title="十段"))
    assert r.status_code == 200 and "读到 &#x27;十段&#x27;" in r.content.decode()
    r = c.post("/desk/events/club-2026/players/2/", form_of(e, name=NAMES[0]))
    assert r.status_code == 200 and f"{NAMES[0]}（北京）已报名，签号 1" in r.content.decode()
    assert live.__class__.objects.get(code="club-2026").trf_text == before


def test_the_desk_removes_an_entrant_before_round_1_and_says_withdraw_after(live, staff, login):
    c = login(staff["arbiter"])
    c.post("/desk/events/club-2026/players/2/remove/")
    assert any("已删除 2 号棋手" in m for m in flash(c, "/desk/events/club-2026/"))
    assert [e.name for e in tournament().entrants] == [n for k, n in enumerate(NAMES) if k != 1]
    assert AuditLog.objects.filter(action="event.remove_player").get().detail["name"] == NAMES[1]
    uc.pair(LiveEventStore("club-2026"), staff["arbiter"])
    page = c.get("/desk/events/club-2026/players/2/").content.decode()
    assert 'id="remove-player"' in page and "退赛" in page and 'action="/desk/events/club-2026/players/2/remove/"' \
        not in page
    c.post("/desk/events/club-2026/players/2/remove/")
    assert any("第 1 轮已编排" in m and "退赛" in m for m in flash(c, "/desk/events/club-2026/"))
    assert len(tournament().entrants) == len(NAMES) - 1
