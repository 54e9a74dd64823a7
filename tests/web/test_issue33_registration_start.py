"""Issue 33, item 4: ``qiyuan event new FILE --registration CODE`` starts an event from an approved registration — its
name, dates, city, rounds, time control, arbiters and entry list — and refuses one not approved, writing nothing."""

from __future__ import annotations

from datetime import timedelta

from qiyuan.cli import lang
from qiyuan.formats.trf import read_trf

from .test_calendar_desk import START, lists  # noqa: F401 - fixtures
from .test_cli_languages import assert_in_language, run
from .test_registration_entries import cli, entries_csv, registered


def test_an_event_starts_from_its_approved_registration(staff, login, lists, tmp_path):
    reg = registered(staff, login, approve=True)
    assert cli("office", "calendar", "entries", reg.code, entries_csv(tmp_path / "报名表.csv")).exit_code == 0
    ev = tmp_path / "ev.trf"
    done = cli("event", "new", ev, "--registration", reg.code)
    assert done.exit_code == 0, done.output
    assert f"created {ev}: 全国五子棋锦标赛, swiss" in done.stdout
    assert f"3 player(s) entered from {reg.code}" in done.stdout
    t = read_trf(ev)
    assert (t.name, t.start_date, t.end_date, t.city, t.rounds_planned, t.time_control, t.chief_arbiter,
            t.deputy_arbiters) == ("全国五子棋锦标赛", START, START + timedelta(days=3), "北京", 7, "每方60分钟",
                                   "周裁判", ["吴裁判"])
    assert [(e.name, e.title, e.rating) for e in t.entrants] == [("赵六", "3d", 1810), ("钱七", "1k", None),
                                                                 ("Ann Lee", "", 1500)]


def test_the_options_given_win_over_the_registration(staff, login, lists, tmp_path):
    reg = registered(staff, login, approve=True)
    ev = tmp_path / "ev.trf"
    done = cli("event", "new", ev, "--registration", reg.code, "--rounds", 9, "--name", "锦标赛（决赛）")
    assert done.exit_code == 0, done.output
    assert f"{reg.code} has no entry list yet" in done.stdout
    t = read_trf(ev)
    assert (t.name, t.rounds_planned, t.entrants) == ("锦标赛（决赛）", 9, [])


def test_a_registration_not_approved_starts_nothing(staff, login, lists, tmp_path):
    reg = registered(staff, login, approve=False)
    ev = tmp_path / "ev.trf"
    refused = cli("event", "new", ev, "--registration", reg.code)
    assert refused.exit_code == 2 and "is not approved yet: an event starts from it once" in refused.stderr
    assert not ev.exists()
    unknown = cli("event", "new", ev, "--registration", "R1999-001")
    assert unknown.exit_code == 2 and "R1999-001" in unknown.stderr and not ev.exists()
    zh = run(["event", "new", str(ev), "--registration", reg.code], lang.CHINESE)
    assert zh.exit_code == 2 and "尚未批准" in zh.stderr
    assert_in_language(zh.output, lang.CHINESE, ["event", "new"])


def test_a_bad_entry_refuses_the_whole_start(staff, login, lists, tmp_path):
    """A list changed since it was recorded (a grade no longer a grade): nothing is written."""
    from qiyuan.office.calendar.models import RegistrationEntry

    reg = registered(staff, login, approve=True)
    cli("office", "calendar", "entries", reg.code, entries_csv(tmp_path / "报名表.csv"))
    RegistrationEntry.objects.filter(name="赵六").update(title="x")
    ev = tmp_path / "ev.trf"
    refused = cli("event", "new", ev, "--registration", reg.code)
    assert refused.exit_code == 2 and "found 'x'" in refused.stderr and not ev.exists()
