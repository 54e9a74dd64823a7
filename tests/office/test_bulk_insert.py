"""Bulk inserts: a large load keeps every foreign key (checked once on PostgreSQL) and refuses a bad row."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from qiyuan.office import bulk

pytestmark = pytest.mark.django_db(transaction=True)


def _foreign_keys(table: str) -> list[tuple[str, str]]:
    with connection.cursor() as cur:
        cur.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass "
                    "AND contype = 'f' ORDER BY conname", [table])
        return list(cur.fetchall())


@pytest.fixture
def large_from_one(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("foreign keys are dropped and added back only on PostgreSQL")
    monkeypatch.setattr(bulk, "LARGE", 1)


def _event_and_player():
    from qiyuan.office.events.models import Event
    from qiyuan.office.federation.models import Player

    from ._o2_fixtures import make_list

    p = Player.objects.create(federation_id="CN900001", name="张三")
    e = Event.objects.create(code="E1", name="e", format="swiss", start_date="2020-01-01", end_date="2020-01-02",
                             rating_list=make_list(code="B"))
    return e, p


def test_large_load_keeps_the_foreign_keys(large_from_one):
    from qiyuan.office.events.models import Game

    table = Game._meta.db_table
    before = _foreign_keys(table)
    with transaction.atomic():
        e, p = _event_and_player()  # rows with checks still pending when the keys are dropped
        n = bulk.bulk_insert(table, ("event_id", "round", "player1_id", "player2_id", "result"),
                             [(e.pk, 1, p.pk, p.pk, "1-0")], total=1)
    assert n == 1 and _foreign_keys(table) == before and len(before) == 3


def test_large_load_refuses_a_row_naming_no_player(large_from_one):
    from qiyuan.office.events.models import Game

    e, p = _event_and_player()
    table = Game._meta.db_table
    before = _foreign_keys(table)
    with pytest.raises(IntegrityError), transaction.atomic():
        bulk.bulk_insert(table, ("event_id", "round", "player1_id", "player2_id", "result"),
                         [(e.pk, 1, p.pk, p.pk + 999, "1-0")], total=1)
    assert _foreign_keys(table) == before and not Game.objects.exists()


def test_models_inserted_raw_are_the_rows_the_orm_writes():
    """Issue 19 (5): players and list members go in raw (``insert_models``), each value prepared by its field as
    the ORM's save prepares it — dates, decimals, defaults, name keys — so they read back as ``create`` writes them."""
    from datetime import date
    from decimal import Decimal

    from qiyuan.office.federation.models import Player, name_keys
    from qiyuan.office.ratings.models import ListMember, RatingList

    made = Player.objects.create(federation_id="X000001", name="吕小军", gender="M", dan="3d",
                                 registered_on=date(2001, 2, 3), reference_rating=Decimal("1650.50"))
    pinyin, search = name_keys("吕小军")
    assert bulk.insert_models(Player, [{"federation_id": "X000002", "name": "吕小军", "gender": "M", "dan": "3d",
                                        "registered_on": date(2001, 2, 3), "reference_rating": Decimal("1650.50"),
                                        "name_pinyin": pinyin, "name_search": search}]) == 1
    fields = [f.attname for f in Player._meta.concrete_fields if f.attname not in ("id", "federation_id")]
    raw = Player.objects.get(federation_id="X000002")
    assert [getattr(raw, f) for f in fields] == [getattr(made, f) for f in fields]
    assert Player.objects.filter(name_search__contains="|lvxiaojun|").count() == 2

    rl = RatingList.objects.create(code="RAW", title="raw", rules_name="cga-gomoku-2011")
    bulk.insert_models(ListMember, [{"rating_list": rl.pk, "player": raw.pk, "rating": Decimal("1700"), "games": 12,
                                     "k_latched": True, "registered_on": date(2001, 2, 3)}])
    member = ListMember.objects.get(rating_list=rl, player=raw)
    assert (member.rating, member.games, member.k_latched, member.registered_on, member.joined_in) == (
        Decimal("1700"), 12, True, date(2001, 2, 3), None)
    assert member.joined_at is not None  # the field's default, as the ORM gives it


def test_a_value_not_of_its_fields_plain_type_is_prepared_by_the_field():
    """``insert_models`` passes a text field's ``str`` and an integer field's ``int`` through untouched (what their
    preparation gives back); any other value still goes through the field: ``"12"`` for games is stored as 12, a
    lazy translation as its text."""
    from django.utils.translation import gettext_lazy

    from qiyuan.office.federation.models import Player
    from qiyuan.office.ratings.models import ListMember, RatingList

    rl = RatingList.objects.create(code="RAW2", title="raw", rules_name="cga-gomoku-2011")
    bulk.insert_models(Player, [{"federation_id": "X000003", "name": gettext_lazy("张三")}])
    p = Player.objects.get(federation_id="X000003")
    bulk.insert_models(ListMember, [{"rating_list": rl.pk, "player": p.pk, "games": "12", "k_latched": 1}])
    member = ListMember.objects.get(rating_list=rl, player=p)
    assert (p.name, member.games, member.k_latched) == ("张三", 12, True)


