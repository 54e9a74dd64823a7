"""Real processes at the same moment: the concurrency tests' tool.

``at_once(commands, env)`` starts one Python process per ``qiyuan`` command;
each imports the command line (and, for ``office`` commands, sets Django up
and opens its database connection), says it is ready, and waits at a
barrier; once every process is ready the barrier opens and they all run the
command at the same instant. Returns each one's exit status and output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

_RUNNER = r"""
import sys, time
from pathlib import Path
ready, go, *args = sys.argv[1:]
from qiyuan.cli import main
if args and args[0] == "office":
    from qiyuan.cli.office import ensure_django
    ensure_django()
    from django.db import connection
    connection.ensure_connection()
Path(ready).touch()
while not Path(go).exists():
    time.sleep(0.0005)
sys.argv = ["qiyuan", *args]
main()
"""


@dataclass
class Outcome:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str


def qiyuan(args: list[str], env: dict[str, str], timeout: float = 300) -> Outcome:
    """One ``qiyuan`` command in its own process (for set-up steps)."""
    done = subprocess.run([sys.executable, "-c", "import sys; from qiyuan.cli import main; sys.argv=['qiyuan', "
                           "*sys.argv[1:]]; main()", *args], env=env, capture_output=True, text=True,
                          timeout=timeout)
    return Outcome(list(args), done.returncode, done.stdout, done.stderr)


def at_once(commands: list[list[str]], env: dict[str, str], timeout: float = 300) -> list[Outcome]:
    """Run every command as its own process, released together from a barrier."""
    with tempfile.TemporaryDirectory(prefix="qiyuan-at-once-") as tmp:
        go = Path(tmp) / "go"
        readies = [Path(tmp) / f"ready{i}" for i in range(len(commands))]
        procs = [subprocess.Popen([sys.executable, "-c", _RUNNER, str(r), str(go), *args], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for r, args in zip(readies, commands)]
        deadline = time.monotonic() + timeout
        while not all(r.exists() for r in readies):
            if any(p.poll() is not None for p in procs) or time.monotonic() > deadline:
                break  # one died while starting: collect what it said below
            time.sleep(0.005)
        go.touch()
        out = []
        for p, args in zip(procs, commands):
            stdout, stderr = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
            out.append(Outcome(list(args), p.returncode, stdout, stderr))
        return out


_LOOP_RUNNER = r"""
import json, sys, time
from pathlib import Path
ready, go, loop = sys.argv[1:]
from qiyuan.cli import main
from qiyuan.cli.office import ensure_django
ensure_django()
from django.db import connection
connection.ensure_connection()
Path(ready).touch()
while not Path(go).exists():
    time.sleep(0.0005)
for args in json.loads(loop):
    sys.argv = ["qiyuan", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    sys.stdout.write("\n@@exit " + str(code) + "\n")
    sys.stdout.flush()
"""


def loops_at_once(loops: list[list[list[str]]], env: dict[str, str], timeout: float = 300) -> list[list[Outcome]]:
    """Several people each running a loop of ``qiyuan office`` commands, one after another, the loops at the
    same time (each loop one process; its commands run in it in turn). Returns each loop's outcomes."""
    import json

    with tempfile.TemporaryDirectory(prefix="qiyuan-loops-") as tmp:
        go = Path(tmp) / "go"
        readies = [Path(tmp) / f"ready{i}" for i in range(len(loops))]
        procs = [subprocess.Popen([sys.executable, "-c", _LOOP_RUNNER, str(r), str(go), json.dumps(loop)], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for r, loop in zip(readies, loops)]
        deadline = time.monotonic() + timeout
        while not all(r.exists() for r in readies) and time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs):
                break
            time.sleep(0.005)
        go.touch()
        results = []
        for p, loop in zip(procs, loops):
            stdout, stderr = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
            parts = stdout.split("\n@@exit ")
            outcomes = []
            for args, (text, tail) in zip(loop, zip(parts, parts[1:])):
                code = int(tail.split("\n", 1)[0])
                outcomes.append(Outcome(list(args), code, text.split("\n", 1)[-1] if outcomes else text, stderr))
            results.append(outcomes + [Outcome(list(a), -1, "", stderr) for a in loop[len(outcomes):]])
        return results


def office_env(home: Path, database_url: str | None = None, **extra: str) -> dict[str, str]:
    """The environment of a command-line office under ``home`` (SQLite) or at ``database_url``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(QIYUAN_HOME=str(home), QIYUAN_ACTOR="tester", PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"),
               **extra)
    if database_url:
        env["DATABASE_URL"] = database_url
    return env
