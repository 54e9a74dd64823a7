"""`qiyuan office dan …`: the policy, standards, proposals and grants on the command line; every refusal exits 2
and writes nothing."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.federation.models import DanGrant, Player
from qiyuan.office.grades.models import GradingStandard, PolicyVersion

from ._dan_fixtures import imported_event, office  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def run():
    runner = CliRunner(env={"COLUMNS": "220", "QIYUAN_ACTOR": "clerk"})

    def invoke(*args: str):
        return runner.invoke(app, ["office", "dan", *args])

    return invoke


def written():
    return DanGrant.objects.count(), GradingStandard.objects.count(), PolicyVersion.objects.count(), \
        AuditLog.objects.count()


def test_policy_example_check_install_show(run, tmp_path, db):
    example = run("policy", "example")
    assert example.exit_code == 0 and 'name = "example"' in example.output and "NOT AN OFFICIAL" in example.output
    path = tmp_path / "p.toml"
    assert run("policy", "example", "--out", str(path)).exit_code == 0 and path.exists()
    assert run("policy", "example", "--out", str(path)).exit_code == 2  # never overwrites
    checked = run("policy", "check", str(path))
    assert checked.exit_code == 0 and "valid" in checked.output and "class national" in checked.output
    shown = run("policy", "show")
    assert shown.exit_code == 0 and "no policy installed: the texts alone" in shown.output
    installed = run("policy", "install", str(path))
    assert installed.exit_code == 0 and "policy example installed" in installed.output
    assert "in force: example" in run("policy", "show").output
    assert AuditLog.objects.get(action="dan.policy").actor == "clerk"


def test_a_bad_policy_file_lists_every_problem_with_its_line_and_installs_nothing(run, tmp_path, db):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nfederation = "某"\n[[cap]]\nsince = "2000-01-01"\ngrade = "1k"\n'
                    '[conditions]\nmin_players = "twelve"\n', encoding="utf-8")
    for command in ("check", "install"):
        result = run("policy", command, str(path))
        assert result.exit_code == 2, result.output
        assert f"{path}, line 5, cap[1].grade: the cap is a dan grade" in result.output
        assert f"{path}, line 7, conditions.min_players: expected a whole number" in result.output
    assert PolicyVersion.objects.count() == 0
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = run("policy", "check", str(path))
    assert result.exit_code == 2 and "cannot read it as UTF-8 text" in result.output
    assert run("policy", "check", str(tmp_path / "missing.toml")).exit_code == 2


def test_standard_record_and_list(run, office):
    start = date.today() + timedelta(days=30)
    result = run("standard", "record", "2027年全国五子棋锦标赛", "--start", start.isoformat(), "--class", "national",
                 "--list", "CGA", "--note", "竞赛规程第8条")
    assert result.exit_code == 0, result.output
    assert f"recorded on {date.today()}" in result.output
    assert "2027年全国五子棋锦标赛" in run("standard", "list").output
    before = written()
    late = run("standard", "record", "今天开始的比赛", "--start", date.today().isoformat(), "--class", "national")
    assert late.exit_code == 2 and "must be recorded before the start (BJSH §9(三))" in late.output
    bad = run("standard", "record", "某赛", "--start", "2030-02-30", "--class", "national")
    assert bad.exit_code == 2 and "--start '2030-02-30' is not a date" in bad.output
    assert written() == before


def test_propose_and_confirm_on_the_command_line(run, office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id)
    proposal = run("propose", ev.code)
    assert proposal.exit_code == 0, proposal.output
    assert "class national" in proposal.output and "national open 1" in proposal.output
    assert f"16 grant(s) proposed; confirm them with\n  qiyuan office dan grant {ev.code} --all" in proposal.output
    assert DanGrant.objects.count() == 0  # proposing writes nothing
    first = Player.objects.get(entries__event=ev, entries__rank=1).federation_id
    some = run("grant", ev.code, "--player", first)
    assert some.exit_code == 0 and f"granted {first}" in some.output and "DEMO-2024-00001" in some.output
    rest = run("grant", ev.code, "--all")
    assert rest.exit_code == 0 and "15 grant(s) recorded" in rest.output
    again = run("grant", ev.code, "--all")
    assert again.exit_code == 2 and "no proposal of" in again.output
    history = run("history", first)
    assert history.exit_code == 0 and "6 dan" in history.output and ev.code in history.output
    events = run("events")
    assert ev.code in events.output and "national" in events.output


def test_every_refusal_of_a_grant_exits_2_and_writes_nothing(run, office, make_player, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id, standard=None)
    p = make_player("王五")
    run("grant", p.federation_id, "4d", "--on", "2020-01-01", "--by", "中国棋院")
    before = written()
    cases = {
        ("grant", p.federation_id, "7d", "--on", "2024-01-01", "--by", "中国棋院"):
            "7d is above the cap 6d in force on 2024-01-01 (第五条)",
        ("grant", p.federation_id, "2d", "--on", "2024-01-01", "--by", "中国棋院"):
            "a demotion needs --demote and a reason",
        ("grant", p.federation_id, "2d", "--on", "2024-01-01", "--by", "中国棋院", "--demote"):
            "a demotion needs a reason",
        ("grant", p.federation_id, "12d", "--on", "2024-01-01", "--by", "中国棋院"): "'12d' is not a grade",
        ("grant", "CN999999", "1d", "--on", "2024-01-01", "--by", "中国棋院"): "no player 'CN999999'",
        ("grant", p.federation_id, "1d", "--on", "2024-13-01", "--by", "中国棋院"): "--on '2024-13-01' is not a date",
        ("grant", p.federation_id, "5d", "--by", "中国棋院"): "a grant by hand needs --on",
        ("grant", p.federation_id, "5d", "--on", "2024-01-01", "--by", "俱乐部"): "is not a recognised body",
        ("grant", p.federation_id, "5d", "--on", "2024-01-01", "--by", "中国棋院", "--event", "NOPE"):
            "no event 'NOPE' in the office",
        ("grant", p.federation_id, "5d", "--all"): "--all, --player and --standard confirm an event's proposals",
        ("grant", ev.code): "say which proposals of",
        ("grant", ev.code, "--all", "--player", "CN000001"): "--all and --player together",
        ("grant", ev.code, "--all", "--on", "2024-01-01"): "--on: only for a grant by hand",
        ("grant", ev.code, "--all"): "is not a grading event and grants nothing",
        ("grant", "NOPE", "--all"): "no event 'NOPE' in the office",
        ("propose", "NOPE"): "no event 'NOPE' in the office",
        ("propose", ev.code, "--standard", "99"): "no grading standard #99",
        ("certificate", "NOPE", "--out", str(tmp_path / "c.pdf")): "no certificate 'NOPE'",
    }
    for args, fragment in cases.items():
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert fragment in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert written() == before
    assert not (tmp_path / "c.pdf").exists()


def test_a_demotion_with_its_reason_on_the_command_line(run, office, make_player):
    p = make_player("王五")
    assert run("grant", p.federation_id, "四段", "--on", "2020-01-01", "--by", "中国棋院").exit_code == 0
    result = run("grant", p.federation_id, "2d", "--on", "2024-01-01", "--by", "中国棋院", "--demote", "--reason",
                 "committee decision")
    assert result.exit_code == 0, result.output
    assert "demotion: committee decision" in run("history", p.federation_id).output


def test_propose_and_events_read_at_80_columns(office, tmp_path, resident_id):
    """Issue 22, item 9: IDs, the event code and the clauses whole at 80 columns, nothing wider."""
    from qiyuan.tournament.sheets import text_width

    ev = imported_event(tmp_path, resident_id)
    runner = CliRunner(env={"COLUMNS": "80", "QIYUAN_ACTOR": "clerk"})
    proposal = runner.invoke(app, ["office", "dan", "propose", ev.code])
    assert proposal.exit_code == 0, proposal.output
    lines = proposal.output.splitlines()
    assert all(text_width(x) <= 80 for x in lines), [x for x in lines if text_width(x) > 80]
    for fid in Player.objects.filter(entries__event=ev).values_list("federation_id", flat=True):
        assert any(fid in x for x in lines), fid
    assert not any(x.strip() in ("CN00…", "CN0…") for x in lines)
    events = runner.invoke(app, ["office", "dan", "events"])
    assert events.exit_code == 0 and ev.code in events.output
    assert all(text_width(x) <= 80 for x in events.output.splitlines())
