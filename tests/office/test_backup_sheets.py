"""Issue 34 (8): backups carry the editions' sheets; a backup of the old form (editions as rows only, made before
the sheets) restores — the upgrade builds every edition's sheet from its rows and proves each digest — and a
backup whose rows were altered is refused by name, never half-upgraded silently."""

from __future__ import annotations

import base64
import json
from contextlib import contextmanager
from decimal import Decimal

import pytest
from django.core.management import call_command

from qiyuan.formats import edition_sheet as S

from ._o2_fixtures import history_dir, make_list
from .test_backup import reseal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def office(tmp_path, monkeypatch):
    from qiyuan.office.imports import import_file

    # (published as before the sheets were: canonical version 2, no audit head, which came with version 3)
    monkeypatch.setattr("qiyuan.office.canonical.CURRENT_VERSION", 2)
    from qiyuan.office.periods import correct_period, publish_due
    from qiyuan.office.ratings.models import RatingList

    from .test_periods import late_batch
    from datetime import date

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    editions = publish_due(rl, "officer")
    rl = RatingList.objects.get(code="CGA")
    import_file(late_batch(tmp_path, history_dir(tmp_path, seed=7, prefix="X"), date(2019, 11, 2)), rl, "t")
    return editions + correct_period(rl, date(2020, 1, 1), "late report", "officer")


def texts() -> dict[int, bytes]:
    from qiyuan.office import sheets
    from qiyuan.office.ratings.models import Edition

    sheets.forget()
    return {ed.pk: sheets.text(ed) for ed in Edition.objects.all()}


def old_form(source, target, edit=None) -> None:
    """``source`` written again as a backup made before the sheets: no sheet table, no sheets migration, each
    edition's entries and changes as ``EditionEntry``/``RatingChange`` rows (written here from its sheet, as the
    office stored them then); ``edit(table, row, fields)`` may change a row (the file resealed)."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["migrations"]["ratings"] = [m for m in header["migrations"]["ratings"] if m < "0007"]
    made = _rows_of_sheets(lines)
    out = [json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"]
    counts, table, fields, dropped = {}, None, [], None

    def add(item) -> None:
        if edit is not None:
            edit(table, item, fields)
        out.append(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")
    for line in lines[1:-1]:
        item = json.loads(line)
        if isinstance(item, dict):
            table, fields = item["model"], item["fields"]
            if table == "ratings.editionsheet":  # (in its place, the row tables of before, as they were backed up)
                for table, fields in OLD_FIELDS.items():
                    counts[table] = len(made[table])
                    out.append(json.dumps({"model": table, "fields": list(fields), "count": counts[table]},
                                          ensure_ascii=False, separators=(",", ":")) + "\n")
                    for row in made[table]:
                        add([row[f] for f in fields])
                table = "ratings.editionsheet"
                continue
            counts[table] = item["count"]
            if table == "ratings.edition":  # (its audit head came after the sheets: ratings 0008)
                dropped = fields.index("audit_head")
                item["fields"] = fields = [f for f in fields if f != "audit_head"]
                line = json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n"
        elif table == "ratings.editionsheet":
            continue
        else:
            edited = table == "ratings.edition" and item.pop(dropped) in (None, {}, "")  # (none at version 2)
            if (edit is not None and edit(table, item, fields)) or edited:
                line = json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n"
        out.append(line)
    target.write_text("".join(reseal(out, counts, lines[-1])), encoding="utf-8")


#: the columns of the row tables of before the sheets, as a backup of then lists them
OLD_FIELDS = {
    "ratings.editionentry": ("id", "edition_id", "player_id", "position", "name", "rank", "rating", "exact", "games",
                             "status", "is_new", "k", "state"),
    "ratings.ratingchange": ("id", "edition_id", "player_id", "event_id", "before", "after", "games", "W", "We", "K",
                             "delta", "method", "explanation"),
}


def _rows_of_sheets(lines: list[str]) -> dict[str, list[dict]]:
    """The ``EditionEntry`` and ``RatingChange`` rows of every sheet in a backup's lines (by field name)."""
    entries, changes, table, fields = [], [], None, []
    for line in lines[1:-1]:
        item = json.loads(line)
        if isinstance(item, dict):
            table, fields = item["model"], item["fields"]
            continue
        if table != "ratings.editionsheet":
            continue
        row = dict(zip(fields, item))
        ent = S.decode(base64.b64decode(row["entries"]), S.ENTRY_SCHEMA, "entries")
        ch = S.decode(base64.b64decode(row["changes"]), S.CHANGE_SCHEMA, "changes")
        for values in zip(*ent.values()):
            e = dict(zip(ent, values))
            entries.append({"id": len(entries) + 1, "edition_id": row["edition_id"], "player_id": e["player"],
                            **{k: e[k] for k in ("position", "name", "rank", "rating", "exact", "games", "status",
                                                 "is_new", "k")}, "state": json.loads(e["state"])})
        for values in zip(*ch.values()):
            c = dict(zip(ch, values))
            changes.append({"id": len(changes) + 1, "edition_id": row["edition_id"], "player_id": c["player"],
                            "event_id": c["event"], **{k: c[k] for k in S.CHANGE_NUMBER_COLUMNS},
                            "W": str(Decimal(c["W"]).quantize(Decimal("0.1"))),  # (the column's one place)
                            "explanation": json.loads(c["explanation"])})
    return {"ratings.editionentry": entries, "ratings.ratingchange": changes}


