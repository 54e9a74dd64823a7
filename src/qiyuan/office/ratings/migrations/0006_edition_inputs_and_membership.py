"""Issue 19: the canonical text's version of each edition (1 for all existing ones), the digest of the public
facts it was computed from, and the edition each list member joined in (membership by data, not by clocks).

For existing offices: a member joined in the first edition of his list published at or after his ``joined_at``
(what ``verify`` decided by comparing the two stamps until now); each edition's inputs digest is computed from
the data as it stands when this migration runs, so tampering is caught from then on.
"""

import django.db.models.deletion
from django.db import migrations, models


def forward(apps, schema_editor):
    from qiyuan.formats.canonical_text import inputs_digest
    from qiyuan.office.canonical import stored_inputs

    Edition = apps.get_model("ratings", "Edition")
    EditionEntry = apps.get_model("ratings", "EditionEntry")  # (editions were stored as rows then)
    ListMember = apps.get_model("ratings", "ListMember")
    by_list: dict[int, list[tuple]] = {}
    for pk, rl, at in Edition.objects.order_by("pk").values_list("pk", "rating_list_id", "published_at"):
        by_list.setdefault(rl, []).append((pk, at))
    for rl, editions in by_list.items():
        for pk, joined in ListMember.objects.filter(rating_list_id=rl).values_list("pk", "joined_at"):
            first = next((e for e, at in editions if at >= joined), None)
            if first is not None:
                ListMember.objects.filter(pk=pk).update(joined_in_id=first)
    for pk in Edition.objects.order_by("pk").values_list("pk", flat=True):
        published = set(EditionEntry.objects.filter(edition_id=pk).values_list("player__federation_id", flat=True))
        Edition.objects.filter(pk=pk).update(inputs_digest=inputs_digest(stored_inputs(pk, apps,
                                                                                       published=published)))


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0005_member_dan_granted_by"),
        ("events", "0010_game_board"),  # the inputs digest covers each game's board
        ("federation", "0002_dangrant_event_serial"),
    ]

    operations = [
        migrations.AddField(
            model_name="edition",
            name="canonical_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="edition",
            name="inputs_digest",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="listmember",
            name="joined_in",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="+", to="ratings.edition"),
        ),
        migrations.RunPython(forward, migrations.RunPython.noop),
    ]
