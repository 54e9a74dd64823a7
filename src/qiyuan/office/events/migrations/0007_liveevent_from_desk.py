"""The desk's running events move to the events app with their data.

The tables the desk's migrations created stay where they are: this migration only
takes the two models over in Django's state (under their old table names); the desk's
0003 drops them from its own state; 0008 then renames the tables (and the arbiters'
many-to-many table) to the events app's names.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0006_event_name_en"),
        ("desk", "0002_event_organiser"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LiveEvent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("code", models.SlugField(max_length=40, unique=True, verbose_name="比赛代码")),
                        ("name", models.CharField(max_length=200, verbose_name="比赛名称")),
                        ("system", models.CharField(choices=[("swiss", "积分编排制 (Swiss)"),
                                                             ("round_robin", "循环制 (round robin)")],
                                                    default="swiss", max_length=20, verbose_name="赛制")),
                        ("trf_text", models.TextField(blank=True, verbose_name="TRF")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("finished", models.BooleanField(default=False, verbose_name="已结束")),
                        ("organizer", models.CharField(blank=True, max_length=200, verbose_name="主办单位")),
                        ("host", models.CharField(blank=True, max_length=200, verbose_name="承办单位")),
                        ("organiser_level", models.CharField(blank=True, max_length=10, verbose_name="主办单位级别")),
                        ("arbiters", models.ManyToManyField(blank=True, related_name="live_events",
                                                            to=settings.AUTH_USER_MODEL)),
                        ("created_by", models.ForeignKey(blank=True, null=True,
                                                         on_delete=django.db.models.deletion.SET_NULL,
                                                         related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"ordering": ["-created_at"], "db_table": "desk_liveevent"},
                ),
                migrations.CreateModel(
                    name="LiveEventVersion",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("action", models.CharField(max_length=80)),
                        ("trf_text", models.TextField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("live_event", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                         related_name="versions", to="events.liveevent")),
                        ("user", models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL,
                                                   related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"ordering": ["-id"], "db_table": "desk_liveeventversion"},
                ),
            ],
            database_operations=[],
        ),
    ]
