"""A merge of duplicate players (合并重复注册) leaves every published edition as it was, and the next period
rates the kept record with the merged history (docs/decisions.md, "Merging a player on published editions")."""

from __future__ import annotations

import json
import shutil
from datetime import date
from decimal import Decimal

import pytest

from tests.support import sheets

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    return rl, publish_due(rl, "officer", until=date(2021, 1, 1))


def _later_batch(tmp_path, src, end: date, ids: list[str]):
    d = tmp_path / f"later{end:%Y%m%d}"
    d.mkdir()
    shutil.copy(src / "players.csv", d / "players.csv")
    (d / "events.csv").write_text(f"id,name,start_date,end_date,format\nLATER1,后来的比赛,{end},{end},round_robin\n",
                                  encoding="utf-8")
    rows = ["event_id,round,player1,player2,result"]
    rnd = 0
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            rnd += 1
            rows.append(f"LATER1,{rnd},{ids[i]},{ids[j]},{'1-0' if (i + j) % 3 else '0-1'}")
    (d / "games.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return d


def _public(edition):
    return [(e["federation_id"], e["name"], e["rating"], e["state"]) for e in sheets.entries(edition)]


def _entry(edition, player) -> dict | None:
    return next((e for e in sheets.entries(edition) if e["player"] == player.pk), None)


def test_merge_keeps_published_editions_verifiable_and_the_next_period_rates_the_kept_record(
        tmp_path, published, make_player):
    from qiyuan.office.registry.merge import merge_players
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from qiyuan.office.verify import verify_all

    rl, editions = published
    old = Player.objects.get(federation_id="T00001")
    assert any(_entry(ed, old) for ed in editions)
    before = [_public(ed) for ed in editions]
    keep = make_player(name="钱多多", gender=old.gender, birth_date=old.birth_date)

    result = merge_players(keep, old, "officer", force=True)

    assert not any(k.startswith(("ratings.editionentry", "ratings.ratingchange", "ratings.listmember"))
                   for k in result.moved), result.moved
    assert "events.game.player1" in result.moved or "events.game.player2" in result.moved
    assert [_public(ed) for ed in editions] == before
    report = verify_all()
    assert report.ok, report.differences

    last_state = _entry(editions[-1], old)
    src = tmp_path / "hist7H"  # the fixture's history
    import_file(_later_batch(tmp_path, src, date(2021, 3, 1), ["T00002", "T00003", "T00004", "T00005"]), rl, "t")
    # the kept record plays too: the report names him by his new federation ID
    from qiyuan.office.events.models import Event, Game
    ev = Event.objects.get(code="LATER1")
    opp = Player.objects.get(federation_id="T00002")
    Game.objects.create(event=ev, round=99, player1=keep, player2=opp, result="1-0")
    from qiyuan.office.events.models import Entry
    Entry.objects.create(event=ev, player=keep)

    new = publish_due(rl, "officer", until=date(2021, 7, 1))
    assert [e.list_date for e in new] == [date(2021, 7, 1)]
    ed = new[0]
    assert _entry(ed, old) is None
    mine = _entry(ed, keep)
    assert mine["games"] == last_state["games"] + 1  # continued from the duplicate's published state
    [change] = [c for c in sheets.changes(ed) if c["player"] == keep.pk]
    assert change["before"] == Decimal(json.loads(last_state["state"])["r"])  # Ro: the duplicate's last rating
    assert verify_all().ok


def test_merge_of_two_records_both_on_published_editions_is_refused(published):
    """(Both records here also share events, which the merge refuses too: every reason is listed. The merge
    use case is the only way to merge: the admin is read-only.)"""
    from qiyuan.office.errors import RegistryError
    from qiyuan.office.federation.models import Player
    from qiyuan.office.registry import merge_players

    a = Player.objects.get(federation_id="T00001")
    b = Player.objects.get(federation_id="T00002")
    with pytest.raises(RegistryError) as caught:
        merge_players(a, b, "officer", force=True)
    assert any("both records are on published editions of list CGA" in m for m in caught.value.messages)
    assert Player.objects.get(pk=b.pk).merged_into_id is None


def test_the_kept_record_counts_as_rated_for_eligibility(published, make_player):
    """The rated share of an event (CGA Art. 5) sees the rating the duplicate published."""
    from qiyuan.office.registry.merge import merge_players
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import ParsedEvent, Plan
    from qiyuan.office.imports.eligibility import _rated_entrants

    rl, editions = published
    old = Player.objects.get(federation_id="T00001")
    assert _entry(editions[-1], old)["rating"] is not None
    keep = make_player(name="钱多多", gender=old.gender, birth_date=old.birth_date)
    merge_players(keep, old, "officer", force=True)
    plan = Plan(ParsedEvent("x", None, None, "swiss", 0), players={1: keep})
    assert _rated_entrants(rl, plan, date(2021, 3, 1)) == {1}
