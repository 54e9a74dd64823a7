"""Issue 19 (4): verify by chain — each edition starts from the states the chain just computed for the edition it
was published from, and a new run from the stored states starts only where the chain breaks (an edition that is
not identical, or one published from an edition no longer held). Corrections, superseded editions, a change of
the rule settings and a merge of player records do not break it; a tampered edition in the middle is still
named, and the chain starts again after it."""

from __future__ import annotations

import json
from datetime import date

import pytest

from tests.support import sheets

from ._o2_fixtures import history_dir, make_list
from .test_periods import late_batch

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain(tmp_path, make_player):
    """One list: two editions, a change of its rule settings, a third edition, a late report rated by a correction
    carried through the later list (two superseded editions), a merge of a published player, the last edition."""
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import correct_period, publish_due
    from qiyuan.office.registry.merge import merge_players

    rl = make_list()
    src = history_dir(tmp_path)
    import_file(src, rl, "tester")
    publish_due(rl, "officer", until=date(2020, 1, 1))
    rl.rules_overrides = "cap = 350\n"
    rl.save()
    publish_due(rl, "officer", until=date(2020, 7, 1))
    import_file(late_batch(tmp_path, src, date(2019, 11, 2)), rl, "t")
    corrected = correct_period(rl, date(2020, 1, 1), "late report", "officer")
    old = Player.objects.get(federation_id="T00001")
    keep = make_player(name="钱多多", gender=old.gender, birth_date=old.birth_date)
    merge_players(keep, old, "officer", force=True)
    publish_due(rl, "officer")
    assert len(corrected) == 2 and rl.editions.filter(is_correction=True).count() == 2
    assert len({json.dumps(e.rules_settings, sort_keys=True) for e in rl.editions.all()}) == 2
    return rl


def test_a_chain_with_a_correction_a_settings_change_and_a_merge_verifies_in_one_run(chain):
    from qiyuan.office.verify import verify_all

    report = verify_all(chain)
    assert report.ok, report.differences
    assert report.editions == chain.editions.count() >= 6
    assert report.runs == 1  # every edition started from the chain's states, none decoded from the stored ones


def test_a_tampered_edition_in_the_middle_of_the_chain_is_named(chain):
    from qiyuan.office.verify import verify_all

    editions = list(chain.editions.order_by("list_date", "number"))
    middle = editions[2]
    entry = next(e for e in sheets.entries(middle) if e["rating"] is not None)
    sheets.edit_row(middle, "entries", lambda e: e["player"] == entry["player"], rating=entry["rating"] + 1)
    report = verify_all(chain)
    assert not report.ok
    label = f"{chain.code} {middle.label}"
    assert any(label in d and "altered after publication" in d for d in report.differences), report.differences
    assert any(label in d and entry["federation_id"] in d for d in report.differences)
    assert all(label in d for d in report.differences), report.differences  # the others verify all the same
    assert report.runs == 2  # the edition after it started from the stored states again


def test_an_edited_change_in_the_middle_of_the_chain_is_named_by_event_player_and_column(chain):
    from decimal import Decimal

    from qiyuan.office.verify import verify_all

    editions = list(chain.editions.order_by("list_date", "number"))
    change = next(c for c in sheets.changes(editions[3]) if c["K"] is not None)
    sheets.edit_row(editions[3], "changes", lambda c: c["K"] is not None, delta=change["delta"] + Decimal(2))
    report = verify_all(chain)
    [line] = [d for d in report.differences if "stored delta" in d]
    assert f"{chain.code} {editions[3].label}" in line
    assert change["event_code"] in line and change["federation_id"] in line


def test_a_line_of_editions_is_recomputed_through_one_engine_call(tmp_path, monkeypatch):
    """Issue 34 (3): verify's chain computes a line of editions (each published from the one before, on the next
    list date, under the same settings) through ONE call of the engine; an edition tampered with in the middle of
    the line is still named, alone, and the editions after it verify from their stored start."""
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from qiyuan.office.verify import verify_all

    from .test_periods import _counting_engine

    rl = make_list(code="L", rules="bjsh-gomoku-2007")
    import_file(history_dir(tmp_path), rl, "tester")
    editions = publish_due(rl, "officer", until=date(2021, 1, 1))
    assert len(editions) > 3
    calls = _counting_engine(monkeypatch)
    report = verify_all(rl)
    assert report.ok, report.differences
    assert len(calls) == 1 and report.runs == 1
    middle = editions[1]
    entry = next(e for e in sheets.entries(middle) if e["rating"] is not None)
    sheets.edit_row(middle, "entries", lambda e: e["player"] == entry["player"], rating=entry["rating"] + 1)
    calls.clear()
    report = verify_all(rl)
    label = f"{rl.code} {middle.label}"
    assert any(label in d and entry["federation_id"] in d for d in report.differences), report.differences
    assert all(label in d for d in report.differences), report.differences
    assert report.runs == 2 and len(calls) == 1 + 1 + len(editions) - 2  # the line, it alone, the rest alone
