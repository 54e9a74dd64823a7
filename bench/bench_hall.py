"""The hall's phones under load: one round of 50 boards reported and confirmed by 100 phones at once.

    python bench/bench_hall.py [--boards 50] [--workers 3] [--rounds 3]

1. An office of its own (SQLite, in a temporary folder) and an event file of 2 × boards players, round 1 paired.
2. ``qiyuan serve --production --workers N --hall EVENT`` (gunicorn, production settings, plain HTTP on loopback
   with ``QIYUAN_INSECURE_LOOPBACK=1``).
3. Each phone (a thread with its own cookies and its own loopback address 127.0.0.x) opens its player's own
   page (his personal credential's link); then all of them, released together, choose the result:
   for each board one becomes the report, the other the confirmation.  Meanwhile one client asks a trivial
   page (``/api/v1/``) again and again: the baseline of the same run.
4. Prints the latency percentiles of the phones' answers (all, and the confirmations alone) beside the
   trivial page's, the errors, and checks that every board ends confirmed.  Repeated ``--rounds`` times
   (a fresh event each time).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE))

from bench_web import free_port, stop_server  # noqa: E402

QIYUAN = REPO / ".venv" / "bin" / "qiyuan"
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def make_event(path: Path, boards: int) -> None:
    from qiyuan.formats.trf import write_trf
    from qiyuan.tournament import eventfile as ev
    from qiyuan.tournament.model import Entrant

    t = ev.new_event("赛场报分压力测试", fmt="swiss", rounds=7)
    for i in range(2 * boards):
        ev.add_player(t, Entrant(0, f"棋手{i + 1:03d}", rating=2400 - i))
    ev.pair_next(t)
    path.write_text(write_trf(t), encoding="utf-8")


def links(env: dict, event: Path) -> list[tuple[str, str]]:
    """Each board's two players' own links."""
    code = r"""
