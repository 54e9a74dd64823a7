"""Issue 22, item 3: entries from an approved calendar registration's entry list.  The office records the list
(``qiyuan office calendar entries CODE FILE``, or an upload on the registration's desk page: every row checked,
every problem at once, nothing recorded if any); ``qiyuan event add-players EVENT --registration CODE`` and the
desk's "按报名表录入" enter it — only an approved registration's."""

from __future__ import annotations

import csv

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.formats.trf import read_trf
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.calendar.models import Registration
from qiyuan.office.events.live import load
from qiyuan.office.events.models import LiveEvent

from .test_calendar_desk import START, form, lists  # noqa: F401 - fixtures

HEAD = ["姓名", "性别", "身份证号", "段级位", "所属棋协", "等级分"]
ROWS = [["赵六", "男", "", "3段", "北京", "1810"], ["钱七", "女", "", "1级", "上海", ""],
        ["Ann Lee", "女", "", "", "", "1500"]]


def entries_csv(path, rows=ROWS):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(HEAD)
        w.writerows(rows)
    return path


def cli(*args):
    return CliRunner(env={"COLUMNS": "200", "QIYUAN_ACTOR": "clerk"}).invoke(app, [str(a) for a in args])


def registered(staff, login, *, approve: bool) -> Registration:
    c = login(staff["officer"])
    c.post("/desk/calendar/new/", form())
    reg = Registration.objects.get()
    if approve:
        c.post(f"/desk/calendar/{reg.code}/act/", {"action": "approve"})
        reg.refresh_from_db()
    return reg


def test_the_command_line_records_the_list_and_enters_it_once_approved(staff, login, lists, tmp_path):
    reg = registered(staff, login, approve=False)
    done = cli("office", "calendar", "entries", reg.code, entries_csv(tmp_path / "报名表.csv"))
    assert done.exit_code == 0, done.output
    assert f"{reg.code}: entry list of 3 player(s) recorded" in done.output
    assert AuditLog.objects.get(action="calendar.entries").detail["players"] == 3
    ev = tmp_path / "ev.trf"
    assert cli("event", "new", ev, "--name", reg.name, "--rounds", 7).exit_code == 0
    refused = cli("event", "add-players", ev, "--registration", reg.code)  # registered, not yet approved
    assert refused.exit_code == 2 and "is not approved yet" in refused.stderr
    assert read_trf(ev).entrants == []
    login(staff["officer"]).post(f"/desk/calendar/{reg.code}/act/", {"action": "approve"})
    done = cli("event", "add-players", ev, "--registration", reg.code)
    assert done.exit_code == 0, done.stderr
    assert "3 player(s) entered, numbers 1-3" in done.stdout
    t = read_trf(ev)
    assert [(e.name, e.sex, e.title, e.federation, e.rating) for e in t.entrants] == [
        ("赵六", "m", "3d", "北京", 1810), ("钱七", "w", "1k", "上海", None), ("Ann Lee", "w", "", "", 1500)]


def test_every_bad_row_is_named_at_once_and_nothing_is_recorded(staff, login, lists, tmp_path):
    reg = registered(staff, login, approve=True)
    assert cli("office", "calendar", "entries", reg.code, entries_csv(tmp_path / "ok.csv")).exit_code == 0
    bad = entries_csv(tmp_path / "bad.csv", ROWS + [["张三", "x", "", "12段", "", "abc"], ["赵六", "男", "", "3段",
                                                                                        "北京", "1810"]])
    done = cli("office", "calendar", "entries", reg.code, bad)
    assert done.exit_code == 2
    out = done.output
    assert "line 5" in out and "等级分" in out and "sex must be m or w" in out and "12段" in out
    assert "line 6" in out and "listed twice: rows 2 and 6" in out
    assert reg.entries.count() == 3  # the list recorded before stays whole
    missing = cli("event", "add-players", tmp_path / "none.trf", "--registration", "R1999-001")
    assert missing.exit_code == 2


def test_a_refused_registration_takes_no_list_and_gives_none(staff, login, lists, tmp_path):
    reg = registered(staff, login, approve=False)
    cli("office", "calendar", "entries", reg.code, entries_csv(tmp_path / "ok.csv"))
    login(staff["officer"]).post(f"/desk/calendar/{reg.code}/act/", {"action": "refuse", "reason": "场地未定"})
    again = cli("office", "calendar", "entries", reg.code, entries_csv(tmp_path / "ok.csv"))
    assert again.exit_code == 2 and "refused" in again.output
    ev = tmp_path / "ev.trf"
    cli("event", "new", ev, "--name", "x")
    done = cli("event", "add-players", ev, "--registration", reg.code)
    assert done.exit_code == 2 and "is refused: its entry list is not entered" in done.stderr


def test_the_desk_uploads_the_list_and_the_arbiter_enters_it(staff, login, lists):
    reg = registered(staff, login, approve=True)
    c = login(staff["officer"])
    page = c.get(f"/desk/calendar/{reg.code}/").content.decode()
    assert 'id="entries-form"' in page and "尚无报名表" in page
    text = "\n".join(",".join(r) for r in [HEAD, *ROWS, ["", "男", "", "", "", "x"]]).encode()
    r = c.post(f"/desk/calendar/{reg.code}/entries/", {"file": SimpleUploadedFile("list.csv", text)}, follow=True)
    page = r.content.decode()
    assert "第 5 行：" in page and reg.entries.count() == 0  # every problem by its row, nothing recorded
    text = "\n".join(",".join(r) for r in [HEAD, *ROWS]).encode()
    r = c.post(f"/desk/calendar/{reg.code}/entries/", {"file": SimpleUploadedFile("list.csv", text)}, follow=True)
    page = r.content.decode()
    assert "3 名棋手" in page and "赵六" in page and "三段" in page
    # the arbiter starts the event from the registration and enters its list in one click
    a = login(staff["arbiter"])
    post = {"registration": reg.code, "code": reg.code, "name": reg.name, "fmt": "swiss", "rounds": "7",
            "start": START.isoformat(), "end": reg.end_date.isoformat(), "city": "北京", "time_control": "每方60分钟",
            "chief_arbiter": "周裁判", "organiser_level": "state"}
    assert a.post(f"/desk/events/new/?from={reg.code}", post).status_code == 302
    page = a.get(f"/desk/events/{reg.code}/").content.decode()
    assert 'id="registration-entries"' in page and f'name="registration" value="{reg.code}"' in page
    r = a.post(f"/desk/events/{reg.code}/players/list/", {"registration": reg.code}, follow=True)
    assert "已按名单录入 3 名棋手" in r.content.decode()
    assert [e.name for e in load(LiveEvent.objects.get(code=reg.code)).entrants] == ["赵六", "钱七", "Ann Lee"]


@pytest.mark.parametrize("language", ["en", "zh_Hans"])
def test_the_command_speaks_the_terminals_language(staff, login, lists, tmp_path, language):
    from .test_cli_languages import run

    reg = registered(staff, login, approve=False)
    done = run(["office", "calendar", "entries", reg.code, str(entries_csv(tmp_path / "ok.csv"))], language)
    assert done.exit_code == 0, done.output
    assert done.output.strip() == {"en": f"{reg.code}: entry list of 3 player(s) recorded",
                                   "zh_Hans": f"{reg.code}：已记录报名表，共 3 名棋手"}[language]
