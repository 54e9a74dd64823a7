"""Issue 22, item 11 and the desk's entry list: finishing too early names CGA Art. 5(三), reopening is
confirmed, the add-player forms go once the event is finished, the registry search shows rating and
birth year, a CSV entry list is entered whole or not at all (each bad row named)."""

from __future__ import annotations

import random
from django.core.files.uploadedfile import SimpleUploadedFile

from qiyuan.office.events.live import LiveEventStore
from qiyuan.tournament import arbiter as uc

from .test_desk import flash, live, tournament  # noqa: F401 - fixtures


def play(code: str, user, rounds: int) -> None:
    store, rng = LiveEventStore(code), random.Random(1)
    for rnd in range(1, rounds + 1):
        p = uc.pair(store, user)
        uc.enter_results(store, user, rnd, [(a, rng.choice(["1-0", "0-1"])) for a, _ in p.boards])


def test_finishing_after_3_of_5_rounds_names_cga_art_5_3_and_reopening_is_confirmed(live, staff, login):
    c = login(staff["arbiter"])
    play("club-2026", staff["arbiter"], 3)
    page = c.get("/desk/events/club-2026/finish/").content.decode()
    assert 'id="finish-too-few"' in page and "第五条（三）" in page and "至少要赛 5 轮" in page
    c.post("/desk/events/club-2026/finish/", {"finished": "1", "confirm": "1"})
    html = c.get("/desk/events/club-2026/").content.decode()
    assert 'id="new-player"' not in html and 'id="entry-list"' not in html  # no entry forms once finished
    assert 'id="confirm-reopen"' in html
    c.post("/desk/events/club-2026/finish/", {"finished": "0"})
    assert any("重新开放前请确认" in m for m in flash(c, "/desk/events/club-2026/"))
    assert "XQS" in tournament().extra
    c.post("/desk/events/club-2026/finish/", {"finished": "0", "confirm": "1"})
    assert "XQS" not in tournament().extra


def test_the_registry_search_shows_rating_and_birth_year(live, staff, login, published):
    c = login(staff["arbiter"])
    a = published["players"][0]
    html = c.get("/desk/events/club-2026/", {"q": a.federation_id}).content.decode()
    row = html.split('id="registry-found"')[1].split("</tr>")[0]
    assert "2012" in row and (str(a.birth_date.year) in row if a.birth_date else True)


def test_an_entry_list_at_the_desk_is_entered_whole_or_not_at_all(live, staff, login):
    c = login(staff["arbiter"])
    bad = "姓名,性别,等级分\n王五,男,abc\n赵六,女,1700\n".encode()
    c.post("/desk/events/club-2026/players/list/", {"file": SimpleUploadedFile("e.csv", bad)})
    msgs = flash(c, "/desk/events/club-2026/")
    assert any(m.startswith("第 2 行：等级分须为 1..9999 的整数") for m in msgs), msgs
    assert len(tournament().entrants) == 6
    good = "姓名,性别,等级分\n王五,男,1800\n赵六,女,1700\n".encode()
    c.post("/desk/events/club-2026/players/list/", {"file": SimpleUploadedFile("e.csv", good)})
    assert any("已按名单录入 2 名棋手" in m for m in flash(c, "/desk/events/club-2026/"))
    assert [e.name for e in tournament().entrants[-2:]] == ["王五", "赵六"]
