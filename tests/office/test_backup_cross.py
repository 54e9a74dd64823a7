"""A SQLite office restores into PostgreSQL and back: the backup format does not depend on the database."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from qiyuan.office import backup
from qiyuan.office.federation.models import NameChange, Player

GB_EXAMPLE = "11010519491231002X"


def qiyuan_on_sqlite(home, *args: str) -> subprocess.CompletedProcess:
    """Run the CLI in a separate process against a SQLite office under ``home``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env["QIYUAN_HOME"] = str(home)
    env["QIYUAN_ACTOR"] = "cross"
    env["COLUMNS"] = "200"
    code = "import sys; from qiyuan.cli import app; app(sys.argv[1:])"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sqlite_backup_restores_into_postgresql_and_back(tmp_path):
    lite = tmp_path / "lite"
    for args in (
        ("office", "init"),
        ("office", "association", "add", "BJ", "北京五子棋协会"),
        ("office", "player", "add", "--name", "张三", "--id", GB_EXAMPLE, "-a", "BJ"),
        ("office", "player", "rename", "CN000001", "张叁", "--on", "2024-01-01"),
        ("office", "backup", str(tmp_path / "lite.jsonl.gz")),
    ):
        done = qiyuan_on_sqlite(lite, *args)
        assert done.returncode == 0, done.stderr + done.stdout
    assert backup.read_header(tmp_path / "lite.jsonl.gz")["vendor"] == "sqlite"

    backup.restore(tmp_path / "lite.jsonl.gz")  # into this test's PostgreSQL database
    p = Player.objects.get(federation_id="CN000001")
    assert (p.name, p.gender, p.id_number) == ("张叁", "F", GB_EXAMPLE)
    assert NameChange.objects.get(player=p).old_name == "张三"

    backup.backup(tmp_path / "pg.jsonl.gz")
    assert backup.read_header(tmp_path / "pg.jsonl.gz")["vendor"] == "postgresql"
    again = tmp_path / "again"
    restored = qiyuan_on_sqlite(again, "office", "restore", str(tmp_path / "pg.jsonl.gz"))
    assert restored.returncode == 0, restored.stderr + restored.stdout
    shown = qiyuan_on_sqlite(again, "office", "player", "show", "CN000001")
    assert shown.returncode == 0 and "张叁" in shown.stdout and "张三 → 张叁" in shown.stdout
