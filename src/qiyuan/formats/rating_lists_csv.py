"""The rating output files (等级分名册): ``<publication date>.csv`` per list and ``changes.csv``.

Each list has every player: ``player_id,name,rating,games,status`` (rating
empty when he has none; status active / inactive / unrated / removed), in
the list's order. ``changes.csv`` has one row per player per rated event:
``player_id,event_id,games,W,We,K,delta`` then ``list_date,method``. Numbers
are written exactly, without trailing zeros (``4.35``, ``2.3``, ``-9``); a
cell whose value does not apply (We, K, ΔR of a newcomer's Ru row or of a
``not_rated`` row) is empty.

Both engines' histories are written by the same code: from ``PublishedList``
and ``EventChange`` objects, or — for the fast path's columnar history, which
would be slow to turn into millions of objects — from its polars frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import polars as pl

from qiyuan.rating.model import Player

LIST_COLUMNS = ("player_id", "name", "rating", "games", "status")
CHANGE_COLUMNS = ("player_id", "event_id", "games", "W", "We", "K", "delta", "list_date", "method")


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
    v = pl.col(column) if isinstance(column, str) else column
    a = v.abs()
    frac = a % 100
    frac_text = (
        pl.when(frac % 10 != 0).then(frac.cast(pl.String).str.zfill(2))
        .when(frac != 0).then((frac // 10).cast(pl.String))
        .otherwise(pl.lit(""))
    )
    return (
        pl.when(v < 0).then(pl.lit("-")).otherwise(pl.lit(""))
        + (a // 100).cast(pl.String)
        + pl.when(frac != 0).then(pl.lit(".") + frac_text).otherwise(pl.lit(""))
    )


def _list_frame(entries: Sequence) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "player_id": [e.player_id for e in entries],
            "rating": [e.rating for e in entries],
            "games": [e.games for e in entries],
            "status": [e.status for e in entries],
        },
        schema={"player_id": pl.String, "rating": pl.Int64, "games": pl.Int64, "status": pl.String},
    )


def _changes_frame(changes: Sequence) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "player_id": [c.player_id for c in changes],
            "event_id": [c.event_id for c in changes],
            "games": [c.games for c in changes],
            "W": [decimal_text(c.W) for c in changes],
            "We": [decimal_text(c.We) for c in changes],
            "K": [c.K for c in changes],
            "delta": [decimal_text(c.delta) for c in changes],
            "list_date": [c.list_date.isoformat() for c in changes],
            "method": [c.method for c in changes],
        },
        schema={
            "player_id": pl.String, "event_id": pl.String, "games": pl.Int64, "W": pl.String, "We": pl.String,
            "K": pl.Int64, "delta": pl.String, "list_date": pl.String, "method": pl.String,
        },
    )


#: Methods whose rows have no We, K or ΔR: a newcomer's performance rating Ru (his first rating is a
#: mean of Ru, not a ΔR) and an event that did not count for him.
NO_DELTA_METHODS = ("newcomer", "not_rated")


def _changes_as_written(changes: pl.DataFrame) -> pl.DataFrame:
    """changes.csv's columns with an empty (null, written unquoted) cell wherever a value does not apply."""
    no_delta = pl.col("method").is_in(NO_DELTA_METHODS)
    return changes.select(
        *(
            pl.when(no_delta | (pl.col(c).cast(pl.String) == "")).then(None).otherwise(pl.col(c)).alias(c)
            if c in ("We", "K", "delta") else pl.col(c)
            for c in CHANGE_COLUMNS
        )
    )


def write_history(directory: Path, history, players: Sequence[Player]) -> list[Path]:
    """Write every list of ``history`` and its changes into ``directory``; return the files written.

    ``history`` is a ``History`` (lists of entries) or any object with
    ``list_frames()`` (date, frame of player_id/rating/games/status, and
    optionally player_index into ``players``) and ``changes_frame()`` giving
    the same content as columns.
    """
    directory = Path(directory)
    names = pl.Series("name", [p.name for p in players], dtype=pl.String)
    name_of = {p.id: p.name for p in players}
    written: list[Path] = []
    if hasattr(history, "list_frames"):
        frames = history.list_frames()
    else:
        frames = ((published.date, _list_frame(published.entries)) for published in history.lists)
    for list_date, frame in frames:
        path = directory / f"{list_date.isoformat()}.csv"
        if "player_index" in frame.columns:  # rows point into ``players``
            frame = frame.with_columns(names.gather(frame["player_index"]))
        else:
            frame = frame.with_columns(
                pl.col("player_id").replace_strict(name_of, default="", return_dtype=pl.String).alias("name"))
        frame.select(LIST_COLUMNS).write_csv(path)
        written.append(path)
    changes = history.changes_frame() if hasattr(history, "changes_frame") else _changes_frame(history.changes)
    path = directory / "changes.csv"
    _changes_as_written(changes).write_csv(path)
    written.append(path)
    return written
