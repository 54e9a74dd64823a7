"""Shared fixtures of the web tests: staff users with their roles, and a
Playwright-driven Debian Chromium for the browser tests."""

from __future__ import annotations

import os
from decimal import Decimal
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


def pytest_configure(config):
    # WhiteNoise warns that STATIC_ROOT does not exist: the tests serve static files from the finders.
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Tests create many users: a fast hasher (production keeps Django's PBKDF2)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def _cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def _fresh_cache(settings, _cache_dir):
    """Each test starts with an empty cache of the production kind (files, shared by processes) in a temporary
    directory (rolled-back data must not be served; the developer's var/cache is left alone)."""
    from django.core.cache import cache

    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": str(_cache_dir)}} \
        if "Redis" not in settings.CACHES["default"]["BACKEND"] else settings.CACHES
    cache.clear()


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
        "admin": make_user("admin", "admin", superuser=True),
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


@pytest.fixture
def published(db, make_player, resident_id):
    """A small published office, written as the office writes it: a Gomoku list
    with two list dates (the second corrected once), one rated Swiss event with
    its games, rating changes with per-game explanations, and a pending event."""
    from datetime import date
    from decimal import Decimal

    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.ratings.models import Edition, RatingList

    people = [
        ("张三", "M", "BJ", date(1990, 3, 1), "3d"),
        ("李四", "M", "SH", date(2012, 5, 2), "1d"),
        ("王芳", "F", "BJ", date(2010, 7, 3), "2k"),
        ("吕小军", "M", "SH", date(1985, 1, 4), ""),
    ]
    players = [
        make_player(name, gender, assoc, birth_date=born, id_number=resident_id(born, gender), dan=dan)
        for name, gender, assoc, born, dan in people
    ]
    rl = RatingList.objects.create(code="gomoku", title="五子棋等级分", rules_name="cga-gomoku-2011")
    ev = Event.objects.create(code="2025-bj-open", name="2025年北京五子棋公开赛", format="swiss", rounds=3,
                              start_date=date(2025, 9, 1), end_date=date(2025, 9, 2), city="北京",
                              time_control="60 min", rating_list=rl, status="rated",
                              eligibility={"family": "cga-gomoku-2011", "failures": [],
                                           "notes": ["1 unplayed game(s) (forfeits, byes) are never rated"]})
    pending = Event.objects.create(code="2026-sh-cup", name="2026年上海杯", format="round_robin", rounds=3,
                                   start_date=date(2026, 3, 1), end_date=date(2026, 3, 2), rating_list=rl,
                                   eligibility={"family": "cga-gomoku-2011",
                                                "failures": [{"clause": "CGA Art. 5(一)", "message": "1 arbiter"}]})
    a, b, c, d = players
    for i, (p, rank, score) in enumerate([(a, 1, 5), (b, 2, 4), (c, 3, 2), (d, 4, 1)], 1):
        Entry.objects.create(event=ev, player=p, number=i, name=p.name, association=p.association.name,
                             rating=2100 - 50 * i, rank=rank, score=Decimal(score))
    games = [(1, a, b, "1-0"), (1, c, d, "0.5-0.5"), (2, a, c, "1-0"), (2, b, d, "1-0"), (3, a, d, "0.5-0.5"),
             (3, b, c, "+-")]
    for rnd, p1, p2, result in games:
        Game.objects.create(event=ev, round=rnd, player1=p1, player2=p2, result=result)
    ed1 = Edition.objects.create(rating_list=rl, list_date=date(2025, 7, 1), number=1, published_by="officer",
                                 digest="0" * 64)
    write_edition(ed1, [dict(player=p, position=pos, rank=rank, rating=rating, exact=f"{rating}.00", games=40,
                             status="active", k=15)
                        for pos, (p, rating, rank) in enumerate([(a, 2050, 1), (b, 2000, 2), (c, 1950, 3),
                                                                 (d, 1900, 4)], 1)])
    ed2 = Edition.objects.create(rating_list=rl, list_date=date(2026, 1, 1), number=1, published_by="officer",
                                 digest="1" * 64, previous=ed1)
    ed2b = Edition.objects.create(rating_list=rl, list_date=date(2026, 1, 1), number=2, published_by="officer",
                                  digest="2" * 64, previous=ed1, is_correction=True, reason="结果录入错误")
    final = [(b, 2019, 1), (a, 2012, 2), (c, 1948, 3), (d, 1880, 4)]
    for ed in (ed2, ed2b):
        entries = [dict(player=p, position=pos, rank=rank, rating=rating + (0 if ed is ed2b else 1),
                        exact=f"{rating}.40", games=43, status="inactive" if p is d else "active", k=15)
                   for pos, (p, rating, rank) in enumerate(final, 1)]
        changes = []
        for evx, p, before, after, w, lines in [
            (ev, a, "2050", "2012.4", "2.5",
             [[1, b.federation_id, "2000", 50, "0.57", "1", 15, "6.45"],
              [2, c.federation_id, "1950", 100, "0.64", "1", 15, "5.40"]]),
        ]:
            changes.append(dict(player=p, event=evx, before=Decimal(before), after=Decimal(after), games=2,
                                W=Decimal(w), We=Decimal("1.21"), K=15, delta=Decimal("11.85"), method="per_game",
                                explanation={"method": "per_game", "notes": [], "lines": lines, "games": 2, "W": w,
                                             "We": "1.21", "K": 15, "delta": "11.85", "raw_delta": "11.85",
                                             "Ro": before, "Rc": None, "N": None, "Pd": None, "ru": None}))
        write_edition(ed, entries, changes)
    return {"players": players, "list": rl, "event": ev, "pending": pending, "editions": (ed1, ed2, ed2b)}


def write_edition(ed, entries: list[dict], changes: list[dict] = ()) -> None:
    """Store an edition written here entry by entry as publication stores it — its sheet — and give it the digest
    of its text (the edition's own, as published). An entry names its ``player`` (a ``Player``), ``position``,
    ``rank``, ``rating``, ``exact``, ``games``, ``status``, ``k`` and optionally ``name``, ``is_new``, ``state``; a
    change its ``player``, ``event`` (an ``Event``), ``before``, ``after``, ``games``, ``W``, ``We``, ``K``,
    ``delta`` (decimals), ``method`` and ``explanation`` (a dict)."""
    from qiyuan.formats import edition_sheet as S
    from qiyuan.formats.canonical_text import as_json

    def four(v):
        return None if v is None else str(Decimal(v).quantize(Decimal("0.0001")))

    ent = {n: [] for n in S.ENTRY_SCHEMA}
    for e in entries:
        row = {**e, "player": e["player"].pk, "federation_id": e["player"].federation_id, "name": e.get("name", ""),
               "is_new": e.get("is_new", False), "state": as_json(e.get("state", {}))}
        for n in S.ENTRY_SCHEMA:
            ent[n].append(row[n])
    ch = {n: [] for n in S.CHANGE_SCHEMA}
    for c in changes:
        row = {**c, "player": c["player"].pk, "event": c["event"].pk, "event_code": c["event"].code,
               "federation_id": c["player"].federation_id, "explanation": as_json(c["explanation"]),
               **{k: four(c[k]) for k in ("before", "after", "W", "We", "delta")}}
        for n in S.CHANGE_SCHEMA:
            ch[n].append(row[n])
    store_columns(ed, ent, ch)


def resheet(ed, part: str, edit) -> None:
    """Change an edition's sheet after it was stored — ``edit`` changes the decoded columns of ``part`` in place — and
    store it again with the digest of its text (a test's shortcut around immutability, behind the model's back)."""
    from django.db import connection

    from qiyuan.office import sheets

    from tests.support.sheets import columns

    cols = {p: columns(ed, p) for p in ("entries", "changes")}
    edit(cols[part])
    with connection.cursor() as cur:
        cur.execute("DELETE FROM ratings_editionsheet WHERE edition_id = %s", [ed.pk])
    sheets.forget()
    store_columns(ed, cols["entries"], cols["changes"])


def store_columns(ed, ent: dict[str, list], ch: dict[str, list]) -> None:
    import hashlib

    from qiyuan.formats.edition_sheet import text_from_columns
    from qiyuan.office import sheets
    from qiyuan.office.ratings.models import Edition

    sheets.write_sheet(ed, ent, ch)
    ed.digest = hashlib.sha256(text_from_columns(ed.canonical_version, ent, ch, list(
        ed.events.values_list("code", flat=True)))).hexdigest()
    Edition.objects.filter(pk=ed.pk).update(digest=ed.digest)
