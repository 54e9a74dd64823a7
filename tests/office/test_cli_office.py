"""`qiyuan office …`: registry commands, audit, backup/restore, init hooks; refusals exit 2 and change nothing."""

from __future__ import annotations

from datetime import date

import pytest
import typer
from django.apps import apps
from django.core.management import call_command
from django.db import OperationalError
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.cli.office import EXIT_BAD_INPUT, office_errors
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.federation.models import Player

GB_EXAMPLE = "11010519491231002X"  # female, born 1949-12-31


@pytest.fixture
def run():
    runner = CliRunner(env={"COLUMNS": "200", "QIYUAN_ACTOR": "clerk"})

    def invoke(*args: str):
        return runner.invoke(app, ["office", *args])

    return invoke


@pytest.fixture
def bj(make_association):
    return make_association("BJ", "北京五子棋协会")


@pytest.mark.django_db
def test_player_add_registers_and_audits(run, bj):
    result = run("player", "add", "--name", "张三", "--id", GB_EXAMPLE, "-a", "BJ", "--latin", "Zhang San")
    assert result.exit_code == 0, result.output
    assert "registered CN000001 张三 (Zhang San)" in result.output
    p = Player.objects.get()
    assert (p.gender, p.birth_date) == ("F", date(1949, 12, 31))  # taken from the ID
    assert AuditLog.objects.get(action="player.register").actor == "clerk"


@pytest.mark.django_db
def test_player_add_lists_every_problem_and_exits_2(run, bj):
    result = run("player", "add", "--name", "李四", "--gender", "M", "--birth", "1950-01-01",
                 "--id", GB_EXAMPLE, "-a", "ZZ")
    assert result.exit_code == EXIT_BAD_INPUT
    for fragment in ("3 problem(s)", "gender digit", "differs from the record", "unknown association 'ZZ'"):
        assert fragment in result.output, result.output
    assert not Player.objects.exists()
    result = run("player", "add", "--name", "李四", "--birth", "1950-13-01", "--registered-on", "x")
    assert result.exit_code == EXIT_BAD_INPUT
    assert "birth date '1950-13-01' is not a date" in result.output and "registration date 'x'" in result.output


@pytest.mark.django_db
def test_player_search_show_rename_move_and_history(run, bj, make_association, make_player):
    make_association("SH", "上海")
    make_player("张三", gender="F", id_number=GB_EXAMPLE, birth_date=date(1949, 12, 31))
    make_player("张三丰")
    result = run("player", "search", "zs")
    assert result.exit_code == 0 and "CN000001" in result.output and "zhang san" in result.output
    assert run("player", "search", "nobody").exit_code == 1
    assert run("player", "rename", "CN000001", "张叁", "--on", "2024-01-01", "--reason", "更名").exit_code == 0
    assert run("player", "move", "张叁", "SH", "--on", "2025-02-02").exit_code == 0
    shown = run("player", "show", "cn000001")
    assert shown.exit_code == 0
    assert "110105********002X" in shown.output and GB_EXAMPLE not in shown.output
    assert "张三 → 张叁 (更名)" in shown.output and "BJ → SH" in shown.output
    assert GB_EXAMPLE in run("player", "show", "CN000001", "--show-id").output
    missing = run("player", "show", "CN999999")
    assert missing.exit_code == EXIT_BAD_INPUT and "no player 'CN999999'" in missing.output
    assert run("player", "move", "CN000001", "XX").exit_code == EXIT_BAD_INPUT


@pytest.mark.django_db
def test_player_merge_command(run, make_player):
    make_player("张三", birth_date=date(2000, 1, 1))
    make_player("张三", birth_date=date(2001, 1, 1))
    refused = run("player", "merge", "CN000001", "CN000002")
    assert refused.exit_code == EXIT_BAD_INPUT and "birth dates differ" in refused.output
    assert not Player.objects.filter(merged_into__isnull=False).exists()
    preview = run("player", "merge", "CN000001", "CN000002", "--force", "--dry-run")
    assert preview.exit_code == 0 and "would merge CN000002" in preview.output
    assert not Player.objects.filter(merged_into__isnull=False).exists()
    assert not AuditLog.objects.filter(action="player.merge").exists()
    merged = run("player", "merge", "CN000001", "CN000002", "--force")
    assert merged.exit_code == 0, merged.output
    assert "merged CN000002 张三 into CN000001 张三" in merged.output
    assert Player.objects.get(federation_id="CN000002").merged_into.federation_id == "CN000001"
    assert "merged into" in run("player", "show", "CN000002").output


