"""`qiyuan serve --production` on loopback: production settings, static files, security headers."""

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

from .conftest import REPO


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_production_on_loopback(tmp_path):
    port = _free_port()
    env = dict(os.environ, QIYUAN_HOME=str(tmp_path), QIYUAN_SECRET_KEY=secrets.token_urlsafe(50),
               QIYUAN_INSECURE_LOOPBACK="1", PYTHONPATH=str(REPO / "src"))
    for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(k, None)
    proc = subprocess.Popen([sys.executable, "-c", "from qiyuan.cli import app; app()", "serve", "--production",
                             "--port", str(port), "--threads", "2"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        body = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=5) as r:
                    body, headers = r.read().decode(), r.headers
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.3)
        assert body is not None, proc.stdout.read() if proc.poll() is not None else "no answer"
        assert "附表1" in body and headers["X-Frame-Options"] == "DENY"
        css = next(part.split('"')[0] for part in body.split('href="')[1:] if part.startswith("/static/qiyuan/site."))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{css}", timeout=5) as r:
            assert r.status == 200 and b"--accent" in r.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/desk/", timeout=5) as r:  # redirects followed
            assert r.url.startswith(f"http://127.0.0.1:{port}/desk/login/") and "csrftoken" in r.headers["Set-Cookie"]
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=20)


def test_serve_refuses_a_public_address_and_a_missing_secret(tmp_path):
    env = dict(os.environ, QIYUAN_HOME=str(tmp_path), PYTHONPATH=str(REPO / "src"))
    env.pop("QIYUAN_SECRET_KEY", None)
    run = lambda *a: subprocess.run([sys.executable, "-c", "from qiyuan.cli import app; app()", "serve", *a],  # noqa: E731
                                    env=env, capture_output=True, text=True, timeout=60)
    r = run("--host", "0.0.0.0")
    assert r.returncode == 2 and "loopback" in r.stderr
    r = run("--production")
    assert r.returncode == 2 and "QIYUAN_SECRET_KEY" in r.stderr
