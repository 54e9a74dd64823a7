"""Issue 22, item 11: a passport entrant typed at the desk reaches the office whole — his birth date (it was lost:
``birth_year: null``) and his nationality (国籍: a field of the desk's form; a foreign entrant need pick no Chinese
association), through the event file and the competition report to the office's import."""

from __future__ import annotations

from datetime import date

import pytest
from openpyxl import load_workbook

from qiyuan.formats.report_xlsx import read_report
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.federation.models import Player

from .test_desk import _officer_imports, _play_out

pytestmark = pytest.mark.django_db

FOREIGNER = {"name": "Kim Minjun", "sex": "m", "id_type": "passport", "id_number": "M12345678",
             "birth": "2010-03-04", "nationality": "KOR", "rating": 1800}


@pytest.fixture
def desk_event(staff, login, make_association, settings, tmp_path):
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.ratings.models import RatingList

    settings.VAR_DIR = tmp_path
    make_association("BJ", "北京")
    RatingList.objects.create(code="bjsh", title="京沪五子棋等级分", rules_name="bjsh-gomoku-2007")
    Arbiter.objects.create(name="裁判甲", level="national")
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": "intl-2026", "name": "2026年北京国际五子棋邀请赛", "fmt": "swiss", "rounds": 5,
                                 "start": "2026-02-01", "end": "2026-02-02", "city": "北京",
                                 "time_control": "60 min", "chief_arbiter": "裁判甲"})
    return c


def _t():
    return read_trf(LiveEvent.objects.get(code="intl-2026").trf_text)


def test_the_form_has_a_nationality_and_the_event_file_keeps_it(desk_event):
    c = desk_event
    html = c.get("/desk/events/intl-2026/").content.decode()
    assert 'name="nationality"' in html and "国籍" in html
    assert c.post("/desk/events/intl-2026/players/", FOREIGNER).status_code == 302
    e = _t().entrants[0]
    assert (e.nationality, e.birth, e.federation, e.id_type) == ("KOR", "2010/03/04", "", "passport")
    assert read_trf(write_trf(_t())).entrants[0].nationality == "KOR"  # read back as written


def test_a_nationality_that_is_no_country_code_is_refused_beside_the_form(desk_event):
    r = desk_event.post("/desk/events/intl-2026/players/", {**FOREIGNER, "nationality": "Korea"})
    html = r.content.decode()
    assert r.status_code == 200 and 'value="Korea"' in html and "国籍" in html
    assert _t().entrants == []


def test_the_birth_date_and_nationality_reach_the_office_import(desk_event, staff, login, tmp_path, resident_id):
    c = desk_event
    c.post("/desk/events/intl-2026/players/", FOREIGNER)
    for i, name in enumerate(["甲", "乙", "丙", "丁", "戊"]):
        born = date(2001, 1, i + 1)
        r = c.post("/desk/events/intl-2026/players/", {"name": name, "sex": "m" if i % 2 else "w",
                                                       "rating": 1900 - 10 * i, "association": "BJ",
                                                       "id_number": resident_id(born, "M" if i % 2 else "F")})
        assert r.status_code == 302
    _play_out(c, "intl-2026", 5, 3)
    report = c.get("/desk/events/intl-2026/report.xlsx").content
    (tmp_path / "report.xlsx").write_bytes(report)
    t, _meta = read_report(tmp_path / "report.xlsx")
    kim = next(e for e in t.entrants if e.name == "Kim Minjun")
    assert (kim.birth, kim.nationality, kim.id_type) == ("2010/03/04", "KOR", "passport")
    assert "M12345678" in str([c.value for row in load_workbook(tmp_path / "report.xlsx")["成绩"].iter_rows()
                               for c in row])
    _officer_imports(login(staff["officer"]), "intl-2026", report, "bjsh")
    p = Player.objects.get(name="Kim Minjun")
    assert (p.birth_date, p.birth_year, p.nationality, p.id_type, p.association) == (
        date(2010, 3, 4), 2010, "KOR", "passport", None)
    assert Player.objects.get(name="甲").nationality == "CHN"


def test_the_command_line_and_an_entry_list_take_a_nationality(tmp_path):
    from tests.cli.test_tournament_cli import run

    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "国际邀请赛")
    run("event", "add-player", ev, "Sato Yuki", "--sex", "w", "--nationality", "jpn", "--birth", "2011-07-08")
    bad = run("event", "add-player", ev, "Lee", "--nationality", "Korea", ok=False)
    assert bad.exit_code == 2 and "nationality 'KOREA' is not a 3-letter country code" in bad.stderr
    (tmp_path / "list.csv").write_text("姓名,性别,国籍\nPark Jiwoo,男,KOR\n张三,男,\n", encoding="utf-8")
    run("event", "add-players", ev, tmp_path / "list.csv")
    t = read_trf(ev)
    assert [(e.name, e.nationality) for e in t.entrants] == [("Sato Yuki", "JPN"), ("Park Jiwoo", "KOR"), ("张三", "")]
    assert "XQ5    1 JPN" in ev.read_text(encoding="utf-8")
