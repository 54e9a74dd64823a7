"""Issue 31 on the players' phones: a Go event's own page behind each player's QR code and the live page speak
Go — 黑方/白方, the board's stones or komi, 和棋 (jigo) offered only where the game's komi allows one, a jigo
tapped where none is possible refused by name — in both languages; the desk's and the slips' terms, one helper
(``go.board_terms``)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from qiyuan.formats.trf import read_trf
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall import cases
from qiyuan.office.hall.models import PhoneClaim
from qiyuan.tournament import go, hall
from qiyuan.tournament.state import rounds_paired

CODE = "go-phones"
GRADES = ["8k", "8k", "3k", "3k", "1d", "1d", "4d", "5d"]


def _t():
    return read_trf(LiveEvent.objects.get(code=CODE).trf_text)


def _boards():
    return hall.boards_of(_t(), rounds_paired(_t()))


def _link(number: int) -> str:
    return f"/hall/e/{CODE}/{cases.player_link_token(CODE, number)}/"


@pytest.fixture
def arbiter(staff, login, make_association, settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    make_association("BJ", "北京")
    return login(staff["arbiter"])


def _event(c, fmt: str, players: list[dict]) -> None:
    c.post("/desk/events/new/", {"code": CODE, "name": "公开赛", "fmt": fmt, "rounds": 4, "start": "2026-05-01"})
    for i, p in enumerate(players):
        c.post(f"/desk/events/{CODE}/players/", {"name": f"棋手{i + 1:02d}", "sex": "m", "association": "BJ",
                                                 "birth": "2000-01-01", **p})


@pytest.fixture
def desk(arbiter):
    _event(arbiter, "go_mcmahon", [{"title": grade} for grade in GRADES])
    return arbiter


def _pair(desk, **settings):
    if settings:
        desk.post(f"/desk/events/{CODE}/go-settings/", settings)
    desk.post(f"/desk/events/{CODE}/pair/")
    cache.clear()
    assert rounds_paired(_t()) == 1


def test_the_phone_page_says_black_and_white_and_offers_no_jigo_with_a_half_komi(desk):
    _pair(desk)  # komi 7.5, every round-1 game even
    for b in _boards():
        assert b.terms == go.BoardTerms(0, go.settings(_t()).komi, False)
        page = Client().get(_link(b.first)).content.decode()
        body = page.split("<main", 1)[1]
        assert "黑方" in body and "白方" in body and "分先，黑贴 7.5 目" in body
        assert "先手" not in body and "后手" not in body
        assert 'value="½-½"' not in body and "和棋" not in body


def test_a_jigo_tapped_where_the_komi_allows_none_is_refused_by_name(desk):
    _pair(desk)
    b = _boards()[0]
    phone = Client()
    r = phone.post(_link(b.first), {"result": "½-½"})
    text = r.content.decode()
    assert r.status_code == 409 and f"第 {b.board} 台不能和棋" in text and "7.5" in text
    assert not PhoneClaim.objects.filter(event=CODE).exists()
    r = phone.post(_link(b.first), {"result": "½-½"}, HTTP_ACCEPT_LANGUAGE="en")
    assert f"board {b.board} cannot end in a jigo" in r.content.decode()
    assert phone.post(_link(b.first), {"result": "1-0"}).status_code == 302  # a win is taken as ever


def test_a_whole_komi_and_a_handicap_game_offer_the_jigo(desk):
    _pair(desk, komi="7", handicap="rank", correction="0", bar="5d", no_handicap_from="9d")
    boards = _boards()
    stones = [b for b in boards if b.terms.stones]
    assert stones and len(stones) < len(boards)  # both kinds of board in the round
    for b in boards:
        body = Client().get(_link(b.second)).content.decode().split("<main", 1)[1]
        assert 'value="½-½"' in body and "和棋" in body
        if b.terms.stones:
            assert f"让 {b.terms.stones} 子（不贴目）" in body and "贴目 7" not in body
        else:
            assert "分先，黑贴 7 目" in body
    b = stones[0]
    Client().post(_link(b.first), {"result": "½-½"})
    Client().post(_link(b.second), {"result": "½-½"})
    assert PhoneClaim.objects.get(event=CODE, board=b.board).state == hall.CONFIRMED


def test_the_phone_page_speaks_go_in_english(desk):
    _pair(desk)
    b = _boards()[0]
    phone = Client()
    phone.cookies["django_language"] = "en"
    body = phone.get(_link(b.first), HTTP_ACCEPT_LANGUAGE="en").content.decode().split("<main", 1)[1]
    assert "Black" in body and "White" in body and "black gives 7.5 komi" in body and "Draw" not in body
    assert "(first," not in body


def test_the_live_page_says_black_white_stones_and_the_mcmahon_score(desk):
    _pair(desk, handicap="rank", correction="0", bar="5d", no_handicap_from="9d")
    page = Client().get(f"/hall/live/{CODE}/").content.decode()
    main = page.split("<main", 1)[1]
    assert "黑方" in main and "白方" in main and "让子 / 贴目" in main and "麦克马洪分" in main
    assert "先手" not in main and "后手" not in main and "积分" not in main
    assert "子（不贴目）" in main and "分先，黑贴 7.5 目" in main
    data = Client().get(f"/hall/live/{CODE}.json").json()
    assert data["go"] == {"criterion": "MMS"} and {"stones", "komi"} <= set(data["boards"][0])
    en = Client().get(f"/hall/live/{CODE}/", HTTP_ACCEPT_LANGUAGE="en").content.decode().split("<main", 1)[1]
    assert "Black" in en and "Stones / komi" in en and "McMahon" in en


def test_a_gomoku_phone_page_keeps_its_words_and_its_draw(arbiter):
    _event(arbiter, "swiss", [{"rating": 2000 - 10 * i} for i in range(4)])
    arbiter.post(f"/desk/events/{CODE}/pair/")
    b = _boards()[0]
    assert b.terms is None
    body = Client().get(_link(b.first)).content.decode().split("<main", 1)[1]
    assert "先手" in body and "黑方" not in body and 'value="½-½"' in body


def test_the_desks_queue_says_black_and_white_and_settles_no_jigo_where_none_is_possible(desk):
    _pair(desk)
    b = _boards()[0]
    Client().post(_link(b.first), {"result": "1-0"})
    page = desk.get(f"/desk/hall/{CODE}/").content.decode().split("<main", 1)[1]
    assert "黑方" in page and "白方" in page and "先手" not in page
    settle = page.split(f'id="settle-{b.board}"')[1].split("</select>")[0]
    assert 'value="1-0"' in settle and 'value="0-1"' in settle and "½-½" not in settle
