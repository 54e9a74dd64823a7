"""Issue 18, item 8: failed logins throttled (10 per account or 30 per address within 15 minutes → locked 15
minutes, the right password too); lockouts audited, shown to the admin, lifted by him; the throttle reusable."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys

import pytest

from .conftest import PASSWORD, REPO

pytestmark = pytest.mark.django_db


def _post(client, url, username, password, address="203.0.113.7"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("url", ["/desk/login/", "/admin/login/"])
def test_forty_wrong_passwords_then_the_right_one_is_refused(client, make_user, url):
    """The issue's observation: 40 wrong passwords, then the right one, logged in. Now the 11th attempt is refused."""
    from qiyuan.office.audit.models import AuditLog

    make_user("wang", "admin", superuser=True)
    for _ in range(10):
        r = _post(client, url, "wang", "wrong-password")
        assert r.status_code == 200
    r = _post(client, url, "wang", PASSWORD)
    assert r.status_code == 200 and "_auth_user_id" not in client.session
    assert "登录尝试失败次数过多" in r.content.decode()
    lockouts = AuditLog.objects.filter(action="login.lockout")
    assert [(e.detail["scope"], e.detail["key"], e.detail["attempts"]) for e in lockouts] == [("account", "wang", 10)]


def test_nine_failures_do_not_lock(client, make_user):
    make_user("li", "officer")
    for _ in range(9):
        _post(client, "/desk/login/", "li", "nope-nope")
    r = _post(client, "/desk/login/", "li", PASSWORD)
    assert r.status_code == 302 and client.session["_auth_user_id"]


def test_thirty_failures_from_one_address_lock_that_address_for_every_account(client, make_user):
    make_user("zhao", "officer")
    for i in range(30):  # 3 failures each for 10 accounts: no account reaches its 10
        _post(client, "/desk/login/", f"guess{i % 10}", "nope-nope", address="198.51.100.9")
    r = _post(client, "/desk/login/", "zhao", PASSWORD, address="198.51.100.9")
    assert "_auth_user_id" not in client.session and "登录尝试失败次数过多" in r.content.decode()
    r = _post(client, "/desk/login/", "zhao", PASSWORD, address="198.51.100.10")  # another address: fine
    assert r.status_code == 302


def test_admin_sees_and_lifts_a_lockout(client, make_user):
    from django.test import Client

    from qiyuan.office.audit.models import AuditLog

    admin = make_user("boss", "admin", superuser=True)
    make_user("sun", "arbiter")
    for _ in range(10):
        _post(client, "/desk/login/", "sun", "bad-bad-bad")
    boss = Client()
    boss.force_login(admin)
    assert 'id="home-lockouts"' in boss.get("/desk/").content.decode()  # shown on the desk's front page
    r = boss.get("/desk/users/")
    assert r.status_code == 200, (r.status_code, r.get("Location"))
    page = r.content.decode()
    assert 'id="lockouts"' in page and "sun" in page
    r = boss.post("/desk/users/lockouts/lift/", {"scope": "account", "key": "sun"})
    assert r.status_code == 302
    assert AuditLog.objects.filter(action="login.unlock", detail__key="sun").exists()
    assert 'id="lockouts"' not in boss.get("/desk/users/").content.decode()
    assert _post(client, "/desk/login/", "sun", PASSWORD).status_code == 302


def test_lockout_lifted_from_the_command_line(make_user, settings):
    from django.contrib.auth import authenticate
    from django.test import RequestFactory

    from qiyuan.web import login_guard

    make_user("qian", "arbiter")
    rf = RequestFactory()
    for _ in range(10):
        assert authenticate(rf.post("/desk/login/"), username="qian", password="x") is None
    assert login_guard.locked_until(rf.post("/"), "qian") is not None
    login_guard.lift_lockout("cli-user", "account", "QIAN")  # names are matched without case
    assert authenticate(rf.post("/desk/login/"), username="qian", password=PASSWORD) is not None


