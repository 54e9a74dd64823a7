"""Columns (columnar): the bulk form of the engine's input (games, standings) and output (lists, changes).

A history of millions of games is read straight into NumPy arrays; making one
``Game`` object per row would cost more than rating them. ``GameColumns`` is
still a sequence of ``Game`` (built on demand), so the reference engine takes
it like any list, and the fast engine reads its arrays directly.

On the way out, ``ListColumns`` and ``ChangeColumns`` hold a history's lists
and changes as arrays of exact integers (hundredths, or numerator and
denominator), whichever engine computed them: the formats write files from
them without an object per row.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from qiyuan.rating import results as R
from qiyuan.rating.exact import to_decimal
from qiyuan.rating.model import Game, Result, Standing

#: Result ↔ small integer code used in the arrays (the order of ``Result``).
RESULT_CODES: tuple[Result, ...] = tuple(Result)
CODE_OF_RESULT: dict[Result, int] = {r: i for i, r in enumerate(RESULT_CODES)}

#: "No value" in the int64 result columns (ratings, K, We, …): far below any real value.
NONE = np.iinfo(np.int64).min // 1024
#: Status codes of ``ListColumns.status``: the list order of ``results.STATUS_ORDER``.
STATUS_NAMES: tuple[str, ...] = tuple(sorted(R.STATUS_ORDER, key=R.STATUS_ORDER.get))
#: Method codes of ``ChangeColumns.method``.
METHOD_NAMES: tuple[str, ...] = (R.METHOD_PER_GAME, R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN, R.METHOD_NEWCOMER,
                                 R.METHOD_PROVISIONAL, R.METHOD_NOT_RATED)


@dataclass(frozen=True, eq=False)
class GameColumns(Sequence[Game]):
    """Games as parallel arrays of indices into ``event_ids`` / ``player_ids``.

    ``event``, ``player1``, ``player2`` are ``int32`` indices; ``round`` is
    ``int32``; ``result`` is an ``int8`` code of ``RESULT_CODES``.
    """

    event_ids: tuple[str, ...]
    player_ids: tuple[str, ...]
    event: np.ndarray
    round: np.ndarray
    player1: np.ndarray
    player2: np.ndarray
    result: np.ndarray
    board: np.ndarray | None = None  # int32 台次, 0 where not known; None: no game has one
    black: np.ndarray | None = None  # int8 who had Black: 1 player1, -1 player2, 0 not known; None: no game says

    def __len__(self) -> int:
        return int(self.event.shape[0])

    def _game(self, i: int) -> Game:
        return Game(
            event_id=self.event_ids[self.event[i]],
            round=int(self.round[i]),
            player1=self.player_ids[self.player1[i]],
            player2=self.player_ids[self.player2[i]],
            result=RESULT_CODES[self.result[i]],
            board=int(self.board[i]) or None if self.board is not None else None,
            black=int(self.black[i]) if self.black is not None else 0,
        )

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self._game(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._game(i)

    def __iter__(self) -> Iterator[Game]:
        ev, pl = self.event_ids, self.player_ids
        codes = RESULT_CODES
        boards = self.board.tolist() if self.board is not None else [0] * len(self)
        blacks = self.black.tolist() if self.black is not None else [0] * len(self)
        for e, r, a, b, res, board, black in zip(
            self.event.tolist(), self.round.tolist(), self.player1.tolist(), self.player2.tolist(), self.result.tolist(),
            boards, blacks,
        ):
            yield Game(event_id=ev[e], round=r, player1=pl[a], player2=pl[b], result=codes[res], board=board or None,
                       black=black)

    @classmethod
    def from_games(cls, games: Sequence[Game] | GameColumns, event_ids: Sequence[str], player_ids: Sequence[str]) -> GameColumns:
        """Columns for ``games`` indexed by the given id orders (ids must be known)."""
        event_ids = tuple(event_ids)
        player_ids = tuple(player_ids)
        if isinstance(games, GameColumns):
            if games.event_ids == event_ids and games.player_ids == player_ids:
                return games
            return games._reindexed(event_ids, player_ids)
        ev_index = {e: i for i, e in enumerate(event_ids)}
        pl_index = {p: i for i, p in enumerate(player_ids)}
        games = list(games)
        n = len(games)
        boards = None
        if any(g.board is not None for g in games):
            boards = np.fromiter((g.board or 0 for g in games), dtype=np.int32, count=n)
        blacks = None
        if any(g.black for g in games):
            blacks = np.fromiter((g.black for g in games), dtype=np.int8, count=n)
        return cls(
            event_ids=event_ids,
            player_ids=player_ids,
            event=np.fromiter((ev_index[g.event_id] for g in games), dtype=np.int32, count=n),
            round=np.fromiter((g.round for g in games), dtype=np.int32, count=n),
            player1=np.fromiter((pl_index[g.player1] for g in games), dtype=np.int32, count=n),
            player2=np.fromiter((pl_index[g.player2] for g in games), dtype=np.int32, count=n),
            result=np.fromiter((CODE_OF_RESULT[g.result] for g in games), dtype=np.int8, count=n),
            board=boards,
            black=blacks,
        )

    def _reindexed(self, event_ids: tuple[str, ...], player_ids: tuple[str, ...]) -> GameColumns:
        """The same games indexed by other id orders (KeyError for an id they lack)."""

        def mapping(old: tuple[str, ...], new: tuple[str, ...], used: np.ndarray) -> np.ndarray:
            position = {x: i for i, x in enumerate(new)}
            table = np.array([position.get(x, -1) for x in old], dtype=np.int64)
            missing = np.unique(used[table[used] < 0]) if used.shape[0] else used
            if missing.shape[0]:
                raise KeyError(old[int(missing[0])])
            return table

        ev = mapping(self.event_ids, event_ids, self.event)
        both = np.concatenate([self.player1, self.player2])
        pl = mapping(self.player_ids, player_ids, both)
        return GameColumns(event_ids, player_ids, ev[self.event].astype(np.int32), self.round,
                           pl[self.player1].astype(np.int32), pl[self.player2].astype(np.int32), self.result,
                           self.board, self.black)

    def take(self, mask_or_index: np.ndarray) -> GameColumns:
        """The games selected by a boolean mask or an index array."""
        return GameColumns(
            self.event_ids,
            self.player_ids,
            self.event[mask_or_index],
            self.round[mask_or_index],
            self.player1[mask_or_index],
            self.player2[mask_or_index],
            self.result[mask_or_index],
            self.board[mask_or_index] if self.board is not None else None,
            self.black[mask_or_index] if self.black is not None else None,
        )


@dataclass(frozen=True, eq=False)
class StandingColumns(Sequence[Standing]):
    """Official ranks (名次) as arrays: ``event``/``player`` indices and ``rank``."""

    event_ids: tuple[str, ...]
    player_ids: tuple[str, ...]
    event: np.ndarray
    player: np.ndarray
    rank: np.ndarray

    def __len__(self) -> int:
        return int(self.event.shape[0])

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return Standing(self.event_ids[self.event[i]], self.player_ids[self.player[i]], int(self.rank[i]))

    def __iter__(self) -> Iterator[Standing]:
        ev, pl = self.event_ids, self.player_ids
        for e, p, r in zip(self.event.tolist(), self.player.tolist(), self.rank.tolist()):
            yield Standing(ev[e], pl[p], r)


def concatenate_games(a: GameColumns, b: GameColumns) -> GameColumns:
    """The games of ``a`` then those of ``b`` (indexed alike)."""
    if (a.event_ids, a.player_ids) != (b.event_ids, b.player_ids):
        b = b._reindexed(a.event_ids, a.player_ids)
    boards = None
    if a.board is not None or b.board is not None:
        boards = np.concatenate([x.board if x.board is not None else np.zeros(len(x), np.int32) for x in (a, b)])
    blacks = None
    if a.black is not None or b.black is not None:
        blacks = np.concatenate([x.black if x.black is not None else np.zeros(len(x), np.int8) for x in (a, b)])
    return GameColumns(a.event_ids, a.player_ids,
                       *(np.concatenate([getattr(a, f), getattr(b, f)]) for f in ("event", "round", "player1", "player2",
                                                                                  "result")), boards, blacks)


def exact_decimal(hundredths: int, cents: bool) -> Decimal:
    """An exact rating of whole hundredths as the reference engine writes it: with two decimals when a ΔR
    entered it (``2402.30``, ``2320.00``), as an integer when none did (``2320``)."""
    return Decimal(int(hundredths)).scaleb(-2) if cents else Decimal(int(hundredths) // 100)


def exact_text(hundredths: int, cents: bool) -> str:
    """``str(exact_decimal(hundredths, cents))``, written directly (property-tested against it)."""
    if not cents:
        return str(hundredths // 100)
    sign = "-" if hundredths < 0 else ""
    whole, part = divmod(abs(hundredths), 100)
    return f"{sign}{whole}.{part:02d}"


class ExactFractions(Mapping[int, Decimal]):
    """Exact values kept as fractions (player → (numerator, denominator)), written as ``exact.to_decimal``
    writes them when read: a list's first ratings, which most callers never read."""

    def __init__(self, values: dict[int, tuple[int, int]] | None = None):
        self.values = values or {}

    def __getitem__(self, player: int) -> Decimal:
        return to_decimal(Fraction(*self.values[player]))

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


