"""Entering a 64-player field (issue 22): one `qiyuan event add-players EV FILE` command, beside the
baseline of 64 `qiyuan event add-player` commands, each a fresh process as the arbiter runs them.

Run: .venv/bin/python bench/bench_entries.py  (prints seconds; the issue asks under 2 s for the one command)
"""

from __future__ import annotations

import csv
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QIYUAN = [str(Path(sys.executable).with_name("qiyuan"))]
N = 64


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        rows = [(f"选手{i + 1}", "男" if i % 2 else "女", f"{i % 5 + 1}段", ["北京", "上海", "天津"][i % 3], 1500 + 7 * i)
                for i in range(N)]
        with open(d / "entries.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["姓名", "性别", "段级位", "所属棋协", "等级分"])
            w.writerows(rows)
        subprocess.run(QIYUAN + ["event", "new", str(d / "bulk.trf"), "--name", "x", "--rounds", "9"], check=True,
                       capture_output=True)
        started, cpu0 = time.perf_counter(), _cpu()
        subprocess.run(QIYUAN + ["event", "add-players", str(d / "bulk.trf"), str(d / "entries.csv")], check=True,
                       capture_output=True)
        bulk, bulk_cpu = time.perf_counter() - started, _cpu() - cpu0
        subprocess.run(QIYUAN + ["event", "new", str(d / "one.trf"), "--name", "x", "--rounds", "9"], check=True,
                       capture_output=True)
        started, cpu0 = time.perf_counter(), _cpu()
        for name, sex, title, assoc, rating in rows:
            subprocess.run(QIYUAN + ["event", "add-player", str(d / "one.trf"), name, "--sex", sex, "--title", title,
                                     "--association", assoc, "--rating", str(rating)], check=True, capture_output=True)
        single, single_cpu = time.perf_counter() - started, _cpu() - cpu0
    print(f"{N} players: add-players (one command) {bulk:.2f} s wall, {bulk_cpu:.2f} s CPU; baseline {N} add-player "
          f"commands {single:.1f} s wall, {single_cpu:.1f} s CPU")


def _cpu() -> float:
    """CPU seconds (user + system) of the finished child processes: the figure a loaded machine keeps."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


if __name__ == "__main__":
    main()
