"""Issues 23 and 33 in Chromium: two phone-sized contexts and the arbiter's desk at once; each player's page
reached through his own credential.  Every board of a round is reported by one player and confirmed by the
other (three disagree); the
round cannot be paired on unsigned results; the arbiter signs every confirmed result in one action and
settles the three disputes; the live page shows the signed results.  The phone page at 360 px in both
languages: no horizontal scroll, no untranslated text (screenshots: docs/img/hall-phone-*.png with
``QIYUAN_SCREENSHOTS=docs/img``)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall import cases
from qiyuan.tournament import hall
from qiyuan.tournament.state import rounds_paired

from .conftest import ARTIFACTS, PASSWORD, REPO
from .language_check import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODE = "hall-open"
PHONE = {"width": 360, "height": 740}
DISPUTED = 3


def _shots() -> Path:
    where = os.environ.get("QIYUAN_SCREENSHOTS")
    path = (REPO / where) if where else ARTIFACTS
    path.mkdir(parents=True, exist_ok=True)
    return path


def _t():
    return read_trf(LiveEvent.objects.get(code=CODE).trf_text)


@pytest.fixture(params=[pytest.param(16, id="8-boards"), pytest.param(100, id="50-boards", marks=pytest.mark.slow)])
def event(request, staff, login, make_association, settings, tmp_path):
    """A paired desk event: 8 boards in the default run, the issue's 50 boards (100 phones' worth of
    choices) in the slow run."""
    players = request.param
    settings.VAR_DIR = tmp_path / "var"
    make_association("BJ", "北京")
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": CODE, "name": "2026年赛场扫码报分赛", "fmt": "swiss", "rounds": 5,
                                 "start": "2026-05-01"})
    for i in range(players):
        c.post(f"/desk/events/{CODE}/players/", {"name": f"棋手{i + 1:02d}", "sex": "mw"[i % 2],
                                                 "rating": 2200 - 10 * i, "association": "BJ",
                                                 "birth": "2010-01-01"})
    c.post(f"/desk/events/{CODE}/pair/")
    assert rounds_paired(_t()) == 1
    return hall.boards_of(_t(), 1)


def _phone(browser, live_server, language: str):
    ctx = browser.new_context(locale="zh-CN" if language == "zh-hans" else "en-GB", viewport=PHONE,
                              is_mobile=True, has_touch=True)
    ctx.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    pg = ctx.new_page()
    pg.set_default_timeout(20000)
    return pg


def _choose(pg, url: str, result: str) -> None:
    pg.goto(url)
    with pg.expect_navigation():
        pg.click(f"button[name=result][value='{result}']")


def test_a_round_from_two_phones_signed_at_the_desk(browser, live_server, event):
    boards = event
    a, b = _phone(browser, live_server, "zh-hans"), _phone(browser, live_server, "en")
    for i, board in enumerate(boards):
        def url(n: int) -> str:
            return live_server.url + f"/hall/e/{CODE}/{cases.player_link_token(CODE, n)}/"

        _choose(a, url(board.first), "1-0")
        if i == 0:
            assert "等待对手确认" in a.inner_text("main")
            assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            assert not problems(a.content(), "zh-hans")
            a.screenshot(path=str(_shots() / "hall-phone-zh.png"), full_page=True)
        _choose(b, url(board.second), "0-1" if i < DISPUTED else "1-0")
        if i == DISPUTED:
            assert "waiting for the arbiter" in b.inner_text("main")
            assert b.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            assert not problems(b.content(), "en")
            b.screenshot(path=str(_shots() / "hall-phone-en.png"), full_page=True)
    assert all(x.result == "" for x in hall.boards_of(_t(), 1))  # nothing counts before the arbiter signs

    desk = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900}).new_page()
    desk.set_default_timeout(20000)
    desk.goto(live_server.url + "/desk/login/")
    desk.fill("input[name=username]", "arbiter")
    desk.fill("input[name=password]", PASSWORD)
    with desk.expect_navigation():
        desk.click("main button[type=submit]")
    desk.goto(live_server.url + f"/desk/events/{CODE}/")
    with desk.expect_navigation():
        desk.click("#pair-next")
    assert rounds_paired(_t()) == 1  # no unsigned result is used by a pairing
    desk.goto(live_server.url + f"/desk/hall/{CODE}/")
    assert desk.locator("section.hall-section.disputed tbody tr").count() == DISPUTED
    with desk.expect_navigation():
        desk.click("#sign-all")
    assert f"已签认 {len(boards) - DISPUTED} 台结果" in desk.inner_text("main")
    for board in boards[:DISPUTED]:
        desk.select_option(f"#settle-{board.board}", "½-½")
        with desk.expect_navigation():
            desk.click(f"#board-{board.board} button[type=submit]")
    desk.screenshot(path=str(_shots() / "hall-desk-queue.png"), full_page=True)
    results = [x.result for x in hall.boards_of(_t(), 1)]
    assert results == ["½-½"] * DISPUTED + ["1-0"] * (len(boards) - DISPUTED)

    visitor = browser.new_context(locale="zh-CN", viewport=PHONE).new_page()
    visitor.goto(live_server.url + f"/hall/live/{CODE}/")
    cells = visitor.locator("#live-boards td.result").all_inner_texts()
    assert sorted(cells) == sorted(results)
    assert re.search(r"第 1 轮", visitor.inner_text("main"))
    for ctx in (a.context, b.context, desk.context, visitor.context):
        ctx.close()
