"""Verification kit benchmark: how long anyone's check of a published list takes, beside `qiyuan rate`.

    python bench/bench_kit.py [--bundles var/bundles] [--list CGA]

Needs the bundles of an office (``make demo`` builds the demo federation's in ``var/bundles/``). Times, as
separate processes (wall clock, interpreter start included on both sides):

* ``qiyuan verify-edition`` of the list's latest edition (signature, digests, recomputation, canonical text),
  beside ``qiyuan rate`` on that edition's own inputs (its players, events, games, standings, rules);
* ``qiyuan verify-edition --chain`` of every edition of the list (against its signed head, with the demo's
  witnesses required and ``--max-age 30``), beside ``qiyuan rate`` of the whole history the chain holds (every
  edition's events, games and standings, the last edition's players).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QIYUAN = str(Path(sys.executable).parent / "qiyuan")


def wall(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    t0 = time.perf_counter()
    run = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})})
    elapsed = time.perf_counter() - t0
    if run.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({run.returncode}):\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    return elapsed


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def rate_args(d: Path) -> list[str]:
    return [QIYUAN, "rate", "--rules", str(d / "rules.toml"), "--players", str(d / "players.csv"), "--events",
            str(d / "events.csv"), "--games", str(d / "games.csv"), "--standings", str(d / "standings.csv"),
            "--out", str(d / "out")]


def merged_history(bundles: list[Path], d: Path) -> None:
    """Every edition's events, games and standings in one history; the last edition's players and rules."""
    tables: dict[str, list[list[str]]] = {}
    for path in bundles:
        files = members(path)
        for name in ("events", "games", "standings"):
            rows = list(csv.reader(io.StringIO(files[f"inputs/{name}.csv"].decode("utf-8"))))
            tables.setdefault(name, [rows[0]])
            tables[name] += rows[1:]
    last = members(bundles[-1])
    (d / "players.csv").write_bytes(last["inputs/players.csv"])
    (d / "rules.toml").write_bytes(last["inputs/rules.toml"])
    for name, rows in tables.items():
        with open(d / f"{name}.csv", "w", encoding="utf-8", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundles", type=Path, default=REPO / "var" / "bundles")
    parser.add_argument("--list", default="CGA")
    args = parser.parse_args()
    args.bundles = args.bundles.resolve()  # (the commands run in a temporary folder)
    bundles = sorted(args.bundles.glob(f"{args.list}-*.zip"))
    if not bundles:
        sys.exit(f"no bundles of {args.list} in {args.bundles}: run `make demo` (or qiyuan office bundles build)")
    key = args.bundles.parent / "keys" / "edition-signing.pub.pem"
    key_args = ["--key", str(key)] if key.exists() else []
    with tempfile.TemporaryDirectory(prefix="bench-kit-") as tmp:
        root = Path(tmp)
        latest = bundles[-1]
        one = root / "one"
        one.mkdir()
        for name, data in members(latest).items():
            if name.startswith("inputs/"):
                (one / name.removeprefix("inputs/")).write_bytes(data)
        rate_one = wall(rate_args(one), root)
        verify_one = wall([QIYUAN, "verify-edition", str(latest), *key_args], root)
        whole = root / "whole"
        whole.mkdir()
        current = {}  # the current edition of each list date (a correction replaces the publication)
        for path in bundles:
            current[path.stem.rsplit("-", 1)[0]] = path
        merged_history(sorted(current.values()), whole)
        rate_all = wall(rate_args(whole), root)
        chain_dir = root / "chain"
        chain_dir.mkdir()
        for path in bundles:
            (chain_dir / path.name).write_bytes(path.read_bytes())
        heads = args.bundles / "heads"  # the signed head (required by --chain DIR) and the witnesses' countersignatures
        for suffix in ("json", "sig"):
            (chain_dir / f"head.{suffix}").write_bytes((heads / f"{args.list}.{suffix}").read_bytes())
        witness_args = []
        countersigned = args.bundles / "witnesses" / args.list
        if countersigned.is_dir():
            (chain_dir / "witnesses").mkdir()
            for path in countersigned.glob("*.json"):
                (chain_dir / "witnesses" / path.name).write_bytes(path.read_bytes())
            for pem in sorted((args.bundles / "witnesses" / "keys").glob("*.pub.pem")):
                witness_args += ["--witness", str(pem)]
        verify_all = wall([QIYUAN, "verify-edition", "--chain", str(chain_dir), *key_args, *witness_args,
                           "--max-age", "30"], root, {"XDG_DATA_HOME": str(root / "data")})
    print(f"verify-edition {latest.name}: {verify_one:.2f} s; qiyuan rate on its inputs: {rate_one:.2f} s "
          f"({verify_one / rate_one:.1f}×)")
    print(f"verify-edition --chain ({len(bundles)} editions of {args.list}): {verify_all:.2f} s; qiyuan rate on the "
          f"whole history: {rate_all:.2f} s ({verify_all / rate_all:.1f}×)")


if __name__ == "__main__":
    main()
