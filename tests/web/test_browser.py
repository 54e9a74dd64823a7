"""Browser tests: Debian's Chromium driven by Playwright against the live server.

A small Swiss event is run end to end through the desk (sign in, create, enter
players, draw, pair three rounds, type the results with the keyboard), then its
public page and a player page are read as a visitor would; screenshots are kept
in test-artifacts/.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from .conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [("刘一", "m", 2100), ("陈二", "w", 2050), ("杨三", "m", 2000), ("黄四", "w", 1950)]


def sign_in(page, username: str) -> None:
    page.goto(page.base + "/desk/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(page.base + "/desk/")


def submit(page, selector: str) -> None:
    """Click a button that posts a form, and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def enter_round_results(page, keys: list[str]) -> None:
    """Type one key per board; the form moves to the next board by itself; Enter saves."""
    fields = page.locator("#result-form input[type=text]")
    assert fields.count() == len(keys)
    fields.first.focus()
    for key in keys:
        page.keyboard.type(key)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_cjk_fonts_are_installed_for_screenshots():
    out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout
    assert "Noto Sans CJK SC" in out or "Noto Serif CJK SC" in out, out


def test_run_a_swiss_event_from_the_desk_and_read_it_in_public(page, browser, live_server, staff, make_player,
                                                             make_association, resident_id, shot):
    from datetime import date

    make_association("ZJ", "浙江")
    registered = make_player("周晓敏", "F", "SH", birth_date=date(2009, 4, 5),
                             id_number=resident_id(date(2009, 4, 5), "F"), dan="2d")
    sign_in(page, "arbiter")
    page.click("text=新建比赛")
    page.fill("input[name=code]", "city-open")
    page.fill("input[name=name]", "2026年市五子棋公开赛")
    page.select_option("select[name=fmt]", "swiss")
    page.fill("input[name=rounds]", "3")
    page.fill("input[name=city]", "杭州")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/desk/events/city-open/$"))
    for name, sex, rating in PLAYERS:
        page.fill("#new-player input[name=name]", name)
        page.select_option("#new-player select[name=sex]", sex)
        page.fill("#new-player input[name=rating]", str(rating))
        page.select_option("#new-player select[name=association]", "ZJ")
        submit(page, "#new-player button[type=submit]")
    page.fill("#registry-q", "zhouxiaomin")
    submit(page, "text=查找")
    submit(page, f"button[data-add='{registered.federation_id}']")
    assert page.locator("#entrants tbody tr").count() == 5
    submit(page, "text=按等级分排定签号")
    shot(page, "desk-players")

    # three rounds: 5 players, so two boards and a bye each round
    for rnd, keys in enumerate([["1", "="], ["0", "1"], ["=", "1"]], start=1):
        submit(page, "#pair-next")
        assert page.locator(f"#round-{rnd}").count() == 1, page.content()[:2000]
        enter_round_results(page, keys)
        assert "结果" in page.content()
    shot(page, "desk-after-round-3")
    # pairing a fourth round is refused with the reason
    submit(page, "#pair-next")
    assert "全部 3 轮已编排" in page.content()

    # the public page, as a visitor sees it (a fresh context: no session)
    visitor = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900}).new_page()
    visitor.goto(live_server.url + "/events/city-open/")
    body = visitor.inner_text("main")
    assert "2026年市五子棋公开赛" in body and "周晓敏" in body and "刘一" in body
    assert visitor.locator("#standings-table tbody tr").count() == 5
    assert visitor.locator("#crosstable-table tbody tr").count() == 5
    assert visitor.locator("section.round").count() == 3
    assert registered.id_number not in visitor.content()
    shot(visitor, "public-event")
    # from the standings to the registered player's page
    visitor.click(f"#standings-table a[href='/players/{registered.federation_id}/']")
    visitor.wait_for_url(re.compile(rf".*/players/{registered.federation_id}/$"))
    body = visitor.inner_text("main")
    assert "周晓敏" in body and "2009" in body and "二段" in body  # the grade in the page's language
    assert registered.id_number not in visitor.content() and "2009-04-05" not in visitor.content()
    shot(visitor, "public-player")
    # English on request
    with visitor.expect_navigation():
        visitor.click("#lang-en")
    assert "Rating lists" in visitor.inner_text("header")
    visitor.context.close()


def test_public_list_player_chart_and_english(page, published, shot):
    page.goto(page.base + "/")
    assert "李四" in page.inner_text("main")
    shot(page, "public-home")
    page.goto(page.base + "/lists/gomoku/2026-01-01/")
    assert page.locator("#list-table tbody tr").count() == 4
    assert "李四" in page.inner_text("#list-table")
    shot(page, "public-list")
    page.select_option("select[name=gender]", "F")
    submit(page, "form.filters button[type=submit]")
    assert page.locator("#list-table tbody tr").count() == 1
    submit(page, "#list-table a >> text=王芳")
    assert page.locator(".chart svg polyline").count() == 1
    a = published["players"][0]
    page.goto(page.base + f"/players/{a.federation_id}/")
    assert page.locator("section.calc table tbody tr").count() == 2
    shot(page, "public-player-calculations")
    with page.expect_navigation():
        page.click("#lang-en")
    assert "Individual calculations" in page.inner_text("main")
    shot(page, "public-player-english")


def test_login_with_a_wrong_password_is_refused(page, staff):
    page.goto(page.base + "/desk/login/")
    page.fill("input[name=username]", "arbiter")
    page.fill("input[name=password]", "wrong-password")
    page.click("main button[type=submit]")
    assert "用户名或密码不正确" in page.inner_text("main")
