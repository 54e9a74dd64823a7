# The event checker's verdict stored with an imported event (issue 35).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0012_go_results_and_h9'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='pairing_check',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
