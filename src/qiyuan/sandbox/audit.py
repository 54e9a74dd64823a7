"""``qiyuan rules audit``: the incentives a rule set gives, measured on a real history (激励审计).

A rating rule invites a strategy when following it gains points that the
player's play does not earn. Each strategy below is measured on the rule
set's own published lists and changes of the history, and reported with the
best gain per game it yields (rating points per game played, or per game
avoided) and its mean over every case the history offers. "Earned" means
what the rule set's own table says: a player's true expected score against
an opponent is 附表2's PD of their real rating difference (no cap), so a
strategy gains only where a rule departs from that table.

* **cap farming** (the FIDE 400-point exploit before October 2025): playing
  only much weaker opponents. For every player on every list and the weakest
  opponent published beside him (that he is still rated against:
  ``far_below_not_rated``), the gain per game is K × (PD(D) − PD(min(D, his cap))) — zero without a cap (附表2 itself stops
  at 735: 1.00), positive wherever a cap (``cap``, ``cap_bands``) is below
  the real difference. K is the player's K on that list (his games, the latch).
* **sitting out** (keeping a status): a player whose rating rose by at least
  ``GAIN`` points from one list to the next stops playing. The gain per game
  avoided is minus the mean ΔR per game of such players in the next list
  they played toward (regression after a lucky period); his rating then
  stays published as long as the activity rule lets him (``window``).
* **withdrawing after a loss**: a player who lost his first game of an event
  withdraws. The gain per game avoided is minus the ΔR his remaining games
  brought, each taken game by game as K × (W − PD(D)) (the per-game form of
  the texts; under the averaging method a close approximation), averaged over
  every such player-event of the history.
* **champion protection** and **board protection**: the points the history's
  protected players kept (ΔR after − before the protection), per game of the
  event: what entering an event one can win (a board one can top) is worth.

The measures are floats (measurement, not the rating path).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qiyuan.errors import InputError, Problem, problem
from qiyuan.rating import results as R
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.fast.arrays import caps
from qiyuan.rating.history import compute_history
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.rules import RuleSet
from qiyuan.sandbox.games import game_set
from qiyuan.sandbox.lists import ListTimeline, lists_of_history
from qiyuan.sandbox.prediction import Progress
from qiyuan.sandbox.ruleset import table_hundredths

#: A rise from one list to the next that counts as a lucky period for "sitting out".
GAIN = 20
#: A strategy is reported as found when its best gain per game is at least this (rating points).
FOUND = 0.05


@dataclass(frozen=True)
class Strategy:
    name: str
    found: bool
    best_per_game: float  # rating points per game (nan: no case in the history)
    mean_per_game: float
    cases: int
    example: Problem | str  # where the best case is (player, list date, …), a template ("" none)
    how: Problem  # one line: what was measured, a template


@dataclass(frozen=True)
class Audit:
    rules: str
    strategies: list[Strategy]


def _k(rules: RuleSet, lists: ListTimeline) -> np.ndarray:
    """Each player's K on each list (his rated games; the latch once a published rating reached it)."""
    if rules.k_latch_rating is not None:
        peak = np.maximum.accumulate(np.where(lists.published, lists.rating, 0), axis=0)
        latched = peak >= rules.k_latch_rating
    else:
        latched = np.zeros(lists.rating.shape, bool)
    k = np.where(lists.games < rules.k_new_games, rules.k_new, rules.k_established)
    return np.where(latched, rules.k_top, k)


def _pd(d: np.ndarray) -> np.ndarray:
    return table_hundredths(d.astype(np.int64)) / 100.0


def cap_farming(rules: RuleSet, lists: ListTimeline) -> Strategy:
    k = _k(rules, lists)
    best, best_at, gains = 0.0, "", []
    for j in range(lists.rating.shape[0]):
        on = np.flatnonzero(lists.published[j])
        if on.shape[0] < 2:
            continue
        r = lists.rating[j, on]
        d = r - r.min()  # against the weakest player published beside him
        if rules.far_below_not_rated is not None:  # …whom he is still rated against
            lo, gap = rules.far_below_not_rated
            d = np.where(r >= lo, np.minimum(d, gap), d)
        cap = caps(rules, r) if rules.has_cap() else np.full(r.shape, 10**9)
        gain = k[j, on] * (_pd(d) - _pd(np.minimum(d, cap)))
        gains.append(gain)
        i = int(np.argmax(gain))
        if gain[i] > best:
            best = float(gain[i])
            best_at = problem("{player} ({rating}, K {k}) against a {weakest} on the list of {day}: D {d}, counted "
                              "{counted}", player=lists.player_ids[on[i]], rating=int(r[i]), k=int(k[j, on[i]]),
                              weakest=int(r.min()), day=lists.dates[j].isoformat(), d=int(d[i]),
                              counted=int(min(d[i], cap[i])))
    every = np.concatenate(gains) if gains else np.zeros(0)
    return Strategy("cap farming", best >= FOUND, best, float(every.mean()) if every.shape[0] else float("nan"),
                    int((every > 0).sum()), best_at,
                    problem("K × (PD(D) − PD(capped D)) against the weakest published player, every player, every list"))