@dataclass(frozen=True, eq=False)
class ListColumns:
    """One published list in columns. ``rating``, ``games``, ``status`` are indexed by player (the history's
    ``player_ids``); ``order`` gives the player indices in list order. ``exact_h`` is the unrounded value in
    hundredths (``NONE`` where he has no rating or where the value is not written as whole hundredths —
    then ``exact_other`` holds it), ``exact_cents`` whether it is written with two decimals
    (``exact_decimal``)."""

    date: date
    order: np.ndarray
    rating: np.ndarray
    games: np.ndarray
    status: np.ndarray
    exact_h: np.ndarray
    exact_cents: np.ndarray
    exact_other: Mapping[int, Decimal] = field(default_factory=dict)


#: The fields of ``ChangeColumns`` besides the indices: hundredths (W, We, delta, raw_delta, Pd), integers
#: (games, K, N, Ro, D, method), exact fractions as numerator/denominator (Rc, ru; denominator 0: none).
CHANGE_FIELDS = ("games", "W", "We", "K", "delta", "raw_delta", "method", "N", "Ro", "D", "Pd", "Rc_num", "Rc_den",
                 "ru_num", "ru_den")


@dataclass(frozen=True, eq=False)
class ChangeColumns:
    """Every change of a history in columns, in the order of ``History.changes``: events by (end date, start
    date, id), then players by id. ``player``/``event`` index the history's ids, ``list_index`` its lists."""

    player: np.ndarray
    event: np.ndarray
    list_index: np.ndarray
    games: np.ndarray
    W: np.ndarray
    We: np.ndarray
    K: np.ndarray
    delta: np.ndarray
    raw_delta: np.ndarray
    method: np.ndarray
    N: np.ndarray
    Ro: np.ndarray
    D: np.ndarray
    Pd: np.ndarray
    Rc_num: np.ndarray
    Rc_den: np.ndarray
    ru_num: np.ndarray
    ru_den: np.ndarray

    def __len__(self) -> int:
        return int(self.player.shape[0])

    @classmethod
    def empty(cls) -> ChangeColumns:
        return cls(*(np.zeros(0, np.int64) for _ in range(3 + len(CHANGE_FIELDS))))

    def take(self, index: np.ndarray) -> ChangeColumns:
        return ChangeColumns(*(getattr(self, f)[index] for f in ("player", "event", "list_index", *CHANGE_FIELDS)))

    @classmethod
    def concatenate(cls, parts: Sequence[ChangeColumns]) -> ChangeColumns:
        if not parts:
            return cls.empty()
        return cls(*(np.concatenate([getattr(p, f) for p in parts])
                     for f in ("player", "event", "list_index", *CHANGE_FIELDS)))


