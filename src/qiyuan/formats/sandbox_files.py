"""The rule sandbox's files: the evaluation tables and the comparison as CSV, the charts as PNG.

``rules evaluate --csv T.csv`` writes the table to T.csv and beside it
T-both-rated.csv (the same columns, on the games every rating-keeping system
had both ratings for), T-calibration.csv (per system and gap bin) and
T-lists.csv (per rule set: drift, volatility, games to a first rating);
``--predictions P.csv`` one row per test game and system (``PREDICTION_COLUMNS``);
``--plot C.png`` the calibration charts to C.png and the drift and
volatility charts to C-lists.png.

``read_colours`` reads the optional ``black`` column of games.csv (the id of
the player who had Black: player1's or player2's; empty where not known), and
``read_handicaps`` a Go history's optional ``stones`` and ``komi`` columns.

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

import numpy as np

from qiyuan.errors import InputError, problem
from qiyuan.rating.columnar import GameColumns
from qiyuan.sandbox.audit import Audit
from qiyuan.sandbox.compare import Comparison
from qiyuan.sandbox.drift import ListMeasures
from qiyuan.sandbox.impact import Impact
from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.metrics import Calibration, Score
from qiyuan.sandbox.prediction import Prediction

SCORE_COLUMNS = ("system", "log_loss", "se", "brier", "prediction_rate", "games", "coverage", "listed_games",
                 "listed_log_loss", "prior_log_loss", "diff_vs_best", "se_vs_best")
#: ``view``: ``favourite`` (the gap of the player predicted to score more) or ``black`` (player1's signed gap)
CALIBRATION_COLUMNS = ("system", "view", "gap_from", "gap_to", "games", "mean_gap", "expected", "observed", "slope",
                       "slope_se", "slope_z", "slope_p")
#: one row per predicted game and system: player1 is Black in a Renju history; ``probability`` is player1's
#: expected score, ``outcome`` his score; ``basis`` ``listed`` (the system had both ratings) or ``prior``
PREDICTION_COLUMNS = ("event", "round", "player1", "player2", "system", "probability", "outcome", "basis")
LIST_MEASURE_COLUMNS = ("system", "measure", "key", "count", "value", "spread", "listed", "list_mean")
COMPARISON_COLUMNS = ("list_date", "published_a", "published_b", "both", "only_a", "only_b", "mean_diff",
                      "mean_abs_diff", "largest_diff", "largest_player")


def _game_cells(path: Path, games: GameColumns, wanted: Sequence[str]
                ) -> tuple[dict[str, list[str]], list[tuple[int, str, int]]] | None:
    """The optional columns ``wanted`` of games.csv, per game of ``games`` (matched by event, round and
    players; "" where empty), and (line, column, game) for every non-empty cell; None when the file has
    none of them."""
    name = str(path)
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError([problem("cannot read the colours: {why}", file=name, column=wanted[0], why=str(exc))]) \
            from None
    header = [h.strip() for h in rows[0]] if rows else []
    present = [c for c in wanted if c in header]
    keys = ("event_id", "round", "player1", "player2")
    if not present or any(k not in header for k in keys):
        return None  # (the history reader has already refused a games.csv without its columns)
    at = {c: header.index(c) for c in (*keys, *present)}
    found: dict[tuple[str, int, str, str], tuple[int, list[str]]] = {}
    for line, row in enumerate(rows[1:], start=2):
        cells = [c.strip() for c in row] + [""] * max(0, len(header) - len(row))
        if not any(cells):
            continue
        try:
            key = (cells[at["event_id"]], int(cells[at["round"]]), cells[at["player1"]], cells[at["player2"]])
        except ValueError:
            continue  # the history reader has refused it already
        found[key] = (line, [cells[at[c]] for c in present])
    ev, pl_ = games.event_ids, games.player_ids
    out: dict[str, list[str]] = {c: [] for c in present}
    filled: list[tuple[int, str, int]] = []
    for g, (e, r, a, b) in enumerate(zip(games.event.tolist(), games.round.tolist(), games.player1.tolist(),
                                         games.player2.tolist())):
        line, values = found.get((ev[e], int(r), pl_[a], pl_[b]), (0, [""] * len(present)))
        for c, v in zip(present, values):
            out[c].append(v)
            if v:
                filled.append((line, c, g))
    return out, filled


def read_colours(path: Path, games: GameColumns) -> np.ndarray | None:
    """Per game of ``games`` (as the history reader read them from ``path``), +1 when player1 had Black, −1
    when player2 had, 0 when not known; None when games.csv has no ``black`` column (``InputError`` naming
    the line of a value that is neither player of its game)."""
    read = _game_cells(path, games, ("black",))
    if read is None:
        return None
    cells, filled = read
    ids = games.player_ids
    side = np.zeros(len(games), np.int8)
    problems = []
    for line, _, g in filled:
        black, one, two = cells["black"][g], ids[games.player1[g]], ids[games.player2[g]]
        if black not in (one, two):
            problems.append(problem("'{value}' is neither player1 ({one}) nor player2 ({two}) of the game",
                                    file=str(path), line=line, column="black", value=black, one=one, two=two))
        else:
            side[g] = 1 if black == one else -1
    if problems:
        raise InputError(problems)
    return side


def read_handicaps(path: Path, games: GameColumns) -> tuple[np.ndarray, np.ndarray] | None:
    """Go: per game, the handicap ``stones`` (0 where empty) and the ``komi`` (nan where empty) of the optional
    columns of games.csv; None when it has neither (``InputError`` naming the line of a bad value)."""
    read = _game_cells(path, games, ("stones", "komi"))
    if read is None:
        return None
    cells, filled = read
    stones = np.zeros(len(games), np.int16)
    komi = np.full(len(games), np.nan)
    problems = []
    for line, column, g in filled:
        value = cells[column][g]
        if column == "stones":
            if value.isascii() and value.isdigit() and int(value) <= 9:
                stones[g] = int(value)
                continue
            problems.append(problem("'{value}' is not a number of handicap stones (0 to 9)", file=str(path),
                                    line=line, column=column, value=value))
        else:
            try:
                k = float(value)
            except ValueError:
                k = float("nan")
            if math.isfinite(k) and abs(k) <= 50 and (k * 2).is_integer():
                komi[g] = k
                continue
            problems.append(problem("'{value}' is not a komi (a number of half points, such as 7.5)",
                                    file=str(path), line=line, column=column, value=value))
    if problems:
        raise InputError(problems)
    return stones, komi


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


def write_text(path: Path, text: str) -> None:
    """A text file (UTF-8), written atomically (a tuned variant's TOML)."""
    data = text.encode("utf-8")
    _write_atomically(path, lambda f: f.write(data))


def _csv_bytes(header: Sequence[str], rows: Sequence[Sequence[object]]) -> bytes:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue().encode("utf-8")


def _number(x: float | None, digits: int = 6) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def beside(path: Path | None, suffix: str, ext: str) -> Path | None:
    """The file written beside ``path``: ``T.csv`` → ``T-suffix.csv`` (None stays None)."""
    return None if path is None else path.with_name(f"{path.stem}-{suffix}{ext}")


def write_scores_csv(path: Path, scores: Sequence[Score]) -> None:
    rows = [(s.system, _number(s.log_loss), _number(s.se), _number(s.brier), _number(s.prediction_rate), s.games,
             _number(s.coverage), s.listed_games, _number(s.listed_log_loss), _number(s.prior_log_loss),
             _number(s.diff_vs_best), _number(s.se_vs_best)) for s in scores]
    data = _csv_bytes(SCORE_COLUMNS, rows)
    _write_atomically(path, lambda f: f.write(data))


def write_calibration_csv(path: Path, calibration: Mapping[str, Calibration]) -> None:
    rows = []
    for system, c in calibration.items():
        sl = c.slope
        for view, bins in (("favourite", c.bins), ("black", c.by_colour)):
            for b in bins:
                rows.append((system, view, "" if math.isinf(b.lo) else _number(b.lo, 0),
                             "" if math.isinf(b.hi) else _number(b.hi, 0), b.count, _number(b.gap, 1),
                             _number(b.predicted), _number(b.observed), _number(sl.slope), _number(sl.se),
                             _number(sl.z), _number(sl.p_value)))
    data = _csv_bytes(CALIBRATION_COLUMNS, rows)
    _write_atomically(path, lambda f: f.write(data))


def write_predictions_csv(path: Path, games: GameSet, predictions: Sequence[Prediction]) -> None:
    """Every predicted game (in the game set's order: by event, round, players) once per system."""
    idx = np.flatnonzero(games.predicted)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(PREDICTION_COLUMNS)
    events = [games.event_ids[e] for e in games.event[idx].tolist()]
    rounds = games.round[idx].tolist()
    one = [games.player_ids[i] for i in games.player1[idx].tolist()]
    two = [games.player_ids[i] for i in games.player2[idx].tolist()]
    outcome = [_number(x, 1) for x in games.score[idx].tolist()]
    for p in predictions:
        expected = p.expected[idx].tolist()
        basis = np.where(p.covered[idx], "listed", "prior").tolist()
        writer.writerows(zip(events, rounds, one, two, [p.system] * idx.shape[0], (_number(x) for x in expected),
                             outcome, basis))
    data = text.getvalue().encode("utf-8")
    _write_atomically(path, lambda f: f.write(data))


def write_list_measures_csv(path: Path, measures: Sequence[ListMeasures]) -> None:
    """Rows ``drift`` (key: list date; count, cohort mean, sd, listed, list mean), ``volatility`` (key: the
    band of games before; count: changes, value: mean |ΔR| per game) and ``first_rating`` (count: newcomers
    published, value: median played games, spread: mean; listed: never published)."""
    rows: list[tuple] = []
    for m in measures:
        for d in m.drift:
            rows.append((m.system, "drift", d.date.isoformat(), d.cohort, _number(d.cohort_mean, 2),
                         _number(d.cohort_sd, 2), d.listed, _number(d.list_mean, 2)))
        for v in m.volatility:
            rows.append((m.system, "volatility", f"{v.lo}-{'' if v.hi is None else v.hi - 1}", v.changes,
                         _number(v.per_game, 3), v.games, "", ""))
        e = m.establishment
        rows.append((m.system, "first_rating", m.cohort_date.isoformat(), e.players, _number(e.played_median, 1),
                     _number(e.played_mean, 2), e.never, ""))
    data = _csv_bytes(LIST_MEASURE_COLUMNS, rows)
    _write_atomically(path, lambda f: f.write(data))


AUDIT_COLUMNS = ("rules", "strategy", "found", "effect_per_game", "se", "mean_per_game", "cases", "control_mean",
                 "control_cases", "example", "how")


def write_audit_csv(path: Path, audit: Audit) -> None:
    rows = [(audit.rules, s.name, "yes" if s.found else "no", _number(s.effect, 4), _number(s.se, 4),
             _number(s.mean_per_game, 4), s.cases, _number(s.control_mean, 4), s.control_cases, s.example, s.how)
            for s in audit.strategies]
    data = _csv_bytes(AUDIT_COLUMNS, rows)
    _write_atomically(path, lambda f: f.write(data))


def write_comparison_csv(path: Path, comparison: Comparison) -> None:
    rows = [(r.date.isoformat(), r.published_a, r.published_b, r.both, r.only_a, r.only_b, _number(r.mean_diff, 2),
             _number(r.mean_abs_diff, 2), "" if r.largest_diff is None else r.largest_diff, r.largest_player or "")
            for r in comparison.dates]
    data = _csv_bytes(COMPARISON_COLUMNS, rows)
    _write_atomically(path, lambda f: f.write(data))


def plot_available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def _figure(panels: int, width: float = 4.0, height: float = 3.6):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    cols = min(3, max(panels, 1))
    rows = math.ceil(max(panels, 1) / cols)
    return Figure(figsize=(width * cols, height * rows), dpi=100), rows, cols


def write_calibration_png(path: Path, calibration: Mapping[str, Calibration], title: str = "") -> None:
    """One panel per system: the favourite's expected and observed score by his rating gap (dot size =
    games), the calibration slope in the title; where the lines part the system is miscalibrated."""
    buffer = io.BytesIO()
    write_calibration_png_to(buffer, calibration, title)
    data = buffer.getvalue()
    _write_atomically(path, lambda f: f.write(data))


def write_calibration_png_to(out: io.BytesIO, calibration: Mapping[str, Calibration], title: str = "") -> None:
    systems = list(calibration)
    fig, rows, cols = _figure(len(systems))
    for n, system in enumerate(systems, start=1):
        ax = fig.add_subplot(rows, cols, n)
        bins = [b for b in calibration[system].bins if b.count]
        total = sum(b.count for b in bins)
        x = [b.gap for b in bins]
        ax.plot(x, [b.predicted for b in bins], color="0.5", linewidth=1, linestyle="--", label="expected")
        ax.plot(x, [b.observed for b in bins], color="tab:blue", linewidth=1, label="observed")
        ax.scatter(x, [b.observed for b in bins], s=[10 + 400 * b.count / max(total, 1) for b in bins],
                   color="tab:blue", zorder=3)
        low = min([0.45, *(b.observed for b in bins if b.observed == b.observed)])
        ax.set_ylim(max(0.0, low - 0.05), 1.0)
        slope = calibration[system].slope.slope
        ax.set_title(f"{system} ({total:,} games)" + ("" if slope != slope else f", slope {slope:.2f}"), fontsize=10)
        ax.set_xlabel("favourite's rating gap (Elo-equivalent)", fontsize=8)
        ax.set_ylabel("favourite's score", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, color="0.9")
        if n == 1:
            ax.legend(fontsize=7, loc="upper left")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    out.write(_png(fig))


def write_list_measures_png(path: Path, measures: Sequence[ListMeasures]) -> None:
    """Per rule set: the cohort's mean ± sd and the whole list's mean over the list dates (drift), and the
    mean |ΔR| per game by games played (volatility)."""
    fig, rows, cols = _figure(2 * len(measures))
    rows = max(len(measures), 1)
    fig.set_size_inches(8.5, 3.4 * rows)
    for n, m in enumerate(measures):
        ax = fig.add_subplot(rows, 2, 2 * n + 1)
        days = [d.date for d in m.drift]
        mean = [d.cohort_mean for d in m.drift]
        sd = [d.cohort_sd for d in m.drift]
        ax.plot(days, mean, color="tab:blue", label=f"cohort of {m.cohort_date.isoformat()}")
        ax.fill_between(days, [a - b for a, b in zip(mean, sd)], [a + b for a, b in zip(mean, sd)], color="tab:blue",
                        alpha=0.15)
        ax.plot(days, [d.list_mean for d in m.drift], color="tab:orange", label="whole list")
        ax.set_title(f"{m.system}: drift (mean ± sd)", fontsize=10)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7)
        ax.grid(True, color="0.9")
        ax = fig.add_subplot(rows, 2, 2 * n + 2)
        bands = [v for v in m.volatility if v.games]
        ax.bar([f"{v.lo}+" if v.hi is None else f"{v.lo}–{v.hi - 1}" for v in bands], [v.per_game for v in bands],
               color="tab:green")
        ax.set_title(f"{m.system}: mean |ΔR| per game", fontsize=10)
        ax.set_xlabel("rated games before", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, color="0.9", axis="y")
    fig.tight_layout()
    data = _png(fig)
    _write_atomically(path, lambda f: f.write(data))


