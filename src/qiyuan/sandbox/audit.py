"""``qiyuan rules audit``: the incentives a rule set gives, measured on a real history (激励审计).

A rating rule invites a strategy when following it gains points that the
player's play does not earn. Each strategy below is measured on the rule
set's own published lists and changes of the history, and reported as an
*effect* in rating points per game (played, or avoided): the mean over the
cases that follow the strategy (the *treated*) minus the mean over a
*control* group that does not, with its standard error — clustered (by
event, or by list date for the list-to-list measures) and, for a
difference, the two groups' errors combined. A strategy is *found* when the
effect is at least ``FOUND`` a game at two standard errors (effect − 2·se ≥
``FOUND``): no finding rests on one player's outlier. "Earned" means what
the rule set's own table says: a player's true expected score against an
opponent is 附表2's PD of their real rating difference (no cap), so a
strategy gains only where a rule departs from that table.

* **cap farming** (the FIDE 400-point exploit before October 2025): playing
  only much weaker opponents. For every player on every list and the weakest
  opponent published beside him (that he is still rated against:
  ``far_below_not_rated``), the gain per game is K × (PD(D) − PD(min(D, his cap))) — zero without a cap (附表2 itself stops
  at 735: 1.00), positive wherever a cap (``cap``, ``cap_bands``) is below
  the real difference. K is the player's K on that list (his games, the latch).
  Treated: the cases where it pays (gain > 0), clustered by list date; the
  control is the table itself (0). The example is the largest case, as an
  illustration of the arithmetic, not as the finding.
* **sitting out** (keeping a status): a player whose rating rose by at least
  ``GAIN`` points from one list to the next stops playing. The gain per game
  avoided is minus the mean ΔR per game of such players in the next list
  they played toward (regression after a lucky period); his rating then
  stays published as long as the activity rule lets him (``window``).
  Control: the players who played on after a change below ``GAIN``, the
  same measure; clustered by list date.
* **withdrawing after a loss**: a player who lost his first game of an event
  withdraws. The gain per game avoided is minus the ΔR his remaining games
  brought, each taken game by game as K × (W − PD(D)) (the per-game form of
  the texts; under the averaging method a close approximation), averaged over
  every such player-event of the history. Control: the player-events whose
  first game was not lost, the same measure; clustered by event.
* **champion protection** and **board protection**: the points the history's
  protected players kept (ΔR after − before the protection), per game of the
  event: what entering an event one can win (a board one can top) is worth.
  Control: the unprotected ΔR (0 kept); clustered by event.

The measures are floats (measurement, not the rating path).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import InputError, Problem, problem
from qiyuan.rating import results as R
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.fast.arrays import caps
from qiyuan.rating.history import compute_history
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.result import History
from qiyuan.rating.rules import RuleSet
from qiyuan.sandbox.games import game_set
from qiyuan.sandbox.lists import ListTimeline, lists_of_history
from qiyuan.sandbox.metrics import clustered_se
from qiyuan.sandbox.prediction import Progress
from qiyuan.sandbox.ruleset import table_hundredths

#: A rise from one list to the next that counts as a lucky period for "sitting out".
GAIN = 20
#: A strategy is found when its effect is at least this many rating points a game at two standard errors.
FOUND = 0.05


@dataclass(frozen=True)
class Strategy:
    name: str
    found: bool
    effect: float  # treated − control, rating points per game (nan: no case in the history)
    se: float  # of the effect
    mean_per_game: float  # the treated cases' mean
    cases: int
    control_mean: float  # the control group's mean (0 where the control is the rule's own arithmetic)
    control_cases: int
    example: Problem | str  # an illustration (cap farming: its largest case), a template ("" none)
    how: Problem  # one line: what was measured, a template


def _effect(name: str, treated: np.ndarray, t_cluster: np.ndarray, control: np.ndarray | None,
            c_cluster: np.ndarray | None, how: Problem, example: Problem | str = "") -> Strategy:
    """The strategy's effect (treated mean − control mean; the control 0 when ``None``) and its standard error."""
    nan = float("nan")
    if treated.shape[0] == 0:
        return Strategy(name, False, nan, nan, nan, 0, nan, 0, "", how)
    mean, se = float(treated.mean()), clustered_se(treated, t_cluster)
    if control is None or control.shape[0] == 0:
        c_mean, c_se, c_n = (0.0, 0.0, 0) if control is None else (nan, nan, 0)
    else:
        c_mean, c_se, c_n = float(control.mean()), clustered_se(control, c_cluster), int(control.shape[0])
    effect, both = mean - c_mean, float(np.hypot(se, c_se))
    found = bool(effect - 2.0 * both >= FOUND) if effect == effect else False
    return Strategy(name, found, effect, both, mean, int(treated.shape[0]), c_mean, c_n, example, how)


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
    best, best_at, gains, dates = 0.0, "", [], []
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
        gains.append(gain[gain > 0])
        dates.append(np.full(int((gain > 0).sum()), j))
        i = int(np.argmax(gain))
        if gain[i] > best:
            best = float(gain[i])
            best_at = problem("e.g. {player} ({rating}, K {k}) against a {weakest} on the list of {day}: D {d}, counted "
                              "{counted}", player=lists.player_ids[on[i]], rating=int(r[i]), k=int(k[j, on[i]]),
                              weakest=int(r.min()), day=lists.dates[j].isoformat(), d=int(d[i]),
                              counted=int(min(d[i], cap[i])))
    every = np.concatenate(gains) if gains else np.zeros(0)
    where = np.concatenate(dates) if dates else np.zeros(0, np.int64)
    how = problem("K × (PD(D) − PD(capped D)) against the weakest published player, where it pays; control: the "
                  "table itself")
    if every.shape[0] == 0:
        return Strategy("cap farming", False, 0.0, 0.0, 0.0, 0, 0.0, 0, "", how)
    return _effect("cap farming", every, where, None, None, how, best_at)


