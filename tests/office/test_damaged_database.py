"""Issue 18, item 7: a damaged SQLite office is named as such, with the way out (restore a backup) — never
"internal error … report it"; ``office init`` does not say OK on a file with overwritten pages."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import DatabaseError

from qiyuan.office.db import DatabaseDamaged, damaged

REPO = Path(__file__).resolve().parents[2]


def cli(home: Path, *args):
    env = dict(os.environ, QIYUAN_HOME=str(home), PYTHONPATH=str(REPO / "src"))
    env.pop("DATABASE_URL", None)
    return subprocess.run([sys.executable, "-c", "from qiyuan.cli import main; main()", *args], env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def office_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("office")
    run = cli(home, "office", "init")
    assert run.returncode == 0, run.stderr
    return home


def _damage(home: Path, how: str) -> Path:
    db = home / "var" / "qiyuan.sqlite3"
    for extra in ("-wal", "-shm"):
        Path(str(db) + extra).unlink(missing_ok=True)
    data = bytearray(db.read_bytes())
    if how == "header":
        data[:100] = b"\x00" * 100
    else:  # overwrite every page after the first two with noise, as a failing disk would
        page = int.from_bytes(data[16:18], "big") or 65536
        for start in range(2 * page, len(data), page):
            data[start:start + page] = bytes((i * 7 + 13) % 256 for i in range(page))
    db.write_bytes(bytes(data))
    return db


@pytest.mark.parametrize("how,args", [("pages", ["office", "init"]), ("header", ["office", "player", "search", "张"])])
def test_a_damaged_office_is_named_with_the_way_out(office_home, tmp_path, how, args):
    home = tmp_path / "copy"
    shutil.copytree(office_home, home)
    _damage(home, how)
    run = cli(home, *args)
    assert run.returncode == 2, (args, run.stdout, run.stderr)
    assert "internal error" not in run.stderr and "office ready" not in run.stdout
    assert "is damaged" in run.stderr and "qiyuan office restore" in run.stderr, run.stderr


def test_damage_is_recognised_through_the_chain():
    inner = DatabaseError("database disk image is malformed")
    outer = RuntimeError("while reading")
    outer.__cause__ = inner
    assert isinstance(damaged(outer), DatabaseDamaged)
    assert damaged(DatabaseError("no such table: x")) is None
