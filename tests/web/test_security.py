"""Security of the web face: deploy checks, CSRF, every desk URL guarded by a role."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from .conftest import REPO


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = dict(os.environ)
    env.pop("QIYUAN_INSECURE_LOOPBACK", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for Playwright in tests, never in deployment
    env.update(
        DJANGO_SETTINGS_MODULE="qiyuan.web.settings_production",
        QIYUAN_SECRET_KEY="k" * 20 + "-Zx9!q2@w3#e4$r5%t6^y7&u8*i9(o0)p-+=_" + "m" * 12,
        QIYUAN_HOME=str(tmp_path),
        PYTHONPATH=str(REPO / "src"),
    )
    run = subprocess.run(
        [sys.executable, "-m", "django", "check", "--deploy", "--fail-level", "WARNING"],
        env=env, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


def test_loopback_relaxes_only_tls_settings(tmp_path):
    code = (
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS,"
        " s.SESSION_COOKIE_HTTPONLY, s.X_FRAME_OPTIONS)"
    )
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="qiyuan.web.settings_production", QIYUAN_SECRET_KEY=secrets.token_urlsafe(50),
               QIYUAN_INSECURE_LOOPBACK="1", QIYUAN_HOME=str(tmp_path), PYTHONPATH=str(REPO / "src"))
    run = subprocess.run([sys.executable, "-c", "import django;django.setup();" + code], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.split() == ["False", "False", "False", "False", "0", "True", "DENY"], run.stderr


def _desk_patterns():
    resolver = get_resolver()
    for top in resolver.url_patterns:
        if isinstance(top, URLResolver) and top.namespace == "desk":
            for p in top.url_patterns:
                assert isinstance(p, URLPattern)
                yield p


def test_every_desk_view_requires_a_role():
    from qiyuan.web.desk.urls import PUBLIC_VIEWS

    names = []
    for p in _desk_patterns():
        if p.name in PUBLIC_VIEWS:
            continue
        names.append(p.name)
        assert getattr(p.callback, "required_roles", None), f"desk view {p.name} is not guarded by role_required"
    assert len(names) >= 3


def _sample_kwargs(pattern) -> dict:
    values = {"int": 1, "str": "X", "slug": "x", "path": "x"}
    return {name: values.get(type(conv).__name__.replace("Converter", "").lower(), "x")
            for name, conv in pattern.pattern.converters.items()}


@pytest.mark.django_db
def test_anonymous_user_is_sent_to_login_from_every_desk_url(client):
    from qiyuan.web.desk.urls import PUBLIC_VIEWS

    for p in _desk_patterns():
        if p.name in PUBLIC_VIEWS:
            continue
        url = reverse(f"desk:{p.name}", kwargs=_sample_kwargs(p))
        for method in (client.get, client.post):
            r = method(url)
            assert r.status_code == 302 and r["Location"].startswith("/desk/login/"), (p.name, r.status_code)


def test_user_without_role_gets_403_everywhere(staff, login):
    from qiyuan.web.desk.urls import PUBLIC_VIEWS

    c = login(staff["nobody"])
    for p in _desk_patterns():
        if p.name in PUBLIC_VIEWS:
            continue
        url = reverse(f"desk:{p.name}", kwargs=_sample_kwargs(p))
        assert c.get(url).status_code == 403, p.name
        assert c.post(url).status_code == 403, p.name


def test_login_form_needs_csrf_token(staff):
    from django.test import Client

    c = Client(enforce_csrf_checks=True)
    r = c.post("/desk/login/", {"username": "arbiter", "password": "correct-horse-battery"})
    assert r.status_code == 403
    r = c.get("/desk/login/")
    token = r.cookies["csrftoken"].value
    r = c.post("/desk/login/", {"username": "arbiter", "password": "correct-horse-battery", "csrfmiddlewaretoken": token})
    assert r.status_code == 302 and r["Location"] == "/desk/"


def test_logout_is_post_only(staff, login):
    c = login(staff["arbiter"])
    assert c.get("/desk/logout/").status_code == 405
    assert c.post("/desk/logout/").status_code == 302
    assert c.get("/desk/").status_code == 302


def test_only_admin_manages_users(staff, login):
    for who in ("officer", "arbiter"):
        c = login(staff[who])
        assert c.get("/desk/users/").status_code == 403
        r = c.post(f"/desk/users/{staff['nobody'].pk}/roles/", {"roles": ["admin"], "active": "on"})
        assert r.status_code == 403
    assert not staff["nobody"].groups.exists()
    c = login(staff["admin"])
    assert c.get("/desk/users/").status_code == 200
    r = c.post(f"/desk/users/{staff['nobody'].pk}/roles/", {"roles": ["officer"], "active": "on"})
    assert r.status_code == 302
    assert list(staff["nobody"].groups.values_list("name", flat=True)) == ["officer"]
    r = c.post("/desk/users/", {"username": "new-arb", "password": "longenough1", "roles": ["arbiter"]})
    assert r.status_code == 302
    from qiyuan.office.audit.models import AuditLog

    assert AuditLog.objects.filter(action="user.create").count() == 1


def test_admin_role_opens_the_django_admin_for_the_registry(staff, login):
    c = login(staff["admin"])
    r = c.post(f"/desk/users/{staff['officer'].pk}/roles/", {"roles": ["admin"], "active": "on"})
    assert r.status_code == 302
    c = login(staff["officer"])
    assert c.get("/admin/federation/player/").status_code == 200
    c = login(staff["admin"])
    c.post(f"/desk/users/{staff['officer'].pk}/roles/", {"roles": ["officer"], "active": "on"})
    c = login(staff["officer"])
    assert c.get("/admin/federation/player/").status_code == 302  # back to the admin's login


def test_arbiter_and_public_cannot_open_the_django_admin(staff, login, client):
    assert client.get("/admin/federation/player/").status_code == 302
    assert login(staff["arbiter"]).get("/admin/federation/player/").status_code == 302


def test_desk_actions_need_the_csrf_token(staff):
    from django.test import Client

    c = Client(enforce_csrf_checks=True)
    c.force_login(staff["admin"])
    for url in ("/desk/events/new/", "/desk/users/", "/desk/office/periods/", "/desk/office/imports/"):
        assert c.post(url, {"code": "x", "name": "x", "fmt": "swiss"}).status_code == 403, url


def test_session_cookie_is_http_only_and_pages_deny_framing(client, db):
    from django.conf import settings

    assert settings.SESSION_COOKIE_HTTPONLY
    r = client.get("/rules/")
    assert r["X-Frame-Options"] == "DENY" and r["X-Content-Type-Options"] == "nosniff"


def test_refusals_and_missing_pages_are_explained(staff, login, client):
    r = login(staff["officer"]).get("/desk/users/")
    assert r.status_code == 403 and "无权操作" in r.content.decode()
    r = client.get("/players/CN999999/")
    assert r.status_code == 404 and "找不到页面" in r.content.decode()


# ------------------------------------------------------------------------------------------------ hostile input
#: values no form or query parameter may turn into a 500, an echoed control character or a traceback
HOSTILE = ["a\x00b", "\x00", "\x1b[31mred", "x\x7f\x9fy", "'; DROP TABLE federation_player; --", "%00", "../../etc/passwd",
           "<script>alert(1)</script>", "9" * 400, "𠀾" * 60, "\ud800".encode("utf-8", "surrogatepass").decode(
               "utf-8", "replace"), "   ", "-1", "1e309", "NaN", "0x10", "CN000001\nCN000002"]
PORTAL_PARAMS = {
    "/players/": ["q"],
    "/lists/gomoku/2026-01-01/": ["q", "gender", "age", "born_from", "born_to", "association", "status", "dan",
                                  "page", "order"],
    "/lists/gomoku/2026-01-01/2/download.csv": ["gender", "q", "age"],
    "/lists/gomoku/2026-01-01/2/compare/": ["with", "q", "page"],
    "/events/": ["q", "list", "format", "year", "status", "page"],
    "/players/CN000001/what-if/": ["list", "format", "opp", "res", "champion"],
    "/players/CN000001/": ["calc"],
}
API_PARAMS = {
    "/api/v1/lists/gomoku/editions/2026-01-01/2/entries": ["q", "gender", "age", "born_from", "status", "dan",
                                                            "page", "page_size", "order", "association"],
    "/api/v1/lists/gomoku/editions/2026-01-01/2/changes": ["event", "player", "page", "page_size"],
    "/api/v1/players": ["q"],
    "/api/v1/events": ["q", "list", "format", "year", "status", "page", "page_size"],
}


def _no_control_characters(body: str, where) -> None:
    assert not any(c in body for c in "\x00\x1b\x7f\x9f"), where


@pytest.mark.django_db
def test_no_input_in_a_query_string_breaks_a_page_or_is_echoed_raw(client, published):
    from urllib.parse import quote

    for url, params in PORTAL_PARAMS.items():
        for name in params:
            for value in HOSTILE:
                r = client.get(f"{url}?{name}={quote(value, safe='')}&opp=2100&res=1")
                assert r.status_code in (200, 302, 400, 404), (url, name, value, r.status_code)
                body = r.content.decode("utf-8", "replace")
                _no_control_characters(body, (url, name, value))
                assert "<script>alert(1)</script>" not in body, (url, name)


@pytest.mark.django_db
def test_no_input_breaks_the_api_and_every_refusal_is_json(client, published):
    from urllib.parse import quote

    for url, params in API_PARAMS.items():
        for name in params:
            for value in HOSTILE:
                r = client.get(f"{url}?{name}={quote(value, safe='')}")
                assert r.status_code in (200, 400, 404), (url, name, value, r.status_code)
                assert r["Content-Type"].startswith("application/json"), (url, name)
                _no_control_characters(r.content.decode(), (url, name, value))


@pytest.mark.django_db
def test_addresses_with_control_characters_are_not_found(client, published):
    for url in ("/players/CN0%00001/", "/events/a%00b/", "/lists/gomoku%00/", "/api/v1/players/CN%0000001",
                "/players/CN000001/vs/%1b/"):
        r = client.get(url)
        assert r.status_code == 404, url
        _no_control_characters(r.content.decode(), url)


@pytest.mark.django_db
def test_a_nul_in_a_search_is_removed_before_the_database(client, published):
    """Issue 10: ``GET /players/?q=a%00b`` was HTTP 500 on PostgreSQL and echoed the NUL on SQLite."""
    r = client.get("/players/?q=%E5%BC%A0%00%E4%B8%89")  # 张\0三
    assert r.status_code == 200
    body = r.content.decode()
    assert "\x00" not in body and 'value="张三"' in body and "CN000001" in body


@pytest.mark.django_db
def test_control_characters_are_removed_from_posted_forms_but_lines_stay(staff, login):
    from qiyuan.web.middleware import clean_text

    assert clean_text("a\x00b\tc\nd\re\x1bf", lines=True) == "ab\tc\nd\ref"
    assert clean_text("a\x00b\tc\nd", lines=False) == "abcd"
    c = login(staff["admin"])
    r = c.post("/desk/users/", {"username": "new\x00user", "password": "longenough1", "roles": ["arbiter"]})
    assert r.status_code == 302
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.filter(username="newuser").exists()
