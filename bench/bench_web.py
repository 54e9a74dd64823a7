"""Web load test: the portal's list and player pages on the 2,000,000-game synthetic federation.

    python bench/bench_web.py [--home DIR] [--federation DIR] [--threads 8] [--seconds 20]

1. Builds the office once (unless ``--home`` already holds one): the synthetic
   federation of ``bench/synth_federation.py`` imported into a CGA Gomoku list,
   every due edition published (the office benchmark's path, SQLite).
2. Starts ``qiyuan serve --production`` on 127.0.0.1 (production settings,
   ``QIYUAN_INSECURE_LOOPBACK=1`` relaxes only the TLS settings for plain HTTP).
3. Warms the list pages, then runs a bounded load generator (threads, loopback
   only, a fixed duration per scenario) and prints requests/s and latency
   percentiles for cached list pages and for player pages.
4. Stops the server it started.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
QIYUAN = REPO / ".venv" / "bin" / "qiyuan"


def build_office(home: Path, federation: Path) -> None:
    """Import the synthetic federation and publish every edition into ``home`` (skipped if done)."""
    db = home / "var" / "qiyuan.sqlite3"
    if db.exists():
        print(f"office: reusing {db}")
        return
    if not (federation / "games.csv").exists():
        print(f"generating the synthetic federation into {federation} …")
        subprocess.run([sys.executable, str(HERE / "synth_federation.py"), "--out", str(federation)], check=True,
                       stdout=subprocess.DEVNULL)
    (home / "var").mkdir(parents=True, exist_ok=True)
    code = f"""
import time, django
django.setup()
from qiyuan.office.setup import init_office
from qiyuan.office.ratings.models import RatingList
from qiyuan.office.imports import import_file
from qiyuan.office.periods import publish_due
init_office(actor="bench")
rl = RatingList.objects.create(code="gomoku", title="五子棋等级分（合成）", rules_name="cga-gomoku-2011")
t = time.perf_counter()
r = import_file({str(federation)!r}, rl, "bench", kind="history")
eds = publish_due(rl, "bench")
print(f"office: imported {{r.games:,}} games and published {{len(eds)}} editions in {{time.perf_counter() - t:.0f}} s")
"""
    env = dict(os.environ, QIYUAN_HOME=str(home), DJANGO_SETTINGS_MODULE="qiyuan.web.settings")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=REPO)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, port: int, threads: int) -> subprocess.Popen:
    env = dict(os.environ, QIYUAN_HOME=str(home), QIYUAN_SECRET_KEY=secrets.token_urlsafe(50),
               QIYUAN_INSECURE_LOOPBACK="1")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    proc = subprocess.Popen([str(QIYUAN), "serve", "--production", "--port", str(port), "--threads", str(threads)],
                            env=env, cwd=home, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {proc.stdout.read()}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=5).read()
            return proc
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.5)
    stop_server(proc)
    raise SystemExit("the server did not answer within 120 s")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def sample_urls(home: Path, n_players: int, seed: int) -> tuple[list[str], list[str]]:
    """List-page URLs (pages and filters of the latest edition) and a seeded sample of player pages."""
    code = f"""
import json, random, django
django.setup()
from qiyuan.office.ratings.models import Edition, EditionEntry
ed = Edition.objects.order_by("-list_date", "-number").first()
base = f"/lists/{{ed.rating_list.code}}/{{ed.list_date.isoformat()}}/"
lists = [base] + [base + f"?page={{p}}" for p in range(2, 21)] + [base + q for q in (
    "?gender=F", "?age=U16", "?age=U18", "?status=inactive", "?dan=dan", "?gender=F&page=2", "?age=U20&gender=F")]
ids = list(EditionEntry.objects.filter(edition=ed).values_list("player__federation_id", flat=True))
random.Random({seed}).shuffle(ids)
print(json.dumps([lists, ["/players/" + i + "/" for i in ids[:{n_players}]]]))
"""
    env = dict(os.environ, QIYUAN_HOME=str(home), DJANGO_SETTINGS_MODULE="qiyuan.web.settings")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True, cwd=REPO)
    import json

    lists, players = json.loads(out.stdout.strip().splitlines()[-1])
    return lists, players


def fetch(url: str) -> tuple[float, int]:
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return time.perf_counter() - t, status


def load(base: str, paths: list[str], threads: int, seconds: float, seed: int) -> dict:
    """``threads`` clients request ``paths`` at random for ``seconds``; every latency is kept."""
    latencies: list[float] = []
    errors: list[int] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(k: int) -> None:
        rng = random.Random(seed * 1000 + k)
        mine, bad = [], []
        while time.monotonic() < stop:
            dt, status = fetch(base + rng.choice(paths))
            mine.append(dt)
            if status != 200:
                bad.append(status)
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    t0 = time.perf_counter()
    workers = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(seconds + 60)
    elapsed = time.perf_counter() - t0
    latencies.sort()

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")

    return {"requests": len(latencies), "rps": len(latencies) / elapsed, "p50": pct(0.50), "p90": pct(0.90),
            "p99": pct(0.99), "max": latencies[-1] * 1000 if latencies else float("nan"), "errors": len(errors)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, default=HERE / "out" / "web-office", help="QIYUAN_HOME of the office")
    ap.add_argument("--federation", type=Path, default=HERE / "out" / "federation")
    ap.add_argument("--threads", type=int, default=8, help="load-generator threads")
    ap.add_argument("--server-threads", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=20.0, help="duration of each scenario")
    ap.add_argument("--players", type=int, default=500, help="distinct player pages requested")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    home = args.home.resolve()
    build_office(home, args.federation.resolve())
    lists, players = sample_urls(home, args.players, args.seed)
    port = free_port()
    server = start_server(home, port, args.server_threads)
    base = f"http://127.0.0.1:{port}"
    try:
        bad = [(p, s) for p in lists for _dt, s in [fetch(base + p)] if s != 200]  # warm the list cache
        if bad:
            raise SystemExit(f"list pages failed: {bad[:5]}")
        results = {
            "cached list pages": load(base, lists, args.threads, args.seconds, args.seed),
            "player pages": load(base, players, args.threads, args.seconds, args.seed),
        }
    finally:
        stop_server(server)
    print(f"server: qiyuan serve --production ({args.server_threads} threads), SQLite, loopback; "
          f"client: {args.threads} threads, {args.seconds:.0f} s per scenario, {os.cpu_count()} CPU(s), "
          f"load average at the end {os.getloadavg()[0]:.1f} (other work on the machine competes)")
    print(f"{'scenario':<20} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'errors':>6}")
    for name, r in results.items():
        print(f"{name:<20} {r['requests']:>9} {r['rps']:>8.1f} {r['p50']:>8.1f} {r['p90']:>8.1f} {r['p99']:>8.1f} "
              f"{r['max']:>8.1f} {r['errors']:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
