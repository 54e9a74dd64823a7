"""Published editions are immutable; list order per rule set (ICU strokes/pinyin); statuses and new players."""

from __future__ import annotations

from datetime import date

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
    return rl, publish_due(rl, "officer")


def test_published_edition_cannot_be_saved_again_or_deleted(published):
    from qiyuan.office.ratings.models import ImmutableEdition

    _, eds = published
    ed = eds[0]
    ed.reason = "edited"
    with pytest.raises(ImmutableEdition):
        ed.save()
    with pytest.raises(ImmutableEdition):
        ed.delete()
    sheet = ed.sheet  # its entries and changes, stored as one sheet
    sheet.entries = b"edited"
    with pytest.raises(ImmutableEdition):
        sheet.save()
    with pytest.raises(ImmutableEdition):
        sheet.delete()
    from django.db import transaction

    with pytest.raises(ImmutableEdition), transaction.atomic():
        ed.events.clear()
    assert ed.events.exists()


def test_statuses_and_new_players_are_on_the_edition(published):
    _, eds = published
    statuses = set()
    new = 0
    for ed in eds:
        rows = sheets.entries(ed)
        statuses |= {r["status"] for r in rows}
        new += sum(r["is_new"] for r in rows)
    assert "active" in statuses and new > 0


def test_ranks_follow_ratings_and_positions_are_dense(published):
    _, eds = published
    ed = eds[-1]
    rows = sheets.entries(ed)  # (in list order)
    active = [(r["rank"], r["rating"]) for r in rows if r["status"] == "active"]
    assert active[0][0] == 1
    assert [r for _, r in active] == sorted((r for _, r in active), reverse=True)
    positions = [r["position"] for r in rows]
    assert positions == list(range(1, len(positions) + 1))


def test_rating_changes_store_before_after_and_the_explanation(published):
    import json
    from decimal import Decimal

    _, eds = published
    ch = next(c for c in sheets.changes(eds[-1]) if c["method"] != "not_rated" and c["before"] is not None)
    assert ch["after"] == ch["before"] + ch["delta"]
    x = json.loads(ch["explanation"])
    assert Decimal(x["delta"]) == ch["delta"] and x["method"] == ch["method"] and "notes" in x


def test_bjsh_13_ties_by_strokes_and_inactive_list_by_pinyin():
    from qiyuan.office.ordering import Orderable, order
    from qiyuan.rating.rules import BUILTIN_RULES

    rows = [Orderable("3", "王五", 2300, "active"), Orderable("1", "丁一", 2300, "active"),
            Orderable("2", "李四", 2400, "active"), Orderable("4", "阿强", 2100, "inactive"),
            Orderable("5", "张三", 2500, "inactive")]
    got = [o.federation_id for o in order(BUILTIN_RULES["bjsh-gomoku-2007"], rows)]
    # 丁 (2 strokes) before 王 (4) at equal rating; inactive list by pinyin: 阿 (a) before 张 (zhang)
    assert got == ["2", "1", "3", "4", "5"]


def test_bjsh_13_new_registrants_after_the_others_at_equal_rating_by_registration_date():
    from qiyuan.office.ordering import Orderable, order
    from qiyuan.rating.rules import BUILTIN_RULES

    rows = [Orderable("9", "丁一", 2200, "active", True, date(2020, 5, 1)),
            Orderable("8", "王五", 2200, "active", True, date(2020, 1, 1)),
            Orderable("7", "张三", 2200, "active")]
    assert [o.federation_id for o in order(BUILTIN_RULES["bjsh-gomoku-2007"], rows)] == ["7", "8", "9"]


def test_cga_ties_by_pinyin():
    from qiyuan.office.ordering import Orderable, order
    from qiyuan.rating.rules import BUILTIN_RULES

    rows = [Orderable("1", "张三", 2000, "active"), Orderable("2", "阿强", 2000, "active")]
    assert [o.federation_id for o in order(BUILTIN_RULES["cga-gomoku-2011"], rows)] == ["2", "1"]


def test_competition_ranks_share_ties():
    from qiyuan.office.ordering import competition_ranks

    assert competition_ranks([2400, 2300, 2300, 2100]) == [1, 2, 2, 4]
