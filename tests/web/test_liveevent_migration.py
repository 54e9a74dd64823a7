"""The desk's running events move to the office's events app with their data (issue 8)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("desk", "0002_event_organiser"), ("events", "0006_event_name_en")]


@pytest.mark.django_db(transaction=True)
def test_an_existing_database_keeps_its_live_events_through_the_move():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    OldEvent = old.get_model("desk", "LiveEvent")
    OldVersion = old.get_model("desk", "LiveEventVersion")
    user = User.objects.create(username="arbiter")
    live = OldEvent.objects.create(code="old-2025", name="2025年老比赛", trf_text="012 2025年老比赛\n", created_by=user,
                                   organizer="北京棋院")
    live.arbiters.add(user)
    OldVersion.objects.create(live_event=live, action="pair", trf_text="012 before\n", user=user)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    from qiyuan.office.events.models import LiveEvent

    moved = LiveEvent.objects.get(code="old-2025")
    assert (moved.name, moved.organizer, moved.trf_text) == ("2025年老比赛", "北京棋院", "012 2025年老比赛\n")
    assert [u.username for u in moved.arbiters.all()] == ["arbiter"]
    assert [v.action for v in moved.versions.all()] == ["pair"]
    assert LiveEvent._meta.db_table == "events_liveevent"
    tables = connection.introspection.table_names()
    assert "events_liveevent" in tables and "events_liveevent_arbiters" in tables and "desk_liveevent" not in tables
