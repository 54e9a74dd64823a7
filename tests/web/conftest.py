"""Shared fixtures of the web tests: staff users with their roles, and a
Playwright-driven Debian Chromium for the browser tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# must be allowed there (tests only).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    def make(username: str, *roles: str, superuser: bool = False):
        User = get_user_model()
        if superuser:
            user = User.objects.create_superuser(username, password=PASSWORD)
        else:
            user = User.objects.create_user(username, password=PASSWORD)
        for role in roles:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    return make


@pytest.fixture
def staff(make_user):
    """One user per role, plus a second arbiter (of other events)."""
    return {
        "admin": make_user("admin", "admin"),
        "officer": make_user("officer", "officer"),
        "arbiter": make_user("arbiter", "arbiter"),
        "arbiter2": make_user("arbiter2", "arbiter"),
        "nobody": make_user("nobody"),
    }


@pytest.fixture
def login(client):
    def as_user(user):
        client.force_login(user)
        return client

    return as_user


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (bash scripts/system-deps.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(15000)
    pg.base = live_server.url
    yield pg
    context.close()


@pytest.fixture
def shot():
    """Save a full-page screenshot under test-artifacts/ and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(pg, name: str) -> Path:
        path = ARTIFACTS / f"web-{name}.png"
        pg.screenshot(path=str(path), full_page=True)
        return path

    return take