#: the order the notes of a change are written in (every branch of ``event.rate_event`` appends them in it)
NOTE_ORDER: tuple[str, ...] = (
    R.NOTE_FORFEIT, R.NOTE_ZERO_SCORE_OPPONENT, R.NOTE_ZERO_SCORE_IGNORED, R.NOTE_UNRATED_OPPONENTS, R.NOTE_FAR_BELOW,
    R.NOTE_NO_RATED_GAMES, R.NOTE_FEW_RATED_OPPONENTS, R.NOTE_CAP, R.NOTE_BOARD_PROTECTED,
    R.NOTE_CHAMPION_RULE_LONG_EVENT, R.NOTE_CHAMPION_PROTECTED, R.NOTE_INTERNATIONAL_PROTECTED,
    R.NOTE_UNRATED_NOT_RATED)

#: the per-change columns of ``ChangeTexts`` (in ``EventChange``'s field order, ``lines`` aside)
CHANGE_TEXT_FIELDS = ("player_id", "event_id", "list_date", "games", "W", "We", "K", "delta", "method", "Rc", "N",
                      "Pd", "D", "ru", "Ro", "raw_delta", "notes")
#: the per-game line columns of ``ChangeTexts`` (``GameLine``'s fields)
LINE_FIELDS = ("round", "opponent_id", "opponent_rating", "line_D", "line_We", "line_W", "line_K", "dR")


def _text(x) -> str | None:
    return None if x is None else str(x)


def _number(x: str | None) -> Decimal | None:
    return None if x is None else Decimal(x)


