"""`qiyuan serve`: gunicorn with N worker processes under the production settings, the site's own error pages
in local use, and one cache shared by every worker (files under var/cache, or Redis when REDIS_URL is set)."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .conftest import REPO


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(home: Path, **extra) -> dict:
    env = dict(os.environ, QIYUAN_HOME=str(home), PYTHONPATH=str(REPO / "src"), **extra)
    for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "QIYUAN_DEBUG",
              "QIYUAN_CACHE_DIR"):
        env.pop(k, None)
    if "REDIS_URL" not in extra:
        env.pop("REDIS_URL", None)
    return env


def _start(home: Path, *args: str, **extra) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from qiyuan.cli import app; app()", "serve", "--port", str(port),
                             *args], env=_env(home, **extra), cwd=home, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=5).read()
            return proc, port
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.3)
    _stop(proc)
    raise AssertionError(f"the server did not answer: {proc.stdout.read() if proc.stdout else ''}")


def _stop(proc: subprocess.Popen) -> str:
    """Stop the server as a service manager does: SIGTERM to the master (gunicorn stops its workers gracefully)."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.stdout.read() if proc.stdout else ""


def _fetch(url: str):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


def _worker_pids(master: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True, text=True).stdout
    return {int(x) for x in out.split()}


def test_production_runs_gunicorn_workers_with_static_files_and_security_headers(tmp_path):
    secret = dict(QIYUAN_SECRET_KEY=secrets.token_urlsafe(50), QIYUAN_INSECURE_LOOPBACK="1")
    proc, port = _start(tmp_path, "--production", "--workers", "2", **secret)
    try:
        base = f"http://127.0.0.1:{port}"
        status, headers, body = _fetch(base + "/rules/")
        assert status == 200 and "附表1" in body and headers["X-Frame-Options"] == "DENY"
        deadline = time.monotonic() + 30
        while len(_worker_pids(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_worker_pids(proc.pid)) == 2, "gunicorn should run two worker processes"
        css = next(part.split('"')[0] for part in body.split('href="')[1:] if part.startswith("/static/qiyuan/site."))
        status, headers, text = _fetch(base + css)
        assert status == 200 and "--accent" in text and "max-age" in headers["Cache-Control"]
        with urllib.request.urlopen(base + "/desk/", timeout=5) as r:  # redirects followed
            assert r.url.startswith(base + "/desk/login/") and "csrftoken" in r.headers["Set-Cookie"]
        status, _h, body = _fetch(base + "/players/CN999999/")
        assert status == 404 and "找不到页面" in body and "URLconf" not in body
        for _ in range(6):  # every worker answers the same (all read one database and one cache)
            assert _fetch(base + "/api/v1/lists")[0] == 200
    finally:
        out = _stop(proc)
    assert "gunicorn (2 workers" in out and "Traceback" not in out


def test_local_serve_shows_the_sites_own_error_pages_never_the_debug_page(tmp_path):
    proc, port = _start(tmp_path)
    try:
        status, _h, body = _fetch(f"http://127.0.0.1:{port}/no/such/page/")
        assert status == 404 and "找不到页面" in body
        assert "Using the URLconf" not in body and "DEBUG = True" not in body
        status, _h, body = _fetch(f"http://127.0.0.1:{port}/static/qiyuan/site.css")
        assert status == 200 and "--accent" in body  # static files without DEBUG
    finally:
        _stop(proc)


def test_debug_pages_only_on_request(tmp_path):
    proc, port = _start(tmp_path, "--debug")
    try:
        status, _h, body = _fetch(f"http://127.0.0.1:{port}/no/such/page/")
        assert status == 404 and "Using the URLconf" in body
    finally:
        _stop(proc)


def test_the_file_cache_under_var_is_shared_by_the_workers(tmp_path):
    """A page cached by one worker is a file under var/cache that every process reads (here: the test)."""
    secret = dict(QIYUAN_SECRET_KEY=secrets.token_urlsafe(50), QIYUAN_INSECURE_LOOPBACK="1")
    proc, port = _start(tmp_path, "--production", "--workers", "2", **secret)
    try:
        _fetch(f"http://127.0.0.1:{port}/rules/")
        files = list((tmp_path / "var" / "cache").glob("*.djcache"))
        assert files, "the rules page should be cached under var/cache"
    finally:
        _stop(proc)


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: run under scripts/with-redis.sh "
                                                             "(scripts/test.sh does, in its second pass)")
def test_with_redis_url_the_workers_share_redis(tmp_path):
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    before = set(client.keys("*"))
    secret = dict(QIYUAN_SECRET_KEY=secrets.token_urlsafe(50), QIYUAN_INSECURE_LOOPBACK="1",
                  REDIS_URL=os.environ["REDIS_URL"])
    proc, port = _start(tmp_path, "--production", "--workers", "2", **secret)
    try:
        _fetch(f"http://127.0.0.1:{port}/rules/")
        new = set(client.keys("*")) - before
        assert any(b"rules" in k or b"views.decorators.cache" in k for k in new), new
        assert not (tmp_path / "var" / "cache").exists() or not list((tmp_path / "var" / "cache").iterdir())
    finally:
        _stop(proc)


def test_serve_refuses_a_public_address_a_missing_secret_and_mixed_options(tmp_path):
    env = _env(tmp_path)
    env.pop("QIYUAN_SECRET_KEY", None)
    run = lambda *a: subprocess.run([sys.executable, "-c", "from qiyuan.cli import app; app()", "serve", *a],  # noqa: E731
                                    env=env, capture_output=True, text=True, timeout=60)
    r = run("--host", "0.0.0.0")
    assert r.returncode == 2 and "loopback" in r.stderr
    r = run("--production")
    assert r.returncode == 2 and "QIYUAN_SECRET_KEY" in r.stderr
    r = run("--workers", "3")
    assert r.returncode == 2 and "--production" in r.stderr
