"""The pairing explanation at the desk in the page's language (issue 10): every line of it is made of English
templates the zh_Hans catalogue translates (``qiyuan.tournament.explanation.Line``), the command line keeps its
English text, and the desk's box never widens a 1,280 px page."""

from __future__ import annotations

import random

import pytest

from qiyuan.locale.catalogue import read_catalogue
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import keepapart
from qiyuan.tournament.explanation import Line, from_parts
from qiyuan.tournament.model import Entrant

from .language_check import problems


def test_a_line_is_its_english_text_and_translates_part_by_part():
    line = Line("{a}–{b}: entered by hand", a=3, b=4) + Line("; already met {players}", players="1, 2") + " {x}"
    assert line == "3–4: entered by hand; already met 1, 2 {x}" and isinstance(line, str)
    zh = {"{a}–{b}: entered by hand": "{a}–{b}：人工编排", "; already met {players}": "；已交手过 {players}"}
    assert line.text(lambda s: zh.get(s, s)) == "3–4：人工编排；已交手过 1, 2 {x}"
    assert from_parts([list(p) for p in line.parts]) == line
    assert line.text(lambda s: "{broken}") == str(line)  # a broken translation: the English text


def _lines(seed: int) -> list[Line]:
    """The explanations of a whole Swiss event (odd field, a withdrawal, an excuse, keep-apart) and a round robin."""
    rnd = random.Random(seed)
    out: list[Line] = []
    t = ev.new_event("解释", rounds=6)
    for i in range(9):
        ev.add_player(t, Entrant(0, f"P{i + 1}", rating=2000 - 10 * i, federation=f"A{i % 3}"))
    keepapart.set_rule(t, "association", 2)
    for r in range(1, 7):
        if r == 3:
            t.entrants[4].withdrawn_after = 2
        if r == 4:
            ev.excuse(t, 2, [4], "H")
        p = ev.next_pairing(t, explain=True)
        out += p.explanation
        ev.set_round(t, r, p.boards, p.byes[0] if p.byes else None)
        for a, _b in p.boards:
            ev.enter_result(t, r, a, rnd.choice(["1-0", "0-1", "½-½"]))
    rr = ev.new_event("循环", fmt="round_robin")
    for i in range(5):
        ev.add_player(rr, Entrant(0, f"R{i + 1}"))
    out += ev.next_pairing(rr, explain=True).explanation
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_part_of_the_explanation_has_a_chinese_translation(seed):
    zh = read_catalogue("zh_Hans")
    lines = _lines(seed)
    assert len(lines) > 20
    missing = {t for line in lines for t, _p in line.parts if not zh.get(t)}
    assert not missing, missing
    for line in lines:
        assert not problems(f"<p>{line.text(lambda s: zh.get(s) or s)}</p>", "zh-hans"), line


LONG = 40


def _run_rounds(c, rounds: int) -> None:
    """A Swiss event of 40 players at the desk, ``rounds`` rounds played, the next one paired with its explanation
    (draws everywhere in round 1: many players on one score, long lists of who was passed over)."""
    from qiyuan.formats.trf import read_trf
    from qiyuan.office.events.models import LiveEvent

    c.post("/desk/events/new/", {"code": "big-2026", "name": "大型公开赛", "fmt": "swiss", "rounds": 9})
    for i in range(LONG):
        c.post("/desk/events/big-2026/players/", {"name": f"棋手{i + 1:02d}", "sex": "mw"[i % 2],
                                                  "rating": 2200 - 5 * i})
    for rnd in range(1, rounds + 1):
        c.post("/desk/events/big-2026/pair/")
        t = read_trf(LiveEvent.objects.get(code="big-2026").trf_text)
        boards = {f"r-{e.number}-{e.rounds[rnd - 1].opponent}": "1=0"[(e.number * rnd) % 3] for e in t.entrants
                  if len(e.rounds) >= rnd and e.rounds[rnd - 1].colour == "b"}
        c.post("/desk/events/big-2026/results/", {"round": rnd, **boards})
    c.post("/desk/events/big-2026/pair/")


@pytest.fixture
def long_event(staff, login):
    c = login(staff["arbiter"])
    _run_rounds(c, 2)
    return c


def test_the_desk_shows_the_explanation_in_chinese_and_in_english(long_event):
    html = long_event.get("/desk/events/big-2026/").content.decode()
    box = html.split('id="explanation"')[1].split("</details>")[0]
    assert "分组" in box and "执先手" in box and "opens against" not in box
    assert not problems(box.split("<pre", 1)[1], "zh-hans")
    long_event.cookies["django_language"] = "en"
    box = long_event.get("/desk/events/big-2026/").content.decode().split('id="explanation"')[1]
    assert "opens against" in box.split("</details>")[0]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_explanation_box_does_not_widen_the_page_at_1280(browser, live_server, staff, locale):
    """Its English lines run to 170 characters (the page was 1,626 px wide): they wrap inside the box."""
    from django.test import Client

    from .conftest import PASSWORD

    c = Client()
    c.login(username="arbiter", password=PASSWORD)
    _run_rounds(c, 4)
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(live_server.url + "/desk/login/")
        page.fill("input[name=username]", "arbiter")
        page.fill("input[name=password]", PASSWORD)
        with page.expect_navigation():
            page.click("main button[type=submit]")
        # the explanation of a pairing is kept in the session of the browser that paired: pair again in this one
        page.goto(live_server.url + "/desk/events/big-2026/")
        with page.expect_navigation():
            page.click("#undo-round")
        with page.expect_navigation():
            page.click("#pair-next")
        page.click("#explanation summary")
        longest = page.evaluate("Math.max(...document.querySelector('#explanation pre').innerText.split('\\n')"
                                ".map(s => s.length))")
        assert longest > (150 if locale == "en-US" else 40), longest
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1280, width
        box = page.evaluate("document.querySelector('#explanation pre').getBoundingClientRect().right")
        assert box <= 1280, box
    finally:
        context.close()
