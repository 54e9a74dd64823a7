"""Issue 34 (8): the row tables editions were stored in before their sheets (``EditionEntry``, ``RatingChange``)
are dropped by ``ratings.0009_drop_edition_rows`` only after `office verify` has passed on the upgraded office:
the migration refuses while they hold rows and no verify has passed (in the reader's language, naming the
commands); `office init` verifies, then drops; an office without editions is migrated at once."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from qiyuan.office.ratings.upgrade import DROP, OLD_TABLES, SHEETS, VerifyFirst

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([target])


def _tables() -> set[str]:
    return set(connection.introspection.table_names())


@pytest.fixture
def upgraded(tmp_path):
    """An office with published editions, taken back to the sheets' migration (its old row tables there again)
    and holding a left-over row of an edition — an office upgraded from before the sheets; taken forward again
    after the test."""
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    editions = publish_due(rl, "officer", until=date(2020, 1, 1))
    _migrate(SHEETS)
    assert set(OLD_TABLES) <= _tables()
    ed = editions[0]
    player = ed.rating_list.members.values_list("player_id", flat=True).first()
    with connection.cursor() as cur:
        cur.execute("INSERT INTO ratings_editionentry (edition_id, player_id, position, name, exact, games, status, "
                    "is_new, state) VALUES (%s, %s, 1, '', '', 0, 'active', %s, '{}')", [ed.pk, player, False])
    yield editions
    with connection.cursor() as cur:
        for table in set(OLD_TABLES) & _tables():
            cur.execute(f"DELETE FROM {table}")
    _migrate(DROP)


def test_the_drop_refuses_until_office_verify_has_passed_and_names_the_commands(upgraded):
    from qiyuan.cli import lang
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.verify import VERIFIED, verify_all

    assert not AuditLog.objects.filter(action=VERIFIED).exists()
    with pytest.raises(VerifyFirst) as refused:
        _migrate(DROP)
    said = refused.value.problems[0]
    assert "`qiyuan office verify`" in said.text() and "`qiyuan office init`" in said.text()
    lang.activate(lang.CHINESE)
    try:
        chinese = said.text(lang._)
    finally:
        lang.activate(lang.ENGLISH)
    assert "须在升级后的办公室通过 `qiyuan office verify` 之后才删除" in chinese and "nothing" not in chinese
    assert set(OLD_TABLES) <= _tables()  # nothing dropped: the migration rolled back
    with connection.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM ratings_editionentry")
        assert cur.fetchone()[0] == 1

    report = verify_all(actor="officer")  # on the sheets, the old tables ignored
    assert report.ok, report.differences
    assert AuditLog.objects.filter(action=VERIFIED, actor="officer", detail__editions=len(upgraded)).exists()
    _migrate(DROP)
    assert not set(OLD_TABLES) & _tables()


def test_a_list_verified_alone_is_not_the_office_verified(upgraded):
    from qiyuan.office.verify import verify_all

    assert verify_all(upgraded[0].rating_list).ok
    with pytest.raises(VerifyFirst):
        _migrate(DROP)


def test_an_office_without_editions_drops_the_tables_at_once():
    from qiyuan.office.ratings.models import Edition

    _migrate(SHEETS)
    assert set(OLD_TABLES) <= _tables() and not Edition.objects.exists()
    _migrate(DROP)
    assert not set(OLD_TABLES) & _tables()


def test_office_init_verifies_the_upgraded_office_then_drops_the_tables(upgraded):
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.setup import init_office, pending_migrations
    from qiyuan.office.verify import VERIFIED

    init_office(actor="officer")
    assert not set(OLD_TABLES) & _tables() and pending_migrations() == []
    assert AuditLog.objects.filter(action=VERIFIED, actor="officer").count() == 1


def test_office_init_keeps_the_tables_when_verify_finds_a_difference(upgraded):
    """A game changed behind the office's back: verify differs, so the old rows stay and the upgrade stops one
    step short, saying why and what to run; `office verify` still runs on that office (the drop is the only step
    pending), while other commands say the office is not set up."""
    from qiyuan.errors import QiyuanError
    from qiyuan.office.events.models import Game
    from qiyuan.office.setup import init_office, pending_migrations, require_set_up

    g = Game.objects.filter(event__in=upgraded[0].events.all()).exclude(result="1-0").first()
    Game.objects.filter(pk=g.pk).update(result="1-0")
    with pytest.raises(QiyuanError) as refused:
        init_office(actor="officer")
    text = "\n".join(p.text() for p in refused.value.problems)
    assert "`qiyuan office verify` finds" in text and "the old tables of editions are kept" in text
    assert set(OLD_TABLES) <= _tables() and pending_migrations() == [".".join(DROP)]
    require_set_up(verifying=True)
    with pytest.raises(QiyuanError, match="not set up"):
        require_set_up()


def test_the_commands_in_order_office_verify_then_office_init(upgraded):
    """At the command line: with the drop the one step left, `office verify` runs (and notes its pass), then
    `office init` drops the tables."""
    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.office.setup import pending_migrations

    with pytest.raises(VerifyFirst):
        _migrate(DROP)  # (what a plain `migrate` does)
    runner = CliRunner(env={"COLUMNS": "200", "QIYUAN_ACTOR": "officer"})
    verified = runner.invoke(app, ["office", "verify"])
    assert verified.exit_code == 0, verified.output
    assert "every one recomputed identical" in verified.output
    assert pending_migrations() == [".".join(DROP)]
    ready = runner.invoke(app, ["office", "init"])
    assert ready.exit_code == 0, ready.output
    assert not set(OLD_TABLES) & _tables() and pending_migrations() == []
