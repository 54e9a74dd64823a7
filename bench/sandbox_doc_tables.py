"""Regenerate the rule sandbox's tables in docs/rating.md from the commands that make them (issue 36).

Each table sits between ``<!-- generated: NAME -->`` and ``<!-- /generated -->``
in docs/rating.md, and this script replaces it by the output of its command
run now on the real Chinese history (bench/real_history.py; ../shared/data):

* ``evaluate``: ``qiyuan rules evaluate --rules cga-gomoku-2011 --rules
  bjsh-gomoku-2007 … --from 2012-01-01`` (its tables, the prior, Black's
  advantage, the tuned baselines);
* ``calibration``: the same run's calibration lines;
* ``audit``: ``qiyuan rules audit`` of CGA and of the 400-point-cap variant;
* ``tune``: ``qiyuan rules tune cga-gomoku-2011 … --from 2012-01-01``;
* ``truth`` (only with ``--truth``, about two minutes): bench/bench_sandbox_truth.py
  on seeds 1–3.

    python bench/sandbox_doc_tables.py [--truth] [--check]

``--check`` changes nothing and exits 1 when a table differs from what the
command prints now.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = HERE.parent / "docs" / "rating.md"
sys.path.insert(0, str(HERE))

from real_history import write_real_history  # noqa: E402

BLOCK = re.compile(r"(<!-- generated: (\w+) -->\n)(.*?)(<!-- /generated -->)", re.S)


def qiyuan(*args: str) -> str:
    env = {**os.environ, "QIYUAN_LANG": "en", "COLUMNS": "160"}
    out = subprocess.run([sys.executable, "-c", "from qiyuan.cli import main; main()", *args], capture_output=True,
                         text=True, env=env, check=True)
    return out.stdout


def _between(text: str, first: str, last: str | None) -> str:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(first))
    end = len(lines) if last is None else next(i for i, line in enumerate(lines) if i > start and
                                               line.strip().startswith(last))
    return "\n".join(line.rstrip() for line in lines[start:end])


def tables(truth: bool) -> dict[str, str]:
    work = Path(tempfile.mkdtemp(prefix="qiyuan-doc-"))
    f = write_real_history(work)
    history = ["--players", str(f["players"]), "--events", str(f["events"]), "--games", str(f["games"])]
    evaluate = qiyuan("rules", "evaluate", "--rules", "cga-gomoku-2011", "--rules", "bjsh-gomoku-2007", *history,
                      "--from", "2012-01-01")
    cap = work / "cga-cap-400.toml"
    cap.write_text('base = "cga-gomoku-2011"\nname = "cga-cap-400"\ncap = 400\n', encoding="utf-8")
    audit = qiyuan("rules", "audit", "cga-gomoku-2011", *history) + qiyuan("rules", "audit", str(cap), *history)
    tune = qiyuan("rules", "tune", "cga-gomoku-2011", *history, "--from", "2012-01-01")
    out = {
        "evaluate": _between(evaluate, "2,807 games", "calibration by the favourite"),
        "calibration": _between(evaluate, "calibration by the favourite", "cga-gomoku-2011: drift"),
        "audit": "\n".join(line.rstrip() for line in audit.splitlines() if not line.startswith(("cap farming:",
                           "sitting out:", "withdrawing after", "champion protection:", "board protection:"))),
        "tune": "\n".join(line.rstrip() for line in tune.splitlines()),
    }
    if truth:
        run = subprocess.run([sys.executable, str(HERE / "bench_sandbox_truth.py"), "--out", str(work / "truth")],
                             capture_output=True, text=True, check=True)
        out["truth"] = "\n".join(re.sub(r"; evaluate \d+ s", "", line.rstrip()) for line in run.stdout.splitlines())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--truth", action="store_true", help="also the synthetic histories (about two minutes)")
    parser.add_argument("--check", action="store_true", help="report differences, change nothing")
    args = parser.parse_args()
    new = tables(args.truth)
    text = DOC.read_text(encoding="utf-8")
    changed = []

    def replace(m: re.Match) -> str:
        name = m.group(2)
        if name not in new:
            return m.group(0)
        body = f"```\n{new[name]}\n```\n"
        if body != m.group(3):
            changed.append(name)
        return m.group(1) + body + m.group(4)

    result = BLOCK.sub(replace, text)
    if args.check:
        print("differs: " + ", ".join(changed) if changed else "docs/rating.md's tables are up to date")
        sys.exit(1 if changed else 0)
    DOC.write_text(result, encoding="utf-8")
    print("regenerated: " + (", ".join(changed) or "nothing changed"))


if __name__ == "__main__":
    main()
