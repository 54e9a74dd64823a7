"""Issue 22, items 2 and 11, in Chromium, typing as an arbiter would: saved results are shown as
values, a key typed on one replaces it, ``x`` moves on to the next board, a result typed over a
different one is refused until the change is confirmed — and what was typed stays in its boxes."""

from __future__ import annotations

import re

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.office.events.live import LiveEventStore
from qiyuan.office.events.models import LiveEvent
from qiyuan.tournament import arbiter as uc
from qiyuan.tournament.model import Entrant

from .test_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def boxes(page):
    return page.locator("#result-form input[type=text]")


def test_results_at_the_desk_are_never_overwritten_silently(page, live_server, staff):
    store = LiveEventStore("club")
    uc.new_event(store, staff["arbiter"], "俱乐部赛", rounds=3)
    for i in range(6):
        uc.add_player(store, staff["arbiter"], Entrant(0, f"棋手{i + 1}", rating=2000 - i))
    uc.pair(store, staff["arbiter"])
    sign_in(page, "arbiter")
    page.goto(page.base + "/desk/events/club/")
    fields = boxes(page)
    assert fields.count() == 3 and fields.nth(0).input_value() == ""
    fields.first.focus()
    page.keyboard.type("1")
    page.keyboard.type("x")  # clears nothing yet, and moves on: the next key goes to the third board
    assert page.evaluate("document.activeElement.name") == fields.nth(2).get_attribute("name")
    page.keyboard.type("0")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    values = [boxes(page).nth(k).input_value() for k in range(3)]
    assert values == ["1-0", "", "0-1"]  # saved results shown as values, not grey placeholders
    # a second arbiter types over board 1: refused, what he typed stays, a confirmation appears
    before = LiveEvent.objects.get(code="club").trf_text
    boxes(page).first.focus()
    page.keyboard.type("0")  # replaces the value shown (selected on focus), then moves on
    page.keyboard.type("=")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert LiveEvent.objects.get(code="club").trf_text == before
    assert "请勾选结果表下方的“确认修改已录入的结果”" in page.content() and "--change" not in page.content()
    assert [boxes(page).nth(k).input_value() for k in range(2)] == ["0", "="]
    page.check("#confirm-change")
    with page.expect_navigation():
        page.click("#save-results")
    t = read_trf(LiveEvent.objects.get(code="club").trf_text)
    first = [e for e in t.entrants if e.rounds[0].colour == "b"]
    assert sorted(e.rounds[0].result for e in first) == ["0", "0", "="]
    assert re.search(r"修改 1 个", page.content())
