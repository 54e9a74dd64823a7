"""Event pages before and after caching (issue 24, item 6), beside a trivial page, in one run.

    python bench/bench_event_pages.py [--home DIR] [--workers 2] [--clients 4] [--seconds 8]

Builds the demo federation (``qiyuan demo``'s office: ~150 events) into ``--home`` unless it holds one, starts
``qiyuan serve --production`` (bench_web's server and load generator) and measures, each for the same time:

* baseline: ``/api/v1/`` (the server's floor);
* event pages, uncached: 30 event pages, each request with a query string the cache does not keep (the page is
  built as it was before caching: the crosstable, the rounds, the standings, the rating changes);
* event pages, cached: the same 30 pages as a visitor asks for them (warmed once).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_web import free_port, load, start_server, stop_server  # noqa: E402

REPO = HERE.parent


def build(home: Path) -> list[str]:
    code = """
import json, django
django.setup()
from qiyuan.office.events.models import Event
if not Event.objects.exists():
    from qiyuan.office.demo import build_demo
    build_demo(seed=7)
print(json.dumps(list(Event.objects.order_by("code").values_list("code", flat=True)[:30])))
"""
    (home / "var").mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, QIYUAN_HOME=str(home), DJANGO_SETTINGS_MODULE="qiyuan.web.settings")
    migrate = "import django; django.setup(); from django.core.management import call_command; " \
              "call_command('migrate', interactive=False, verbosity=0)"
    subprocess.run([sys.executable, "-c", migrate], env=env, check=True, cwd=REPO)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True, cwd=REPO)
    return [f"/events/{c}/" for c in json.loads(out.stdout.strip().splitlines()[-1])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, default=Path(tempfile.gettempdir()) / "qiyuan-bench-events")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=8.0)
    args = ap.parse_args(argv)
    pages = build(args.home)
    port = free_port()
    server = start_server(args.home, port, args.workers)
    base = f"http://127.0.0.1:{port}"
    try:
        for path in pages:  # warm the cache (and the workers)
            urllib.request.urlopen(base + path, timeout=60).read()
        uncached = [f"{p}?bench={i}" for i in range(40) for p in pages]
        runs = [("baseline /api/v1/", ["/api/v1/"], False), ("event pages, uncached", uncached, False),
                ("event pages, cached", pages, False)]
        print(f"{len(pages)} event pages, {args.clients} clients, {args.workers} workers, {args.seconds:.0f} s each")
        print(f"{'scenario':<24} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'errors':>7}")
        for name, paths, unique in runs:
            r = load(base, paths, args.clients, args.seconds, seed=11, unique=unique)
            print(f"{name:<24} {r['requests']:>9} {r['rps']:>8.1f} {r['p50']:>8.1f} {r['p90']:>8.1f} "
                  f"{r['p99']:>8.1f} {r['errors']:>7}")
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
