"""The running events' tables under the events app's names (data kept: a rename)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0007_liveevent_from_desk"),
        ("desk", "0003_liveevent_moved_to_events"),
    ]

    operations = [
        migrations.AlterModelTable(name="liveevent", table=None),
        migrations.AlterModelTable(name="liveeventversion", table=None),
    ]
