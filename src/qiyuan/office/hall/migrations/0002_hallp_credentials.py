# Issue 33: players' personal credentials (who taps is proven by his own credential, not a device cookie)

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("hall", "0001_initial"),
    ]

    operations = [
        migrations.RemoveField(model_name="phoneclaim", name="reporter_device"),
        migrations.RemoveField(model_name="phoneclaim", name="confirmer_device"),
        migrations.AddField(model_name="phoneclaim", name="disputed_by",
                            field=models.PositiveIntegerField(blank=True, null=True)),
        migrations.AddField(model_name="phoneclaim", name="steps", field=models.JSONField(blank=True, default=list)),
        migrations.CreateModel(
            name="Credential",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("event", models.CharField(max_length=60)),
                ("number", models.PositiveIntegerField()),
                ("issue", models.PositiveIntegerField(default=1)),
                ("issued_by", models.CharField(blank=True, max_length=150)),
                ("issued_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("event", "number"), name="hall_credential_player")],
            },
        ),
    ]
