"""Issue 24, the desk's last English (words2): a registration's check lines, the calendar form's refusals and the
approval refusal in the page's language — the clause named as the texts name it (中国棋协办法第五条（一） /
CGA Art. 5(1)), no line marked as English on the Chinese desk, no command-line flag on a page."""

from __future__ import annotations

import re

from qiyuan.office.calendar.models import Registration

from tests.office._dan_fixtures import office  # noqa: F401 - a fixture

from .test_calendar_desk import form, lists  # noqa: F401 - fixtures

CJK = re.compile(r"[\u3400-\u9fff]")


def _check_lines(page: str, ident: str) -> list[str]:
    block = re.search(rf'id="{ident}">(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", block.group(1), re.S) if block else []


def test_the_check_and_the_form_refusals_speak_chinese_on_the_chinese_desk(staff, login, lists):
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form(time_control="每方30分钟", rounds="3", arbiters=[]))
    reg = Registration.objects.get()
    page = c.get(f"/desk/calendar/{reg.code}/").content.decode()
    failures = _check_lines(page, "failures")
    assert len(failures) >= 2 and not [line for line in failures if 'lang="en"' in line]
    assert any("中国棋协办法第五条（三）" in line for line in failures)
    assert not [line for line in failures if re.search(r"[A-Za-z]{3,}", re.sub(r"<[^>]+>|min", "", line))]
    refused = c.post(f"/desk/calendar/{reg.code}/act/", {"action": "approve", "override": ""}, follow=True)
    text = refused.content.decode()
    assert "--override" not in text and "REASON" not in text
    bad = c.post("/desk/calendar/new/", form(city="", time_control="", chief_arbiter=""))
    for message in ("缺少举办城市", "缺少用时", "缺少裁判长"):
        assert message in bad.content.decode()


def test_the_check_speaks_english_on_the_english_desk(staff, login, lists):
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form(time_control="每方30分钟"))
    reg = Registration.objects.get()
    page = c.get(f"/desk/calendar/{reg.code}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    failures = _check_lines(page, "failures")
    assert failures and all(not CJK.search(re.sub(r"<[^>]+>", "", line)) for line in failures), failures
    assert any(line.startswith("CGA Art. 5(8)") for line in failures)


def test_the_grades_page_names_classes_and_the_policy_in_words(staff, login, office):  # noqa: F811
    """The grades page: the policy's classes by their titles, not the policy file's codes (national, regional),
    and no ``example #1``."""
    from qiyuan.office.grades.policies import policy_in_force

    c = login(staff["officer"])
    policy = policy_in_force().policy
    assert policy.classes
    for lang, other in (("zh-hans", "en"), ("en", "zh-hans")):
        text = c.get("/desk/office/grades/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        seen = re.sub(r'value="[^"]*"', "", text)
        for cls in policy.classes:
            assert f">{cls.name}<" not in seen and f"<code>{cls.name}</code>" not in seen
        assert f"({policy.name} #" not in text


def test_the_public_calendar_promises_no_rating_and_says_what_an_override_is(client, db):
    """The public calendar never says a registered event "will be rated"; an event approved by override although
    its check fails is listed as what it is (listed by the office's decision, not rateable as registered)."""
    from datetime import date, timedelta

    from qiyuan.office.event_registration import Details, approve_registration, register_event
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.ratings.models import RatingList

    RatingList.objects.create(code="CGA", title="中国五子棋等级分", rules_name="cga-gomoku-2011")
    Arbiter.objects.create(name="周裁判", level="national", recognised_national=True)
    Arbiter.objects.create(name="吴裁判", level="national", recognised_national=True)
    start = date.today() + timedelta(days=60)

    def approved(name, **extra):
        d = Details(**{"name": name, "list_code": "CGA", "start_date": start, "end_date": start, "city": "北京",
                       "rounds": 7, "expected_players": 30, "time_control": "每方60分钟", "chief_arbiter": "周裁判",
                       "arbiters": ("吴裁判",), "organiser_level": "state", "national": True, **extra})
        return approve_registration(register_event(d, actor="officer").code, actor="officer",
                                    override_reason="表演赛")

    good, forced = approved("正常的比赛"), approved("快棋表演赛", time_control="每方20分钟")
    assert good.assessment["rateable"] and forced.overridden and not forced.assessment["rateable"]
    for lang, rateable, override, promise in (
            ("zh-hans", "按注册内容举行可计算等级分", "经特批列入日历；按注册内容不计算等级分", "将计算等级分"),
            ("en", "rateable if played as registered", "listed by decision of the office; not rateable as registered",
             "will be rated")):
        page = client.get("/calendar/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert promise not in page
        row = {code: re.search(rf'<tr id="{code}">(.*?)</tr>', page, re.S).group(1) for code in (good.code, forced.code)}
        assert rateable in row[good.code] and override in row[forced.code] and rateable not in row[forced.code]


def test_the_registration_list_downloads_as_xlsx_and_csv(staff, login, lists):
    """The officer's registration list in Excel (words, Chinese headings, A4 landscape fit to width, title rows
    repeated, header frozen) and in CSV (codes) — from the same function."""
    import csv
    import io

    from openpyxl import load_workbook

    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form())
    c.post("/desk/calendar/new/", form(name="快棋赛", time_control="每方30分钟"))
    assert 'id="export-xlsx"' in c.get("/desk/calendar/").content.decode()
    r = c.get("/desk/calendar/registrations.xlsx")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/vnd.openxmlformats")
    ws = load_workbook(io.BytesIO(r.content)).active
    rows = list(ws.iter_rows(values_only=True))
    assert rows[1][:4] == ("代码", "开始日期", "结束日期", "名称") and len(rows) == 4
    assert {rows[2][6], rows[3][6]} == {"瑞士制"} and "待审批" in (rows[2][12], rows[3][12])
    assert ws.page_setup.orientation == "landscape" and ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == "$1:$2" and ws.freeze_panes == "B3"
    data = list(csv.DictReader(io.StringIO(c.get("/desk/calendar/registrations.csv").content.decode())))
    assert [d["format"] for d in data] == ["swiss", "swiss"] and {d["rateable"] for d in data} == {"yes", "no"}
    assert c.get("/desk/calendar/registrations.doc").status_code == 404
    assert login(staff["arbiter"]).get("/desk/calendar/registrations.xlsx").status_code == 403
