"""The rating output files (等级分名册): ``<publication date>.csv`` per list and ``changes.csv``.

Each list has every player: ``player_id,name,rating,games,status`` (rating
empty when he has none; status active / inactive / removed / unrated), in the
list's order. ``changes.csv`` has one row per player per rated event:
``player_id,event_id,games,W,We,K,delta,list_date,method,Ru``. Numbers are
written exactly, without trailing zeros (``4.35``, ``2.3``, ``-9``); a
newcomer's Ru without a finite decimal form to six decimals (``2345.833333``).
A cell whose value does not apply (We, K, ΔR of a newcomer's Ru row or of a
``not_rated`` row; Ru of everyone else) is empty. A newcomer's event that did
not count toward his first rating (0 counted games: too few rated opponents,
a zero score) is written as ``not_rated`` with 0 games, as docs/formats.md
keeps 0-game rows for ``not_rated`` only.

Whichever engine computed the history, it is written from its columns
(``History.list_columns``, ``History.change_columns``): no object per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl

from qiyuan.rating.columnar import METHOD_NAMES, NONE, STATUS_NAMES, ChangeColumns
from qiyuan.rating.exact import to_decimal
from qiyuan.rating.model import Player
from qiyuan.rating.result import History

LIST_COLUMNS = ("player_id", "name", "rating", "games", "status")
CHANGE_COLUMNS = ("player_id", "event_id", "games", "W", "We", "K", "delta", "list_date", "method", "Ru")

#: Methods whose rows have no We, K or ΔR: a newcomer's performance rating Ru (his first rating is a
#: mean of Ru, not a ΔR) and an event that did not count for him.
NO_DELTA_METHODS = ("newcomer", "not_rated")
#: Decimal places of a value without a finite decimal form (as ``exact.to_decimal`` shows it).
PLACES = 6


def decimal_text(x: Decimal | int | None) -> str:
    """An exact number as written in the files: no exponent, no trailing zeros; '' for None."""
    if x is None:
        return ""
    if isinstance(x, int):
        return str(x)
    text = format(x.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def hundredths_expr(column: str | pl.Expr) -> pl.Expr:
    """Integer hundredths written as ``decimal_text`` writes the value: 435 → '4.35', 230 → '2.3', -900 → '-9'."""
    return scaled_expr(column, 2)


def scaled_expr(column: str | pl.Expr, places: int) -> pl.Expr:
    """An integer holding a value × 10^places, written as ``decimal_text`` writes the value."""
    v = pl.col(column) if isinstance(column, str) else column
    unit = 10 ** places
    a = v.abs()
    frac = (a % unit).cast(pl.String).str.zfill(places).str.strip_chars_end("0")
    return (
        pl.when(v < 0).then(pl.lit("-")).otherwise(pl.lit(""))
        + (a // unit).cast(pl.String)
        + pl.when(a % unit != 0).then(pl.lit(".") + frac).otherwise(pl.lit(""))
    )


def fraction_texts(num: np.ndarray, den: np.ndarray) -> pl.Series:
    """Exact fractions num/den (den 0: none) as ``decimal_text(to_decimal(value))`` writes them, vectorized;
    the rare value with a finite decimal form longer than six places exactly, one by one."""
    has = den != 0
    n, d = num[has], den[has]
    g = np.gcd(n, d)
    n, d = n // g, d // g
    unit = 10 ** PLACES
    scaled = np.abs(n) * unit
    q = (2 * scaled + d) // (2 * d)  # 四舍五入 at the sixth place (away from zero, as to_decimal)
    q = np.where(n < 0, -q, q)
    reduced = d.copy()
    for p in (2, 5):
        while True:
            divisible = reduced % p == 0
            if not divisible.any():
                break
            reduced = np.where(divisible, reduced // p, reduced)
    longer = (reduced == 1) & (scaled % d != 0)  # finite, but more than six places: to_decimal keeps it exact
    texts = pl.select(scaled_expr(pl.Series(q, dtype=pl.Int64), PLACES)).to_series().to_list()
    for i in np.flatnonzero(longer).tolist():
        texts[i] = decimal_text(to_decimal(Fraction(int(n[i]), int(d[i]))))
    out: list[str | None] = [None] * int(num.shape[0])
    for i, text in zip(np.flatnonzero(has).tolist(), texts):
        out[i] = text
    return pl.Series(out, dtype=pl.String)


def changes_frame(history: History) -> pl.DataFrame:
    """changes.csv's columns, in the history's order, with an empty (null) cell wherever a value does not apply."""
    cc: ChangeColumns = history.change_columns
    ids = pl.Series(history.player_ids, dtype=pl.String)
    events = pl.Series(history.event_ids, dtype=pl.String)
    dates = pl.Series([d.isoformat() for d in history.list_dates], dtype=pl.String)
    methods = pl.Series(METHOD_NAMES, dtype=pl.String)
    frame = pl.DataFrame({
        "player": cc.player, "event": cc.event, "list": cc.list_index, "games": cc.games, "W": cc.W, "We": cc.We,
        "K": cc.K, "delta": cc.delta, "method": cc.method,
    }, schema={c: pl.Int64 for c in ("player", "event", "list", "games", "W", "We", "K", "delta", "method")})
    # a newcomer's event that did not count (0 counted games) is a not_rated row, without Ru
    uncounted = (frame["method"] == METHOD_NAMES.index("newcomer")) & (frame["games"] == 0)
    frame = frame.with_columns(pl.when(uncounted).then(METHOD_NAMES.index("not_rated")).otherwise(pl.col("method"))
                               .alias("method"))
    no_delta = pl.col("method").is_in([METHOD_NAMES.index(m) for m in NO_DELTA_METHODS])
    numbers = frame.select(
        pl.col("games"),
        hundredths_expr("W").alias("W"),
        pl.when(no_delta | (pl.col("We") == NONE)).then(None).otherwise(hundredths_expr("We")).alias("We"),
        pl.when(no_delta | (pl.col("K") == NONE)).then(None).otherwise(pl.col("K")).alias("K"),
        pl.when(no_delta).then(None).otherwise(hundredths_expr("delta")).alias("delta"),
    )
    empty = len(cc) == 0
    return pl.DataFrame({
        "player_id": ids.gather(frame["player"]) if not empty else pl.Series([], dtype=pl.String),
        "event_id": events.gather(frame["event"]) if not empty else pl.Series([], dtype=pl.String),
        "games": numbers["games"], "W": numbers["W"], "We": numbers["We"], "K": numbers["K"],
        "delta": numbers["delta"],
        "list_date": dates.gather(frame["list"]) if not empty else pl.Series([], dtype=pl.String),
        "method": methods.gather(frame["method"]) if not empty else pl.Series([], dtype=pl.String),
        "Ru": fraction_texts(cc.ru_num, np.where(uncounted.to_numpy(), 0, cc.ru_den)),
    })


def write_history(directory: Path, history: History, players: Sequence[Player]) -> list[Path]:
    """Write every list of ``history`` and its changes into ``directory``; return the files written.
    ``players`` are the history's players (their names are written beside the ids)."""
    directory = Path(directory)
    name_of = {p.id: p.name for p in players}
    names = pl.Series("name", [name_of.get(p, "") for p in history.player_ids], dtype=pl.String)
    ids = pl.Series(history.player_ids, dtype=pl.String)
    status = pl.Series(STATUS_NAMES, dtype=pl.String)
    written: list[Path] = []
    for lc in history.list_columns:
        order = pl.Series(lc.order, dtype=pl.Int64)
        rating = pl.Series(lc.rating[lc.order], dtype=pl.Int64)
        frame = pl.DataFrame({
            "player_id": ids.gather(order), "name": names.gather(order),
            "rating": pl.select(pl.when(pl.lit(rating) != NONE).then(pl.lit(rating))).to_series(),
            "games": pl.Series(lc.games[lc.order], dtype=pl.Int64),
            "status": status.gather(pl.Series(lc.status[lc.order], dtype=pl.Int64)),
        })
        path = directory / f"{lc.date.isoformat()}.csv"
        frame.select(LIST_COLUMNS).write_csv(path)
        written.append(path)
    path = directory / "changes.csv"
    changes_frame(history).select(CHANGE_COLUMNS).write_csv(path)
    written.append(path)
    return written
