"""The audit log: who did what, to which object, with JSON details; written by every registry action."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from qiyuan.office.audit.models import AuditLog, record
from qiyuan.office import registry as services

pytestmark = pytest.mark.django_db


def test_record_with_a_desk_user_keeps_the_user_and_the_username():
    user = get_user_model().objects.create_user("officer1", password="x")
    entry = record(user, "list.publish", user, list="CGA", on=date(2026, 1, 1), rating=Decimal("2400.50"))
    entry.refresh_from_db()
    assert entry.user == user and entry.actor == "officer1"
    assert (entry.object_type, entry.object_id) == ("auth.user", str(user.pk))
    # dates and Decimals are stored as exact strings, never floats
    assert entry.detail == {"list": "CGA", "on": "2026-01-01", "rating": "2400.50"}


def test_record_from_the_command_line_has_no_user_and_no_object():
    entry = record("root", "office.backup", file="b.jsonl.gz")
    assert entry.user is None and entry.actor == "root" and entry.object_type == "" and entry.object_id == ""
    assert str(entry).endswith("root office.backup")


def test_newest_first():
    record("a", "first")
    record("b", "second")
    assert [e.action for e in AuditLog.objects.all()] == ["second", "first"]


def test_every_registry_change_is_audited(make_player, make_association):
    p = make_player("张三")
    make_association("SH")
    services.rename_player(p, "张叁", actor="x")
    services.change_association(p, "SH", actor="x")
    services.grant_dan(p, "1d", granted_on=date(2025, 1, 1), granted_by="中国棋院", actor="x")
    services.update_identity(p, actor="x", birth_date=date(2000, 1, 1))
    q = make_player("张三")
    services.merge_players(p, q, "x")
    services.add_association("TJ", "天津", actor="x")
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert actions == {"player.register", "player.rename", "player.association", "player.dan", "player.identity",
                       "player.merge", "association.add"}
    assert AuditLog.objects.filter(object_type="federation.player", object_id=str(p.pk)).count() == 6