def sitting_out(rules: RuleSet, lists: ListTimeline) -> Strategy:
    per_game, rose_by, when = [], [], []
    n = lists.rating.shape[0]
    for j in range(1, n - 1):
        moved = lists.published[j] & lists.published[j - 1] & (lists.games[j] > lists.games[j - 1])
        for i in np.flatnonzero(moved).tolist():
            for m in range(j + 1, n):  # the next list he played toward
                if not lists.published[m, i]:
                    break
                more = int(lists.games[m, i] - lists.games[j, i])
                if more > 0:
                    per_game.append(-(int(lists.rating[m, i]) - int(lists.rating[j, i])) / more)
                    rose_by.append(int(lists.rating[j, i]) - int(lists.rating[j - 1, i]))
                    when.append(j)
                    break
    window = ((problem("activity window {months} months, removal after {removal} months on the inactive list",
                       months=rules.activity_window_months, removal=rules.removal_after_months)
               if rules.removal_after_months else
               problem("activity window {months} months, removal never", months=rules.activity_window_months))
              if rules.activity_window_months else problem("no activity rule: a rating stays published for good"))
    how = problem("minus the mean ΔR per game in the next period of play after a rise of ≥ {gain}; control: after a "
                  "smaller change; {window}", gain=GAIN, window=window)
    x, rise, at = np.array(per_game, np.float64), np.array(rose_by, np.int64), np.array(when, np.int64)
    lucky = rise >= GAIN
    return _effect("sitting out", x[lucky], at[lucky], x[~lucky], at[~lucky], how)


def withdrawing(rules: RuleSet, lists: ListTimeline, players: Sequence[Player], events: Sequence[Event],
                games: Sequence[Game] | GameColumns, until: date | None = None) -> Strategy:
    gs = game_set(players, events, games, min(e.start_date for e in events))
    k_all = _k(rules, lists)
    listed = lists.in_force(gs.event_start[gs.event])
    ok = listed >= 0
    j = np.maximum(listed, 0)
    a, b, s = gs.player1, gs.player2, gs.score
    rated = ok & lists.published[j, a] & lists.published[j, b]
    if until is not None:  # only the events that ended before it (the burn-in of a search)
        rated &= gs.event_end[gs.event] < until.toordinal()
    saved, lost, where = [], [], []
    sides = []  # every rated game from each player's side: (game, player, his score, his ΔR by the table)
    for me, opp, w in ((a, b, s), (b, a, 1.0 - s)):
        d = lists.rating[j, me] - lists.rating[j, opp]
        cap = caps(rules, lists.rating[j, me]) if rules.has_cap() else None
        if cap is not None:
            d = np.clip(d, -cap, cap)
        sel = np.flatnonzero(rated)
        sides.append((sel, me[sel], w[sel], (k_all[j, me] * (w - _pd(d)))[sel]))
    game_of, who, score, change = (np.concatenate(x) for x in zip(*sides))
    key = gs.event[game_of] * len(lists.player_ids) + who
    order = np.lexsort((gs.round[game_of], key))
    game_of, score, change, key = game_of[order], score[order], change[order], key[order]
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1]))) if key.shape[0] else np.zeros(0, np.int64)
    ends = np.concatenate((starts[1:], [key.shape[0]]))
    for lo, hi in zip(starts.tolist(), ends.tolist()):
        if hi - lo < 2:
            continue
        saved.append(-float(change[lo + 1:hi].sum()) / (hi - lo - 1))
        lost.append(score[lo] == 0.0)
        where.append(int(gs.event[game_of[lo]]))
    x, first_lost, event_of = np.array(saved, np.float64), np.array(lost, bool), np.array(where, np.int64)
    return _effect("withdrawing after a loss", x[first_lost], event_of[first_lost], x[~first_lost],
                   event_of[~first_lost], problem("minus the ΔR of his later games after losing the first, per game; "
                                                  "control: after not losing it"))


def protection(name: str, note: str, changes: Sequence[R.EventChange]) -> Strategy:
    kept = [c for c in changes if note in c.notes and c.raw_delta is not None and c.games]
    x = np.array([float(c.delta - c.raw_delta) / c.games for c in kept], np.float64)
    events = np.unique([c.event_id for c in kept], return_inverse=True)[1] if kept else np.zeros(0, np.int64)
    return _effect(name, x, events, None, None, problem("ΔR after − before the protection, per game of the event; "
                                                        "control: the unprotected ΔR"))


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
    return audit_history(rules, players, events, games, history)


def audit_history(rules: RuleSet, players: Sequence[Player], events: Sequence[Event],
                  games: Sequence[Game] | GameColumns, history: History, until: date | None = None) -> Audit:
    """The audit of a history the engine has computed under ``rules`` (``until``: of the events that ended
    before it only — the history then computed up to it)."""
    lists = lists_of_history(rules, players, events, history)
    changes = history.changes
    return Audit(rules.name, [
        cap_farming(rules, lists),
        sitting_out(rules, lists),
        withdrawing(rules, lists, players, events, games, until),
        protection("champion protection", R.NOTE_CHAMPION_PROTECTED, changes),
        protection("board protection", R.NOTE_BOARD_PROTECTED, changes),
    ])
