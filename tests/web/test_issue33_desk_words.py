"""Issue 33, item 7 on the desk and its pages: the calendar form's errors and check line in Chinese, grades in words in
the grade messages and the rules page's dan table, the what-if's messages for the player's own ID and for -5, Rc
shown as the tables show numbers, ``--duplicate-of`` on the import page, knock-outs (with mini-matches and their
lots) run on the desk."""

from __future__ import annotations

import html as htmllib
import io
import re
from datetime import date, timedelta

from openpyxl import load_workbook

from qiyuan.office.events.live import LiveEventStore, load
from qiyuan.office.events.models import LiveEvent
from qiyuan.tournament import arbiter as uc
from qiyuan.web.portal.calculations import EventCalc

from .test_calendar_desk import form, lists  # noqa: F401 - fixtures
from .test_office_desk import gomoku, report_bytes, six, upload  # noqa: F401 - fixtures
from tests.office._dan_fixtures import office  # noqa: F401 - a fixture


def text_of(response) -> str:
    assert response.status_code in (200, 302), response.status_code
    return htmllib.unescape(response.content.decode())


# -- the calendar --------------------------------------------------------------------------------------------------


def test_the_calendar_forms_errors_and_its_check_line_are_chinese(staff, login, lists):
    c = login(staff["officer"])
    page = text_of(c.post("/desk/calendar/new/", form(start_date="2026-13-01", rounds="x", expected_players="")))
    assert "开始日期 '2026-13-01' 不是日期（请写成 YYYY-MM-DD）" in page
    assert "计划轮数 'x' 不是整数" in page and "没有填写预计参赛人数" in page
    assert "is not a date" not in page and "whole number" not in page
    c.post("/desk/calendar/new/", form(national=""))
    from qiyuan.office.calendar.models import Registration

    reg = Registration.objects.get()
    detail = text_of(c.get(f"/desk/calendar/{reg.code}/"))
    assert "该赛事既非全国性也非国际性" in detail and "neither national" not in detail


# -- grades in words -------------------------------------------------------------------------------------------------


def test_the_grade_messages_name_grades_in_words(staff, login, office, make_player):  # noqa: F811
    p = make_player("王五")
    r = login(staff["officer"]).post("/desk/office/grades/", {
        "action": "grant", "player": p.federation_id, "grade": "7d", "granted_on": "2024-05-01",
        "granted_by": "中国棋院"}, follow=True)
    page = text_of(r)
    assert f"{p.federation_id}: 七段 超过 2024-05-01 当日的最高授予段位 六段" in page
    assert not re.search(r"\b[1-9]d\b", page.split('id="messages"')[-1].split("</ul>")[0])


