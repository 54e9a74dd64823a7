"""LiveEvent and LiveEventVersion now belong to the events app (events.0007 took them over
with their tables and data): the desk forgets them, the database is not touched."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("desk", "0002_event_organiser"),
        ("events", "0007_liveevent_from_desk"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="LiveEventVersion"),
                migrations.DeleteModel(name="LiveEvent"),
            ],
            database_operations=[],
        ),
    ]
