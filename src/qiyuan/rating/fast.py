"""快速计算: the whole history vectorized with NumPy, with exactly the reference engine's results.

The reference engine (``qiyuan.rating.history``) reads like the texts, game by
game. This module computes the same lists and changes period by period on
arrays of integer hundredths:

* every played game becomes two sides (player, opponent, W); sides are grouped
  per (player, event) with exact integer sums;
* We from the Table 2 array indexed by |D| (per game, averaging with Rc
  rounded half up, or the Go round robin M·Pa − ½), ΔR = K(W − We);
* K from the game counts (published count + this period's games of events
  that ended before the event started) and the latch;
* the champion and international protections of an event's ΣΔR;
* newcomers: Ru (CGA Art. 7) or the provisional start (Beijing–Shanghai); in a
  CGA round robin also the repeated zero-score rule, Ra = Rar − Dpa·n/(n+1),
  the round-robin Ru and the unrated opponent's rating used by rated players
  (Ra and Ru as exact fractions, only for the few rows that need them);
* publication: rounding half up, first ratings, activity and removal.

Only a round robin with an unrated player under a variant whose newcomers
are not rated by performance while unrated players still enter the others'
calculations (e.g. provisional newcomers with ``rr_unrated_opponent`` other
than ``not_rated``) is rated by the reference ``rate_event`` itself, with the
K counts and states this module keeps. Explanations (``explain=``) come from
the reference ``rate_period`` run on the player's events from the states this
module had at each period's start.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np
import polars as pl

from qiyuan.rating import results as R
from qiyuan.rating.calendar import add_months, previous_publication_date, publication_dates
from qiyuan.rating.columnar import CODE_OF_RESULT, RESULT_CODES, GameColumns, StandingColumns
from qiyuan.rating.event import rate_event
from qiyuan.rating.exact import round_half_up, to_decimal
from qiyuan.rating.model import Event, EventFormat, Game, Player, Result, Standing
from qiyuan.rating.period import newcomer_window_start, rate_period
from qiyuan.rating.rules import (NEWCOMER_NOT_RATED, NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL, RR_UNRATED_EVENT_RU,
                                 RR_UNRATED_NOT_RATED, RR_UNRATED_PROVISIONAL, RR_UNRATED_RA, WE_AVERAGING,
                                 WE_GO_ROUND_ROBIN, WE_PER_GAME, ZERO_SCORE_OFF, ZERO_SCORE_ONCE, RuleSet)
from qiyuan.rating.state import NewcomerRecord, PlayerState, starting_rating
from qiyuan.rating.tables import DP_BY_P_HUNDREDTHS, PD_HUNDREDTHS, PD_TOP_D

__all__ = ["FastHistory", "compute_history_fast"]

# Status codes = the list order of results.STATUS_ORDER.
STATUS_NAMES = tuple(sorted(R.STATUS_ORDER, key=R.STATUS_ORDER.get))
ACTIVE, INACTIVE, UNRATED, REMOVED = (R.STATUS_ORDER[s] for s in (R.ACTIVE, R.INACTIVE, R.UNRATED, R.REMOVED))
# Change methods as codes.
METHOD_NAMES = (R.METHOD_PER_GAME, R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN, R.METHOD_NEWCOMER,
                R.METHOD_PROVISIONAL, R.METHOD_NOT_RATED)
M_PER_GAME, M_AVERAGING, M_GO_RR, M_NEWCOMER, M_PROVISIONAL, M_NOT_RATED = range(6)
_WE_CODE = {WE_PER_GAME: M_PER_GAME, WE_AVERAGING: M_AVERAGING, WE_GO_ROUND_ROBIN: M_GO_RR}

PD = np.array(PD_HUNDREDTHS, dtype=np.int64)  # Table 2 by |D| (index 736: every |D| > 735)
_WIN, _LOSS, _DRAW = (CODE_OF_RESULT[r] for r in (Result.WIN, Result.LOSS, Result.DRAW))
_FWIN, _FLOSS = CODE_OF_RESULT[Result.FORFEIT_WIN], CODE_OF_RESULT[Result.FORFEIT_LOSS]
# Score in hundredths of a point for (player1, player2), by result code: rated W, and the champion's points.
W1 = np.zeros(len(CODE_OF_RESULT), np.int64)
W2 = np.zeros(len(CODE_OF_RESULT), np.int64)
W1[_WIN], W2[_LOSS], W1[_DRAW], W2[_DRAW] = 100, 100, 50, 50
POINTS1, POINTS2 = W1.copy(), W2.copy()
POINTS1[_FWIN], POINTS2[_FLOSS] = 100, 100
NONE = np.iinfo(np.int64).min // 1024  # "no value" in int arrays (ratings, K, We): far below any real value


def expected_hundredths(d: np.ndarray) -> np.ndarray:
    """附表2 vectorized: PD(D) in hundredths for integer differences D."""
    pd = PD[np.minimum(np.abs(d), PD_TOP_D)]
    return np.where(d >= 0, pd, 100 - pd)


def _round_half_up_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """四舍五入 of num/den (den > 0) with integers only: floor(num/den + ½)."""
    return (2 * num + den) // (2 * den)


class _Groups:
    """Exact integer sums, counts and maxima of values over groups 0 … n−1 (no floats, no sort)."""

    def __init__(self, group: np.ndarray, n: int):
        self.group = group
        self.n = n

    def count(self) -> np.ndarray:
        return np.bincount(self.group, minlength=self.n).astype(np.int64)

    def sum(self, values: np.ndarray) -> np.ndarray:
        return _int_bincount(self.group, values, self.n)

    def max(self, values: np.ndarray, empty: int = 0) -> np.ndarray:
        out = np.full(self.n, empty, np.int64)
        np.maximum.at(out, self.group, values.astype(np.int64))
        return out


def _decimal_h(h: int) -> Decimal:
    return Decimal(int(h)).scaleb(-2)


def _hundredths(x: Decimal) -> int:
    scaled = x * 100
    if scaled != scaled.to_integral_value():
        raise ArithmeticError(f"{x} is not a whole number of hundredths")
    return int(scaled)


# --------------------------------------------------------------------------------------------
# The result


@dataclass
class _ListColumns:
    date: date
    rating: np.ndarray  # NONE where unrated
    exact_h: np.ndarray  # exact value in hundredths where it is one (NONE where unrated)
    exact_override: dict[int, tuple[int, int]]  # first ratings: the exact value as (numerator, denominator)
    games: np.ndarray
    status: np.ndarray
    order: np.ndarray  # the list's order (player indices)


@dataclass
class _ChangeColumns:
    """Changes of the vectorized events; complex events' changes are kept as objects."""

    event: np.ndarray  # event index
    player: np.ndarray
    games: np.ndarray
    W: np.ndarray  # hundredths
    We: np.ndarray  # hundredths, NONE = None
    K: np.ndarray  # NONE = None
    delta: np.ndarray  # hundredths
    raw_delta: np.ndarray
    method: np.ndarray
    N: np.ndarray
    Ro: np.ndarray  # NONE = None
    Rc_num: np.ndarray  # Rc = Rc_num / Rc_den (averaging, Go round robin, newcomer); den 0 = None
    Rc_den: np.ndarray
    Pd: np.ndarray  # NONE = None
    list_index: np.ndarray


