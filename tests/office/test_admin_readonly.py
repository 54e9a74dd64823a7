"""Issue 8 (4): the Django admin cannot bypass the registry — its records are read-only there.

Observed: the admin overwrote a player's name or gender (against the ID number) with no name history row
and no audit entry, while the registry's own commands refuse the same change.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-not-used-elsewhere")
    client.force_login(user)
    return client


def test_admin_post_cannot_rename_a_player_or_change_his_gender(admin_client, make_player):
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.federation.models import NameChange

    p = make_player(name="张三", gender="M")
    audit_before = AuditLog.objects.count()
    url = f"/admin/federation/player/{p.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200  # the record can be read (the staff screen with the full ID number) …
    assert b'name="name"' not in page.content  # … but there is no form field to change it
    response = admin_client.post(url, {"name": "李四", "gender": "F", "id_type": "resident", "nationality": "CHN",
                                       "status": "active"})
    assert response.status_code == 403
    p.refresh_from_db()
    assert (p.name, p.gender) == ("张三", "M")
    assert not NameChange.objects.exists() and AuditLog.objects.count() == audit_before


@pytest.mark.parametrize("model", ["federation/player", "federation/association", "federation/club",
                                   "federation/arbiter", "events/event", "ratings/ratinglist", "ratings/edition",
                                   "audit/auditlog"])
def test_admin_cannot_add_or_delete_office_records(admin_client, model):
    assert admin_client.get(f"/admin/{model}/add/").status_code == 403
    assert admin_client.get(f"/admin/{model}/").status_code == 200  # listed, read-only


def test_admin_cannot_delete_a_player(admin_client, make_player):
    from qiyuan.office.federation.models import Player

    p = make_player(name="王五", gender="M")
    assert admin_client.post(f"/admin/federation/player/{p.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Player.objects.filter(pk=p.pk).exists()
