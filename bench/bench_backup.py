"""Benchmark: back up and restore an office of a synthetic federation (SQLite, or PostgreSQL via DATABASE_URL).

Builds an office with --players players (Chinese names, pinyin keys) and
--games games in round-robin-like events of 40 players (entries included),
then times ``backup`` (gzip JSON lines) and ``restore`` into a second, empty
database, and checks the counts.

    python bench/bench_backup.py --players 50000 --games 2000000
    bash scripts/with-postgres.sh python bench/bench_backup.py --games 2000000
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
GIVEN = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超霞平刚桂华玉萍红玲芬燕鹏辉建国志宏文斌宇浩然欣怡子涵梓轩雨泽思远"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=50_000)
    ap.add_argument("--games", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="qiyuan-bench-backup-"))
    os.environ["QIYUAN_HOME"] = str(work)
    (work / "var").mkdir()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "qiyuan.web.settings")
    import django
    from django.conf import settings

    django.setup()
    from django.db import connections, transaction

    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office import backup
    from qiyuan.people import pinyin
    from qiyuan.office.federation.models import Association, Player, format_federation_id
    from qiyuan.office.setup import init_office
    from qiyuan.office.ratings.models import RatingList

    vendor = connections["default"].vendor
    print(f"database: {vendor}; {args.players} players, {args.games} games; work dir {work}")
    init_office(actor="bench")
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    with transaction.atomic():
        assocs = Association.objects.bulk_create(Association(code=f"A{i:02d}", name=f"协会{i}") for i in range(30))
        players = []
        for i in range(args.players):
            name = rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2))))
            players.append(Player(
                federation_id=format_federation_id(i + 1), name=name, name_pinyin=pinyin.name_pinyin(name),
                name_search=pinyin.search_key(name), gender=rng.choice("MF"),
                birth_date=date(1960, 1, 1) + timedelta(days=rng.randrange(18000)),
                association=rng.choice(assocs), registered_on=date(2010, 1, 1),
            ))
        Player.objects.bulk_create(players, batch_size=5000)
        pids = list(Player.objects.values_list("pk", flat=True))
        rl = RatingList.objects.create(code="GOMOKU", title="bench", rules_name="cga-2011")
        made = 0
        n_event = 0
        day = date(2005, 1, 1)
        while made < args.games:
            n_event += 1
            field = rng.sample(pids, 40)
            event = Event.objects.create(code=f"E{n_event:06d}", name=f"赛事{n_event}", format="swiss",
                                         start_date=day, end_date=day, rating_list=rl, rounds=7)
            Entry.objects.bulk_create(Entry(event=event, player_id=p, number=k + 1) for k, p in enumerate(field))
            games = []
            for rnd in range(1, 8):
                rng.shuffle(field)
                for a, b in zip(field[0::2], field[1::2]):
                    games.append(Game(event=event, round=rnd, player1_id=a, player2_id=b,
                                      result=rng.choice(("1-0", "0-1", "1-0", "0-1", "0.5-0.5"))))
            games = games[: args.games - made]
            Game.objects.bulk_create(games, batch_size=5000)
            made += len(games)
            day += timedelta(days=1)
    print(f"built the office in {time.perf_counter() - t0:.1f} s ({n_event} events)")

    path = work / "office.jsonl.gz"
    t0 = time.perf_counter()
    summary = backup.backup(path)
    t_backup = time.perf_counter() - t0
    print(f"backup: {summary.rows} rows in {t_backup:.1f} s, {path.stat().st_size / 1e6:.1f} MB")

    target = dict(settings.DATABASES["default"])
    if vendor == "sqlite":
        target["NAME"] = str(work / "var" / "restored.sqlite3")
    else:
        with connections["default"].cursor() as cursor:
            cursor.execute("CREATE DATABASE qiyuan_restored")
        target["NAME"] = "qiyuan_restored"
    settings.DATABASES["restored"] = target
    connections.settings["restored"] = target
    t0 = time.perf_counter()
    restored = backup.restore(path, using="restored")
    t_restore = time.perf_counter() - t0
    assert restored.counts == summary.counts
    print(f"restore (schema, rows, checks): {restored.rows} rows in {t_restore:.1f} s; counts verified")
    if vendor == "sqlite":
        size = (work / "var" / "qiyuan.sqlite3").stat().st_size
        print(f"SQLite office on disk: {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
