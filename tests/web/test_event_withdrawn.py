"""The event page tells a withdrawn player (退赛, "withdrew") from an absent one (缺席) in the rounds after his
withdrawal, in both languages — whether his file has an absence cell for those rounds or none at all."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from qiyuan.tournament.model import Entrant, RoundCell, Tournament
from qiyuan.web.portal.eventview import _rounds
from tests.web.test_desk import NAMES, live  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db


def _absent(view, rnd: int) -> dict[int, str]:
    return {e.number: str(what) for e, what in view[rnd - 1].absent}


def test_withdrawn_after_round_one_reads_withdrew_not_absent_and_an_absence_stays_absent():
    t = Tournament(name="t", entrants=[
        Entrant(1, "甲", rounds=[RoundCell(2, "b", "1"), RoundCell(3, "b", "1")]),
        Entrant(2, "乙", rounds=[RoundCell(1, "w", "0"), RoundCell(None, "-", "Z")]),  # absent in round 2
        Entrant(3, "丙", rounds=[RoundCell(4, "b", "="), RoundCell(1, "w", "0")]),
        Entrant(4, "丁", rounds=[RoundCell(3, "w", "="), RoundCell(None, "-", "Z")], withdrawn_after=1),
        Entrant(5, "戊", rounds=[RoundCell(None, "-", "U")], withdrawn_after=1),  # no cell after withdrawing
    ])
    with translation.override("zh-hans"):
        view = _rounds(t)
        assert _absent(view, 2) == {2: "缺席", 4: "退赛", 5: "退赛"}
        assert _absent(view, 1) == {5: "轮空"}
    with translation.override("en"):
        assert _absent(_rounds(t), 2) == {2: "absent", 4: "withdrew", 5: "withdrew"}


def test_the_event_page_says_withdrew_after_the_round_of_withdrawal(live, staff, login, client):  # noqa: F811
    c = login(staff["arbiter"])
    c.post("/desk/events/club-2026/draw/", {"how": "rating"})
    c.post("/desk/events/club-2026/pair/")
    c.post("/desk/events/club-2026/results/", {"round": 1, **{k: "1" for k in _result_keys(c)}})
    assert c.post("/desk/events/club-2026/withdraw/", {"number": 6}).status_code == 302
    c.post("/desk/events/club-2026/pair/")
    page = client.get("/events/club-2026/").content.decode()
    round2 = page.split('id="round-2"')[1].split("</section>")[0]
    row = re.search(rf"6\. {NAMES[5]}</td><td[^>]*>([^<]*)<", round2)
    assert row and row.group(1) == "退赛" and "缺席" not in round2, round2
    assert '<span class="badge warn">第1轮后退赛</span>' in page  # the crosstable says after which round
    client.get("/language/en/")
    round2 = client.get("/events/club-2026/").content.decode().split('id="round-2"')[1].split("</section>")[0]
    row = re.search(r"6\. ([^<]*)</td><td[^>]*>([^<]*)<", round2)
    assert row and row.group(2) == "withdrew" and "absent" not in round2, round2
    assert '<span class="badge warn">withdrawn after round 1</span>' in client.get("/events/club-2026/").content.decode()


def _result_keys(c) -> list[str]:
    html = c.get("/desk/events/club-2026/").content.decode()
    return sorted(set(re.findall(r'name="(r-\d+-\d+)"', html)))
