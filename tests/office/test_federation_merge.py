"""Merging duplicate records: every related row moves, neither history is lost, clashes are refused."""

from __future__ import annotations

from datetime import date

import pytest
from django.apps import apps
from django.db import connection, models

from qiyuan.office.audit.models import AuditLog
from qiyuan.office import registry as services
from qiyuan.office.federation.models import (
    Arbiter,
    AssociationChange,
    DanGrant,
    NameChange,
    Player,
)
from qiyuan.office.registry import RegistryError, merge_players
from qiyuan.office.grades.grants import grant_grade


@pytest.mark.django_db
def test_merge_moves_history_and_keeps_both_names(make_player, make_association, resident_id):
    keep = make_player("张三", association="BJ", registered_on=date(2015, 1, 1))
    dup = make_player("张叁", association="SH", registered_on=date(2012, 5, 1), birth_date=date(2001, 2, 3),
                      id_number=resident_id(date(2001, 2, 3), "M"), name_latin="Zhang San")
    make_association("TJ")
    NameChange.objects.create(player=dup, old_name="张散", new_name="张叁", changed_on=date(2013, 1, 1))
    services.change_association(dup, "TJ", actor="t", changed_on=date(2014, 1, 1))
    grant_grade(dup, "1d", granted_on=date(2014, 6, 1), granted_by="中国棋院", actor="t")
    arbiter = Arbiter.objects.create(player=dup, name="张叁", level="national")
    older = make_player("张三三")
    Player.objects.filter(pk=older.pk).update(merged_into=dup)
    id_number = dup.id_number

    result = merge_players(keep, dup, "officer")

    keep.refresh_from_db()
    dup.refresh_from_db()
    assert dup.merged_into == keep
    assert Player.objects.get(pk=older.pk).merged_into == keep  # chains collapse onto the record kept
    assert Arbiter.objects.get(pk=arbiter.pk).player == keep
    assert DanGrant.objects.get().player == keep
    names = {(c.old_name, c.new_name) for c in keep.name_changes.all()}
    assert names == {("张散", "张叁"), ("张叁", "张三")}
    assert services.names_known(keep) == {"张三", "张叁", "张散"}
    moves = {(c.old.code, c.new.code) for c in AssociationChange.objects.filter(player=keep).select_related("old", "new")}
    assert moves == {("SH", "TJ"), ("TJ", "BJ")}
    assert not dup.name_changes.exists() and not dup.association_changes.exists()
    # blanks of the record kept are filled from the duplicate; the ID number moves
    assert keep.birth_date == date(2001, 2, 3) and keep.name_latin == "Zhang San" and keep.dan == "1d"
    assert keep.registered_on == date(2012, 5, 1)
    assert keep.id_number == id_number and dup.id_number == ""
    assert result.moved["federation.arbiter.player"] == 1
    entry = AuditLog.objects.get(action="player.merge")
    assert entry.detail["duplicate"] == dup.federation_id and entry.object_id == str(keep.pk)
    assert id_number not in str(entry.detail)  # audit detail never holds a full ID number
    assert services.find_player(dup.federation_id) == dup  # the old federation ID still resolves


@pytest.mark.django_db
def test_merge_refuses_contradicting_identities_unless_forced(make_player, resident_id):
    keep = make_player("张三", id_number=resident_id(date(2000, 1, 1), "M"))
    dup = make_player("张三", gender="F", birth_date=date(2001, 1, 1))
    NameChange.objects.create(player=dup, old_name="x", new_name="张三", changed_on=date(2020, 1, 1))
    with pytest.raises(RegistryError) as caught:
        merge_players(keep, dup, "t")
    assert len(caught.value.messages) == 2  # gender and birth date
    assert NameChange.objects.get().player == dup and Player.objects.get(pk=dup.pk).merged_into is None
    merge_players(keep, dup, "t", force=True)
    assert AuditLog.objects.get(action="player.merge").detail["forced"] is True


@pytest.mark.django_db
def test_merge_refuses_self_and_repeated_merges(make_player):
    a, b, c = make_player("甲"), make_player("乙"), make_player("丙")
    with pytest.raises(RegistryError, match="itself"):
        merge_players(a, a, "t")
    merge_players(a, b, "t", force=True)
    with pytest.raises(RegistryError, match="already merged"):
        merge_players(c, b, "t", force=True)
    with pytest.raises(RegistryError, match="itself merged"):
        merge_players(b, c, "t", force=True)


# -- rows of other apps, found generically ----------------------------------------------------------


@pytest.fixture
def foreign_models(transactional_db):
    """Two throw-away models of "another app" pointing at Player: a unique (player, season) ledger with a
    hidden reverse name, and a team with an auto-created many-to-many table."""
    class Ledger(models.Model):
        player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
        season = models.IntegerField()

        class Meta:
            app_label = "federation"
            constraints = [models.UniqueConstraint(fields=["player", "season"], name="test_ledger_unique")]

    class Team(models.Model):
        name = models.CharField(max_length=20)
        members = models.ManyToManyField(Player, related_name="+")

        class Meta:
            app_label = "federation"

    class Published(models.Model):
        """Rows of a published edition: immutable, they stay on the duplicate."""

        merge_repoint = False
        player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
        season = models.IntegerField()

        class Meta:
            app_label = "federation"
            constraints = [models.UniqueConstraint(fields=["player", "season"], name="test_published_unique")]

    with connection.schema_editor() as editor:
        editor.create_model(Ledger)
        editor.create_model(Team)
        editor.create_model(Published)
    try:
        yield Ledger, Team, Published
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(Published)
            editor.delete_model(Team)
            editor.delete_model(Ledger)
        for name in ("ledger", "team", "team_members", "published"):
            apps.all_models["federation"].pop(name, None)
        apps.clear_cache()


