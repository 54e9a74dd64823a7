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