def test_the_rules_pages_dan_table_names_grades_in_words(client, published):
    page = text_of(client.get("/rules/"))
    table = page[page.index('id="dan"'):]
    table = table[:table.index("</table>")]
    assert "九段" in table and "初段" in table and "十级" in table
    assert not re.search(r">\s*(?:[1-9]d|10k|[1-9]k)\s*<", table)
    english = text_of(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en"))
    if 'lang="en"' in english:
        assert "9 dan" in english[english.index('id="dan"'):]


# -- the what-if -------------------------------------------------------------------------------------------------------


# (the what-if's messages for the player's own ID and for -5: tests/web/test_whatif.py)


def test_rc_is_shown_as_the_tables_show_numbers():
    from types import SimpleNamespace

    change = SimpleNamespace(method="averaging", before=2000, games=7, W=4, We=3.5, delta=5, K=10, after=2005)
    calc = EventCalc(change, x={"Rc": "2008.714286", "N": 7, "Pd": "0.512345"})
    html = calc.html({"method": "方法", "round": "轮", "opponent": "对手", "opponent_rating": "等级分", "result": "结果",
                      "base": "/players/", "en": False, "total": "合计", "games": "局", "before": "赛前",
                      "after": "赛后"})
    assert "Rc 2008.71" in html and "2008.714286" not in html and "N 7" in html and "Pd 0.51" in html


# -- --duplicate-of on the import page ------------------------------------------------------------------------------------


def test_the_import_page_imports_a_probable_duplicate_with_its_code_and_reason(staff, login, settings, gomoku, six,
                                                                             tmp_path):  # noqa: F811
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.events.models import Event

    settings.VAR_DIR = tmp_path
    officer = login(staff["officer"])
    data = report_bytes(tmp_path, six)
    assert upload(officer, data).status_code == 302
    first = Event.objects.get()
    wb = load_workbook(io.BytesIO(data))
    wb["竞赛报告"]["B3"] = "另一个名字的比赛"
    later = (date(2026, 2, 1) + timedelta(days=30)).isoformat()
    wb["竞赛报告"]["B4"] = wb["竞赛报告"]["C4"] = later
    out = io.BytesIO()
    wb.save(out)
    refused = text_of(upload(officer, out.getvalue(), name="copy.xlsx"))
    assert "可能与比赛" in refused and "确认是已导入比赛的另一份报告" in refused and Event.objects.count() == 1
    no_reason = text_of(upload(officer, out.getvalue(), name="copy.xlsx", duplicate_of=first.code))
    assert Event.objects.count() == 1 and "--duplicate-of" in no_reason
    done = upload(officer, out.getvalue(), name="copy.xlsx", duplicate_of=first.code,
                  duplicate_reason="同一天的另一组比赛")
    assert done.status_code == 302 and Event.objects.count() == 2
    assert AuditLog.objects.filter(detail__duplicate_of=first.code).exists()


# -- knock-outs on the desk ----------------------------------------------------------------------------------------------


def test_the_desk_runs_a_knockout_of_mini_matches_with_its_lot(staff, login, make_association):
    make_association("BJ", "北京")
    c = login(staff["arbiter"])
    page = text_of(c.get("/desk/events/new/"))
    assert 'value="knockout"' in page and "单淘汰" in page
    r = c.post("/desk/events/new/", {"code": "ko-2026", "name": "淘汰赛", "fmt": "knockout", "mini_matches": "10 min",
                                     "chief_arbiter": "裁判甲"})
    assert r.status_code == 302, text_of(r)[:3000]
    for i in range(6):
        c.post("/desk/events/ko-2026/players/", {"name": f"选手{i + 1}", "sex": "m", "rating": 2000 - 10 * i,
                                                 "association": "BJ"})
    store, arbiter = LiveEventStore("ko-2026"), staff["arbiter"]
    assert c.post("/desk/events/ko-2026/pair/").status_code == 302
    uc.enter_results(store, arbiter, 1, [(3, "1-0"), (4, "1-0")])
    uc.pair(store, arbiter)
    uc.enter_results(store, arbiter, 2, [(6, "1-0"), (4, "1-0")])  # 3-6 tied 1:1, 4-5 won 2:0
    page = text_of(c.get("/desk/events/ko-2026/"))
    assert 'id="bracket"' in page and 'id="tiebreak-lot"' in page and "第 3 轮是 3-6 的加赛" in page
    assert "每场 2 局，先行交替" in page and "Mini-matches" not in page
    r = c.post("/desk/events/ko-2026/lot/", {"openers": "6"}, follow=True)
    assert "已记录现场抽签的加赛先行方" in text_of(r) and 'id="tiebreak-lot"' not in text_of(r)
    c.post("/desk/events/ko-2026/pair/")
    assert "加赛先行由现场抽签决定：6" in text_of(c.get("/desk/events/ko-2026/"))
    t = load(LiveEvent.objects.get(code="ko-2026"))
    assert t.entrants[5].rounds[2].colour == "b" and t.entrants[5].rounds[2].opponent == 3


def test_mini_matches_go_with_a_knockout_only(staff, login):
    c = login(staff["arbiter"])
    r = c.post("/desk/events/new/", {"code": "sw-2026", "name": "积分赛", "fmt": "swiss", "mini_matches": "10 min",
                                     "chief_arbiter": "裁判甲"})
    assert r.status_code == 200 and "每场两局只用于淘汰赛" in text_of(r)
    assert not LiveEvent.objects.filter(code="sw-2026").exists()
