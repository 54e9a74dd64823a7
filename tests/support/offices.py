"""Command-line offices for the concurrency tests, initialised once per test session and copied.

``office init`` (every migration) costs seconds of CPU on SQLite and more on PostgreSQL; each test that runs
real processes against an office of its own used to pay it. Here it runs once per session and database kind:
the SQLite file is copied into each test's home, and each PostgreSQL office is a new database made from a
template database (``CREATE DATABASE … TEMPLATE``), so every test still gets an office no other test touches.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid
from pathlib import Path

from tests.support.processes import loops_at_once, office_env, qiyuan

_sqlite_template: Path | None = None
_postgres_template: str | None = None


def _initialised_sqlite() -> Path:
    global _sqlite_template
    if _sqlite_template is None:
        home = Path(tempfile.mkdtemp(prefix="qiyuan-office-template-"))
        atexit.register(shutil.rmtree, home, True)
        done = qiyuan(["office", "init"], office_env(home))
        assert done.returncode == 0, done.stderr
        _sqlite_template = home / "var" / "qiyuan.sqlite3"
    return _sqlite_template


def _postgres(base: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql)


def _initialised_postgres(base: str) -> str:
    global _postgres_template
    if _postgres_template is None:
        name = f"qiyuan_tpl_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        _postgres(base, f'CREATE DATABASE "{name}"')
        atexit.register(_postgres, base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        done = qiyuan(["office", "init"], office_env(Path(tempfile.gettempdir()), base.rsplit("/", 1)[0] + "/" + name))
        assert done.returncode == 0, done.stderr
        _postgres_template = name
    return _postgres_template


def fresh_postgres_database(request, *, template: bool = False) -> str:
    """A new PostgreSQL database of this test's own (dropped afterwards); with ``template``, already
    initialised by ``office init``."""
    base = os.environ["DATABASE_URL"]
    name = f"qiyuan_conc_{uuid.uuid4().hex[:10]}"
    source = f' TEMPLATE "{_initialised_postgres(base)}"' if template else ""
    _postgres(base, f'CREATE DATABASE "{name}"{source}')
    request.addfinalizer(lambda: _postgres(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    return base.rsplit("/", 1)[0] + "/" + name


def initialised_office(request, home: Path, postgres: bool, steps: list[list[str]] = ()) -> dict[str, str]:
    """The environment of an office under ``home`` (SQLite) or in a fresh PostgreSQL database, as ``office init``
    leaves it, then with ``steps`` (more ``qiyuan office`` commands) run one after another in one process."""
    home.mkdir(parents=True, exist_ok=True)
    if postgres:
        env = office_env(home, fresh_postgres_database(request, template=True))
    else:
        (home / "var").mkdir(exist_ok=True)
        shutil.copyfile(_initialised_sqlite(), home / "var" / "qiyuan.sqlite3")
        env = office_env(home)
    if steps:
        [outcomes] = loops_at_once([list(steps)], env)
        failed = [(o.args, o.returncode, o.stderr[-400:]) for o in outcomes if o.returncode != 0]
        assert not failed, failed
    return env
