"""The input as arrays (columnar preparation; mirrors ``model.py`` and ``columnar.py``).

Events get a rank by (end date, start date, id), the order the reference rates
them in; the games are sorted by that rank so each period is one slice; the
rule set's per-event choices (We method, champion rule, international rule,
the national team championship's board rule) become one flag or code per
event; the standings become the set of (event, player) ranked 1; the tables
become arrays; the names become collation ranks for the list order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from fractions import Fraction
from functools import cached_property

import numpy as np

from qiyuan.rating import results as R
from qiyuan.rating.columnar import METHOD_NAMES, RESULT_CODES, GameColumns, StandingColumns
from qiyuan.rating.fast.arrays import NONE
from qiyuan.rating.model import Event, EventFormat, Game, Player, Standing
from qiyuan.rating.order import name_ranks
from qiyuan.rating.rules import (INACTIVE_BY_PINYIN, NEWCOMER_PERFORMANCE, RR_UNRATED_NOT_RATED, TIE_PINYIN,
                                 WE_AVERAGING, WE_GO_ROUND_ROBIN, WE_PER_GAME, RuleSet)
from qiyuan.rating.tables import DP_BY_P_HUNDREDTHS

M_PER_GAME, M_AVERAGING, M_GO_RR, M_NEWCOMER, M_PROVISIONAL, M_NOT_RATED = (
    METHOD_NAMES.index(m) for m in (R.METHOD_PER_GAME, R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN,
                                    R.METHOD_NEWCOMER, R.METHOD_PROVISIONAL, R.METHOD_NOT_RATED))
WE_CODE = {WE_PER_GAME: M_PER_GAME, WE_AVERAGING: M_AVERAGING, WE_GO_ROUND_ROBIN: M_GO_RR}


class Prepared:
    """A history's players, events, games and standings as the fast engine reads them."""

    def __init__(self, rules: RuleSet, players: list[Player], events: list[Event], games: GameColumns,
                 standings: Sequence[Standing]):
        self.rules = rules
        self.players = players
        self.events = events
        self.games = games
        self.P = len(players)
        self.ids = [p.id for p in players]
        self.index = {p.id: i for i, p in enumerate(players)}
        self._standings_by_event: dict[str, list[Standing]] | None = None
        self.event_index = {e.id: i for i, e in enumerate(events)}
        order = sorted(range(len(events)), key=lambda i: (events[i].end_date, events[i].start_date, events[i].id))
        self.event_order = np.array(order, dtype=np.int64)
        self.event_rank = np.empty(len(events), np.int64)
        self.event_rank[self.event_order] = np.arange(len(events))
        self.end = np.array([e.end_date.toordinal() for e in events], np.int64)
        self.start = np.array([e.start_date.toordinal() for e in events], np.int64)
        fmt = [EventFormat(e.format) for e in events]
        self.round_robin = np.array([f is EventFormat.ROUND_ROBIN for f in fmt], dtype=bool)
        self.method = np.array([WE_CODE[rules.we_method(f)] for f in fmt], np.int64)
        # 全国团体赛 (CGA Art. 6(四), Go): a national team event whose games carry boards is protected per board,
        # in the place of the champion rule.
        has_board = np.zeros(len(events), dtype=bool)
        if games.board is not None and len(games):
            has_board[np.unique(games.event[games.board > 0])] = True
        self.board_event = np.array([rules.board_rule and e.national and f is EventFormat.TEAM for f, e in
                                     zip(fmt, events)], dtype=bool) & has_board
        champion_ok = [
            rules.champion_rule and f.value in rules.champion_formats
            and not (rules.champion_max_days is not None and e.length_days > rules.champion_max_days)
            for f, e in zip(fmt, events)
        ]
        self.champion_ok = np.array(champion_ok, dtype=bool) | self.board_event
        # the champion rule would apply but the event lasted too long (its note, not its protection)
        self.champion_long = np.array([
            rules.champion_rule and f.value in rules.champion_formats
            and rules.champion_max_days is not None and e.length_days > rules.champion_max_days
            for f, e in zip(fmt, events)], dtype=bool) & ~self.board_event
        self.international = np.array([e.international for e in events], dtype=bool)
        if rules.international_min_score is not None:
            f = Fraction(rules.international_min_score)
            self.intl: tuple[int, int] | None = (f.numerator, f.denominator)
        else:
            self.intl = None
        self.interacting_rr = rules.newcomer_method == NEWCOMER_PERFORMANCE or \
            rules.rr_unrated_opponent != RR_UNRATED_NOT_RATED
        # Games sorted by event rank: each period is one slice.
        rank_of_game = self.event_rank[games.event]
        if rank_of_game.shape[0] and bool(np.all(rank_of_game[1:] >= rank_of_game[:-1])):
            gorder = np.arange(rank_of_game.shape[0])  # the file is already in event order
        else:
            gorder = np.argsort(rank_of_game.astype(np.int32), kind="stable")
        # (Kept in their compact dtypes; each period's slice is widened to int64 when used.)
        self.g_rank = rank_of_game[gorder]
        self.g_event = games.event[gorder]
        self.g_p1 = games.player1[gorder]
        self.g_p2 = games.player2[gorder]
        self.g_res = games.result[gorder]
        self.g_round = games.round[gorder]
        self.g_board = games.board[gorder] if games.board is not None else None
        # Standings: who is ranked 1 in each event.
        self.standings = standings
        self.has_rank1 = np.zeros(len(events), dtype=bool)
        keys = []
        for s_event, s_player in self._rank1(standings):
            self.has_rank1[s_event] = True
            keys.append(s_event * self.P + s_player)
        self.rank1_keys = np.unique(np.array(keys, dtype=np.int64))
        # Tables.
        dp = [NONE if v is None else v for v in DP_BY_P_HUNDREDTHS]
        self.dp_known = np.array([v is not None for v in DP_BY_P_HUNDREDTHS])
        if rules.dp_at_extremes is not None:
            dp[0], dp[100] = -rules.dp_at_extremes, rules.dp_at_extremes
            self.dp_known[:] = True
        self.dp = np.array(dp, np.int64)
        self.bonus = Fraction(rules.newcomer_bonus_per_half_point)
        self.start_male, self.start_female = rules.start_rating_male, rules.start_rating_female
        self.female = np.array([getattr(p.gender, "value", p.gender) == "F" for p in players], dtype=bool)
        self.has_gender = np.array([p.gender is not None for p in players], dtype=bool)

    # --- the list order's inputs (名册排序)

    @cached_property
    def id_rank(self) -> np.ndarray:
        """Each player's rank by id."""
        order = sorted(range(self.P), key=lambda i: self.players[i].id)
        rank = np.empty(self.P, np.int64)
        rank[np.array(order, dtype=np.int64)] = np.arange(self.P)
        return rank

    @cached_property
    def tie_rank(self) -> np.ndarray:
        """Each player's rank by name in the rule set's tie order (0 for all when ties go by id)."""
        return name_ranks(self.rules.list_tie_order, [p.name for p in self.players])

    @cached_property
    def pinyin_rank(self) -> np.ndarray:
        """Each player's rank by the pinyin of his name (the Beijing–Shanghai inactive list)."""
        if self.rules.list_tie_order == TIE_PINYIN:
            return self.tie_rank
        return name_ranks(TIE_PINYIN, [p.name for p in self.players])

    @cached_property
    def registered(self) -> np.ndarray:
        """Registration dates as ordinals (unknown: after every date)."""
        return np.array([(p.registered_on or date.max).toordinal() for p in self.players], np.int64)

    @property
    def inactive_by_pinyin(self) -> bool:
        return self.rules.inactive_list_order == INACTIVE_BY_PINYIN

    # --- standings and games of one event

    @cached_property
    def _columnar_standings(self) -> bool:
        """The standings are columns indexed like these events and players (no conversion needed)."""
        st = self.standings
        return isinstance(st, StandingColumns) and st.event_ids == self.games.event_ids \
            and st.player_ids == self.games.player_ids

    def _own_columns(self, standings) -> bool:
        return standings is self.standings and self._columnar_standings

    def _rank1(self, standings) -> Iterator[tuple[int, int]]:
        if self._own_columns(standings):
            sel = standings.rank == 1
            yield from zip(standings.event[sel].tolist(), standings.player[sel].tolist())
            return
        for s in standings:
            if s.rank == 1 and s.event_id in self.event_index and s.player_id in self.index:
                yield self.event_index[s.event_id], self.index[s.player_id]

    def game_slice(self, e: int) -> tuple[int, int]:
        """The positions of event ``e``'s games in the sorted arrays."""
        lo = int(np.searchsorted(self.g_rank, self.event_rank[e], side="left"))
        hi = int(np.searchsorted(self.g_rank, self.event_rank[e], side="right"))
        return lo, hi

    def games_of(self, e: int) -> list[Game]:
        """The games of event ``e`` as objects (for an event the reference rates, or an explanation)."""
        lo, hi = self.game_slice(e)
        ids, event_id = self.games.player_ids, self.events[e].id
        boards = self.g_board[lo:hi].tolist() if self.g_board is not None else [0] * (hi - lo)
        return [Game(event_id, r, ids[a], ids[b], RESULT_CODES[c], board or None) for r, a, b, c, board in zip(
            self.g_round[lo:hi].tolist(), self.g_p1[lo:hi].tolist(), self.g_p2[lo:hi].tolist(),
            self.g_res[lo:hi].tolist(), boards)]

    def standings_of(self, event_id: str) -> list[Standing]:
        """The standings of one event (for an event the reference rates, or an explanation)."""
        st = self.standings
        if self._own_columns(st):
            return [st[int(i)] for i in np.flatnonzero(st.event == self.event_index[event_id])]
        if self._standings_by_event is None:  # (grouped once: the reference rates many events of a run)
            self._standings_by_event = {}
            for s in st:
                self._standings_by_event.setdefault(s.event_id, []).append(s)
        return list(self._standings_by_event.get(event_id, ()))
