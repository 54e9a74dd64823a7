"""The desk's user pages and `qiyuan office user add` are one use case (qiyuan.web.staff): the same checks, the
same audit entry; the desk shows a refusal in the page's language beside what was typed."""

from __future__ import annotations

import pytest

from qiyuan.office.audit.models import AuditLog

pytestmark = pytest.mark.django_db


def test_the_desk_refuses_a_taken_name_or_a_weak_password_in_chinese_and_writes_nothing(staff, login):
    c = login(staff["admin"])
    before = AuditLog.objects.count()
    page = c.post("/desk/users/", {"username": "arbiter", "password": "longenough1", "roles": ["arbiter"]},
                  HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "用户 arbiter 已存在" in page
    page = c.post("/desk/users/", {"username": "same-as-pw", "password": "same-as-pw", "roles": ["officer"]},
                  HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'value="same-as-pw"' in page and "the password must differ" not in page
    assert AuditLog.objects.count() == before


def test_roles_set_at_the_desk_are_audited_once_with_the_account_state(staff, login):
    c = login(staff["admin"])
    r = c.post(f"/desk/users/{staff['nobody'].pk}/roles/", {"roles": ["officer", "arbiter"]})
    assert r.status_code == 302
    staff["nobody"].refresh_from_db()
    assert sorted(staff["nobody"].groups.values_list("name", flat=True)) == ["arbiter", "officer"]
    assert not staff["nobody"].is_active
    entry = AuditLog.objects.get(action="user.roles")
    assert entry.detail["roles"] == ["arbiter", "officer"] and entry.detail["active"] is False