@dataclass
class FastHistory:
    """The fast path's history: the same content as ``History``, held as arrays.

    ``lists`` and ``changes`` build the reference's objects on demand (slow on
    millions of rows); ``list_frames()`` and ``changes_frame()`` give the same
    content as polars frames for writing files.
    """

    rules: RuleSet
    player_ids: tuple[str, ...]
    event_ids: tuple[str, ...]
    event_rank: np.ndarray
    list_dates: list[date]
    _lists: list[_ListColumns] = field(default_factory=list, repr=False)
    _vector_changes: list[_ChangeColumns] = field(default_factory=list, repr=False)
    _object_changes: list[tuple[int, R.EventChange]] = field(default_factory=list, repr=False)  # (list index, change)
    _id_rank: np.ndarray | None = field(default=None, repr=False)
    _final: _Run | None = field(default=None, repr=False)  # the run's last state, for final_states
    _explain: dict[str, list] = field(default_factory=dict, repr=False)  # player → (list date, events, states)

    # --- lists

    def _entries(self, lc: _ListColumns) -> list[R.ListEntry]:
        ids = self.player_ids
        out = []
        for i in lc.order.tolist():
            rating = int(lc.rating[i])
            if rating == NONE:
                exact = None
            else:
                first = lc.exact_override.get(i)
                exact = _decimal_h(lc.exact_h[i]) if first is None else to_decimal(Fraction(*first))
            out.append(R.ListEntry(ids[i], None if rating == NONE else rating, exact, int(lc.games[i]),
                                   STATUS_NAMES[lc.status[i]]))
        return out

    @property
    def final_states(self) -> dict[str, PlayerState]:
        """Every player's state after the last list, as ``History.final_states`` (what the office stores)."""
        run = self._final
        if run is None:
            return {}
        return run.states(None, self._lists[-1].exact_override)

    def explanation_history(self, player_id: str):
        """A reference ``History`` holding the player's calculations, for ``render_explanation``.

        For each period in which he played, the reference ``rate_period`` rates his
        events from the players' states that the fast path had at that period's
        start: the same changes (with every calculation line) and the same list
        entry as the reference engine's. Needs ``compute_history_fast(…, explain=player_id)``.
        """
        from qiyuan.rating.history import History

        if player_id not in self._explain:
            raise KeyError(f"the history was not computed with explain={player_id!r}")
        history = History(rules=self.rules)
        eng = self._final.eng if self._final is not None else None
        for list_date, event_indices, states in self._explain[player_id]:
            events = [eng.events[e] for e in event_indices]
            games = [g for e in event_indices for g in eng.games_of(e)]
            standings = [s for e in event_indices for s in eng.standings_of(eng.events[e].id)]
            result = rate_period(self.rules, states, events, games, standings, list_date)
            entry = result.published.by_player()[player_id]
            history.lists.append(R.PublishedList(list_date, [entry]))
            history.changes.extend(c for c in result.changes if c.player_id == player_id)
        return history

    @property
    def lists(self) -> list[R.PublishedList]:
        return [R.PublishedList(lc.date, self._entries(lc)) for lc in self._lists]

    def list_frames(self) -> Iterator[tuple[date, pl.DataFrame]]:
        ids = pl.Series(self.player_ids, dtype=pl.String)
        status = pl.Series(STATUS_NAMES, dtype=pl.String)
        for lc in self._lists:
            order = pl.Series(lc.order)
            rating = pl.Series(lc.rating[lc.order])
            yield lc.date, pl.DataFrame({
                "player_index": order,
                "player_id": ids.gather(order),
                "rating": pl.select(pl.when(rating != NONE).then(rating)).to_series(),
                "games": pl.Series(lc.games[lc.order]),
                "status": status.gather(pl.Series(lc.status[lc.order])),
            })

    # --- changes

    def _changes_in_order(self) -> list[tuple[int, int, object]]:
        """(event rank, player id rank, source) in the reference's order."""
        rows: list[tuple[int, int, object]] = []
        index = {p: i for i, p in enumerate(self.player_ids)}
        event_index = {e: i for i, e in enumerate(self.event_ids)}
        for _, change in self._object_changes:
            rows.append((int(self.event_rank[event_index[change.event_id]]), int(self.id_rank[index[change.player_id]]),
                         change))
        for chunk_no, cc in enumerate(self._vector_changes):
            for j, (e, p) in enumerate(zip(cc.event.tolist(), cc.player.tolist())):
                rows.append((int(self.event_rank[e]), int(self.id_rank[p]), (chunk_no, j)))
        rows.sort(key=lambda r: (r[0], r[1]))
        return rows

    @property
    def id_rank(self) -> np.ndarray:
        if self._id_rank is None:
            order = sorted(range(len(self.player_ids)), key=self.player_ids.__getitem__)
            rank = np.empty(len(order), np.int64)
            rank[np.array(order, dtype=np.int64)] = np.arange(len(order))
            self._id_rank = rank
        return self._id_rank

    def _change(self, cc: _ChangeColumns, j: int) -> R.EventChange:
        def opt(x: int) -> Decimal | None:
            return None if x == NONE else _decimal_h(x)

        method = METHOD_NAMES[cc.method[j]]
        rc = None if cc.Rc_den[j] == 0 else to_decimal(Fraction(int(cc.Rc_num[j]), int(cc.Rc_den[j])))
        return R.EventChange(
            player_id=self.player_ids[cc.player[j]], event_id=self.event_ids[cc.event[j]],
            list_date=self.list_dates[cc.list_index[j]], games=int(cc.games[j]), W=_decimal_h(cc.W[j]),
            We=opt(cc.We[j]), K=None if cc.K[j] == NONE else int(cc.K[j]), delta=_decimal_h(cc.delta[j]),
            method=method, Rc=rc, N=int(cc.N[j]) if method != R.METHOD_NOT_RATED else None, Pd=opt(cc.Pd[j]),
            Ro=None if cc.Ro[j] == NONE else Decimal(int(cc.Ro[j])),
            raw_delta=opt(cc.raw_delta[j]),
        )

    @property
    def changes(self) -> list[R.EventChange]:
        out = []
        for _, _, source in self._changes_in_order():
            if isinstance(source, R.EventChange):
                out.append(source)
            else:
                chunk_no, j = source
                out.append(self._change(self._vector_changes[chunk_no], j))
        return out

    def explain(self, player_id: str) -> list[R.EventChange]:
        return [c for c in self.changes if c.player_id == player_id]

    def changes_frame(self) -> pl.DataFrame:
        """changes.csv's columns, in the reference's order; W, We and ΔR written from hundredths."""
        from qiyuan.formats.rating_lists_csv import hundredths_expr

        parts = {k: [] for k in ("__e", "__p", "player", "event", "games", "W", "We", "K", "delta", "list", "method")}
        for cc in self._vector_changes:
            for key, values in (("__e", self.event_rank[cc.event]), ("__p", self.id_rank[cc.player]),
                                ("player", cc.player), ("event", cc.event), ("games", cc.games), ("W", cc.W),
                                ("We", cc.We), ("K", cc.K), ("delta", cc.delta), ("list", cc.list_index),
                                ("method", cc.method)):
                parts[key].append(np.asarray(values, np.int64))
        if self._object_changes:
            index = {p: i for i, p in enumerate(self.player_ids)}
            event_index = {e: i for i, e in enumerate(self.event_ids)}
            objs = self._object_changes
            e_idx = np.array([event_index[c.event_id] for _, c in objs], np.int64)
            p_idx = np.array([index[c.player_id] for _, c in objs], np.int64)
            for key, values in (
                ("__e", self.event_rank[e_idx]), ("__p", self.id_rank[p_idx]), ("player", p_idx), ("event", e_idx),
                ("games", [c.games for _, c in objs]), ("W", [_hundredths(c.W) for _, c in objs]),
                ("We", [NONE if c.We is None else _hundredths(c.We) for _, c in objs]),
                ("K", [NONE if c.K is None else c.K for _, c in objs]),
                ("delta", [_hundredths(c.delta) for _, c in objs]), ("list", [n for n, _ in objs]),
                ("method", [METHOD_NAMES.index(c.method) for _, c in objs]),
            ):
                parts[key].append(np.asarray(values, np.int64))
        cols = {k: (np.concatenate(v) if v else np.zeros(0, np.int64)) for k, v in parts.items()}
        order = np.lexsort((cols["__p"], cols["__e"]))
        frame = pl.DataFrame({k: v[order] for k, v in cols.items() if not k.startswith("__")})
        ids = pl.Series(self.player_ids, dtype=pl.String)
        events = pl.Series(self.event_ids, dtype=pl.String)
        dates = pl.Series([d.isoformat() for d in self.list_dates], dtype=pl.String)
        methods = pl.Series(METHOD_NAMES, dtype=pl.String)
        return pl.DataFrame({
            "player_id": ids.gather(frame["player"]), "event_id": events.gather(frame["event"]),
            "games": frame["games"],
            "W": frame.select(hundredths_expr("W")).to_series(),
            "We": frame.select(pl.when(pl.col("We") != NONE).then(hundredths_expr("We")).otherwise(pl.lit("")))
            .to_series(),
            "K": frame.select(pl.when(pl.col("K") != NONE).then(pl.col("K"))).to_series(),
            "delta": frame.select(hundredths_expr("delta")).to_series(),
            "list_date": dates.gather(frame["list"]) if len(dates) else pl.Series([], dtype=pl.String),
            "method": methods.gather(frame["method"]),
        })


