"""Issue 34 (8): backups carry the editions' sheets; a backup of the old form (editions as rows only, made before
the sheets) restores — the upgrade builds every edition's sheet from its rows and proves each digest — and a
backup whose rows were altered is refused by name, never half-upgraded silently."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from ._o2_fixtures import history_dir, make_list
from .test_backup import reseal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def office(tmp_path):
    from qiyuan.office.imports import import_file
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
    """``source`` written again as a backup made before the sheets: no sheet table, no sheets migration;
    ``edit(table, row, fields)`` may change a row (the file resealed)."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["migrations"]["ratings"] = [m for m in header["migrations"]["ratings"] if m < "0007"]
    out = [json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"]
    counts, table, fields = {}, None, []
    for line in lines[1:-1]:
        item = json.loads(line)
        if isinstance(item, dict):
            table, fields = item["model"], item["fields"]
            if table == "ratings.editionsheet":
                continue
            counts[table] = item["count"]
        elif table == "ratings.editionsheet":
            continue
        elif edit is not None and edit(table, item, fields):
            line = json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n"
        out.append(line)
    target.write_text("".join(reseal(out, counts, lines[-1])), encoding="utf-8")


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
    old_form(path, old, edit)
    assert done
    call_command("flush", interactive=False, verbosity=0)
    try:
        with pytest.raises(backup.BackupError) as caught:
            backup.restore(old)
        text = str(caught.value)
        assert f"{ed.rating_list.code} {ed.label}" in text and "no longer give its published digest" in text
        assert "cannot upgrade" in text
        assert Edition.objects.count() == len(office)  # the rows are there, at the backup's own schema
    finally:  # the database back at this version's schema for the tests after this one
        call_command("flush", interactive=False, verbosity=0)
        call_command("migrate", interactive=False, verbosity=0)
