"""Issue 34: an edition stored as one row — its entries and changes as two Arrow IPC column blobs (``EditionSheet``).

Every published edition (corrections and superseded ones included) gets its sheet built from its
``EditionEntry`` and ``RatingChange`` rows, and the canonical text written from the sheet must hash to the
edition's published digest: on any mismatch the migration stops and nothing is changed (the rows are kept
either way; a later migration drops them once ``office verify`` passes on the upgraded office). On PostgreSQL
the blobs are stored out of line without recompression (``STORAGE EXTERNAL``): they are lz4 already.
"""

import hashlib

import django.db.models.deletion
from django.db import migrations, models


def forward(apps, schema_editor):
    from qiyuan.formats import edition_sheet as S
    from qiyuan.office.sheets import AlteredRows, columns_from_rows

    Edition = apps.get_model("ratings", "Edition")
    EditionSheet = apps.get_model("ratings", "EditionSheet")
    Through = Edition.events.through
    codes: dict[int, list[str]] = {}
    for ed, code in Through.objects.values_list("edition_id", "event__code"):
        codes.setdefault(ed, []).append(code)
    done = set(EditionSheet.objects.values_list("edition_id", flat=True))
    for pk, version, digest, code, on, number in Edition.objects.order_by("pk").values_list(
            "pk", "canonical_version", "digest", "rating_list__code", "list_date", "number"):
        if pk in done:
            continue
        label = f"{code} {on.isoformat()}#{number}"
        entries, changes = columns_from_rows(pk, version, digest, codes.get(pk, []), label)  # (AlteredRows: stop)
        sheet = S.sheet_of(entries, changes)
        text = S.text_from_sheet(version, sheet, codes.get(pk, []))
        if hashlib.sha256(text).hexdigest() != digest:
            raise AlteredRows(f"edition {pk} ({label}): the text written from its sheet does not give its digest")
        EditionSheet.objects.create(edition_id=pk, format=sheet.format, entries=sheet.entries, changes=sheet.changes)


def external_storage(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for column in ("entries", "changes"):
            schema_editor.execute(f'ALTER TABLE "ratings_editionsheet" ALTER COLUMN "{column}" SET STORAGE EXTERNAL')


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0006_edition_inputs_and_membership"),
        ("events", "0011_rejected_reason_data"),
        ("federation", "0002_dangrant_event_serial"),
    ]

    operations = [
        migrations.CreateModel(
            name="EditionSheet",
            fields=[
                ("edition", models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, primary_key=True,
                                                 related_name="sheet", serialize=False, to="ratings.edition")),
                ("format", models.PositiveSmallIntegerField()),
                ("entries", models.BinaryField()),
                ("changes", models.BinaryField()),
            ],
            options={"abstract": False},
        ),
        migrations.RunPython(external_storage, migrations.RunPython.noop),
        migrations.RunPython(forward, migrations.RunPython.noop),
    ]
