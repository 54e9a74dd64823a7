"""Configuration shared by every test directory.

* Django is configured by pytest-django (``DJANGO_SETTINGS_MODULE`` in
  pyproject.toml); a test database is created only when a test asks for one
  (``db``, ``django_db`` mark), so the pure-core tests (tests/rating,
  tests/tournament, tests/formats) pay no database set-up.
* Database-backed tests (tests/office, tests/web) run on an in-memory SQLite
  database by default and on PostgreSQL when ``DATABASE_URL`` points at one
  (``scripts/with-postgres.sh`` starts a throw-away server and sets it).
* Tests marked ``postgres`` are skipped when the database is not PostgreSQL.
* Fixtures for the registry: ``make_association``, ``make_player``,
  ``resident_id`` (a valid 18-digit ID for a birth date and gender).
"""

from __future__ import annotations

import itertools
import os
import sys
from datetime import date
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _own_key_and_bundles(tmp_path_factory, monkeypatch):
    """The office's signing key and edition bundles of a test live in a folder of the test's own: a test never
    signs with, nor writes beside, the key of a developer's office under ./var."""
    where = tmp_path_factory.mktemp("office-key")
    monkeypatch.setenv("QIYUAN_KEY_DIR", str(where / "keys"))
    monkeypatch.setenv("QIYUAN_BUNDLE_DIR", str(where / "bundles"))


@pytest.fixture(autouse=True)
def _fresh_sheet_columns():
    """Each test starts with no decoded edition columns kept: tests roll their offices back, so an edition's key and
    digest (what the process keeps columns by) can come again with other player and event keys in the next test —
    never in an office, whose editions are immutable."""
    sheets = sys.modules.get("qiyuan.office.sheets")
    if sheets is not None:
        sheets.forget()


def on_postgres() -> bool:
    """Whether the tests' database is PostgreSQL (``DATABASE_URL`` set to a postgres URL)."""
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://", "pgsql://"))


def pytest_report_header(config) -> str:
    return "qiyuan database: " + ("PostgreSQL (DATABASE_URL)" if on_postgres() else "SQLite in memory")


def pytest_collection_modifyitems(config, items) -> None:
    if on_postgres():
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: run under scripts/with-postgres.sh")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def resident_id():
    """``resident_id(born, gender, region="110105", sequence=None)`` → a valid 18-digit resident ID."""
    from qiyuan.people.idnumber import check_character

    counter = itertools.count(1)

    def make(born: date, gender: str = "M", region: str = "110105", sequence: str | None = None) -> str:
        if sequence is None:
            n = next(counter) % 50
            sequence = f"{(2 * n + (1 if gender == 'M' else 0)) % 1000:03d}"
        first17 = region + born.strftime("%Y%m%d") + sequence
        return first17 + check_character(first17)

    return make


@pytest.fixture
def make_association(db):
    """``make_association(code="BJ", name="北京五子棋协会", parent=None)`` → Association (get or create)."""
    from qiyuan.office.federation.models import Association

    def make(code: str = "BJ", name: str | None = None, **fields):
        assoc, _ = Association.objects.get_or_create(code=code, defaults={"name": name or f"{code}棋协", **fields})
        return assoc

    return make


@pytest.fixture
def make_player(db, make_association):
    """``make_player(name="张三", gender="M", association="BJ", **fields)`` → a registered Player.

    Goes through ``register_player`` (so pinyin keys, federation ID, audit are
    real); ``association`` is a code, created on demand.
    """
    from qiyuan.office.registry import register_player

    def make(name: str = "张三", gender: str = "M", association: str | None = "BJ", **fields):
        if association:
            make_association(association)
        fields.setdefault("registered_on", date(2020, 1, 1))
        fields.setdefault("today", date(2026, 11, 30))
        return register_player(name=name, gender=gender, association=association, actor="test", **fields)

    return make