def _cell(x: object) -> str:
    from html import escape

    if x is None:
        return "–"
    if isinstance(x, float):
        return "" if math.isnan(x) else f"{x:.1f}"
    return escape(str(x))


def impact_charts(impact: Impact, calibration: Mapping[str, Calibration] | None = None) -> list[tuple[str, bytes]]:
    """The impact pack's charts (PNG; none without matplotlib): the rating distribution on the detailed list
    under A and each B (histograms), the mean change B − A by band of A's rating (the players published under
    both), and — when the pack carries predictions — the calibration of A and B on the test games."""
    if not plot_available():
        return []
    import numpy as np

    charts = []
    views = {"A": [p.a for p in impact.players], "B retroactive": [p.retro for p in impact.players],
             f"B from {impact.from_date.isoformat()}": [p.forward for p in impact.players]}
    fig, _, _ = _figure(1, 6.5, 3.6)
    ax = fig.add_subplot(1, 1, 1)
    values = [v for r in views.values() for v in r if v is not None]
    if values:
        bins = np.linspace(min(values), max(values) + 1, 25)
        for (name, ratings), colour in zip(views.items(), ("0.4", "tab:blue", "tab:orange")):
            ax.hist([r for r in ratings if r is not None], bins=bins, histtype="step", linewidth=1.4, color=colour,
                    label=name)
        ax.legend(fontsize=7)
    ax.set_title(f"rating distribution on {impact.on.isoformat()} (before: A, after: B)", fontsize=10)
    ax.set_xlabel("rating", fontsize=8)
    ax.set_ylabel("players", fontsize=8)
    fig.tight_layout()
    charts.append(("分布 Rating distribution before/after", _png(fig)))
    fig, _, _ = _figure(1, 6.5, 3.6)
    ax = fig.add_subplot(1, 1, 1)
    edges = (1600, 1800, 1900, 2000, 2100, 2200, 2400)
    labels = [f"<{edges[0]}", *(f"{a}–{b - 1}" for a, b in zip(edges, edges[1:])), f"≥{edges[-1]}"]
    for offset, (field, colour) in enumerate((("retro", "tab:blue"), ("forward", "tab:orange"))):
        groups: list[list[int]] = [[] for _ in labels]
        for p in impact.players:
            b = getattr(p, field)
            if p.a is not None and b is not None:
                groups[int(np.searchsorted(edges, p.a, side="right"))].append(b - p.a)
        means = [float(np.mean(g)) if g else 0.0 for g in groups]
        ax.bar(np.arange(len(labels)) + 0.4 * offset - 0.2, means, width=0.4, color=colour,
               label=list(views)[offset + 1])
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_xticks(np.arange(len(labels)), labels, fontsize=7)
    ax.set_title("mean change B − A by A's rating band", fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    charts.append(("按组变化 Changes by group", _png(fig)))
    if calibration:
        buffer = io.BytesIO()
        write_calibration_png_to(buffer, calibration, "calibration on the test games")
        charts.append(("校准 Calibration on the test games", buffer.getvalue()))
    return charts


def impact_html(impact: Impact, names: Mapping[str, str], charts: Sequence[tuple[str, bytes]] = (),
                evidence: str = "") -> str:
    """The impact pack as one self-contained HTML page (Chinese with English), for an officer to circulate;
    ``charts`` (title, PNG) are embedded, ``evidence`` (HTML) is the prediction evidence of a tuned variant."""
    import base64
    from html import escape

    figures = "".join(f'<figure><figcaption>{escape(title)}</figcaption><img alt="{escape(title)}" '
                      f'src="data:image/png;base64,{base64.b64encode(png).decode()}"></figure>' for title, png in charts)

    views = list(impact.distributions)
    head = "".join(f"<th>{escape(v)}</th>" for v in views)

    def dist_rows(dists) -> str:
        return "".join(
            f"<td>{d.count}</td><td>{_cell(d.mean)}</td><td>{_cell(d.sd)}</td>"
            f"<td>{_cell(d.quartiles[0])} / {_cell(d.quartiles[1])} / {_cell(d.quartiles[2])}</td>"
            for d in dists.values())

    sub = "<th>人数 n</th><th>均值 mean</th><th>标准差 sd</th><th>四分位 quartiles</th>" * len(views)
    series = "".join(f"<tr><td>{day.isoformat()}</td>{dist_rows(d)}</tr>" for day, d in impact.series)
    players = []
    for p in sorted(impact.players, key=lambda r: (-(r.a or 0), r.player_id)):
        diff = [None if p.a is None or x is None else x - p.a for x in (p.retro, p.forward)]
        players.append(f"<tr><td>{escape(p.player_id)}</td><td>{escape(names.get(p.player_id, ''))}</td>"
                       f"<td>{_cell(p.a)}</td><td>{_cell(p.retro)}</td><td>{_cell(diff[0] if diff[0] is None else f'{diff[0]:+d}')}</td>"
                       f"<td>{_cell(p.forward)}</td><td>{_cell(diff[1] if diff[1] is None else f'{diff[1]:+d}')}</td></tr>")
    crossings = "".join(
        f"<tr><td>{c.threshold}</td><td>{escape(c.label)}</td><td>{escape(c.variant)}</td>"
        f"<td>{escape(', '.join(f'{q} {names.get(q, chr(32))}'.strip() for q in c.up))}</td>"
        f"<td>{escape(', '.join(f'{q} {names.get(q, chr(32))}'.strip() for q in c.down))}</td></tr>"
        for c in impact.crossings) or "<tr><td colspan=5>无 none</td></tr>"
    return f"""<!doctype html>
<html lang="zh-Hans"><head><meta charset="utf-8">
<title>规则变更影响报告 Impact of a rule change: {escape(impact.b)}</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:80em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #bbb;padding:.2em .5em;text-align:right}}td:nth-child(2){{text-align:left}}
caption{{text-align:left;font-weight:bold}}</style></head><body>
<h1>规则变更影响报告 / Impact of a rule change</h1>
<p>现行规则 A (rules in force): <b>{escape(impact.a)}</b>；拟议规则 B (proposed): <b>{escape(impact.b)}</b>。
B 追溯适用于全部历史 (retroactively), 与自 {impact.from_date.isoformat()} 起适用 (from that list on, A before it) 并列。
Detailed list: {impact.on.isoformat()}.</p>
<table><caption>分布 Distribution on {impact.on.isoformat()}</caption>
<tr><th></th>{head}</tr><tr><th></th>{"".join(f"<th>人数 n · 均值 mean · 标准差 sd · 四分位 quartiles</th>" for _ in views)}</tr>
<tr><td>{impact.on.isoformat()}</td>{"".join(f"<td>{d.count} · {_cell(d.mean)} · {_cell(d.sd)} · {_cell(d.quartiles[0])}/{_cell(d.quartiles[1])}/{_cell(d.quartiles[2])}</td>" for d in impact.distributions.values())}</tr></table>
<table><caption>各名册日期 Every list from {impact.from_date.isoformat()}</caption>
<tr><th rowspan=2>名册 list</th>{"".join(f"<th colspan=4>{escape(v)}</th>" for v in views)}</tr><tr>{sub}</tr>{series}</table>
<table><caption>跨越段级位或资格线 Who crosses a grade or eligibility threshold (A → B)</caption>
<tr><th>分数线 threshold</th><th>段级位 grade</th><th>B</th><th>升 up</th><th>降 down</th></tr>{crossings}</table>
<table><caption>棋手 Players on {impact.on.isoformat()} (– : not published)</caption>
<tr><th>编号 id</th><th>姓名 name</th><th>A</th><th>B 追溯 retro</th><th>B−A</th><th>B 自 {impact.from_date.isoformat()}</th><th>B−A</th></tr>
{"".join(players)}</table>
{evidence}{figures}
</body></html>
"""


def write_impact_html(path: Path, impact: Impact, names: Mapping[str, str],
                      calibration: Mapping[str, Calibration] | None = None, evidence: str = "") -> None:
    data = impact_html(impact, names, impact_charts(impact, calibration), evidence).encode("utf-8")
    _write_atomically(path, lambda f: f.write(data))
