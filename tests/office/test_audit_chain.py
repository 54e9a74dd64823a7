"""Issue 32, item 5: the audit log is hash-chained, and ``office verify`` checks the chain, each edition's
publication entry and each dan grant against it — an edited entry, a log cut short or deleted, a changed grant
grade are found."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(tmp_path):
    """A history imported and its first list published."""
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import due_date, publish_period

    rl = make_list(code="L")
    import_file(history_dir(tmp_path), rl, "tester")
    return publish_period(rl, due_date(rl, rl.rules()), "officer")


def _differences() -> list[str]:
    from qiyuan.office.verify import verify_all

    return verify_all().differences


def test_each_entry_is_chained_after_the_one_before():
    from qiyuan.office.audit.chain import GENESIS, entry_hash, stored_detail
    from qiyuan.office.audit.models import AuditLog, record

    for i in range(3):
        record("officer", "test.step", None, n=i, on=date(2026, 1, 1 + i))
    previous = GENESIS
    for seq, entry in enumerate(AuditLog.objects.order_by("seq"), start=1):
        assert entry.seq == seq
        assert entry.hash == entry_hash(previous, seq, entry.at, entry.actor, entry.action, entry.object_type,
                                        entry.object_id, stored_detail(entry.detail))
        previous = entry.hash
    assert not _differences()


def test_an_entry_edited_after_it_was_written_is_found():
    from qiyuan.office.audit.models import AuditLog, record

    for i in range(4):
        record("officer", "test.step", None, n=i)
    AuditLog.objects.filter(seq=2).update(detail={"n": 99})
    diffs = _differences()
    assert len(diffs) == 1 and "entry 2" in diffs[0] and "changed after it was written" in diffs[0]


def test_an_entry_removed_from_the_middle_is_found():
    from qiyuan.office.audit.models import AuditLog, record

    for i in range(4):
        record("officer", "test.step", None, n=i)
    AuditLog.objects.filter(seq=3).delete()
    assert any("entries 3–3 of the chain are missing" in d for d in _differences())


def test_verify_finds_a_deleted_audit_log_by_the_editions_it_no_longer_records(published):
    from qiyuan.office.audit.models import AuditLog

    assert not _differences()
    AuditLog.objects.all().delete()
    diffs = _differences()
    assert any(f"L {published.list_date} edition 1: the audit log holds no entry of its publication" in d
               for d in diffs)


def test_verify_finds_a_changed_dan_grant_grade(make_player):
    from qiyuan.office.federation.models import DanGrant
    from qiyuan.office.grades.grants import grant_grade

    p = make_player(name="段位甲")
    grant_grade(p, "3d", granted_on=date(2024, 5, 1), granted_by="中国棋院", actor="officer")
    registered = make_player(name="段位乙", dan="2d", dan_granted_on=date(2023, 1, 1), dan_granted_by="中国棋院")
    assert DanGrant.objects.filter(player=registered).exists()  # a grade recorded at registration: audited too
    assert not _differences()
    DanGrant.objects.filter(player=p).update(grade="5d")
    DanGrant.objects.filter(player=registered).update(grade="6d")
    diffs = _differences()
    assert len(diffs) == 2 and all("is not the grant the audit log records" in d for d in diffs)
    assert any(p.federation_id in d and "5d" in d for d in diffs)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("abc"), st.one_of(st.integers(), st.text(max_size=5),
                                                                  st.dates().map(str), st.booleans())),
                min_size=1, max_size=5))
@example([{"a": "\x00"}])  # found by PostgreSQL's CI run: jsonb refuses U+0000
def test_any_detail_chains_as_the_database_gives_it_back(details):
    """Whatever JSON a detail holds, the chain written checks when read back (no false alarm)."""
    from qiyuan.office.audit.models import AuditLog, record
    from qiyuan.office.records import chain_check

    AuditLog.objects.all().delete()
    for d in details:
        record("officer", "test.any", None, **d)
    check = chain_check()
    assert not check.problems and check.head.entries == AuditLog.objects.order_by("-seq").first().seq


def test_a_nul_character_in_a_detail_is_kept_visible_and_chains_on_every_database():
    """PostgreSQL refuses U+0000 in jsonb (the CI run that found it): the detail is stored with ␀ in its place,
    keys too, and the chain still checks."""
    from qiyuan.office.audit.models import AuditLog, record
    from qiyuan.office.records import chain_check

    entry = record("officer", "test.nul", None, name="a\x00b", nested={"k\x00": ["\x00"]})
    stored = AuditLog.objects.get(pk=entry.pk).detail
    assert stored == {"name": "a\u2400b", "nested": {"k\u2400": ["\u2400"]}}
    assert not chain_check().problems
