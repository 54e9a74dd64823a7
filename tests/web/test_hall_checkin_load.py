"""Issue 33, item 2: check-in for a full hall behind one address.  Limits are per credential and per board —
never per hall nor per address — so 200 players checking in through the venue's one public address while
5 phones retry every 2 s all get in, and no player's first tries meet a 429.  The throttle's clock is the
test's (five minutes pass in a few seconds); the requests are real ones through Django's test client."""

from __future__ import annotations

import heapq
import types

import pytest
from django.test import Client

from qiyuan.formats.trf import write_trf
from qiyuan.office.hall import cases
from qiyuan.office.hall.models import CheckIn, PhoneClaim
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import hall
from qiyuan.tournament.model import Entrant
from qiyuan.web import throttle
from qiyuan.web.hall import limits

VENUE = "203.0.113.7"  # every phone of the hall behind the venue's one address
PLAYERS = 200
SPAN = 300  # five minutes


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(throttle, "time", types.SimpleNamespace(time=c.time))
    return c


@pytest.fixture
def served(tmp_path, settings, db):
    """An event file of ``PLAYERS`` players served to the hall (``serve --hall``), round 1 not yet paired."""
    settings.VAR_DIR = tmp_path / "var"
    t = ev.new_event("二百人公开赛", fmt="swiss", rounds=7)
    for i in range(PLAYERS):
        ev.add_player(t, Entrant(0, f"棋手{i + 1:03d}", rating=2300 - i))
    path = tmp_path / "open200.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    settings.QIYUAN_HALL_FILE = str(path)
    return cases.file_code(path)


def _phone() -> Client:
    return Client(REMOTE_ADDR=VENUE)


def _link(code: str, token: str) -> str:
    return f"/hall/e/{code}/{token}/"


def test_200_players_check_in_through_one_address_while_5_phones_retry_every_2_seconds(served, clock):
    code = served
    players = {n: _link(code, cases.player_link_token(code, n)) for n in range(1, PLAYERS + 1)}
    # the 5 phones that keep retrying: a player whose credential the arbiter re-issued (his old card), a
    # forged link, and three players reloading and checking in again and again
    stale = players[200]
    cases.reissue(code, "arbiter", 200)
    players[200] = _link(code, cases.player_link_token(code, 200))
    forged = players[199][:-3] + "xx/"
    retrying = [("stale", stale), ("forged", forged)] + [("again", players[n]) for n in (1, 2, 3)]
    timeline: list[tuple[float, int, str, str]] = []  # (when, order, who, link)
    for i, n in enumerate(players):
        heapq.heappush(timeline, (i * SPAN / PLAYERS, len(timeline), f"p{n}", players[n]))
    for t in range(0, SPAN, 2):
        for kind, link in retrying:
            heapq.heappush(timeline, (float(t), len(timeline), kind, link))
    firsts, retries = [], {"stale": [], "forged": [], "again": []}
    phone = _phone()  # one client: the same address, even the same cookies, for everyone
    start = clock.now
    while timeline:
        when, _, who, link = heapq.heappop(timeline)
        clock.now = start + when
        if who.startswith("p") and who[1:].isdigit():  # a player's first tries: his page, then check in
            firsts.append(phone.get(link).status_code)
            firsts.append(phone.post(link, {"action": "check_in"}).status_code)
        else:
            retries[who].append(phone.post(link, {"action": "check_in"}).status_code)
    assert firsts.count(429) == 0 and set(firsts) == {200, 302}
    here = set(CheckIn.objects.filter(event=code, round=1).values_list("number", flat=True))
    assert here == set(range(1, PLAYERS + 1))  # all 200 in, within the five minutes
    assert set(retries["again"]) == {302}  # retrying every 2 s stays within one's own credential's limit
    assert set(retries["stale"]) == set(retries["forged"]) == {403} or 429 in retries["stale"]
    assert clock.now - start < SPAN


def test_a_phone_past_its_own_limit_waits_alone(served, clock):
    code = served
    noisy = _link(code, cases.player_link_token(code, 1))
    quiet = _link(code, cases.player_link_token(code, 2))
    phone = _phone()
    codes = [phone.get(noisy).status_code for _ in range(limits.PER_CREDENTIAL + 1)]
    assert codes[:-1] == [200] * limits.PER_CREDENTIAL and codes[-1] == 429
    assert phone.get(quiet).status_code == 200  # the same address, another credential: not limited
    forged = noisy[:-3] + "xx/"
    refused = [phone.get(forged).status_code for _ in range(limits.PER_REFUSED_LINK + 1)]
    assert refused[:-1] == [403] * limits.PER_REFUSED_LINK and refused[-1] == 429
    assert phone.get(quiet).status_code == 200  # refused tries do not starve the others
    clock.now += limits.WINDOW + throttle.STEPS
    assert phone.get(noisy).status_code == 200  # a minute later the noisy phone is back


def test_reports_are_limited_per_board_and_a_phone_reloading_a_disputed_board_is_not(served, clock, settings):
    from qiyuan.formats.trf import read_trf

    code = served
    t = read_trf(open(settings.QIYUAN_HALL_FILE, encoding="utf-8").read())
    ev.pair_next(t)
    open(settings.QIYUAN_HALL_FILE, "w", encoding="utf-8").write(write_trf(t))
    b1, b2 = hall.boards_of(t, 1)[:2]
    phone = _phone()
    first, second = (_link(code, cases.player_link_token(code, n)) for n in (b1.first, b1.second))
    phone.post(first, {"result": "1-0"})
    phone.post(second, {"result": "0-1"})
    assert PhoneClaim.objects.get(event=code, board=b1.board).state == hall.DISPUTED
    for _ in range(60):  # two minutes of reloading the disputed board every 2 s
        assert phone.get(second).status_code == 200
        clock.now += 2
    codes = []
    for i in range(limits.PER_BOARD + 1):  # the two players tapping again and again within one minute
        codes.append(phone.post(first if i % 2 else second, {"result": "½-½" if i % 3 else "0-1"}).status_code)
    assert 429 not in codes[:limits.PER_BOARD - 1] and codes[-1] == 429
    other = _link(code, cases.player_link_token(code, b2.first))
    assert phone.post(other, {"result": "1-0"}).status_code == 302  # another board has its own limit
