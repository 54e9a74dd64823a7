"""Issue 34 (8): the row tables editions were stored in before their sheets (``EditionEntry``, ``RatingChange``)
are dropped — only after `office verify` has passed on the upgraded office.

Migration 0007 built every edition's sheet from these rows and proved each digest; nothing has read or written
them since. While they hold rows and editions exist, this migration refuses (nothing dropped) unless the audit
log says a verify of the whole office passed on the sheets (``qiyuan.office.ratings.upgrade``): `qiyuan office
init` and a restore run that verify themselves, then this migration.
"""

from django.db import migrations

from qiyuan.office.ratings.upgrade import refusal, verify_first


def refuse_unless_verified(apps, schema_editor):
    if verify_first(schema_editor.connection):
        raise refusal()


class Migration(migrations.Migration):

    # (no dependency on the audit app: its log is read raw, and an office without it has no verify to show)
    dependencies = [
        ("ratings", "0008_edition_audit_head"),
    ]

    operations = [
        migrations.RunPython(refuse_unless_verified, migrations.RunPython.noop),
        migrations.DeleteModel(name="EditionEntry"),
        migrations.DeleteModel(name="RatingChange"),
    ]