import json, sys
from qiyuan.cli.office import ensure_django
ensure_django()
from qiyuan.formats.trf import read_trf
from qiyuan.office.hall.cases import file_code, player_link_token
from qiyuan.tournament import hall
path = sys.argv[1]
c = file_code(path)
link = lambda n: f"/hall/e/{c}/{player_link_token(c, n)}/"
print(json.dumps([[link(b.first), link(b.second)] for b in hall.boards_of(read_trf(path), 1)]))
"""
    out = subprocess.run([sys.executable, "-c", code, str(event)], env=env, capture_output=True, text=True, check=True)
    return [tuple(x) for x in json.loads(out.stdout.strip().splitlines()[-1])]


class Phone:
    """One phone: its own address, its own cookies."""

    def __init__(self, port: int, address: str, path: str):
        self.port, self.address, self.path = port, address, path
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def _request(self, method: str, body: str = "") -> tuple[int, float, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60, source_address=(self.address, 0))
        headers = {"Host": f"127.0.0.1:{self.port}", "Connection": "close",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        t = time.perf_counter()
        conn.request(method, self.path, body=body or None, headers=headers)
        r = conn.getresponse()
        text = r.read().decode("utf-8", "replace")
        dt = time.perf_counter() - t
        for raw in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = raw.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        location = r.getheader("Location", "")
        conn.close()
        return r.status, dt, location or text

    def open(self) -> None:
        status, _, text = self._request("GET")
        assert status == 200, (status, text[:300])
        self.csrf = _CSRF.search(text).group(1)

    def choose(self, result: str) -> tuple[int, float, str]:
        body = f"csrfmiddlewaretoken={self.csrf}&result={result.replace('½', '%C2%BD')}"
        return self._request("POST", body)


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] if s else float("nan")


def trivial(port: int, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        t = time.perf_counter()
        conn.request("GET", "/api/v1/", headers={"Connection": "close"})
        r = conn.getresponse()
        r.read()
        out.append(time.perf_counter() - t)
        conn.close()
        time.sleep(0.005)


def one_round(home: Path, port: int, env: dict, boards: int, n: int) -> dict:
    event = home / f"hall{n}.trf"
    make_event(event, boards)
    server = subprocess.Popen([str(QIYUAN), "serve", "--production", "--port", str(port), "--workers",
                               str(env["_WORKERS"]), "--hall", str(event), "--base-url", f"http://127.0.0.1:{port}"],
                              env={k: v for k, v in env.items() if not k.startswith("_")}, cwd=home,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                c.request("GET", "/api/v1/")
                c.getresponse().read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: {server.stdout.read() if server.stdout else ''}")
                time.sleep(0.5)
        phones = []
        for i, (first, second) in enumerate(links({k: v for k, v in env.items() if not k.startswith("_")}, event)):
            phones.append(Phone(port, f"127.0.0.{2 + 2 * i}", first))
            phones.append(Phone(port, f"127.0.0.{3 + 2 * i}", second))
        for p in phones:
            p.open()
        gate = threading.Barrier(len(phones) + 1)
        answers: list[tuple[int, float, str]] = [None] * len(phones)  # type: ignore[list-item]

        def act(k: int) -> None:
            gate.wait()
            answers[k] = phones[k].choose("1-0")

        threads = [threading.Thread(target=act, args=(k,)) for k in range(len(phones))]
        for th in threads:
            th.start()
        base: list[float] = []
        stop = threading.Event()
        tb = threading.Thread(target=trivial, args=(port, stop, base))
        tb.start()
        time.sleep(0.3)
        gate.wait()
        for th in threads:
            th.join()
        stop.set()
        tb.join()
        ok = [a for a in answers if a[0] == 302]
        confirmed = [a[1] for a in ok if "done=confirmed" in a[2]]
        reported = [a[1] for a in ok if "done=reported" in a[2]]
        return {"phones": len(phones), "errors": len(phones) - len(ok), "confirmed": len(confirmed),
                "reported": len(reported), "all": [a[1] for a in ok], "confirm": confirmed, "trivial": base}
    finally:
        stop_server(server)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    if args.boards > 120:
        raise SystemExit("--boards: at most 120 (two loopback addresses a board)")
    with tempfile.TemporaryDirectory(prefix="qiyuan-hall-bench-") as tmp:
        home = Path(tmp)
        env = dict(os.environ, QIYUAN_HOME=str(home), QIYUAN_SECRET_KEY=secrets.token_urlsafe(50),
                   QIYUAN_INSECURE_LOOPBACK="1", _WORKERS=str(args.workers))
        for k in ("DJANGO_SETTINGS_MODULE", "REDIS_URL", "QIYUAN_CACHE_DIR", "DATABASE_URL"):
            env.pop(k, None)
        subprocess.run([str(QIYUAN), "office", "init"], env={k: v for k, v in env.items() if not k.startswith("_")},
                       check=True, capture_output=True)
        port = free_port()
        print(f"hall: {args.boards} boards, {2 * args.boards} phones at once, gunicorn {args.workers} workers, "
              f"SQLite; {args.rounds} rounds")
        print(f"{'round':>5} {'phones':>6} {'errors':>6} {'confirmed':>9} | {'confirm p50':>11} {'p99':>8} | "
              f"{'all p99':>8} | {'trivial p50':>11} {'p99':>8}")
        for n in range(args.rounds):
            shutil.rmtree(home / "var" / "cache", ignore_errors=True)
            r = one_round(home, port, env, args.boards, n)
            ms = lambda v: f"{1000 * v:.0f} ms"  # noqa: E731
            print(f"{n + 1:>5} {r['phones']:>6} {r['errors']:>6} {r['confirmed']:>9} | "
                  f"{ms(percentile(r['confirm'], 50)):>11} {ms(percentile(r['confirm'], 99)):>8} | "
                  f"{ms(percentile(r['all'], 99)):>8} | {ms(percentile(r['trivial'], 50)):>11} "
                  f"{ms(percentile(r['trivial'], 99)):>8}   ({len(r['trivial'])} trivial requests)")
            if r["errors"] or r["confirmed"] != args.boards:
                print("  not every board ended confirmed", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
