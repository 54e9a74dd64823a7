"""`qiyuan office calendar …`: the organiser's and the officer's commands; refusals exit 2 and write nothing;
registrations made at the same moment by real processes all see each other (clashes, codes)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.calendar.models import Registration
from tests.conftest import on_postgres
from tests.support.offices import initialised_office
from tests.support.processes import at_once, qiyuan


START = date.today() + timedelta(days=120)


@pytest.fixture
def run():
    runner = CliRunner(env={"COLUMNS": "200", "QIYUAN_ACTOR": "clerk"})

    def invoke(*args: str):
        return runner.invoke(app, ["office", "calendar", *args])

    return invoke


@pytest.fixture
def office(db):
    from qiyuan.office.federation.models import Arbiter, Association
    from qiyuan.office.ratings.models import RatingList

    Association.objects.create(code="BJ", name="北京五子棋协会")
    RatingList.objects.create(code="CGA", title="CGA", rules_name="cga-gomoku-2011")
    RatingList.objects.create(code="BJSH", title="京沪", rules_name="bjsh-gomoku-2007")
    Arbiter.objects.create(name="周裁判", level="national", recognised_national=True)
    Arbiter.objects.create(name="吴裁判", level="national", recognised_national=True)


def national(*extra: str, name: str = "全国五子棋锦标赛", start: date = START) -> list[str]:
    return ["add", name, "--list", "CGA", "--start", start.isoformat(), "--end", (start + timedelta(3)).isoformat(),
            "--city", "北京", "--rounds", "7", "--players", "36", "--time-control", "每方60分钟", "--chief", "周裁判",
            "--arbiter", "吴裁判", "--organiser-level", "state", "--national", *extra]


def test_add_reports_the_national_event_rateable(run, office):
    done = run(*national())
    assert done.exit_code == 0, done.output
    assert f"registered R{START.year}-001 全国五子棋锦标赛" in done.output
    assert "rateable if played as registered" in done.output
    assert AuditLog.objects.get(action="calendar.add").actor == "clerk"


def test_cga_art_5_8_a_30_minute_event_is_told_why_not(run, office):
    done = run(*national("--time-control", "每方30分钟"))
    assert done.exit_code == 0, done.output  # recorded: the organiser amends it
    assert "not rateable as registered" in done.output
    assert "CGA Art. 5(8): time control 30 min: the first period must be at least 60 min per player" in done.output
    assert "--override REASON" in done.output


def test_bjsh_3_a_clash_is_named(run, office):
    run(*national())
    done = run(*national(name="北京五子棋公开赛"))
    assert f"BJSH §3: clashes with R{START.year}-001 全国五子棋锦标赛" in done.output


def test_bad_input_exit_2_nothing_written(run, office):
    past = date.today() - timedelta(days=3)
    done = run("add", "x", "--list", "CGA", "--start", past.isoformat(), "--end", (past - timedelta(1)).isoformat(),
               "--city", "北京", "--rounds", "7", "--players", "36", "--time-control", "快棋", "--chief", "无名氏",
               "--association", "ZZ")
    assert done.exit_code == 2
    for text in ("is in the past", "is before the start date", "'快棋' cannot be read", "unknown arbiter '无名氏'",
                 "unknown association 'ZZ'"):
        assert text in done.output, text
    assert "Traceback" not in done.output
    assert Registration.objects.count() == 0


def test_approve_refuse_withdraw_amend_show_list(run, office):
    run(*national("--time-control", "30分钟"))
    code = f"R{START.year}-001"
    refused = run("approve", code)
    assert refused.exit_code == 2 and "cannot be approved as registered" in refused.output
    amended = run("amend", code, "--time-control", "90 min")
    assert amended.exit_code == 0 and "rateable if played as registered" in amended.output
    approved = run("approve", code)
    assert approved.exit_code == 0 and f"approved {code}" in approved.output
    shown = run("show", code)
    assert "time control: 90 min (90 min)" in shown.output and "decided: approved" in shown.output
    listed = run("list", "--status", "approved")
    assert code in listed.output and "rateable" in listed.output
    assert run("list", "--status", "bogus").exit_code == 2
    assert run("refuse", code).exit_code == 2  # no reason
    assert run("refuse", code, "--reason", "venue lost").exit_code == 0
    assert run("withdraw", code).exit_code == 2  # refused already
    assert run("show", "R1999-001").exit_code == 2
    actions = list(AuditLog.objects.filter(action__startswith="calendar.").order_by("id").values_list("action",
                                                                                                      flat=True))
    assert actions == ["calendar.add", "calendar.amend", "calendar.approve", "calendar.refuse"]


def test_override_with_a_reason(run, office):
    run(*national("--time-control", "30分钟"))
    done = run("approve", f"R{START.year}-001", "--override", "rated by the parties' agreement")
    assert done.exit_code == 0 and "overriding: rated by the parties' agreement" in done.output
    assert Registration.objects.get().overridden


# -- at the same moment ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def cli_office(request, tmp_path_factory):
    """One command-line office per database kind for the tests below (each works in a year of its own)."""
    if request.param == "sqlite" and on_postgres():
        pytest.skip("the SQLite office is tested in the SQLite run")
    steps = [["office", "arbiter", "add", "周裁判", "--level", "national", "--recognised"],
             ["office", "arbiter", "add", "吴裁判", "--level", "national", "--recognised"]]
    return initialised_office(request, tmp_path_factory.mktemp("calendar-office"), request.param == "postgres",
                              steps)


CONCURRENT = 6
TRIALS = 2


@pytest.mark.parametrize("trial", range(TRIALS))
def test_registrations_at_the_same_moment_all_see_each_other(cli_office, trial):
    """Six organisers register events on the same dates in the same city at the same instant: every one is
    recorded under its own code, and each names every event registered before it as a clash."""
    start = START + timedelta(days=366 * (trial + 1))  # a year of its own: codes R<year>-001 …
    commands = [["office", "calendar", *national(name=f"同日赛事{i}", start=start)] for i in range(CONCURRENT)]
    outcomes = at_once(commands, cli_office)
    assert [o.returncode for o in outcomes] == [0] * CONCURRENT, [o.stderr for o in outcomes]
    listed = qiyuan(["office", "calendar", "list"], cli_office)
    codes = [f"R{start.year}-{n:03d}" for n in range(1, CONCURRENT + 1)]
    for code in codes:
        assert code in listed.stdout
    shown = qiyuan(["office", "calendar", "show", *codes], cli_office).stdout.split("\nR")
    assert len(shown) == CONCURRENT
    for k, text in enumerate(shown):
        assert text.count("clashes with") == k, text  # the k registered before it, each named


def test_approvals_at_the_same_moment_approve_once(cli_office):
    start = START + timedelta(days=366 * (TRIALS + 1))
    done = qiyuan(["office", "calendar", *national(start=start)], cli_office)
    assert done.returncode == 0, done.stderr
    code = f"R{start.year}-001"
    outcomes = at_once([["office", "calendar", "approve", code, "--actor", f"officer{i}"] for i in range(4)],
                       cli_office)
    assert sorted(o.returncode for o in outcomes) == [0, 2, 2, 2], [o.stderr for o in outcomes]
    for o in outcomes:
        if o.returncode:
            assert "is approved: it cannot be approved" in o.stderr or "is approved: it cannot be approved" in o.stdout
    audit = qiyuan(["office", "audit"], cli_office).stdout
    assert audit.count("calendar.approve") == 1


def test_add_without_end_reports_no_date_never_typed(run, office):
    """Issue 22, item 9: a one-day event is shown as the day typed, not a range to a date never typed."""
    args = national()
    at = args.index("--end")
    done = run(*(args[:at] + args[at + 2:]))
    assert done.exit_code == 0, done.output
    assert f"{START.isoformat()} (one day)" in done.output and " – " not in done.output.splitlines()[0]
