"""Games in columns (对局列表, columnar): the bulk form of ``Game`` rows.

A history of millions of games is read straight into NumPy arrays; making one
``Game`` object per row would cost more than rating them. ``GameColumns`` is
still a sequence of ``Game`` (built on demand), so the reference engine takes
it like any list, and the fast path reads its arrays directly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from qiyuan.rating.model import Game, Result, Standing

#: Result ↔ small integer code used in the arrays (the order of ``Result``).
RESULT_CODES: tuple[Result, ...] = tuple(Result)
CODE_OF_RESULT: dict[Result, int] = {r: i for i, r in enumerate(RESULT_CODES)}


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

    def __len__(self) -> int:
        return int(self.event.shape[0])

    def _game(self, i: int) -> Game:
        return Game(
            event_id=self.event_ids[self.event[i]],
            round=int(self.round[i]),
            player1=self.player_ids[self.player1[i]],
            player2=self.player_ids[self.player2[i]],
            result=RESULT_CODES[self.result[i]],
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
        for e, r, a, b, res in zip(
            self.event.tolist(), self.round.tolist(), self.player1.tolist(), self.player2.tolist(), self.result.tolist()
        ):
            yield Game(event_id=ev[e], round=r, player1=pl[a], player2=pl[b], result=codes[res])

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
        return cls(
            event_ids=event_ids,
            player_ids=player_ids,
            event=np.fromiter((ev_index[g.event_id] for g in games), dtype=np.int32, count=n),
            round=np.fromiter((g.round for g in games), dtype=np.int32, count=n),
            player1=np.fromiter((pl_index[g.player1] for g in games), dtype=np.int32, count=n),
            player2=np.fromiter((pl_index[g.player2] for g in games), dtype=np.int32, count=n),
            result=np.fromiter((CODE_OF_RESULT[g.result] for g in games), dtype=np.int8, count=n),
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
                           pl[self.player1].astype(np.int32), pl[self.player2].astype(np.int32), self.result)

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
