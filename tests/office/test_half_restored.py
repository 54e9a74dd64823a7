"""Issue 32: a restore killed mid-migration leaves the schema of the backup, or between it and this version's:
``office verify`` (and every office command) then says the office is not set up — never an internal error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(home: Path, *args: str, module: bool = False):
    env = dict(os.environ, QIYUAN_HOME=str(home), PYTHONPATH=str(REPO / "src"),
               DJANGO_SETTINGS_MODULE="qiyuan.web.settings")
    env.pop("DATABASE_URL", None)
    cmd = [sys.executable, "-m", "django", *args] if module else \
        [sys.executable, "-c", "from qiyuan.cli import main; main()", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)


def test_verify_on_a_half_migrated_office_says_not_set_up(tmp_path):
    assert _run(tmp_path, "office", "init").returncode == 0
    # the restore stepped the schema back to the backup's and was killed before migrating forward again
    back = _run(tmp_path, "migrate", "audit", "0003_prooff_flag_kinds", module=True)
    assert back.returncode == 0, back.stderr
    for args in (("office", "verify"), ("office", "audit")):
        run = _run(tmp_path, *args)
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert "not set up" in run.stderr and "internal error" not in run.stderr.lower(), run.stderr
        assert "office init" in run.stderr and "Traceback" not in run.stderr
