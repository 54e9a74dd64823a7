"""The fast engine's period loop (mirrors ``reference.py`` and ``period.rate_period``).

Each period: the games of its events (one slice of the sorted arrays) become
rows and sides (``rows``); interacting round robins are worked out first
(``newcomers.interacting_round_robins``), then the rated players' and the
newcomers' rows; K is fixed per row at the event's start; ΔR and the
protections follow (``rated``); the newcomers' counted events are recorded;
the list is published (``publish``). The result is the engine-neutral
``History``.

Only a round robin with an unrated player under a variant whose newcomers are
not rated by performance while unrated players still enter the others'
calculations (e.g. provisional newcomers with ``rr_unrated_opponent`` other
than ``not_rated``) is rated by the reference ``rate_event`` itself, with the K
counts and states this loop keeps. Explanations come from the reference
``rate_period`` run on the explained player's periods from the states this
loop had at each period's start.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from qiyuan.rating import results as R
from qiyuan.rating.columnar import CHANGE_FIELDS, ChangeColumns, ChangeTexts, GameColumns, ListColumns
from qiyuan.rating.event import rate_event
from qiyuan.rating.fast.arrays import DRAW, LOSS, NONE, WIN, int_bincount, prior_games
from qiyuan.rating.fast.changes import change_texts
from qiyuan.rating.fast.newcomers import (Interacting, NewcomerRows, add_records, interacting_round_robins,
                                          newcomer_rows)
from qiyuan.rating.fast.prepare import Prepared
from qiyuan.rating.fast.publish import publish
from qiyuan.rating.fast.rated import deltas, k_factors, rated_rows
from qiyuan.rating.fast.rows import period_rows
from qiyuan.rating.fast.state import PlayerArrays
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.period import list_entry, newcomer_window_start, rate_period
from qiyuan.rating.result import History, Run, change_columns
from qiyuan.rating.rules import NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL
from qiyuan.rating.state import PlayerState


def compute(run: Run) -> History:
    """Rate the run's periods on arrays; the same lists, changes and states as the reference engine."""
    players = run.players
    player_ids = tuple(p.id for p in players)
    event_ids = tuple(e.id for e in run.events)
    try:
        columns = GameColumns.from_games(run.games, event_ids, player_ids)
    except KeyError as exc:
        raise ValueError(f"game of unknown event or player: {exc.args[0]}") from None
    prep = Prepared(run.rules, players, list(run.events), columns, run.standings)
    loop = _Loop(prep, run)
    loop.run()
    return loop.history()