def test_a_backup_carries_the_sheets(office, tmp_path):
    from qiyuan.office import backup
    from qiyuan.office.ratings.models import EditionSheet
    from qiyuan.office.verify import verify_all

    before = texts()
    stored = {pk: (bytes(e), bytes(c)) for pk, e, c in EditionSheet.objects.values_list("pk", "entries", "changes")}
    path = tmp_path / "b.jsonl.gz"
    made = backup.backup(path)
    assert made.counts["ratings.editionsheet"] == len(office)
    call_command("flush", interactive=False, verbosity=0)
    backup.restore(path)
    assert {pk: (bytes(e), bytes(c)) for pk, e, c in EditionSheet.objects.values_list(
        "pk", "entries", "changes")} == stored  # byte for byte
    assert texts() == before
    assert verify_all().ok


def test_an_old_form_backup_restores_and_gets_its_sheets(office, tmp_path):
    from qiyuan.office import backup
    from qiyuan.office.ratings.models import Edition, EditionSheet
    from qiyuan.office.verify import verify_all

    before = texts()
    path, old = tmp_path / "b.jsonl", tmp_path / "old.jsonl"
    backup.backup(path)
    old_form(path, old)
    call_command("flush", interactive=False, verbosity=0)
    restored = backup.restore(old)
    assert "ratings.editionsheet" not in restored.counts
    assert EditionSheet.objects.count() == Edition.objects.count() == len(office)  # superseded ones included
    assert texts() == before
    report = verify_all()
    assert report.ok, report.differences
    # the restore verified the upgraded office, then dropped the row tables (issue 34 (8))
    from django.db import connection

    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.ratings.upgrade import OLD_TABLES
    from qiyuan.office.setup import pending_migrations

    assert not set(OLD_TABLES) & set(connection.introspection.table_names()) and pending_migrations() == []
    assert AuditLog.objects.filter(action="office.verified", actor="restore", detail__editions=len(office)).exists()


def test_an_old_form_backup_that_office_verify_does_not_pass_keeps_its_row_tables(office, tmp_path):
    """A backup of the old form whose rows still give their digests (the sheets are built) but whose games were
    edited: verify finds differences, so the restore stops before dropping the row tables, and says so."""
    from django.db import connection

    from qiyuan.office import backup
    from qiyuan.office.ratings.upgrade import OLD_TABLES
    from qiyuan.office.setup import pending_migrations

    path, old = tmp_path / "b.jsonl", tmp_path / "old.jsonl"
    backup.backup(path)
    done = []

    def edit(table, row, fields):
        if table == "events.game" and not done and row[fields.index("result")] == "0-1":
            row[fields.index("result")] = "1-0"
            done.append(True)
            return True
        return False
    with refused_restore(path, old, edit, done) as text:
        assert "`qiyuan office verify` finds" in text and "the old tables of editions are kept" in text
        assert set(OLD_TABLES) <= set(connection.introspection.table_names())
        assert pending_migrations() == ["ratings.0009_drop_edition_rows"]


def test_an_old_form_backup_with_altered_rows_is_refused_by_edition(office, tmp_path):
    """The upgrade builds no sheet from rows that no longer give their edition's digest: it stops, naming the
    edition, and the restore says so (no traceback)."""
    from qiyuan.office import backup
    from qiyuan.office.ratings.models import Edition

    ed = office[1]
    path, old = tmp_path / "b.jsonl", tmp_path / "old.jsonl"
    backup.backup(path)
    done = []

    def edit(table, row, fields):
        if table == "ratings.editionentry" and row[fields.index("edition_id")] == ed.pk and not done \
                and row[fields.index("rating")] is not None:
            row[fields.index("rating")] += 1
            done.append(True)
            return True
        return False
    with refused_restore(path, old, edit, done) as text:
        assert f"{ed.rating_list.code} {ed.label}" in text and "no longer give its published digest" in text
        assert "cannot upgrade" in text
        assert Edition.objects.count() == len(office)  # the rows are there, at the backup's own schema


@contextmanager
def refused_restore(path, old, edit, done):
    """``path``'s backup written in the old form with ``edit`` applied (``done`` shows it was), restored into an
    emptied office: the refusal's text, the office put back at this program's schema after (the tests after this
    one run at it)."""
    from qiyuan.office import backup

    old_form(path, old, edit)
    assert done
    call_command("flush", interactive=False, verbosity=0)
    try:
        with pytest.raises(backup.BackupError) as caught:
            backup.restore(old)
        yield str(caught.value)
    finally:
        back_to_this_schema()


def back_to_this_schema() -> None:
    """An office left at a backup's older schema emptied — the row tables of before the sheets too, which ``flush``
    does not know (and PostgreSQL truncates no table they name) — and migrated to this version's schema."""
    from django.db import transaction

    from qiyuan.office.backup import _empty_office

    with transaction.atomic():
        _empty_office("default")
    call_command("migrate", verbosity=0)
