"""Issue 32, item 5: a weak secret key is refused in every mode that signs with it — production, ``serve --hall``
(the phones' links), the slips printed with hall links — each weak key of the issue a named test; a key made for
the office signs the hall's links only when none is set."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
from django.core.management.utils import get_random_secret_key

from qiyuan.office.secret_key import secret_key_refusal

from .conftest import REPO


def _twelve() -> str:
    return secrets.token_urlsafe(12)[:12]


def _refused(key: str) -> str:
    refusal = secret_key_refusal(key)
    assert refusal is not None, key
    return refusal.text()


def test_abcde_ten_times_is_refused():
    assert "repeats itself" in _refused("abcde" * 10)


def test_0123456789_five_times_is_refused():
    assert "repeats itself or runs in sequence" in _refused("0123456789" * 5)


def test_qiyuan_eight_times_and_twelve_characters_is_refused():
    assert "repeats itself" in _refused("qiyuan" * 8 + _twelve())


def test_password_six_times_and_twelve_characters_is_refused():
    assert "repeats itself" in _refused("password" * 6 + _twelve())


def test_a_sequence_without_repetition_is_refused():
    assert "runs in sequence" in _refused("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@pytest.mark.parametrize("make", [lambda: secrets.token_urlsafe(50), lambda: secrets.token_hex(32),
                                  get_random_secret_key, lambda: secrets.token_hex(25)],
                         ids=["token_urlsafe(50)", "token_hex(32)", "django", "token_hex(25)"])
def test_random_keys_as_the_docs_make_them_are_accepted(make):
    for _ in range(200):
        key = make()
        assert secret_key_refusal(key) is None, key


def _env(tmp_path, **extra) -> dict:
    env = dict(os.environ, QIYUAN_HOME=str(tmp_path), PYTHONPATH=str(REPO / "src"), **extra)
    for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "QIYUAN_SECRET_KEY"):
        env.pop(k, None)
    env.update(extra)
    return env


def _serve(tmp_path, *args, **extra):
    event = tmp_path / "e.trf"
    event.write_text("012 x\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-c", "from qiyuan.cli import app; app()", "serve", *args],
                          env=_env(tmp_path, **extra), capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("key", ["abcde" * 10, "x"], ids=["abcde×10", "x"])
def test_serve_hall_refuses_a_weak_key_as_production_does(tmp_path, key):
    hall = _serve(tmp_path, "--hall", str(tmp_path / "e.trf"), "--no-migrate", QIYUAN_SECRET_KEY=key)
    production = _serve(tmp_path, "--production", "--no-migrate", QIYUAN_SECRET_KEY=key)
    assert hall.returncode == 2 and production.returncode == 2, hall.stderr
    assert "QIYUAN_SECRET_KEY" in hall.stderr and "Traceback" not in hall.stderr


@pytest.mark.django_db
def test_hall_links_are_never_signed_with_a_weak_key(monkeypatch, settings, tmp_path):
    from qiyuan.office.hall.tokens import WeakKey, player_token, read_player_token

    settings.VAR_DIR = tmp_path
    monkeypatch.setenv("QIYUAN_SECRET_KEY", "x")
    with pytest.raises(WeakKey, match="no secret"):
        player_token("E1", 5)
    monkeypatch.delenv("QIYUAN_SECRET_KEY")  # none set: a key made for the office, kept in its var folder
    token = player_token("E1", 5)
    assert (tmp_path / "hall.key").exists() and read_player_token(token).number == 5
    strong = secrets.token_urlsafe(50)
    monkeypatch.setenv("QIYUAN_SECRET_KEY", strong)  # a strong key set: still the office's hall key signs
    assert player_token("E1", 5) == token