"""Issue 34, item 6: a publication killed (a real process, SIGKILL) at any moment leaves its editions with their
bundles, or without them — built by the next publication or ``office bundles build`` — or neither: never a
bundle named for an edition that is not there, never an edition whose bundle differs from a fresh one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ._o2_fixtures import history_dir

REPO = Path(__file__).resolve().parents[2]

#: run in the child: publish every due list, killing itself at the point named by argv[1]
CHILD = """
import os, signal, sys
import django
django.setup()
from qiyuan.office import bundle_files
from qiyuan.office.periods import publish_due
from qiyuan.office.ratings.models import RatingList

point = sys.argv[1]
def kill(*a, **k):
    os.kill(os.getpid(), signal.SIGKILL)
if point == "staged":  # inside the transaction, the second edition's bundle just written under its temporary name
    real = bundle_files._write_temp
    seen = []
    def write_then_kill(path, data):
        tmp = real(path, data)
        seen.append(tmp)
        if len(seen) == 2:
            kill()
        return tmp
    bundle_files._write_temp = write_then_kill
elif point == "committed":  # the transaction committed, no bundle named yet
    bundle_files._rename = kill
publish_due(RatingList.objects.get(code="CGA"), "officer")
"""


def _env(home: Path) -> dict:
    env = dict(os.environ, QIYUAN_HOME=str(home), PYTHONPATH=str(REPO / "src"),
               DJANGO_SETTINGS_MODULE="qiyuan.web.settings", QIYUAN_BUNDLE_DIR=str(home / "bundles"),
               QIYUAN_KEY_DIR=str(home / "keys"), QIYUAN_LANG="en")
    env.pop("DATABASE_URL", None)
    return env


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, "-c", "from qiyuan.cli import main; main()", *args], env=_env(home),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, (args, run.stdout, run.stderr)
    return run


def _office(tmp_path: Path) -> Path:
    home = tmp_path / "office"
    _cli(home, "office", "init")
    _cli(home, "office", "import", str(history_dir(tmp_path)), "--list", "CGA")
    _cli(home, "office", "key", "init", "--actor", "officer")
    return home


def _killed(home: Path, point: str) -> None:
    run = subprocess.run([sys.executable, "-c", CHILD, point], env=_env(home), capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == -signal.SIGKILL, (run.returncode, run.stdout, run.stderr)


def _editions(home: Path) -> list[str]:
    """The office's editions as bundle names, read from its database."""
    import sqlite3

    db = next(home.rglob("*.sqlite3"))
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT l.code, e.list_date, e.number FROM ratings_edition e "
                           "JOIN ratings_ratinglist l ON l.id = e.rating_list_id").fetchall()
    return sorted(f"{code}-{day}-{n}.zip" for code, day, n in rows)


def _bundles(home: Path) -> list[str]:
    folder = home / "bundles"
    return sorted(p.name for p in folder.glob("[!.]*.zip")) if folder.is_dir() else []


def _contents(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if not n.startswith("manifest.")}


@pytest.mark.slow
def test_killed_before_its_commit_a_publication_leaves_neither_and_the_next_one_publishes_both(tmp_path):
    home = _office(tmp_path)
    _killed(home, "staged")
    assert _editions(home) == [] and _bundles(home) == []  # neither (a temporary file at most)
    _cli(home, "office", "period", "publish", "--list", "CGA", "--all")
    assert _editions(home) and _bundles(home) == _editions(home)


@pytest.mark.parametrize("repair", [("office", "bundles", "build"),
                                    pytest.param(("office", "period", "publish", "--list", "CGA", "--all"),
                                                 marks=pytest.mark.slow)])
def test_killed_after_its_commit_the_editions_bundles_are_built_by_the_next_command(tmp_path, repair):
    home = _office(tmp_path)
    _killed(home, "committed")
    editions = _editions(home)
    assert editions and _bundles(home) == []  # the editions, their bundles not named yet
    _cli(home, *repair)
    assert _bundles(home) == editions
    built = {name: _contents(home / "bundles" / name) for name in editions}
    _cli(home, "office", "bundles", "build", "--rebuild")
    assert {name: _contents(home / "bundles" / name) for name in editions} == built
    _cli(home, "office", "verify")
