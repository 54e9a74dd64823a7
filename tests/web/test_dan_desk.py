"""The dan and kyu desk (段级位授予): the officer sees an imported event's proposals and confirms them; records a
standard and a grant by hand; downloads a certificate; refusals are shown in the page's language and write
nothing; only officers may."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from qiyuan.office.federation.models import DanGrant, Player
from qiyuan.office.grades.models import GradingStandard
from tests.office._dan_fixtures import imported_event, office  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer(staff, login):
    return login(staff["officer"])


def page(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_the_import_page_shows_the_events_proposals_and_the_officer_confirms_them(officer, office, tmp_path,
                                                                                 resident_id):
    ev = imported_event(tmp_path, resident_id)
    detail = page(officer.get(f"/desk/office/imports/{ev.import_batch_id}/"))
    assert "16 人可授予段级位" in detail and f"/desk/office/grades/events/{ev.code}/" in detail
    text = page(officer.get(f"/desk/office/grades/events/{ev.code}/"))
    assert "national 公开组第 1 名" in text and "national open 1" not in text and "六段" in text and text.count('name="player"') == 16
    first = Player.objects.get(entries__event=ev, entries__rank=1).federation_id
    second = Player.objects.get(entries__event=ev, entries__rank=2).federation_id
    r = officer.post(f"/desk/office/grades/events/{ev.code}/", {"action": "some", "player": [first, second]})
    assert r.status_code == 302 and DanGrant.objects.count() == 2
    text = page(officer.get(f"/desk/office/grades/events/{ev.code}/"))
    assert "已授予 2 人" in text and "已授予" in text and "/desk/office/grades/certificates/DEMO-2024-00001.pdf" in text
    r = officer.post(f"/desk/office/grades/events/{ev.code}/", {"action": "all"})
    assert r.status_code == 302 and DanGrant.objects.count() == 16
    pdf = officer.get("/desk/office/grades/certificates/DEMO-2024-00001.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_a_refused_confirmation_is_shown_in_chinese_and_in_english_and_writes_nothing(officer, office, tmp_path,
                                                                                     resident_id, client):
    ev = imported_event(tmp_path, resident_id, n=10)
    text = page(officer.get(f"/desk/office/grades/events/{ev.code}/"))
    assert "不是等级赛：本赛不授予段级位" in text
    assert "京沪细则第九条（一）：10 名棋手参赛；等级赛至少需要 12 人" in text  # the clause as the texts name it
    r = officer.post(f"/desk/office/grades/events/{ev.code}/", {"action": "all"}, follow=True)
    assert "不是等级赛（等级赛），不授予段级位" in page(r) or "不授予段级位" in page(r)
    assert DanGrant.objects.count() == 0
    officer.get("/language/en/")
    text = page(officer.get(f"/desk/office/grades/events/{ev.code}/"))
    assert "BJSH §9(1): 10 players; a grading event needs at least 12" in text
    assert "Not a grading event: it grants no grade" in text


def test_the_officer_records_a_standard_and_a_grant_by_hand(officer, office, make_player):
    start = date.today() + timedelta(days=20)
    r = officer.post("/desk/office/grades/", {"action": "standard", "event_name": "2027年全国五子棋锦标赛",
                                              "start": start.isoformat(), "event_class": "national",
                                              "rating_list": "CGA"}, follow=True)
    assert "已登记等级赛标准" in page(r) and GradingStandard.objects.get().recorded_by == "officer"
    p = make_player("王五")
    r = officer.post("/desk/office/grades/", {"action": "grant", "player": p.federation_id, "grade": "3d",
                                              "granted_on": "2024-05-01", "granted_by": "RIF"}, follow=True)
    assert "已授予" in page(r) and DanGrant.objects.get().granted_by == "RIF"


def test_refusals_on_the_grades_page_name_every_problem_and_write_nothing(officer, office, make_player):
    p = make_player("王五")
    r = officer.post("/desk/office/grades/", {"action": "grant", "player": p.federation_id, "grade": "7d",
                                              "granted_on": "2024-05-01", "granted_by": "中国棋院"}, follow=True)
    text = page(r)
    assert f"{p.federation_id}: 七段 超过 2024-05-01 当日的最高授予段位 六段（第五条）" in text  # grades in words
    r = officer.post("/desk/office/grades/", {"action": "grant", "player": "CN999999", "grade": "3d",
                                              "granted_on": "x", "granted_by": "RIF"}, follow=True)
    assert "授予日期：x 不是日期" in page(r)
    r = officer.post("/desk/office/grades/", {"action": "standard", "event_name": "已开始的比赛",
                                              "start": date.today().isoformat(), "event_class": "national"},
                     follow=True)
    assert "须在比赛开始前登记" in page(r)
    assert DanGrant.objects.count() == 0 and GradingStandard.objects.count() == 0
    assert page(officer.get("/desk/office/grades/certificates/NOPE.pdf", follow=True)).count("NOPE") >= 1


def test_only_officers_reach_the_grades_desk(staff, login, office):
    for who, status in (("arbiter", 403), ("nobody", 403)):
        client = login(staff[who])
        assert client.get("/desk/office/grades/").status_code == status
        assert client.post("/desk/office/grades/", {"action": "grant"}).status_code == status
    assert login(staff["admin"]).get("/desk/office/grades/").status_code == 200