# --------------------------------------------------------------------------------------------
# The computation


class _Engine:
    def __init__(self, rules: RuleSet, players: list[Player], events: list[Event], games: GameColumns,
                 standings: Sequence[Standing]):
        self.rules = rules
        self.players = players
        self.events = events
        self.games = games
        self.P = len(players)
        self.index = {p.id: i for i, p in enumerate(players)}
        self.event_index = {e.id: i for i, e in enumerate(events)}
        order = sorted(range(len(events)), key=lambda i: (events[i].end_date, events[i].start_date, events[i].id))
        self.event_order = np.array(order, dtype=np.int64)
        self.event_rank = np.empty(len(events), np.int64)
        self.event_rank[self.event_order] = np.arange(len(events))
        self.end = np.array([e.end_date.toordinal() for e in events], np.int64)
        self.start = np.array([e.start_date.toordinal() for e in events], np.int64)
        fmt = [EventFormat(e.format) for e in events]
        self.round_robin = np.array([f is EventFormat.ROUND_ROBIN for f in fmt])
        self.method = np.array([_WE_CODE[rules.we_method(f)] for f in fmt], np.int64)
        champion_ok = [
            rules.champion_rule and f.value in rules.champion_formats
            and not (rules.champion_max_days is not None and e.length_days > rules.champion_max_days)
            for f, e in zip(fmt, events)
        ]
        self.champion_ok = np.array(champion_ok, dtype=bool)
        self.international = np.array([e.international for e in events], dtype=bool)
        if rules.international_min_score is not None:
            f = Fraction(rules.international_min_score)
            self.intl = (f.numerator, f.denominator)
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

    def _own_columns(self, standings) -> bool:
        """Standings in columns indexed like this engine's events and players (no conversion needed)."""
        if not isinstance(standings, StandingColumns):
            return False
        if not hasattr(self, "_own"):
            self._own = standings.event_ids == self.games.event_ids and standings.player_ids == self.games.player_ids
        return self._own

    def _rank1(self, standings) -> Iterator[tuple[int, int]]:
        if self._own_columns(standings):
            sel = standings.rank == 1
            yield from zip(standings.event[sel].tolist(), standings.player[sel].tolist())
            return
        for s in standings:
            if s.rank == 1 and s.event_id in self.event_index and s.player_id in self.index:
                yield self.event_index[s.event_id], self.index[s.player_id]

    def games_of(self, e: int) -> list[Game]:
        """The games of event ``e`` as objects (for an event rated by the reference)."""
        lo = int(np.searchsorted(self.g_rank, self.event_rank[e], side="left"))
        hi = int(np.searchsorted(self.g_rank, self.event_rank[e], side="right"))
        ids, event_id = self.games.player_ids, self.events[e].id
        return [Game(event_id, r, ids[a], ids[b], RESULT_CODES[c]) for r, a, b, c in zip(
            self.g_round[lo:hi].tolist(), self.g_p1[lo:hi].tolist(), self.g_p2[lo:hi].tolist(),
            self.g_res[lo:hi].tolist())]

    def standings_of(self, event_id: str) -> list[Standing]:
        """The standings of one event (for an event rated by the reference)."""
        st = self.standings
        if self._own_columns(st):
            return [st[int(i)] for i in np.flatnonzero(st.event == self.event_index[event_id])]
        return [s for s in st if s.event_id == event_id]


def compute_history_fast(rules: RuleSet, players: Sequence[Player], events: Sequence[Event], games: Sequence[Game],
                         standings: Sequence[Standing] = (), *,
                         progress: Callable[[int, int], None] | None = None,
                         explain: str | None = None) -> FastHistory:
    """Rate a whole history like ``compute_history``, vectorized: the same lists and changes.

    ``explain``: a player id whose calculations ``explanation_history`` will give in full.
    """
    players = list(players)
    duplicates = sorted(i for i, n in Counter(p.id for p in players).items() if n > 1)
    if duplicates:
        raise ValueError(f"player id(s) given twice: {', '.join(duplicates)}")
    events = list(events)
    player_ids = tuple(p.id for p in players)
    event_ids = tuple(e.id for e in events)
    try:
        columns = GameColumns.from_games(games, event_ids, player_ids)
    except KeyError as exc:
        raise ValueError(f"game of unknown event or player: {exc.args[0]}") from None
    eng = _Engine(rules, players, events, columns, standings)
    history = FastHistory(rules, player_ids, event_ids, eng.event_rank, [])
    if explain is not None:
        if explain not in eng.index:
            raise ValueError(f"unknown player {explain!r}")
        history._explain[explain] = []  # filled period by period (he may play in none)
    if not events:
        return history
    first, last = events[int(eng.event_order[0])], events[int(eng.event_order[-1])]
    dates = publication_dates(rules.publication_months, first.end_date, last.end_date)
    history.list_dates = dates
    _Run(eng, history, dates, None if explain is None else eng.index[explain]).run(progress)

    return history