# --- issue 34 (7): import as a bulk load — indexes built again after the load, keys checked by one query a table


def _indexes(table: str) -> list[tuple[str, str]]:
    """The table's secondary indexes as the database defines them (name, definition), unique constraints included."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = "
                        "i.indexrelid WHERE i.indrelid = %s::regclass AND NOT i.indisprimary ORDER BY c.relname",
                        [table])
        else:
            cur.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = %s AND sql IS NOT "
                        "NULL ORDER BY name", [table])
        return list(cur.fetchall())


@pytest.fixture
def rebuild_from_one(monkeypatch):
    monkeypatch.setattr(bulk, "REBUILD", 1)
    dropped = []
    drop = bulk._drop_indexes
    monkeypatch.setattr(bulk, "_drop_indexes", lambda cur, table: dropped.append(table) or drop(cur, table))
    return dropped


def test_a_large_load_builds_the_tables_secondary_indexes_again_after_it(rebuild_from_one):
    """The games' indexes (event, each player) are dropped before a load as large as the table and built again in
    the same transaction: the same indexes after, and the rows found through them."""
    from qiyuan.office.events.models import Game

    table = Game._meta.db_table
    before = _indexes(table)
    with transaction.atomic():
        e, p = _event_and_player()
        n = bulk.bulk_insert(table, ("event_id", "round", "player1_id", "player2_id", "result"),
                             [(e.pk, r, p.pk, p.pk, "1-0") for r in range(1, 4)], total=3)
    assert rebuild_from_one == [table] and n == 3
    assert _indexes(table) == before and len(before) == 3
    assert Game.objects.filter(player2=p, event=e).count() == 3


def test_a_load_breaking_a_unique_index_built_again_writes_nothing(rebuild_from_one):
    """Entries' (event, player) pair is unique: a load holding a pair twice is refused (``IntegrityError``) — on
    PostgreSQL by the constraint added back over the load, on SQLite by the constraint of the table's definition,
    which stays — and the transaction rolls back: no row, the indexes there as before."""
    from qiyuan.office.events.models import Entry

    table = Entry._meta.db_table
    before = _indexes(table)
    assert any("events_entry_unique_player" in name for name, _ in before) == (connection.vendor == "postgresql")
    with pytest.raises(IntegrityError), transaction.atomic():
        e, p = _event_and_player()
        bulk.bulk_insert(table, ("event_id", "player_id", "name", "association", "dan"),
                         [(e.pk, p.pk, "", "", ""), (e.pk, p.pk, "", "", "")], total=2)
    assert rebuild_from_one == [table] and _indexes(table) == before and not Entry.objects.exists()


def test_a_load_smaller_than_its_table_keeps_the_indexes(rebuild_from_one):
    """Building an index again costs a pass over the whole table: a load smaller than what the table holds goes
    through the indexes as they are."""
    from qiyuan.office.events.models import Game

    table = Game._meta.db_table
    e, p = _event_and_player()
    columns = ("event_id", "round", "player1_id", "player2_id", "result")
    bulk.bulk_insert(table, columns, [(e.pk, r, p.pk, p.pk, "1-0") for r in (1, 2)], total=2)
    bulk.bulk_insert(table, columns, [(e.pk, 3, p.pk, p.pk, "1-0")], total=1)
    assert rebuild_from_one == [table]  # the first load (the table empty), not the second


def _keys_on() -> int:
    with connection.cursor() as cur:
        cur.execute("PRAGMA foreign_keys")
        return cur.fetchone()[0]


def test_sqlite_looks_no_key_up_row_by_row_during_a_bulk_load_and_turns_them_on_after():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's per-connection foreign key switch")
    assert _keys_on() == 1
    with pytest.raises(RuntimeError), bulk.keys_checked_once():
        assert _keys_on() == 0
        raise RuntimeError("a failed import")
    assert _keys_on() == 1


def test_a_row_naming_no_player_is_found_by_the_one_check_and_nothing_is_written():
    """The keys checked by one query a table (SQLite; PostgreSQL checks a large load's keys as it adds them back):
    a game naming a player who does not exist fails the load, and the transaction writes nothing."""
    from qiyuan.office.events.models import Event, Game

    e, p = _event_and_player()
    said = "FOREIGN KEY constraint failed: events_game row" if connection.vendor == "sqlite" else "foreign key"
    with pytest.raises(IntegrityError, match=said), bulk.keys_checked_once(), transaction.atomic():
        bulk.bulk_insert(Game._meta.db_table, ("event_id", "round", "player1_id", "player2_id", "result"),
                         [(e.pk, 1, p.pk, p.pk + 999, "1-0")], total=1)
        bulk.check_foreign_keys(Event, Game)
    assert not Game.objects.exists()