@pytest.mark.django_db
def test_association_commands(run):
    assert run("association", "add", "CN", "中国五子棋协会").exit_code == 0
    assert run("association", "add", "BJ", "北京五子棋协会", "--en", "Beijing", "--parent", "CN").exit_code == 0
    again = run("association", "add", "BJ", "北京")
    assert again.exit_code == EXIT_BAD_INPUT and "already exists" in again.output
    listed = run("association", "list")
    assert "北京五子棋协会" in listed.output and "Beijing" in listed.output


@pytest.mark.django_db
def test_audit_command_shows_recent_actions(run, make_player):
    make_player("张三")
    result = run("audit", "--action", "player.")
    assert result.exit_code == 0 and "player.register" in result.output and "test" in result.output


@pytest.mark.django_db
def test_init_runs_migrations_and_app_hooks(run, monkeypatch):
    config = apps.get_app_config("ratings")
    calls = []
    monkeypatch.setattr(config, "office_init", lambda *, actor: calls.append(actor) or "2 lists", raising=False)
    result = run("init", "--actor", "admin")
    assert result.exit_code == 0, result.output
    assert calls == ["admin"] and "ratings: 2 lists" in result.output
    assert AuditLog.objects.filter(action="office.init", actor="admin").exists()


def test_missing_schema_is_a_clear_error():
    with pytest.raises(typer.Exit) as caught:
        with office_errors():
            raise OperationalError("no such table: federation_player")
    assert caught.value.exit_code == EXIT_BAD_INPUT


@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_commands(run, make_player, tmp_path):
    make_player("张三")
    make_player("李四")
    file = tmp_path / "office.jsonl.gz"
    result = run("backup", str(file))
    assert result.exit_code == 0, result.output
    assert "backup written" in result.output and file.exists()
    assert run("backup", str(file)).exit_code == EXIT_BAD_INPUT  # never overwrites
    busy = run("restore", str(file))
    assert busy.exit_code == EXIT_BAD_INPUT and "not empty" in busy.output
    call_command("flush", interactive=False, verbosity=0)
    restored = run("restore", str(file))
    assert restored.exit_code == 0, restored.output
    assert "counts verified" in restored.output and "federation.player: 2" in restored.output
    assert sorted(Player.objects.values_list("name", flat=True)) == ["张三", "李四"]
    assert AuditLog.objects.filter(action="office.restore").exists()
    damaged = tmp_path / "damaged.jsonl.gz"
    damaged.write_bytes(file.read_bytes()[:100])
    call_command("flush", interactive=False, verbosity=0)
    bad = run("restore", str(damaged))
    assert bad.exit_code == EXIT_BAD_INPUT, bad.output


@pytest.mark.django_db
def test_player_status_and_identity_commands(run, make_player):
    make_player("张三", birth_date=date(2000, 1, 1))
    assert run("player", "status", "CN000001", "suspended", "--reason", "违纪").exit_code == 0
    assert Player.objects.get().status == "suspended"
    assert run("player", "status", "CN000001", "banned").exit_code == EXIT_BAD_INPUT
    wrong = run("player", "identity", "CN000001", "--id", GB_EXAMPLE)  # a woman born 1949: not this record
    assert wrong.exit_code == EXIT_BAD_INPUT and "gender digit" in wrong.output and "differs" in wrong.output
    right = run("player", "identity", "CN000001", "--id", GB_EXAMPLE, "--gender", "f", "--birth", "1949-12-31")
    assert right.exit_code == 0, right.output
    assert Player.objects.get().id_number == GB_EXAMPLE
    assert AuditLog.objects.filter(action__in=["player.status", "player.identity"]).count() == 2