class _Records:
    """Newcomers' counted events (NewcomerRecord) as arrays.

    Each record carries a ``value`` as num/den: Ru × games (performance rule,
    so the first rating is Σ value / Σ games) or ΔR (provisional rule, so it is
    start + Σ value). Records on the common denominator ``den0`` are summed as
    integers; others (a round robin's Ra has any denominator) exactly as
    fractions.
    """

    FIELDS = ("player", "event", "end", "games", "num", "den")

    def __init__(self, den0: int):
        self.den0 = den0
        for name in self.FIELDS:
            setattr(self, name, np.zeros(0, np.int64))

    def add(self, player, event, end, games, num, den) -> None:
        for name, values in zip(self.FIELDS, (player, event, end, games, num, den)):
            setattr(self, name, np.concatenate([getattr(self, name), np.asarray(values, np.int64)]))

    def add_fractions(self, rows: list[tuple[int, int, int, int, Fraction]]) -> None:
        """(player, event, end, games, value) with exact fractional values."""
        if not rows:
            return
        num, den = [], []
        for *_, value in rows:
            if self.den0 % value.denominator == 0:
                num.append(value.numerator * (self.den0 // value.denominator))
                den.append(self.den0)
            else:
                num.append(value.numerator)
                den.append(value.denominator)
        self.add(*([r[i] for r in rows] for i in range(4)), num, den)

    def keep(self, mask: np.ndarray) -> None:
        for name in self.FIELDS:
            setattr(self, name, getattr(self, name)[mask])

    def totals(self, n: int) -> np.ndarray:
        return _int_bincount(self.player, self.games, n)

    def value_sums(self, players: np.ndarray, n: int) -> tuple[np.ndarray, dict[int, Fraction]]:
        """Σ value of each player of ``players``: num over den0 (array), or a Fraction where a record is off it."""
        sel = np.isin(self.player, players)
        regular = self.den[sel] == self.den0
        num = _int_bincount(self.player[sel][regular], self.num[sel][regular], n)
        odd: dict[int, Fraction] = {}
        for p, a, b in zip(self.player[sel][~regular].tolist(), self.num[sel][~regular].tolist(),
                           self.den[sel][~regular].tolist()):
            odd[p] = odd.get(p, Fraction(0)) + Fraction(a, b)
        for p in odd:
            odd[p] += Fraction(int(num[p]), self.den0)
        return num, odd


class _Run:
    """The period loop with the players' state as arrays."""

    def __init__(self, eng: _Engine, history: FastHistory, dates: list[date], watch: int | None = None):
        self.eng = eng
        self.history = history
        self.dates = dates
        self.watch = watch  # a player whose calculations will be explained
        rules = eng.rules
        start = previous_publication_date(rules.publication_months, dates[0])
        P = eng.P
        self.rating = np.full(P, NONE, np.int64)
        self.games = np.zeros(P, np.int64)
        self.latched = np.zeros(P, dtype=bool)
        self.status = np.full(P, UNRATED, np.int8)
        self.rated_since = np.zeros(P, np.int64)  # ordinal; 0 = none
        self.inactive_since = np.zeros(P, np.int64)
        self.cleared_seq = np.zeros(P, np.int64)
        self.female = np.array([getattr(p.gender, "value", p.gender) == "F" for p in eng.players])
        self.has_gender = np.array([p.gender is not None for p in eng.players])
        # The state when the history starts (as state.initial_states, without an object per player).
        for i, p in enumerate(eng.players):
            rating = p.rating
            if rating is not None:
                value = int(rating) if rating == rating.to_integral_value() else round_half_up(rating)
            elif p.dan is not None or p.reference_rating is not None:
                value = starting_rating(rules, p)
            else:
                value = None
            if value is not None:
                self.rating[i] = value
                self.games[i] = p.games
        rated = self.rating != NONE
        self.status[rated] = ACTIVE
        self.rated_since[rated] = start.toordinal()
        self.latched = np.array([p.k_latched for p in eng.players], dtype=bool)
        if rules.k_latch_rating is not None:
            self.latched |= rated & (self.rating >= rules.k_latch_rating)
        self.exact_h = np.where(self.rating != NONE, self.rating * 100, NONE)
        # Activity log: (player, end ordinal, games, sequence number).
        self.log_player = np.zeros(0, np.int64)
        self.log_end = np.zeros(0, np.int64)
        self.log_games = np.zeros(0, np.int64)
        self.log_seq = np.zeros(0, np.int64)
        self.seq = 1
        # Newcomer records: value = Ru × games over the bonus's denominator, or ΔR in hundredths.
        den0 = eng.bonus.denominator if rules.newcomer_method == NEWCOMER_PERFORMANCE else 100
        self.records = _Records(den0)

    def states(self, players: np.ndarray | None, override: dict[int, tuple[int, int]]) -> dict[str, PlayerState]:
        """``PlayerState`` of the given players (all if None) as the reference keeps them between lists."""
        eng = self.eng
        ids, events = self.history.player_ids, self.history.event_ids
        chosen = np.arange(eng.P) if players is None else np.asarray(players, np.int64)
        wanted = np.zeros(eng.P, dtype=bool)
        wanted[chosen] = True
        valid = (self.log_seq >= self.cleared_seq[self.log_player]) & wanted[self.log_player]
        activity: dict[int, list] = {}
        for p, end, g in zip(self.log_player[valid].tolist(), self.log_end[valid].tolist(),
                             self.log_games[valid].tolist()):
            activity.setdefault(p, []).append((date.fromordinal(end), g))
        recs = self.records
        newcomer: dict[int, list] = {}
        performance = eng.rules.newcomer_method == NEWCOMER_PERFORMANCE
        mine = np.flatnonzero(wanted[recs.player])
        for k in mine[np.argsort(self.history.event_rank[recs.event[mine]], kind="stable")].tolist():
            p, g = int(recs.player[k]), int(recs.games[k])
            value = Fraction(int(recs.num[k]), int(recs.den[k]))
            newcomer.setdefault(p, []).append(NewcomerRecord(
                events[int(recs.event[k])], date.fromordinal(int(recs.end[k])), g,
                ru=value / g if performance else None,
                delta=None if performance else Decimal(value.numerator) / Decimal(value.denominator)))
        keeps_activity = eng.rules.activity_window_months is not None  # else every rated player is active
        states = {}
        for i in chosen.tolist():
            rating = int(self.rating[i])
            rated = rating != NONE
            if rated:
                first = override.get(i)
                exact = to_decimal(Fraction(*first)) if first is not None else _decimal_h(self.exact_h[i])
            states[ids[i]] = PlayerState(
                player_id=ids[i], gender=eng.players[i].gender, rating=rating if rated else None,
                exact=exact if rated else None, games=int(self.games[i]), latched=bool(self.latched[i]),
                status=STATUS_NAMES[self.status[i]],
                rated_since=date.fromordinal(int(self.rated_since[i])) if self.rated_since[i] else None,
                inactive_since=date.fromordinal(int(self.inactive_since[i])) if self.inactive_since[i] else None,
                activity=tuple(sorted(activity.get(i, ()))) if rated and keeps_activity else (),
                newcomer=tuple(newcomer.get(i, ())) if not rated else (),
            )
        return states

    # --- activity log

    def _log(self, player: np.ndarray, end: np.ndarray, games: np.ndarray) -> None:
        keep = games > 0
        self.log_player = np.concatenate([self.log_player, player[keep]])
        self.log_end = np.concatenate([self.log_end, end[keep]])
        self.log_games = np.concatenate([self.log_games, games[keep]])
        self.log_seq = np.concatenate([self.log_seq, np.full(int(keep.sum()), self.seq, np.int64)])
        self.seq += 1

    def _games_between(self, since: int, until: int) -> np.ndarray:
        valid = (self.log_end >= since) & (self.log_end < until) & (self.log_seq >= self.cleared_seq[self.log_player])
        return _int_bincount(self.log_player[valid], self.log_games[valid], self.eng.P)

    def _prune_log(self, keep_from: int) -> None:
        keep = self.log_end >= keep_from
        self.log_player, self.log_end = self.log_player[keep], self.log_end[keep]
        self.log_games, self.log_seq = self.log_games[keep], self.log_seq[keep]

    # --- the loop

    def run(self, progress) -> None:
        eng = self.eng
        i0 = 0
        n_events = len(eng.events)
        for n, list_date in enumerate(self.dates):
            L = list_date.toordinal()
            i1 = i0
            while i1 < n_events and eng.end[eng.event_order[i1]] < L:
                i1 += 1
            self._period(n, list_date, i0, i1)
            i0 = i1
            if progress is not None:
                progress(n + 1, len(self.dates))
        self.history._final = self

    def _snapshot(self, list_date: date, g_event: np.ndarray, p1: np.ndarray, p2: np.ndarray) -> None:
        """For --explain: the states of everyone in the watched player's events of this period."""
        w = self.watch
        his_events = np.unique(g_event[(p1 == w) | (p2 == w)])
        if not his_events.shape[0]:
            return
        in_his = np.isin(g_event, his_events)
        players = np.unique(np.concatenate([p1[in_his], p2[in_his]]))
        previous = self.history._lists[-1].exact_override if self.history._lists else {}
        order = his_events[np.argsort(self.history.event_rank[his_events], kind="stable")]
        self.history._explain[self.history.player_ids[w]].append(
            (list_date, order.tolist(), self.states(players, previous)))

    def _window_start(self, list_date: date) -> int:
        return newcomer_window_start(self.eng.rules, list_date).toordinal()

    def _newcomer_base(self, list_date: date) -> np.ndarray:
        """K's count of each unrated player: his counted games inside the window (older records drop out)."""
        self.records.keep(self.records.end >= self._window_start(list_date))
        return self.records.totals(self.eng.P)

    def _period(self, n: int, list_date: date, i0: int, i1: int) -> None:
        eng, rules = self.eng, self.eng.rules
        P = eng.P
        lo = int(np.searchsorted(eng.g_rank, i0, side="left"))
        hi = int(np.searchsorted(eng.g_rank, i1, side="left"))
        g_rank, g_event = eng.g_rank[lo:hi].astype(np.int64), eng.g_event[lo:hi].astype(np.int64)
        p1, p2 = eng.g_p1[lo:hi].astype(np.int64), eng.g_p2[lo:hi].astype(np.int64)
        res = eng.g_res[lo:hi].astype(np.int64)
        if self.watch is not None:
            self._snapshot(list_date, g_event, p1, p2)
        rated = self.rating != NONE
        base = np.where(rated, self.games, self._newcomer_base(list_date))

        # Events that must go through the reference (an interacting round robin with an unrated player).
        n_ev = i1 - i0
        complex_ev = np.zeros(n_ev, dtype=bool)
        if eng.interacting_rr and hi > lo:
            unrated_game = ~rated[p1] | ~rated[p2]
            has_unrated = np.bincount(g_rank[unrated_game] - i0, minlength=n_ev) > 0
            complex_ev = has_unrated & eng.round_robin[eng.event_order[i0:i1]]
        # Under the performance rule they are vectorized too (Ra, Ru, the repeated zero-score rule);
        # under other newcomer rules they go through the reference rate_event.
        if rules.newcomer_method == NEWCOMER_PERFORMANCE:
            interacting_game, complex_ev = complex_ev[g_rank - i0], np.zeros(n_ev, dtype=bool)
        else:
            interacting_game = np.zeros(hi - lo, dtype=bool)
        simple_game = ~complex_ev[g_rank - i0]

        rows = self._simple_rows(list_date, g_rank[simple_game], g_event[simple_game], p1[simple_game],
                                 p2[simple_game], res[simple_game], rated, interacting_game[simple_game])
        # Counted games of this period's events, for K: (player, end, games) of every row so far.
        cnt_player, cnt_end, cnt_games = [rows["player"]], [eng.end[rows["event"]]], [rows["games"]]
        object_changes: list[R.EventChange] = []
        for r in np.flatnonzero(complex_ev).tolist():
            e = int(eng.event_order[i0 + r])
            object_changes += self._reference_event(e, list_date, base, rated, cnt_player, cnt_end, cnt_games)
        self._finish_simple_rows(rows, base, cnt_player, cnt_end, cnt_games)
        for c in object_changes:
            self.history._object_changes.append((n, c))
        rows_cc = _ChangeColumns(**{k: v for k, v in rows.items() if k != "champion"}, list_index=np.full(
            rows["player"].shape[0], n, np.int64))
        self.history._vector_changes.append(rows_cc)

        # Publication.
        delta_sum = _int_bincount(rows["player"], rows["delta"], P)
        games_sum = _int_bincount(rows["player"], rows["games"], P)
        log_p = [rows["player"]]
        log_e = [eng.end[rows["event"]]]
        log_g = [np.where(rated[rows["player"]], rows["games"], 0)]
        for c in object_changes:
            p = eng.index[c.player_id]
            delta_sum[p] += _hundredths(c.delta)
            games_sum[p] += c.games
            if rated[p]:
                log_p.append(np.array([p]))
                log_e.append(np.array([eng.end[eng.event_index[c.event_id]]]))
                log_g.append(np.array([c.games]))
        self._publish(n, list_date, rated, delta_sum, games_sum, np.concatenate(log_p), np.concatenate(log_e),
                      np.concatenate(log_g))

    # --- the vectorized events

    def _simple_rows(self, list_date, g_rank, g_event, p1, p2, res, rated, interacting) -> dict[str, np.ndarray]:
        eng, rules = self.eng, self.eng.rules
        P = eng.P
        # One row per (event, player) of every game (played or not), in (event rank, player) order.
        keys = np.concatenate([g_rank * P + p1, g_rank * P + p2])
        pe_keys, inverse = np.unique(keys, return_inverse=True)
        n_rows = pe_keys.shape[0]
        row_rank = pe_keys // P
        row_player = pe_keys % P
        row_event = eng.event_order[row_rank]
        m = len(p1)
        row1, row2 = inverse[:m], inverse[m:]
        # Champion's points (forfeit wins count) → champions per event.
        points = _int_bincount(row1, POINTS1[res], n_rows) + _int_bincount(row2, POINTS2[res], n_rows)
        ev_start = np.flatnonzero(np.concatenate(([True], row_rank[1:] != row_rank[:-1]))) if n_rows else np.zeros(0, np.int64)
        top = np.maximum.reduceat(points, ev_start) if n_rows else points
        ev_len = np.diff(np.concatenate([ev_start, [n_rows]]))
        top_of_row = np.repeat(top, ev_len)
        by_standing = np.isin(row_event * P + row_player, eng.rank1_keys)
        champion = np.where(eng.has_rank1[row_event], by_standing, points == top_of_row)

        # Sides of the played games.
        played = (res == _WIN) | (res == _LOSS) | (res == _DRAW)
        s_row = np.concatenate([row1[played], row2[played]])
        s_player = np.concatenate([p1[played], p2[played]])
        s_opp = np.concatenate([p2[played], p1[played]])
        s_w = np.concatenate([W1[res[played]], W2[res[played]]])
        me_rated, opp_rated = rated[s_player], rated[s_opp]
        R_me = self.rating[s_player]
        R_opp = self.rating[s_opp]

        out = {
            "event": row_event, "player": row_player, "games": np.zeros(n_rows, np.int64),
            "W": np.zeros(n_rows, np.int64), "We": np.full(n_rows, NONE, np.int64),
            "K": np.full(n_rows, NONE, np.int64), "delta": np.zeros(n_rows, np.int64),
            "raw_delta": np.full(n_rows, NONE, np.int64), "method": np.full(n_rows, M_NOT_RATED, np.int64),
            "N": np.zeros(n_rows, np.int64), "Ro": np.full(n_rows, NONE, np.int64),
            "Rc_num": np.zeros(n_rows, np.int64), "Rc_den": np.zeros(n_rows, np.int64),
            "Pd": np.full(n_rows, NONE, np.int64), "champion": champion,
        }
        row_rated = rated[row_player]
        out["Ro"] = np.where(row_rated, self.rating[row_player], NONE)

        # Interacting round robins (CGA): zero-score rule repeated, Ra, Ru, unrated opponents' ratings.
        s_cx = np.concatenate([interacting[played], interacting[played]])
        s_opp_row = np.concatenate([row2[played], row1[played]])
        cx_row = np.zeros(n_rows, dtype=bool)
        cx_row[s_row[s_cx]] = True
        cx_row[np.concatenate([row1, row2])[np.concatenate([interacting, interacting])]] = True
        rr = me_rated & opp_rated & ~s_cx
        self._cx = None
        if s_cx.any() or cx_row.any():
            self._cx = self._interacting(list_date, n_rows, row_event, row_player, row_rated, cx_row, s_cx, s_row,
                                         s_opp_row, s_opp, s_w, opp_rated)
            R_opp = R_opp.copy()
            R_opp[s_cx] = self._cx["used_rating"]
            counts_for_rated = np.zeros_like(s_cx)
            counts_for_rated[s_cx] = self._cx["counts_for_rated"]
            rr |= s_cx & me_rated & counts_for_rated

        # Rated players: games against rated opponents (in a round robin also the unrated ones that count).
        grp = _Groups(s_row[rr], n_rows)
        n_r = grp.count()
        w_r = grp.sum(s_w[rr])
        R_row = self.rating[row_player]
        d_game = R_me[rr] - R_opp[rr]
        opp_clamped = R_opp[rr]
        if rules.cap is not None:
            d_game = np.clip(d_game, -rules.cap, rules.cap)
            opp_clamped = np.clip(opp_clamped, R_me[rr] - rules.cap, R_me[rr] + rules.cap)
        we_per_game = grp.sum(expected_hundredths(d_game))
        method = eng.method[row_event]
        safe_n = np.maximum(n_r, 1)
        sum_opp = grp.sum(opp_clamped)
        rc_avg = _round_half_up_div(sum_opp, safe_n)
        pd_avg = expected_hundredths(R_row - rc_avg)
        we_avg = n_r * pd_avg
        # Go round robin: himself + the distinct opponents he played; cycles = most meetings with one.
        we_go = np.zeros(n_rows, np.int64)
        pd_go = np.zeros(n_rows, np.int64)
        go_num = np.zeros(n_rows, np.int64)
        go_den = np.ones(n_rows, np.int64)
        is_go = (method == M_GO_RR) & row_rated & (n_r > 0)
        if is_go.any():
            sel = rr & is_go[s_row]
            pair = s_row[sel] * P + s_opp[sel]
            pairs, first_side, pair_count = np.unique(pair, return_index=True, return_counts=True)
            pair_row = pairs // P
            clamped_of_pair = R_opp[sel][first_side]  # the rating used for him (an unrated one's Ru)
            if rules.cap is not None:
                r_of = self.rating[row_player[pair_row]]
                clamped_of_pair = np.clip(clamped_of_pair, r_of - rules.cap, r_of + rules.cap)
            pg = _Groups(pair_row, n_rows)
            distinct = pg.count()
            cycles = pg.max(pair_count)
            go_num = R_row + pg.sum(clamped_of_pair)
            go_den = np.maximum(distinct + 1, 1)
            pd_go = expected_hundredths(R_row - _round_half_up_div(go_num, go_den))
            we_go = n_r * pd_go - cycles * (50 - pd_go)
        we_r = np.select([method == M_PER_GAME, method == M_AVERAGING], [we_per_game, we_avg], we_go)
        rated_ok = row_rated & (n_r > 0)
        rated_none = row_rated & (n_r == 0)
        out["games"] = np.where(rated_ok, n_r, 0)
        out["W"] = np.where(rated_ok, w_r, 0)
        out["We"] = np.where(rated_ok, we_r, np.where(rated_none, 0, NONE))
        out["method"] = np.where(rated_ok, method, M_NOT_RATED)
        out["N"] = np.where(rated_ok, n_r, 0)
        avg_like = rated_ok & (method != M_PER_GAME)
        out["Rc_num"] = np.where(avg_like, np.where(method == M_GO_RR, go_num, sum_opp), 0)
        out["Rc_den"] = np.where(avg_like, np.where(method == M_GO_RR, go_den, n_r), 0)
        out["Pd"] = np.where(avg_like, np.where(method == M_GO_RR, pd_go, pd_avg), NONE)
        self._rated_ok = rated_ok
        self._rated_none = rated_none

        # Unrated players: games against rated opponents (their events do not interact here).
        nc = ~me_rated & opp_rated
        ngrp = _Groups(s_row[nc], n_rows)
        n_n = ngrp.count()
        w_n = ngrp.sum(s_w[nc])
        unrated_row = ~row_rated
        out["_nc_n"], out["_nc_w"] = n_n, w_n
        zero_rule = rules.zero_score_rule != ZERO_SCORE_OFF and rules.newcomer_method != NEWCOMER_NOT_RATED
        ignored = unrated_row & zero_rule & (n_n > 0) & (w_n == 0) & ~cx_row
        if self._cx is not None:
            ignored |= self._cx["ignored"]
        if rules.newcomer_method == NEWCOMER_PERFORMANCE:
            upair = np.unique(s_row[nc] * P + s_opp[nc])
            distinct_n = _int_bincount(upair // P, np.ones(upair.shape[0], np.int64), n_rows)
            sum_n = ngrp.sum(R_opp[nc])
            live = unrated_row & ~ignored
            out["method"] = np.where(live, M_NEWCOMER, out["method"])
            out["W"] = np.where(live, w_n, out["W"])
            out["N"] = np.where(live, n_n, out["N"])
            out["Rc_num"] = np.where(live & (n_n > 0), sum_n, out["Rc_num"])
            out["Rc_den"] = np.where(live & (n_n > 0), n_n, out["Rc_den"])
            # Ru exists unless dp is indeterminate (below 50 % at p = 0).
            halves = w_n // 50
            h = halves - n_n
            p_h = _round_half_up_div(w_n, np.maximum(n_n, 1))
            ru_known = (n_n > 0) & ((h >= 0) | eng.dp_known[np.clip(p_h, 0, 100)])
            counts = live & ru_known & (w_n > 0) & (distinct_n >= rules.newcomer_min_rated_opponents)
            if self._cx is not None:
                cx = self._cx
                live_cx = live & cx_row
                out["W"] = np.where(live_cx, cx["W"], out["W"])
                out["N"] = np.where(live_cx, cx["N"], out["N"])
                out["Rc_num"] = np.where(live_cx, cx["rc_num"], out["Rc_num"])
                out["Rc_den"] = np.where(live_cx, cx["rc_den"], out["Rc_den"])
                counts = np.where(cx_row, live_cx & cx["counts"], counts)
            out["games"] = np.where(counts, out["N"], out["games"])
            self._counts = counts
            self._nc_sum, self._nc_h, self._nc_p = sum_n, h, p_h
        elif rules.newcomer_method == NEWCOMER_PROVISIONAL:
            if (unrated_row & ~self.has_gender[row_player] & (n_n > 0)).any():
                raise ValueError("a newcomer's provisional rating needs his gender (M/F)")
            start = np.where(self.female[row_player], eng.start_female, eng.start_male)
            start_side = start[s_row[nc]]
            d_n = start_side - R_opp[nc]
            if rules.cap is not None:
                d_n = np.clip(d_n, -rules.cap, rules.cap)
            we_n = ngrp.sum(expected_hundredths(d_n))
            upair = np.unique(s_row[nc] * P + s_opp[nc])
            distinct_n = _int_bincount(upair // P, np.ones(upair.shape[0], np.int64), n_rows)
            ok = unrated_row & ~ignored & (n_n > 0) & (distinct_n >= rules.newcomer_min_rated_opponents)
            out["games"] = np.where(ok, n_n, out["games"])
            out["W"] = np.where(ok, w_n, out["W"])
            out["We"] = np.where(ok, we_n, out["We"])
            out["N"] = np.where(ok, n_n, out["N"])
            out["method"] = np.where(ok, M_PROVISIONAL, out["method"])
            out["Ro"] = np.where(unrated_row & ~ignored, start, out["Ro"])
            self._prov_ok = ok
            self._prov_k = unrated_row & ~ignored  # K is shown for his not-rated rows too
        return out

    def _interacting(self, list_date, n_rows, row_event, row_player, row_rated, cx_row, s_cx, s_row, s_opp_row,
                     s_opp, s_w, opp_rated) -> dict:
        """Round robins where unrated players take part in the calculation (CGA Art. 5(十二), 6(一), 7).

        Returns, for the sides of these events: the rating a rated player's game uses for the opponent
        (``used_rating``) and whether it counts; for their rows: the zero-score rule's ``ignored``, and
        an unrated player's W, N, Rc = Ra, Ru and whether his event counts.
        """
        eng, rules = self.eng, self.eng.rules
        P = eng.P
        row_opp = s_opp_row
        # 2. The zero-score rule: an unrated player with games left and no point is left out, with his
        #    games; repeated (the rule set may say once, or not at all).
        ignored = np.zeros(n_rows, dtype=bool)
        zero_rule = rules.zero_score_rule != ZERO_SCORE_OFF
        while True:
            act = s_cx & ~ignored[s_row] & ~ignored[row_opp]
            n_act = np.bincount(s_row[act], minlength=n_rows)
            w_act = _int_bincount(s_row[act], s_w[act], n_rows)
            if not zero_rule:
                break
            new = cx_row & ~row_rated & ~ignored & (n_act > 0) & (w_act == 0)
            if not new.any():
                break
            ignored |= new
            if rules.zero_score_rule == ZERO_SCORE_ONCE:
                act = s_cx & ~ignored[s_row] & ~ignored[row_opp]
                n_act = np.bincount(s_row[act], minlength=n_rows)
                w_act = _int_bincount(s_row[act], s_w[act], n_rows)
                break
        n_act = n_act.astype(np.int64)
        # Each rated participant's dp (Table 1, from his score over all his games left).
        p_h = _round_half_up_div(w_act, np.maximum(n_act, 1))
        dp_known = eng.dp_known[np.clip(p_h, 0, 100)]
        dp = eng.dp[np.clip(p_h, 0, 100)]
        # Distinct opponents (all / rated) of each row over the sides left.
        pairs = np.unique(s_row[act] * P + s_opp[act])
        distinct = np.bincount(pairs // P, minlength=n_rows)
        rated_pairs = pairs[self.rating[pairs % P] != NONE]
        distinct_rated = np.bincount(rated_pairs // P, minlength=n_rows)
        # 3. Ra of each event: Rar − Dpa × n/(n+1).
        ra: dict[int, Fraction | None] = {}
        for e in np.unique(row_event[cx_row]).tolist():
            rows_e = np.flatnonzero(cx_row & (row_event == e) & (n_act > 0))
            rated_e = rows_e[row_rated[rows_e]]
            if not rated_e.shape[0] or rows_e.shape[0] < 2:
                ra[e] = None
                continue
            known = rated_e[dp_known[rated_e] & (n_act[rated_e] > 0)]
            dpa = Fraction(int(dp[known].sum()), int(known.shape[0])) if known.shape[0] else Fraction(0)
            n = rows_e.shape[0] - 1
            value = Fraction(int(self.rating[row_player[rated_e]].sum()), int(rated_e.shape[0])) - dpa * Fraction(n, n + 1)
            ra[e] = Fraction(round_half_up(value)) if rules.round_ra_first else value
        # 4. Ru of each unrated player left (Art. 7, round robin: dp × n/(n+1) below 50 %).
        ru: dict[int, Fraction] = {}
        rc_num = np.zeros(n_rows, np.int64)
        rc_den = np.zeros(n_rows, np.int64)
        for j in np.flatnonzero(cx_row & ~row_rated & ~ignored & (n_act > 0)).tolist():
            rc = ra[int(row_event[j])]
            if rc is None:
                continue
            rc_num[j], rc_den[j] = rc.numerator, rc.denominator
            n_games = int(n_act[j])
            h = int(w_act[j]) // 50 - n_games
            if h == 0:
                ru[j] = rc
            elif h > 0:
                ru[j] = rc + eng.bonus * h
            elif dp_known[j]:
                n_o = int(distinct[j])
                ru[j] = rc + Fraction(int(dp[j])) * Fraction(n_o, n_o + 1)
        # 5. The rating a rated player's game against an unrated opponent uses.
        opp_row_cx = row_opp[s_cx]
        used = self.rating[s_opp[s_cx]].copy()
        counts_for_rated = opp_rated[s_cx].copy()
        how = rules.rr_unrated_opponent
        unrated_opp = np.flatnonzero(~opp_rated[s_cx] & act[s_cx])
        for i in unrated_opp.tolist():
            q = int(opp_row_cx[i])
            if how == RR_UNRATED_EVENT_RU:
                value = ru.get(q)
                rating = round_half_up(value) if value is not None else None
            elif how == RR_UNRATED_RA:
                value = ra[int(row_event[q])]
                rating = round_half_up(value) if value is not None else None
            elif how == RR_UNRATED_PROVISIONAL:
                rating = eng.start_female if self.female[row_player[q]] else eng.start_male
            else:
                rating = None
            if rating is not None:
                used[i] = rating
                counts_for_rated[i] = True
        counts_for_rated &= act[s_cx]
        counts = np.zeros(n_rows, dtype=bool)
        for j in ru:
            counts[j] = w_act[j] > 0 and distinct_rated[j] >= rules.newcomer_min_rated_opponents
        return {
            "ignored": ignored, "used_rating": used, "counts_for_rated": counts_for_rated, "W": w_act,
            "N": n_act, "rc_num": rc_num, "rc_den": rc_den, "ru": {j: ru[j] for j in np.flatnonzero(counts).tolist()},
            "counts": counts,
        }

    def _k(self, rows, base, cnt_player, cnt_end, cnt_games) -> np.ndarray:
        """K of each row: fixed at the event's start from the game counts."""
        eng, rules = self.eng, self.eng.rules
        player = rows["player"]
        prior = _prior_games(np.concatenate(cnt_player), np.concatenate(cnt_end), np.concatenate(cnt_games),
                             player, eng.start[rows["event"]])
        k_games = base[player] + prior
        latched = self.latched[player] & (rules.k_latch_rating is not None)
        return np.where(latched, rules.k_top, np.where(k_games < rules.k_new_games, rules.k_new, rules.k_established))

    def _finish_simple_rows(self, rows, base, cnt_player, cnt_end, cnt_games) -> None:
        eng, rules = self.eng, self.eng.rules
        k = self._k(rows, base, cnt_player, cnt_end, cnt_games)
        rated_ok, rated_none = self._rated_ok, self._rated_none
        rows["K"] = np.where(rated_ok | rated_none, k, NONE)
        raw = k * (rows["W"] - np.where(rows["We"] == NONE, 0, rows["We"]))
        delta_rows = rated_ok
        if rules.newcomer_method == NEWCOMER_PROVISIONAL:
            rows["K"] = np.where(self._prov_k, k, rows["K"])
            delta_rows = rated_ok | self._prov_ok
        raw = np.where(delta_rows, raw, 0)
        rows["raw_delta"] = np.where(delta_rows, raw, NONE)
        protect = delta_rows & (raw < 0) & rows["champion"] & eng.champion_ok[rows["event"]]
        if self.eng.intl is not None:
            a, b = self.eng.intl
            protect |= delta_rows & (raw < 0) & eng.international[rows["event"]] & (rows["games"] > 0) \
                & (rows["W"] * b >= 100 * a * rows["games"])
        rows["delta"] = np.where(protect, 0, raw)
        # Newcomer records of the period.
        end = eng.end[rows["event"]]
        if rules.newcomer_method == NEWCOMER_PERFORMANCE:
            bonus = self.eng.bonus
            cx_ru = self._cx["ru"] if self._cx is not None else {}
            j = np.flatnonzero(self._counts & ~np.isin(np.arange(self._counts.shape[0]), list(cx_ru)))
            n, h, total_r = rows["N"][j], self._nc_h[j], self._nc_sum[j]
            # Ru × N = ΣR_opp + N × (12.5 h above 50 %, dp below), over the bonus's denominator.
            dp = self.eng.dp[np.clip(self._nc_p[j], 0, 100)]
            num = np.where(h > 0, total_r * bonus.denominator + n * bonus.numerator * h,
                           (total_r + np.where(h < 0, n * dp, 0)) * bonus.denominator)
            self.records.add(rows["player"][j], rows["event"][j], end[j], n, num, np.full(j.shape[0], bonus.denominator))
            self.records.add_fractions([(int(rows["player"][k]), int(rows["event"][k]), int(end[k]),
                                         int(rows["N"][k]), cx_ru[k] * int(rows["N"][k])) for k in cx_ru])
        elif rules.newcomer_method == NEWCOMER_PROVISIONAL:
            j = np.flatnonzero(self._prov_ok)
            self.records.add(rows["player"][j], rows["event"][j], end[j], rows["N"][j], rows["delta"][j],
                             np.full(j.shape[0], 100))
        for key in ("_nc_n", "_nc_w"):
            rows.pop(key, None)

    # --- the reference for one event

    def _reference_event(self, e, list_date, base, rated, cnt_player, cnt_end, cnt_games):
        eng, rules = self.eng, self.eng.rules
        event = eng.events[e]
        lo = int(np.searchsorted(eng.g_rank, eng.event_rank[e], side="left"))
        hi = int(np.searchsorted(eng.g_rank, eng.event_rank[e], side="right"))
        ids = self.eng.games.player_ids
        games = eng.games_of(e)
        players = sorted({int(x) for x in eng.g_p1[lo:hi]} | {int(x) for x in eng.g_p2[lo:hi]})
        parr = np.array(players, np.int64)
        prior = _prior_games(np.concatenate(cnt_player), np.concatenate(cnt_end), np.concatenate(cnt_games),
                             parr, np.full(parr.shape[0], eng.start[e]))
        states, k_games = {}, {}
        for i, p in enumerate(players):
            pid = ids[p]
            r = int(self.rating[p])
            states[pid] = PlayerState(player_id=pid, gender=eng.players[p].gender, rating=None if r == NONE else r,
                                      games=int(self.games[p]), latched=bool(self.latched[p]))
            k_games[pid] = int(base[p] + prior[i])
        outcome = rate_event(rules, event, games, states, k_games, list_date, self.eng.standings_of(event.id))
        counted = [(eng.index[c.player_id], c.games) for c in outcome.changes if c.games]
        if counted:
            cnt_player.append(np.array([p for p, _ in counted], np.int64))
            cnt_end.append(np.full(len(counted), eng.end[e], np.int64))
            cnt_games.append(np.array([g for _, g in counted], np.int64))
        self.records.add_fractions([
            (eng.index[pid], e, rec.end_date.toordinal(), rec.games,
             rec.ru * rec.games if rec.ru is not None else Fraction(rec.delta))
            for pid, rec in outcome.records.items()])
        return outcome.changes

    # --- publication

    def _publish(self, n, list_date, rated, delta_sum, games_sum, log_p, log_e, log_g) -> None:
        eng, rules = self.eng, self.eng.rules
        L = list_date.toordinal()
        # Rated players: Rn = Ro + ΣΔR, published rounded half up.
        exact_h = np.where(rated, self.rating * 100 + delta_sum, NONE)
        self.rating = np.where(rated, (exact_h + 50) // 100, NONE)
        self.exact_h = exact_h
        self.games = np.where(rated, self.games + games_sum, self.games)
        self._log(log_p, log_e, log_g)
        override: dict[int, Fraction] = {}
        # Newcomers: first rating once the counted games in the window reach the threshold.
        recs = self.records
        total = recs.totals(eng.P)
        if rules.newcomer_method in (NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL):
            newly = np.flatnonzero(total >= max(rules.newcomer_min_games, 1))
        else:
            newly = np.zeros(0, np.int64)
        if newly.shape[0]:
            num, odd = recs.value_sums(newly, eng.P)
            d0 = recs.den0
            if rules.newcomer_method == NEWCOMER_PERFORMANCE:  # game-weighted mean of Ru
                v_num, v_den = num[newly], d0 * total[newly]
            else:  # provisional start + ΣΔR
                start = np.where(self.female[newly], eng.start_female, eng.start_male)
                v_num, v_den = start * d0 + num[newly], np.full(newly.shape[0], d0)
            self.rating[newly] = _round_half_up_div(v_num, v_den)
            override = dict(zip(newly.tolist(), zip(v_num.tolist(), v_den.tolist())))
            for p, value in odd.items():
                if rules.newcomer_method == NEWCOMER_PERFORMANCE:
                    value = value / int(total[p])
                else:
                    value = (eng.start_female if self.female[p] else eng.start_male) + value
                self.rating[p] = round_half_up(value)
                override[p] = (value.numerator, value.denominator)
            self.exact_h[newly] = NONE
            self.games[newly] = total[newly]
            self.status[newly] = ACTIVE
            self.rated_since[newly] = L
            self.inactive_since[newly] = 0
            done = np.isin(recs.player, newly)
            self._log(recs.player[done], recs.end[done], recs.games[done])
            recs.keep(~done)
        now_rated = self.rating != NONE
        if rules.k_latch_rating is not None:
            self.latched |= now_rated & (self.rating >= rules.k_latch_rating)
        self._status_rule(list_date, now_rated)
        windows = [rules.activity_window_months or 0, rules.reactivation_window_months]
        self._prune_log(add_months(list_date, -max(windows)).toordinal())
        self._store_list(n, list_date, override)

    def _status_rule(self, list_date: date, now_rated: np.ndarray) -> None:
        rules = self.eng.rules
        L = list_date.toordinal()
        if rules.activity_window_months is None:
            self.status = np.where(now_rated, ACTIVE, self.status).astype(np.int8)
            self.inactive_since = np.where(now_rated, 0, self.inactive_since)
            return
        since = add_months(list_date, -rules.activity_window_months).toordinal()
        react_since = add_months(list_date, -rules.reactivation_window_months).toordinal()
        g_act = self._games_between(since, L)
        g_react = self._games_between(react_since, L)
        inactive = now_rated & (self.status == INACTIVE)
        reactivate = inactive & (g_react >= rules.reactivation_min_games)
        remove = np.zeros_like(inactive)
        if rules.removal_after_months is not None:
            stay = inactive & ~reactivate
            for since_day in np.unique(self.inactive_since[stay & (self.inactive_since > 0)]).tolist():
                limit = add_months(date.fromordinal(since_day), rules.removal_after_months).toordinal()
                if L >= limit:
                    remove |= stay & (self.inactive_since == since_day)
        judged = (self.rated_since > 0) & (self.rated_since <= since)
        others = now_rated & ~inactive
        to_inactive = others & judged & (g_act < rules.activity_min_games)
        status = self.status.copy()
        status[reactivate] = ACTIVE
        status[others & ~to_inactive] = ACTIVE
        status[to_inactive] = INACTIVE
        self.inactive_since = np.where(reactivate, 0, self.inactive_since)
        self.inactive_since = np.where(to_inactive, L, self.inactive_since)
        if remove.any():
            status[remove] = REMOVED
            self.rating[remove] = NONE
            self.exact_h[remove] = NONE
            self.games[remove] = 0
            self.rated_since[remove] = 0
            self.inactive_since[remove] = 0
            self.cleared_seq[remove] = self.seq  # his activity so far no longer counts
            self.seq += 1
        self.status = status

    def _store_list(self, n: int, list_date: date, override: dict[int, tuple[int, int]]) -> None:
        rated = self.rating != NONE
        order = np.lexsort((self.history.id_rank, -np.where(rated, self.rating, 0), ~rated, self.status))
        self.history._lists.append(_ListColumns(
            list_date, self.rating.copy(), self.exact_h.copy(), override, np.where(rated, self.games, 0),
            self.status.copy(), order))


def _int_bincount(group: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact integer sums of ``values`` per group (np.bincount's weights would go through floats)."""
    out = np.zeros(n, np.int64)
    np.add.at(out, group, np.asarray(values, dtype=np.int64))
    return out


def _prior_games(c_player: np.ndarray, c_end: np.ndarray, c_games: np.ndarray, player: np.ndarray,
                 before: np.ndarray) -> np.ndarray:
    """For each (player, day): his counted games in this period's events that ended before that day."""
    if not c_player.shape[0]:
        return np.zeros(player.shape[0], np.int64)
    big = np.int64(1) << 32
    key = c_player * big + c_end
    order = np.argsort(key, kind="stable")
    key = key[order]
    cs = np.concatenate(([0], np.cumsum(c_games[order])))
    upto = np.searchsorted(key, player * big + before, side="left")
    first = np.searchsorted(key, player * big, side="left")
    return cs[upto] - cs[first]