@dataclass(frozen=True, eq=False)
class ChangeTexts:
    """Changes exactly as the reference writes them, in columns (what the office stores and digests, without an
    ``EventChange`` per row): ids, integers, each decimal's text (``"3.5"``, ``"0.50"``, ``None``), the method,
    the notes (a tuple per change, in ``NOTE_ORDER``), and the per-game lines flat, change ``j``'s being rows
    ``line_start[j]`` to ``line_start[j + 1]`` of the line columns. ``objects()`` makes the ``EventChange`` values
    they stand for (a desk's review, a player's explanation); ``from_objects`` the columns of such values."""

    player_id: list
    event_id: list
    list_date: list
    games: list
    W: list
    We: list
    K: list
    delta: list
    method: list
    Rc: list
    N: list
    Pd: list
    D: list
    ru: list
    Ro: list
    raw_delta: list
    notes: list
    line_start: list  # len + 1 offsets into the line columns
    round: list
    opponent_id: list
    opponent_rating: list
    line_D: list
    line_We: list
    line_W: list
    line_K: list
    dR: list

    def __len__(self) -> int:
        return len(self.player_id)

    @classmethod
    def empty(cls) -> ChangeTexts:
        return cls(*([] for _ in CHANGE_TEXT_FIELDS), [0], *([] for _ in LINE_FIELDS))

    def lines_of(self, j: int) -> range:
        return range(self.line_start[j], self.line_start[j + 1])

    def take(self, index: Sequence[int]) -> ChangeTexts:
        """The changes at ``index``, in that order (their lines with them)."""
        starts, picked = [0], []
        for j in index:
            picked.append(range(self.line_start[j], self.line_start[j + 1]))
            starts.append(starts[-1] + len(picked[-1]))
        flat = [i for r in picked for i in r]
        return ChangeTexts(*([getattr(self, f)[j] for j in index] for f in CHANGE_TEXT_FIELDS), starts,
                           *([getattr(self, f)[i] for i in flat] for f in LINE_FIELDS))

    def slice(self, lo: int, hi: int) -> ChangeTexts:
        """The changes ``lo`` to ``hi`` (a period's, when they are in list order)."""
        a, b = self.line_start[lo], self.line_start[hi]
        return ChangeTexts(*(getattr(self, f)[lo:hi] for f in CHANGE_TEXT_FIELDS),
                           [s - a for s in self.line_start[lo:hi + 1]], *(getattr(self, f)[a:b] for f in LINE_FIELDS))

    @classmethod
    def concatenate(cls, parts: Sequence[ChangeTexts]) -> ChangeTexts:
        if not parts:
            return cls.empty()
        starts, base = [0], 0
        for p in parts:
            starts += [s + base for s in p.line_start[1:]]
            base += p.line_start[-1]
        return cls(*([x for p in parts for x in getattr(p, f)] for f in CHANGE_TEXT_FIELDS), starts,
                   *([x for p in parts for x in getattr(p, f)] for f in LINE_FIELDS))

    def objects(self) -> list[R.EventChange]:
        """The changes as ``EventChange`` values (each decimal read back from its text: the same value, written
        alike)."""
        n = _number
        lines = [R.GameLine(r, o, n(orat), d, n(we), n(w), k, n(dr)) for r, o, orat, d, we, w, k, dr in zip(
            self.round, self.opponent_id, self.opponent_rating, self.line_D, self.line_We, self.line_W,
            self.line_K, self.dR)]
        return [R.EventChange(p, e, d, g, n(w), n(we), k, n(dl), m, n(rc), nn, n(pd), dd, n(ru), n(ro), n(raw),
                              list(notes), lines[self.line_start[j]:self.line_start[j + 1]])
                for j, (p, e, d, g, w, we, k, dl, m, rc, nn, pd, dd, ru, ro, raw, notes) in enumerate(zip(
                    *(getattr(self, f) for f in CHANGE_TEXT_FIELDS)))]

    @classmethod
    def from_objects(cls, changes: Sequence[R.EventChange]) -> ChangeTexts:
        """The columns of ``EventChange`` values (the reference engine's)."""
        t = _text
        starts = [0]
        for c in changes:
            starts.append(starts[-1] + len(c.lines))
        lines = [g for c in changes for g in c.lines]
        return cls(
            [c.player_id for c in changes], [c.event_id for c in changes], [c.list_date for c in changes],
            [c.games for c in changes], [t(c.W) for c in changes], [t(c.We) for c in changes],
            [c.K for c in changes], [t(c.delta) for c in changes], [c.method for c in changes],
            [t(c.Rc) for c in changes], [c.N for c in changes], [t(c.Pd) for c in changes], [c.D for c in changes],
            [t(c.ru) for c in changes], [t(c.Ro) for c in changes], [t(c.raw_delta) for c in changes],
            [tuple(c.notes) for c in changes], starts,
            [g.round for g in lines], [g.opponent_id for g in lines], [t(g.opponent_rating) for g in lines],
            [g.D for g in lines], [t(g.We) for g in lines], [t(g.W) for g in lines], [g.K for g in lines],
            [t(g.dR) for g in lines])