class _Loop:
    def __init__(self, prep: Prepared, run: Run):
        self.prep = prep
        self.run_ = run
        self.arrays = (PlayerArrays.from_states(prep, run.states) if run.states is not None
                       else PlayerArrays.initial(prep, run.start) if run.dates else None)
        self.lists: list[ListColumns] = []
        self.changes: list[ChangeColumns] = []
        self.first_ratings: Mapping[int, Decimal] = {}  # the last list's first ratings
        self.full: list[ChangeTexts] = []  # with ``full_changes``: every change as the reference writes it
        self.list_states: list[ListStates] = []  # with ``list_states``: the states after each list
        explain = run.explain
        if explain is True:
            self.watch = np.arange(prep.P)
        else:
            self.watch = np.array(sorted(prep.index[p] for p in (explain or ())), np.int64)
        #: per watched player: (list date, his event indices, the states his periods start from)
        self.snapshots: dict[int, list[tuple[date, list[int], dict[str, PlayerState]]]] = \
            {int(w): [] for w in self.watch}

    # --- the loop

    def run(self) -> None:
        prep = self.prep
        i0 = 0
        n_events = len(prep.events)
        dates = self.run_.dates
        for n, list_date in enumerate(dates):
            L = list_date.toordinal()
            i1 = i0
            while i1 < n_events and prep.end[prep.event_order[i1]] < L:
                i1 += 1
            self._period(n, list_date, i0, i1)
            i0 = i1
            if self.run_.progress is not None:
                self.run_.progress(n + 1, len(dates))

    def _snapshot(self, list_date: date, g_event: np.ndarray, p1: np.ndarray, p2: np.ndarray) -> None:
        """For the explanations: the states of everyone in each watched player's events of this period."""
        if not self.watch.shape[0]:
            return
        a = self.arrays
        if self.watch.shape[0] == self.prep.P:  # everyone: one snapshot of all states
            everyone = a.states(None, self.first_ratings)
            events_of: dict[int, set[int]] = {}
            for e, x, y in zip(g_event.tolist(), p1.tolist(), p2.tolist()):
                events_of.setdefault(x, set()).add(e)
                events_of.setdefault(y, set()).add(e)
            for w in self.watch.tolist():
                his = sorted(events_of.get(w, ()), key=lambda e: self.prep.event_rank[e])
                self.snapshots[w].append((list_date, his, everyone))
            return
        for w in self.watch.tolist():
            his_events = np.unique(g_event[(p1 == w) | (p2 == w)])
            in_his = np.isin(g_event, his_events)
            players = np.unique(np.concatenate([p1[in_his], p2[in_his], [w]]))
            order = his_events[np.argsort(self.prep.event_rank[his_events], kind="stable")]
            self.snapshots[w].append((list_date, order.tolist(), a.states(players, self.first_ratings)))

    def _newcomer_base(self, list_date: date) -> np.ndarray:
        """K's count of each unrated player: his counted games inside the window (older records drop out)."""
        recs = self.arrays.records
        recs.keep(recs.end >= newcomer_window_start(self.prep.rules, list_date).toordinal())
        return recs.totals(self.prep.P)

    def _period(self, n: int, list_date: date, i0: int, i1: int) -> None:
        prep, a = self.prep, self.arrays
        rules = prep.rules
        P = prep.P
        lo = int(np.searchsorted(prep.g_rank, i0, side="left"))
        hi = int(np.searchsorted(prep.g_rank, i1, side="left"))
        g_rank, g_event = prep.g_rank[lo:hi].astype(np.int64), prep.g_event[lo:hi].astype(np.int64)
        p1, p2 = prep.g_p1[lo:hi].astype(np.int64), prep.g_p2[lo:hi].astype(np.int64)
        res = prep.g_res[lo:hi].astype(np.int64)
        rounds = prep.g_round[lo:hi].astype(np.int64)
        self._snapshot(list_date, g_event, p1, p2)
        rated = a.rating != NONE
        base = np.where(rated, a.games, self._newcomer_base(list_date))

        # Events that must go through the reference (an interacting round robin with an unrated player).
        n_ev = i1 - i0
        complex_ev = np.zeros(n_ev, dtype=bool)
        if prep.interacting_rr and hi > lo:
            unrated_game = ~rated[p1] | ~rated[p2]
            has_unrated = np.bincount(g_rank[unrated_game] - i0, minlength=n_ev) > 0
            complex_ev = has_unrated & prep.round_robin[prep.event_order[i0:i1]]
        # Under the performance rule they are vectorized too (Ra, Ru, the repeated zero-score rule);
        # under other newcomer rules they go through the reference rate_event.
        if rules.newcomer_method == NEWCOMER_PERFORMANCE:
            interacting_game, complex_ev = complex_ev[g_rank - i0], np.zeros(n_ev, dtype=bool)
        else:
            interacting_game = np.zeros(hi - lo, dtype=bool)
        simple = ~complex_ev[g_rank - i0]

        rows = period_rows(prep, a.rating, g_rank[simple], p1[simple], p2[simple], res[simple],
                           interacting_game[simple], rounds[simple])
        out = rows.columns(a.rating)
        cx: Interacting | None = None
        counts_for_rated = np.zeros(rows.s_row.shape[0], dtype=bool)
        if rows.s_interacting.any() or rows.interacting.any():
            cx = interacting_round_robins(prep, rows, a.rating)
            rows.R_opp = rows.R_opp.copy()
            rows.R_opp[rows.s_interacting] = cx.used_rating
            counts_for_rated = cx.counts_for_rated
        rated_ok, rated_none = rated_rows(prep, rows, out, a.rating, counts_for_rated)
        nc = newcomer_rows(prep, rows, out, a.rating, cx)
        # Counted games of this period's events, for K: (player, end, games) of every row so far.
        counted = ([out["player"]], [prep.end[out["event"]]], [out["games"]])
        object_changes: list[R.EventChange] = []
        for r in np.flatnonzero(complex_ev).tolist():
            e = int(prep.event_order[i0 + r])
            object_changes += self._reference_event(e, list_date, base, counted)
        computed_rows = self._finish(out, rows.champion, rated_ok, rated_none, nc, cx, base, counted)
        part = ChangeColumns(**{k: out[k] for k in ("player", "event", *CHANGE_FIELDS)},
                             list_index=np.full(rows.n, n, np.int64))
        if object_changes:
            part = ChangeColumns.concatenate([part, change_columns(
                object_changes, prep.index, prep.event_index, {list_date: n})])
        # The reference's order: events by rank, then players by id (a period's events rank after the last's).
        order = np.lexsort((prep.id_rank[part.player], prep.event_rank[part.event]))
        part = part.take(order)
        self.changes.append(part)
        if self.run_.full_changes:
            unplayed = ~((res == WIN) | (res == LOSS) | (res == DRAW)) & simple
            keys = np.concatenate([g_rank[unplayed] * P + p1[unplayed], g_rank[unplayed] * P + p2[unplayed]])
            unplayed_rows = np.isin(prep.event_rank[rows.event] * P + rows.player, keys)
            built = change_texts(prep, rows, out, nc, unplayed_rows, list_date)
            if object_changes:
                built = ChangeTexts.concatenate([built, ChangeTexts.from_objects(object_changes)])
            self.full.append(built.take(order.tolist()))

        # Publication.
        delta_sum = int_bincount(part.player, part.delta, P)
        games_sum = int_bincount(part.player, part.games, P)
        log = (part.player, prep.end[part.event], np.where(rated[part.player], part.games, 0))
        changed = np.zeros(P, dtype=bool)
        changed[part.player] = True
        computed = np.zeros(P, dtype=bool)
        computed[out["player"][computed_rows]] = True
        for c in object_changes:  # a ΔR written with two decimals was computed, not set to 0
            if c.delta.as_tuple().exponent == -2:
                computed[prep.index[c.player_id]] = True
        listed, self.first_ratings = publish(a, list_date, rated, delta_sum, games_sum, log, changed, computed)
        self.lists.append(listed)
        if self.run_.list_states:
            self._keep_states()

    def _keep_states(self) -> None:
        """Every player's state after the list just published, in columns (``ListStates``): only the players whose
        arrays moved since the list before (``PlayerArrays.fingerprint``), or who got a first rating on either
        list, are written again."""
        a = self.arrays
        fingerprint = a.fingerprint()
        if not self.list_states:
            moved, before = np.ones(self.prep.P, dtype=bool), None
        else:
            before = self.list_states[-1]
            moved = (fingerprint != self._fingerprint).any(axis=0)
            moved[list(self._first_before)] = True
            moved[list(self.first_ratings)] = True
        self._fingerprint, self._first_before = fingerprint, set(self.first_ratings)
        self.list_states.append(a.list_states(moved, self.first_ratings, before))

    def _finish(self, out, champion, rated_ok, rated_none, nc: NewcomerRows, cx: Interacting | None, base,
                counted) -> np.ndarray:
        """K of every row, ΔR with the protections, the newcomers' records; returns the rows whose ΔR stands
        as computed."""
        prep = self.prep
        k = k_factors(prep, out["event"], out["player"], self.arrays.latched, base, counted)
        out["K"] = np.where(rated_ok | rated_none, k, NONE)
        delta_rows = rated_ok
        if prep.rules.newcomer_method == NEWCOMER_PROVISIONAL:
            out["K"] = np.where(nc.provisional_k, k, out["K"])
            delta_rows = rated_ok | nc.provisional_ok
        computed = deltas(prep, out, k, champion, delta_rows)
        add_records(prep, self.arrays.records, out, nc, cx, computed)
        return computed

    # --- the reference for one event

    def _reference_input(self, e: int, list_date: date, base: np.ndarray, counted) -> tuple:
        """``rate_event``'s arguments for event ``e``: the states of its players at the period's start and the
        game counts that fix their K (the published count and this period's events that ended before it)."""
        prep, a = self.prep, self.arrays
        event = prep.events[e]
        lo, hi = prep.game_slice(e)
        ids = prep.ids
        parr = np.union1d(prep.g_p1[lo:hi], prep.g_p2[lo:hi]).astype(np.int64)
        players = parr.tolist()
        for part in counted:  # the counts so far in one array each (the next events of the period reuse it)
            if len(part) > 1:
                part[:] = [np.concatenate(part)]
        c_player, c_end, c_games = counted
        prior = prior_games(c_player[0], c_end[0], c_games[0], parr, np.full(parr.shape[0], prep.start[e]))
        states, k_games = {}, {}
        for i, p in enumerate(players):
            pid = ids[p]
            r = int(a.rating[p])
            states[pid] = PlayerState(player_id=pid, gender=prep.players[p].gender, rating=None if r == NONE else r,
                                      games=int(a.games[p]), latched=bool(a.latched[p]))
            k_games[pid] = int(base[p] + prior[i])
        return prep.rules, event, prep.games_of(e), states, k_games, list_date, prep.standings_of(event.id)

    def _reference_event(self, e: int, list_date: date, base: np.ndarray, counted) -> list[R.EventChange]:
        prep, a = self.prep, self.arrays
        outcome = rate_event(*self._reference_input(e, list_date, base, counted))
        c_player, c_end, c_games = counted
        done = [(prep.index[c.player_id], c.games) for c in outcome.changes if c.games]
        if done:
            c_player.append(np.array([p for p, _ in done], np.int64))
            c_end.append(np.full(len(done), prep.end[e], np.int64))
            c_games.append(np.array([g for _, g in done], np.int64))
        a.records.add_fractions([
            (prep.index[pid], e, rec.end_date.toordinal(), rec.games,
             rec.ru * rec.games if rec.ru is not None else Fraction(rec.delta), int(prep.event_rank[e]),
             rec.delta is not None and rec.delta.as_tuple().exponent == -2)
            for pid, rec in outcome.records.items()])
        return outcome.changes

    # --- the result

    def history(self) -> History:
        prep, run = self.prep, self.run_
        cc = ChangeColumns.concatenate(self.changes)
        arrays, first = self.arrays, self.first_ratings

        def final_states() -> dict[str, PlayerState]:
            if not self.lists:
                return dict(run.states or {})
            if self.list_states:
                return self.list_states[-1]
            return arrays.states(None, first)

        return History(
            rules=prep.rules, player_ids=tuple(p.id for p in prep.players), event_ids=tuple(e.id for e in prep.events),
            list_dates=list(run.dates), list_columns=self.lists, change_columns=cc, explained=run.explain,
            _change_texts=ChangeTexts.concatenate(self.full) if run.full_changes else None,
            _final_states=final_states, _explain=self._explanation,
            list_states=self.list_states if run.list_states else None,
        )

    def _explanation(self, player_id: str) -> list[tuple]:
        """The reference ``rate_period`` on his periods, from the states this loop had at their start."""
        prep = self.prep
        w = prep.index[player_id]
        people = {p.id: p for p in prep.players}
        out = []
        for list_date, his, states in self.snapshots.get(w, []):
            events = [prep.events[e] for e in his]
            games = [g for e in his for g in prep.games_of(e)]
            standings = [s for e in his for s in prep.standings_of(prep.events[e].id)]
            taking_part = {player_id} | {p for g in games for p in (g.player1, g.player2)}
            states = {p: states[p] for p in taking_part}
            result = rate_period(prep.rules, states, events, games, standings, list_date, people=people,
                                 explain={player_id}, only={player_id})
            explained, publication = result.explanations[player_id]
            out.append((list_date, explained, publication, list_entry(player_id, result.states[player_id])))
        return out