@pytest.mark.django_db
def test_arbiter_add_and_list_commands(run, bj):
    from qiyuan.office.federation.models import Arbiter

    ok = run("arbiter", "add", "裁判甲", "--level", "national", "--recognised", "-a", "BJ")
    assert ok.exit_code == 0, ok.output
    assert run("arbiter", "add", "裁判乙", "--level", "first").exit_code == 0
    a = Arbiter.objects.get(name="裁判甲")
    assert (a.level, a.recognised_national, a.association.code) == ("national", True, "BJ")
    assert not Arbiter.objects.get(name="裁判乙").recognised_national
    assert AuditLog.objects.filter(action="arbiter.add", actor="clerk").count() == 2
    bad = run("arbiter", "add", "裁判甲", "--level", "chief", "-a", "ZZ")
    assert bad.exit_code == EXIT_BAD_INPUT
    for fragment in ("3 problem(s)", "already registered", "unknown arbiter level 'chief'", "unknown association 'ZZ'"):
        assert fragment in bad.output, bad.output
    listed = run("arbiter", "list")
    assert listed.exit_code == 0 and "裁判甲" in listed.output and "yes" in listed.output and "first" in listed.output


@pytest.mark.django_db
def test_player_add_takes_gender_and_birth_from_the_resident_id(run, bj):
    """docs/office.md: gender and birth date come from a resident ID when not given; an invalid ID is
    reported as what it is, not as a missing gender."""
    bad = run("player", "add", "--name", "测试", "--id", "110105200801010023", "-a", "BJ")
    assert bad.exit_code == EXIT_BAD_INPUT
    assert "1 problem(s)" in bad.output and "bad check digit" in bad.output and "gender" not in bad.output
    ok = run("player", "add", "--name", "测试", "--id", "110105200801010022", "-a", "BJ")
    assert ok.exit_code == 0, ok.output
    assert (Player.objects.get().gender, Player.objects.get().birth_date) == ("F", date(2008, 1, 1))
    no_id = run("player", "add", "--name", "无证", "-a", "BJ")
    assert no_id.exit_code == EXIT_BAD_INPUT and "gender missing" in no_id.output


@pytest.mark.django_db
def test_player_show_gives_the_birth_year_unless_private(run, make_player):
    """docs/office.md: ``player show`` masks the ID and shows the birth year; --show-id/--private show both in full."""
    make_player("张三", "F", birth_date=date(1949, 12, 31), id_number=GB_EXAMPLE)
    shown = run("player", "show", "CN000001")
    assert shown.exit_code == 0 and "1949" in shown.output
    assert "1949-12-31" not in shown.output and GB_EXAMPLE not in shown.output
    for flag in ("--show-id", "--private"):
        private = run("player", "show", "CN000001", flag).output
        assert "1949-12-31" in private and GB_EXAMPLE in private


@pytest.mark.django_db
def test_audit_is_readable_at_80_columns_and_as_json(make_player):
    """Not on a terminal (80 columns): one line per entry and its details as whole key=value pairs."""
    import json

    from rich.cells import cell_len

    make_player("张三")
    from qiyuan.office.audit.models import record

    record("clerk", "event.import", None, file="2026年北京市五子棋锦标赛竞赛报告.xlsx", events=["bj-2026", "sh-2026"],
           games=120, note="a long note " * 8)
    narrow = CliRunner(env={"COLUMNS": "80"}).invoke(app, ["office", "audit"])
    assert narrow.exit_code == 0
    lines = narrow.output.splitlines()
    assert all(cell_len(x) <= 80 for x in lines), lines
    text = narrow.output
    for fragment in ("event.import", "file=2026年北京市五子棋锦标赛竞赛报告.xlsx", 'events=["bj-2026","sh-2026"]',
                     "games=120", "player.register", "name=张三"):
        assert fragment in text, text
    as_json = CliRunner().invoke(app, ["office", "audit", "--json"])
    rows = [json.loads(x) for x in as_json.output.splitlines()]
    assert rows[0]["action"] == "event.import" and rows[0]["detail"]["games"] == 120
    assert rows[1]["action"] == "player.register"
