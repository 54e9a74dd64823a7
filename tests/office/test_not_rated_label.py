"""Issue 32, item 7: one label for a CGA newcomer's event that did not count — ``not_rated``, as ``qiyuan rate``,
the bundle's ``changes.csv`` and docs/formats.md say — in the office's rows and canonical text of new editions
(canonical text version 2); editions written in version 1 verify as published."""

from __future__ import annotations

import json

import pytest

from qiyuan.formats import canonical_text as C
from qiyuan.rating import results as R

from tests.support import sheets

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(tmp_path):
    from qiyuan.office.imports import import_file

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    return rl


def _publish_all(rl):
    from qiyuan.office.periods import publish_due

    return publish_due(rl, "officer")


def test_new_editions_say_not_rated_for_a_newcomers_event_that_did_not_count(office):
    """In the text and in the sheet's method column alike (the column the pages show is written by the edition's
    version of the text, not by version 1's)."""
    from qiyuan.office.sheets import stored_lines
    from qiyuan.office.verify import verify_all

    editions = _publish_all(office)
    assert {ed.canonical_version for ed in editions} == {C.CURRENT_VERSION} and C.CURRENT_VERSION >= 2
    rows = [c for ed in editions for c in sheets.changes(ed)]
    uncounted = [c for c in rows if c["games"] == 0 and c["K"] is None
                 and json.loads(c["explanation"]).get("ru") is not None]
    assert uncounted and {c["method"] for c in uncounted} == {R.METHOD_NOT_RATED}
    assert not [c for c in rows if c["method"] == R.METHOD_NEWCOMER and c["games"] == 0]
    _, changes, *_ = stored_lines(editions[0])
    methods = {json.loads(line.split("\t", 1)[1])["method"] for line in changes.values()}
    assert R.METHOD_NOT_RATED in methods
    assert verify_all().ok


def test_history_export_of_new_editions_says_not_rated(office, tmp_path):
    import csv

    from qiyuan.office.exports import export_history

    _publish_all(office)
    out = tmp_path / "history.csv"
    export_history(out, office)
    with out.open(encoding="utf-8-sig") as f:
        methods = [(r["method"], r["games"]) for r in csv.DictReader(f)]
    assert ("not_rated", "0") in methods and ("newcomer", "0") not in methods


def test_editions_written_in_version_1_keep_newcomer_and_verify_as_published(office, monkeypatch):
    from qiyuan.office.verify import verify_all

    monkeypatch.setattr("qiyuan.office.canonical.CURRENT_VERSION", 1)  # published before version 2 existed
    old = _publish_all(office)
    assert {ed.canonical_version for ed in old} == {1}
    assert any(c["method"] == R.METHOD_NEWCOMER and c["games"] == 0 for ed in old for c in sheets.changes(ed))
    monkeypatch.undo()
    report = verify_all()
    assert report.ok, report.differences[:3]


def test_the_versions_differ_only_in_the_label_of_an_uncounted_newcomer():
    from datetime import date
    from decimal import Decimal

    v1, v2 = C.writer(1), C.writer(2)
    base = dict(player_id="P1", event_id="E1", list_date=date(2024, 1, 1), W=Decimal(0), We=None, K=None,
                delta=Decimal(0), Rc=None, N=2, ru=None, notes=[R.NOTE_FEW_RATED_OPPONENTS])
    uncounted = R.EventChange(games=0, method=R.METHOD_NEWCOMER, **base)
    counted = R.EventChange(games=3, method=R.METHOD_NEWCOMER, **base)
    assert json.loads(v1.change_text(uncounted))["method"] == R.METHOD_NEWCOMER
    assert json.loads(v2.change_text(uncounted))["method"] == R.METHOD_NOT_RATED
    assert v2.change_row(uncounted)[-1] == R.METHOD_NOT_RATED and v1.change_row(uncounted)[-1] == R.METHOD_NEWCOMER
    assert v1.change_text(counted) == v2.change_text(counted) and v1.change_row(counted) == v2.change_row(counted)
    assert json.loads(v1.change_text(uncounted)) == {**json.loads(v2.change_text(uncounted)), "method": "newcomer"}