def sitting_out(rules: RuleSet, lists: ListTimeline) -> Strategy:
    per_game, who = [], []
    n = lists.rating.shape[0]
    for j in range(1, n - 1):
        rose = lists.published[j] & lists.published[j - 1] & (lists.rating[j] - lists.rating[j - 1] >= GAIN) \
            & (lists.games[j] > lists.games[j - 1])
        for i in np.flatnonzero(rose).tolist():
            for m in range(j + 1, n):  # the next list he played toward
                if not lists.published[m, i]:
                    break
                more = int(lists.games[m, i] - lists.games[j, i])
                if more > 0:
                    per_game.append(-(int(lists.rating[m, i]) - int(lists.rating[j, i])) / more)
                    who.append(problem("{player} after the list of {day}", player=lists.player_ids[i],
                                       day=lists.dates[j].isoformat()))
                    break
    window = ((problem("activity window {months} months, removal after {removal} months on the inactive list",
                       months=rules.activity_window_months, removal=rules.removal_after_months)
               if rules.removal_after_months else
               problem("activity window {months} months, removal never", months=rules.activity_window_months))
              if rules.activity_window_months else problem("no activity rule: a rating stays published for good"))
    if not per_game:
        return Strategy("sitting out", False, float("nan"), float("nan"), 0, "", window)
    x = np.array(per_game)
    return Strategy("sitting out", float(x.mean()) >= FOUND, float(x.mean()), float(x.mean()), int(x.shape[0]),
                    problem("after a rise of ≥ {gain}, the next games changed their ratings by {change} per game; "
                            "{window}", gain=GAIN, change=f"{-x.mean():+.2f}", window=window),
                    problem("minus the mean ΔR per game in the next period of play after a rise of ≥ {gain}", gain=GAIN))


def withdrawing(rules: RuleSet, lists: ListTimeline, players: Sequence[Player], events: Sequence[Event],
                games: Sequence[Game] | GameColumns) -> Strategy:
    gs = game_set(players, events, games, min(e.start_date for e in events))
    k_all = _k(rules, lists)
    listed = lists.in_force(gs.event_start[gs.event])
    ok = listed >= 0
    j = np.maximum(listed, 0)
    a, b, s = gs.player1, gs.player2, gs.score
    rated = ok & lists.published[j, a] & lists.published[j, b]
    saved, where = [], []
    for side in (0, 1):
        me, opp = (a, b) if side == 0 else (b, a)
        w = s if side == 0 else 1.0 - s
        d = lists.rating[j, me] - lists.rating[j, opp]
        cap = caps(rules, lists.rating[j, me]) if rules.has_cap() else None
        if cap is not None:
            d = np.clip(d, -cap, cap)
        change = k_all[j, me] * (w - _pd(d))
        sel = np.flatnonzero(rated)
        key = gs.event[sel] * len(lists.player_ids) + me[sel]
        order = np.lexsort((gs.round[sel], key))
        sel, key = sel[order], key[order]
        starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
        ends = np.concatenate((starts[1:], [key.shape[0]]))
        for lo, hi in zip(starts.tolist(), ends.tolist()):
            if hi - lo < 2 or w[sel[lo]] != 0.0:
                continue
            rest = float(change[sel[lo + 1:hi]].sum())
            saved.append(-rest / (hi - lo - 1))
            where.append(problem("{player} in {event}", player=lists.player_ids[me[sel[lo]]],
                                 event=gs.event_ids[gs.event[sel[lo]]]))
    if not saved:
        return Strategy("withdrawing after a loss", False, float("nan"), float("nan"), 0, "",
                        problem("minus the ΔR of his later games, game by game"))
    x = np.array(saved)
    i = int(np.argmax(x))
    return Strategy("withdrawing after a loss", float(x.mean()) >= FOUND, float(x[i]), float(x.mean()),
                    int(x.shape[0]), where[i], problem("minus the ΔR of his later games after losing the first, per "
                                                       "game (found when the mean is positive: losing streaks)"))


def protection(name: str, note: str, changes: Sequence[R.EventChange]) -> Strategy:
    kept = [(float(c.delta - c.raw_delta) / c.games, c) for c in changes
            if note in c.notes and c.raw_delta is not None and c.games]
    if not kept:
        return Strategy(name, False, float("nan"), float("nan"), 0, "", problem("ΔR after − before the protection, per game"))
    best, c = max(kept, key=lambda t: t[0])
    return Strategy(name, best >= FOUND, best, float(np.mean([g for g, _ in kept])), len(kept),
                    problem("{player} in {event}: {before} → {after} over {games} games", player=c.player_id,
                            event=c.event_id, before=c.raw_delta, after=c.delta, games=c.games),
                    problem("ΔR after − before the protection, per game of the event"))


def audit(rules: RuleSet, players: Sequence[Player], events: Sequence[Event], games: Sequence[Game] | GameColumns,
          standings: Sequence[Standing] = (), *, progress: Progress | None = None) -> Audit:
    if not events:
        raise InputError([problem("the history has no events: nothing to audit", file="--events")])
    players = list(players)
    report = None if progress is None else (lambda done, total: progress(f"rating by {rules.name}", done, total))
    try:
        history = compute_history(rules, players, events, games, standings, engine="fast", progress=report)
    except ValueError as exc:
        raise InputError([problem("rule set {rules}: {reason}", file="--rules", rules=rules.name,
                                  reason=str(exc))]) from None
    lists = lists_of_history(rules, players, events, history)
    changes = history.changes
    return Audit(rules.name, [
        cap_farming(rules, lists),
        sitting_out(rules, lists),
        withdrawing(rules, lists, players, events, games),
        protection("champion protection", R.NOTE_CHAMPION_PROTECTED, changes),
        protection("board protection", R.NOTE_BOARD_PROTECTED, changes),
    ])