def test_merge_repoints_rows_of_any_app(foreign_models, make_player):
    Ledger, Team, _ = foreign_models
    keep, dup = make_player("张三"), make_player("张三")
    Ledger.objects.create(player=keep, season=2020)
    Ledger.objects.create(player=dup, season=2021)
    both = Team.objects.create(name="both")
    both.members.add(keep, dup)
    only_dup = Team.objects.create(name="dup")
    only_dup.members.add(dup)

    result = merge_players(keep, dup, "t")

    assert sorted(Ledger.objects.filter(player=keep).values_list("season", flat=True)) == [2020, 2021]
    assert list(both.members.all()) == [keep]  # the redundant membership row is dropped, not duplicated
    assert list(only_dup.members.all()) == [keep]
    assert result.moved["federation.ledger.player"] == 1


def test_merge_refuses_when_both_records_are_in_the_same_unique_row(foreign_models, make_player):
    Ledger, _, _ = foreign_models
    keep, dup = make_player("张三"), make_player("张三")
    Ledger.objects.create(player=keep, season=2020)
    Ledger.objects.create(player=dup, season=2020)
    NameChange.objects.create(player=dup, old_name="x", new_name="张三", changed_on=date(2020, 1, 1))
    with pytest.raises(RegistryError) as caught:
        merge_players(keep, dup, "t")
    assert "season = 2020" in caught.value.messages[0] and "entered twice" in caught.value.messages[0]
    assert Ledger.objects.filter(player=dup).count() == 1  # nothing moved
    assert NameChange.objects.get().player == dup


def test_merge_leaves_published_rows_on_the_duplicate(foreign_models, make_player):
    _, _, Published = foreign_models
    keep, dup = make_player("张三"), make_player("张三")
    Published.objects.create(player=keep, season=2020)
    Published.objects.create(player=dup, season=2020)  # would clash, but is never moved
    result = merge_players(keep, dup, "t")
    assert Published.objects.filter(player=dup).count() == 1 and Published.objects.filter(player=keep).count() == 1
    assert not any(label.startswith("federation.published") for label in result.moved)


# -- with the events app's real rows ----------------------------------------------------------------


@pytest.fixture
def event_factory(db):
    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.ratings.models import RatingList

    rating_list = RatingList.objects.create(code="T", title="test list", rules_name="cga-2011")

    def make(code: str, players: list[Player]):
        event = Event.objects.create(code=code, name=code, format="swiss", start_date=date(2024, 5, 1),
                                     end_date=date(2024, 5, 2), rating_list=rating_list)
        for n, p in enumerate(players, 1):
            Entry.objects.create(event=event, player=p, number=n)
        for a, b in zip(players, players[1:]):
            Game.objects.create(event=event, round=1, player1=a, player2=b, result="1-0")
        return event

    return make


def test_merge_moves_entries_and_games_of_the_events_app(event_factory, make_player):
    from qiyuan.office.events.models import Entry, Game

    from qiyuan.office.registry.merge import linked_rows

    keep, dup, other = make_player("张三"), make_player("张叁"), make_player("李四")
    event_factory("A", [dup, other])
    event_factory("B", [keep, other])
    assert linked_rows(dup) == {"events.entry.player": 1, "events.game.player1": 1}
    result = merge_players(keep, dup, "officer")
    assert Entry.objects.filter(player=dup).count() == 0
    assert Entry.objects.filter(player=keep).count() == 2
    assert Game.objects.filter(player1=keep).count() == 2 and not Game.objects.filter(player1=dup).exists()
    assert result.moved["events.entry.player"] == 1 and result.moved["events.game.player1"] == 1


def test_merge_refuses_two_records_entered_in_the_same_event(event_factory, make_player):
    from qiyuan.office.events.models import Entry

    keep, dup = make_player("张三"), make_player("张三")
    event_factory("A", [keep, dup])
    with pytest.raises(RegistryError) as caught:
        merge_players(keep, dup, "officer")
    assert "entered twice" in caught.value.messages[0]
    assert Entry.objects.filter(player=dup).count() == 1


def test_every_kind_of_linked_row_is_named_in_words_in_both_languages():
    """Issue 24: `office player show` and `player merge` name what points at a player in words (参赛记录 8), never
    as a model path (events.entry.player 8) — every kind the merge moves has its words and their Chinese."""
    from qiyuan.cli import lang
    from qiyuan.office.registry.merge import LINKED_ROW_WORDS, _references_to_player

    kinds = {f"{model._meta.label_lower}.{f.name}" for model, f in _references_to_player()}
    assert kinds <= set(LINKED_ROW_WORDS), sorted(kinds - set(LINKED_ROW_WORDS))
    for words in LINKED_ROW_WORDS.values():
        chinese = lang._load(lang.CHINESE).gettext(words)
        assert chinese != words and not any(c.isascii() and c.isalpha() for c in chinese), (words, chinese)
