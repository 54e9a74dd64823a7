"""The desk's pages read in the page's language (issue 10): no stored code (a format, a status, a method, a rule
set's name, an action of the undo trail, a sex) on a Chinese desk page, no untranslated text."""

from __future__ import annotations

import re

import pytest

from .language_check import problems
from .test_desk_provisional import _rated_players
from .test_whatif import _office

#: what a desk page may show as it is: user names and codes typed by people, file types, a command, the keys and
#: keywords the arbiter types (x clears a result; women, rating: prize categories)
ALLOWED = {"admin", "arbiter", "arbiter2", "officer", "nobody", "run", "x", "women", "rating", "xlsx", "trf", "txt", "xml", "min", "s", "Django",
           "history", "hist7H", "tester", "qiyuan", "office", "dan", "policy", "install"}


@pytest.fixture
def desk(tmp_path, staff, login, settings):
    settings.VAR_DIR = tmp_path
    rl = _office(tmp_path)
    c = login(staff["admin"])
    c.post("/desk/events/new/", {"code": "run-2026", "name": "进行中的比赛", "fmt": "swiss", "rounds": 5})
    for p in _rated_players(rl, 6):
        c.post("/desk/events/run-2026/players/", {"federation_id": p.federation_id})
    c.post("/desk/events/run-2026/players/", {"name": "新手", "sex": "w", "title": "2k"})
    c.post("/desk/events/run-2026/pair/")
    return c


PAGES = ["/desk/", "/desk/events/new/", "/desk/events/run-2026/", "/desk/events/run-2026/details/",
         "/desk/events/run-2026/finish/", "/desk/events/run-2026/provisional/?list=CGA",
         "/desk/events/run-2026/print/1/", "/desk/office/imports/", "/desk/office/periods/", "/desk/calendar/",
         "/desk/users/"]


def test_chinese_desk_pages_show_no_code_and_no_english(desk):
    from qiyuan.office.federation.models import Arbiter

    Arbiter.objects.create(name="周裁判", level="national", recognised_national=True)  # listed on the event forms
    found = {}
    for url in PAGES:
        r = desk.get(url)
        assert r.status_code == 200, url
        if bad := problems(r.content.decode(), "zh-hans", allowed_english=ALLOWED):
            found[url] = bad
    r = desk.post("/desk/office/periods/", {"list": "CGA", "action": "compute"})
    if bad := problems(r.content.decode(), "zh-hans", allowed_english=ALLOWED):
        found["review"] = bad
    assert not found, found


def test_the_event_page_names_sex_grade_rule_sets_and_actions_in_words(desk):
    html = desk.get("/desk/events/run-2026/").content.decode()
    entrants = html.split('id="entrants"')[1].split("</table>")[0]
    assert "<td>女</td>" in entrants and "二级" in entrants
    assert ">中国围棋协会五子棋项目等级分制度实施办法（暂行，2011）</option>" in html
    log = html.split("操作记录")[1].split("</ul>")[0]
    assert "编排" in log and "录入棋手" in log and not re.search(r"\b(pair|add_player|create)\b", log)


def test_every_id_number_refusal_has_its_chinese_translation():
    """The tournament core reports an ID number's problems as ``"ID number: " + template``
    (``people.idnumber.RESIDENT_ID_TEMPLATES``): each must be in the zh_Hans catalogue, with the same values."""
    from qiyuan.locale.catalogue import placeholders, read_catalogue
    from qiyuan.people.idnumber import RESIDENT_ID_TEMPLATES

    zh = read_catalogue("zh_Hans")
    for template in RESIDENT_ID_TEMPLATES:
        key = "ID number: " + template
        assert zh.get(key), key
        assert placeholders(zh[key]) == placeholders(key), key