def test_the_window_slides_and_the_lock_ends():
    from qiyuan.web.throttle import Throttle

    t = Throttle("test-window", limit=3, window=900, lockout=900)
    t0 = 1_000_000.0
    t.hit("k", now=t0)
    t.hit("k", now=t0 + 100)
    assert t.count("k", now=t0 + 200) == 2
    assert t.count("k", now=t0 + 960) == 1  # the first failure left the window
    assert t.count("k", now=t0 + 1100) == 0
    t.lock("k", now=t0)
    assert t.locked_until("k", now=t0 + 899) is not None and t.locked_until("k", now=t0 + 901) is None


def test_a_phone_rate_limit_reuses_the_throttle():
    """The same throttle as a rate limit: 10 requests a minute per token (no lockout, refuse while exceeded)."""
    from qiyuan.web.throttle import Throttle

    per_token = Throttle("test-phone", limit=10, window=60)
    t0 = 2_000_000.0
    for i in range(10):
        per_token.hit("token-1", now=t0 + i)
    assert not per_token.exceeded("token-1", now=t0 + 10)
    per_token.hit("token-1", now=t0 + 11)
    assert per_token.exceeded("token-1", now=t0 + 11)
    assert not per_token.exceeded("token-1", now=t0 + 75)


def _count_up_many(location, n):
    from qiyuan.web.cache import FileCache

    cache = FileCache(location, {"TIMEOUT": None})
    for _ in range(n):
        cache.count_up("shared-counter", 60)


def test_counts_from_processes_at_once_are_not_lost(tmp_path):
    """Failed logins arrive at several worker processes at once: none is lost."""
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_count_up_many, args=(str(tmp_path), 25)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    from qiyuan.web.cache import FileCache

    assert FileCache(str(tmp_path), {"TIMEOUT": None}).get("shared-counter") == 100


# -- the production secret key ------------------------------------------------------------------------


@pytest.mark.parametrize("key,reason", [
    ("", "not set"),
    ("x", "50 or more"),
    ("x" * 60, "fewer than 5"),
    ("dev-only-insecure-key-change-me-in-production-0123456789", "placeholder"),
    ("django-insecure-" + "a1b2c3d4e5" * 5, "placeholder"),
])
def test_production_refuses_a_weak_secret_key(key, reason):
    from qiyuan.office.secret_key import secret_key_problem

    assert reason in secret_key_problem(key)


def test_a_real_key_passes():
    import secrets

    from qiyuan.office.secret_key import secret_key_problem

    assert secret_key_problem(secrets.token_urlsafe(50)) == ""


def _env(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if k != "QIYUAN_SECRET_KEY"}
    env.update(QIYUAN_HOME=str(tmp_path), PYTHONPATH=str(REPO / "src"), **extra)
    return env


def test_check_deploy_without_a_key_says_so_not_keyerror(tmp_path):
    run = subprocess.run([sys.executable, "-m", "django", "check", "--deploy"],
                         env=_env(tmp_path, DJANGO_SETTINGS_MODULE="qiyuan.web.settings_production"),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "QIYUAN_SECRET_KEY is not set" in run.stderr and "KeyError" not in run.stderr


def test_serve_production_refuses_a_short_key(tmp_path):
    run = subprocess.run([sys.executable, "-c", "from qiyuan.cli import main; main()", "serve", "--production"],
                         env=_env(tmp_path, QIYUAN_SECRET_KEY="x"), capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "50 or more" in run.stderr


def test_behind_the_proxy_the_address_is_the_one_the_proxy_appended():
    from django.test import RequestFactory

    from qiyuan.web.login_guard import client_address

    rf = RequestFactory()
    via_proxy = rf.post("/", REMOTE_ADDR="", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.4")
    assert client_address(via_proxy) == "198.51.100.4"  # the client's own "6.6.6.6" is not trusted
    direct = rf.post("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_address(direct) == "203.0.113.9"
