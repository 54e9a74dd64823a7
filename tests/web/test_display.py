"""What the pages show: translated labels (formats, organiser levels), English association names,
numbers formatted one way (points without ``.0``, ΔR signed with two decimals), times with their zone,
and Go events shown the Go way."""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal

import pytest

from qiyuan.web.numbers import points_text, signed_delta


def english(client):
    client.get("/language/en/?next=/")
    return client


def test_points_and_delta_formats():
    assert [points_text(x) for x in (Decimal("19"), Decimal("19.0"), Decimal("18.50"), "0.25", None)] == [
        "19", "19", "18.5", "0.25", ""]
    assert [signed_delta(x) for x in ("2", Decimal("3.8"), "-3.805", "0", "11.85")] == [
        "+2.00", "+3.80", "-3.81", "0.00", "+11.85"]


def test_english_pages_use_english_association_names(client, published):
    from qiyuan.office.federation.models import Association

    Association.objects.filter(code="BJ").update(name_en="Beijing Gomoku Association")
    bj = published["players"][0]
    zh = client.get(f"/players/{bj.federation_id}/").content.decode()
    assert "BJ棋协" in zh and "Beijing Gomoku Association" not in zh
    c = english(client)
    for url in (f"/players/{bj.federation_id}/", "/lists/gomoku/", "/players/?q=zhang", "/"):
        r = c.get(url, follow=True)
        html = r.content.decode()
        assert "Beijing Gomoku Association" in html, url
        assert ">BJ棋协<" not in html, url


def test_event_page_format_label_standings_numbers_and_delta(client, published):
    html = client.get("/events/2025-bj-open/").content.decode()
    assert "积分编排制（瑞士制） · 3 轮" in html and "swiss," not in html
    table = re.search(r'id="standings-table">(.*?)</table>', html, re.S).group(1)
    numbers = re.findall(r'<td class="num">(?:<strong>)?([-\d.]+)(?:</strong>)?</td>', table)
    assert numbers and not [n for n in numbers if n.endswith(".0")], numbers
    assert "+11.85" in html
    en = english(client).get("/events/2025-bj-open/").content.decode()
    assert "Swiss system · 3 rounds" in en


def test_player_page_delta_always_has_two_decimals(client, published):
    from qiyuan.formats.canonical_text import as_json

    from .conftest import resheet

    a = published["players"][0]

    def whole(cols):
        for i, player in enumerate(cols["player"]):
            if player == a.pk:
                explanation = json.loads(cols["explanation"][i])
                explanation["lines"][0][7] = "2"  # a whole-number ΔR next to "5.40"
                cols["explanation"][i], cols["delta"][i] = as_json(explanation), "7.4000"
    for ed in published["editions"][1:]:
        resheet(ed, "changes", whole)
    html = client.get(f"/players/{a.federation_id}/").content.decode()
    calc = html[html.index('id="calculations"'):]
    assert "+2.00" in calc and "+5.40" in calc and "+7.40" in calc
    assert not re.search(r">\+2<", calc)


@pytest.mark.django_db
def test_desk_forms_show_translated_choices_and_times_with_their_zone(client, make_user):
    from django.contrib.auth.models import Group

    officer = make_user("officer", "officer")
    arbiter = make_user("arbiter", "arbiter")
    Group.objects.get_or_create(name="officer")
    client.force_login(officer)
    html = client.get("/desk/office/imports/").content.decode()
    assert "国家级（国家体育总局" in html and ">state<" not in html and ">state/regional<" not in html
    assert ">round_robin<" not in html and "循环制" in html
    client.force_login(arbiter)
    client.post("/desk/events/new/", {"code": "tz-2026", "name": "时区赛", "fmt": "swiss", "rounds": 3})
    client.post("/desk/events/tz-2026/players/", {"name": "甲", "sex": "m"})
    page = client.get("/desk/events/tz-2026/").content.decode()
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\+0800", page)


def test_go_event_page_uses_go_points_and_no_gomoku_tiebreaks(client, published):
    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.ratings.models import RatingList

    go = RatingList.objects.create(code="go", title="围棋等级分", rules_name="cn-go-1995", game="go")
    a, b, c, d = published["players"]
    ev = Event.objects.create(code="go-2026", name="2026年围棋公开赛", format="swiss", rounds=2, rating_list=go,
                              start_date=date(2026, 2, 1), end_date=date(2026, 2, 2))
    for i, (p, rank) in enumerate([(a, 1), (b, 2), (c, 3), (d, 4)], 1):
        Entry.objects.create(event=ev, player=p, number=i, name=p.name, rank=rank, score=Decimal(3 - rank // 2))
    for rnd, p1, p2, result in [(1, a, b, "1-0"), (1, c, d, "1-0"), (2, a, c, "1-0"), (2, b, d, "1-0")]:
        Game.objects.create(event=ev, round=rnd, player1=p1, player2=p2, result=result)
    html = client.get("/events/go-2026/").content.decode()
    assert "辅分一" not in html and "胜局" in html and 'id="go-note"' in html
    table = re.search(r'id="standings-table">(.*?)</table>', html, re.S).group(1)
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td>.*?<strong>([\d.]+)</strong>", table)
    assert [(r[0], r[2]) for r in rows] == [("1", "2"), ("2", "1"), ("3", "1"), ("4", "0")]
    gomoku = client.get("/events/2025-bj-open/").content.decode()
    assert "辅分一" in gomoku and 'id="go-note"' not in gomoku
