"""The rule sandbox's files: the evaluation table and the comparison as CSV, the calibration chart as PNG.

Each file is written beside its target under a temporary name and renamed
into place when complete, so a failure leaves nothing half written. The
chart needs matplotlib (``pip install 'qiyuan[plot]'``); ``plot_available``
says whether it is there.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import math
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from qiyuan.sandbox.compare import Comparison
from qiyuan.sandbox.metrics import CalibrationBin, Score

SCORE_COLUMNS = ("system", "log_loss", "brier", "games", "coverage", "se_vs_best")
COMPARISON_COLUMNS = ("list_date", "published_a", "published_b", "both", "only_a", "only_b", "mean_diff",
                      "mean_abs_diff", "largest_diff", "largest_player")


def _write_atomically(path: Path, write: Callable[[io.BufferedWriter], None]) -> None:
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.resolve().parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _csv_bytes(header: Sequence[str], rows: Sequence[Sequence[object]]) -> bytes:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue().encode("utf-8")


def _number(x: float | None, digits: int = 6) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def write_scores_csv(path: Path, scores: Sequence[Score]) -> None:
    rows = [(s.system, _number(s.log_loss), _number(s.brier), s.games, _number(s.coverage), _number(s.se_vs_best))
            for s in scores]
    data = _csv_bytes(SCORE_COLUMNS, rows)
    _write_atomically(path, lambda f: f.write(data))


def write_comparison_csv(path: Path, comparison: Comparison) -> None:
    rows = [(r.date.isoformat(), r.published_a, r.published_b, r.both, r.only_a, r.only_b, _number(r.mean_diff, 2),
             _number(r.mean_abs_diff, 2), "" if r.largest_diff is None else r.largest_diff, r.largest_player or "")
            for r in comparison.dates]
    data = _csv_bytes(COMPARISON_COLUMNS, rows)
    _write_atomically(path, lambda f: f.write(data))


def plot_available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def write_calibration_png(path: Path, calibration: Mapping[str, Sequence[CalibrationBin]], title: str = "") -> None:
    """One panel per system: mean score against mean prediction in each bin (dot size = games) over
    the games it had ratings for; the diagonal is perfect calibration."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    systems = list(calibration)
    cols = min(3, len(systems))
    rows = math.ceil(len(systems) / cols)
    fig = Figure(figsize=(4.0 * cols, 3.8 * rows), dpi=100)
    for n, system in enumerate(systems, start=1):
        ax = fig.add_subplot(rows, cols, n)
        bins = [b for b in calibration[system] if b.count]
        total = sum(b.count for b in bins)
        ax.plot([0, 1], [0, 1], color="0.6", linewidth=1, linestyle="--")
        ax.plot([b.predicted for b in bins], [b.observed for b in bins], color="tab:blue", linewidth=1)
        ax.scatter([b.predicted for b in bins], [b.observed for b in bins],
                   s=[10 + 400 * b.count / max(total, 1) for b in bins], color="tab:blue", zorder=3)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.set_title(f"{system} ({total // 2:,} games)", fontsize=10)
        ax.set_xlabel("predicted score", fontsize=8)
        ax.set_ylabel("observed score", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, color="0.9")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    data = buffer.getvalue()
    _write_atomically(path, lambda f: f.write(data))
