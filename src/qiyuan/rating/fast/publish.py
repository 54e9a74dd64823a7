"""Publication at a list date (mirrors ``period.py``: ``_publish``, ``_status_after``, ``ordered_list``).

* Rated players: Rn = Ro + ΣΔR, published rounded half up (四舍五入).
* Newcomers whose counted games in the window reach the threshold get their
  first rating: the game-weighted mean of Ru (CGA), or the provisional rating
  plus ΣΔR (Beijing–Shanghai).
* The K latch once a published rating reaches the threshold.
* The activity rule: inactive with too few games in the window (judged only on
  a full window with a published rating), active again with enough in the
  reactivation window, removed after the removal period.
* The list, in the rule set's order (``order.list_order_key``).
"""

from __future__ import annotations

from datetime import date

import numpy as np

from qiyuan.rating.calendar import add_months
from qiyuan.rating.columnar import ExactFractions, ListColumns
from qiyuan.rating.exact import round_half_up
from qiyuan.rating.fast.arrays import NONE, round_half_up_div
from qiyuan.rating.fast.state import ACTIVE, INACTIVE, REMOVED, PlayerArrays
from qiyuan.rating.rules import NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL


def publish(arrays: PlayerArrays, list_date: date, rated: np.ndarray, delta_sum: np.ndarray, games_sum: np.ndarray,
            log: tuple[np.ndarray, np.ndarray, np.ndarray], changed: np.ndarray, computed: np.ndarray
            ) -> tuple[ListColumns, ExactFractions]:
    """Publish the list of ``list_date``: the new states in ``arrays``, the list, and the exact first ratings.
    ``rated``: who held a rating during the period; ``delta_sum``/``games_sum``: their period's ΣΔR
    (hundredths) and counted games; ``log``: the (player, end, games) of the counted events; ``changed``: who
    has a change this period, ``computed``: who has a ΔR as computed (not set to 0 by a protection)."""
    prep = arrays.prep
    rules = prep.rules
    L = list_date.toordinal()
    # How Rn is written (as the reference's Decimal sum Ro + ΣΔR): with two decimals once a computed ΔR entered
    # it; a rating unchanged since keeps its written form only while it equals the rating.
    keep = rated & ~changed & arrays.exact_cents & ((arrays.exact_h == arrays.rating * 100) | (arrays.exact_h == NONE))
    arrays.exact_cents = np.where(rated & changed, computed, keep)
    # Rated players: Rn = Ro + ΣΔR, published rounded half up.
    exact_h = np.where(rated, arrays.rating * 100 + delta_sum, NONE)
    arrays.rating = np.where(rated, (exact_h + 50) // 100, NONE)
    arrays.exact_h = exact_h
    arrays.games = np.where(rated, arrays.games + games_sum, arrays.games)
    arrays.log(*log)
    first_ratings: dict[int, tuple[int, int]] = {}  # a CGA first rating: the game-weighted mean of Ru
    # Newcomers: first rating once the counted games in the window reach the threshold.
    recs = arrays.records
    total = recs.totals(prep.P)
    if rules.newcomer_method in (NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL):
        newly = np.flatnonzero(total >= max(rules.newcomer_min_games, 1))
    else:
        newly = np.zeros(0, np.int64)
    if newly.shape[0]:
        num, odd = recs.value_sums(newly, prep.P)
        d0 = recs.den0
        if rules.newcomer_method == NEWCOMER_PERFORMANCE:  # game-weighted mean of Ru, kept as a fraction
            v_num, v_den = num[newly], d0 * total[newly]
            arrays.rating[newly] = round_half_up_div(v_num, v_den)
            arrays.exact_h[newly] = NONE
            arrays.exact_cents[newly] = False  # (a whole-number mean is written without decimals)
            first_ratings = dict(zip(newly.tolist(), zip(v_num.tolist(), v_den.tolist())))
            for p, value in odd.items():
                value = value / int(total[p])
                arrays.rating[p] = round_half_up(value)
                first_ratings[p] = (value.numerator, value.denominator)
        else:  # the provisional rating plus the ΔR: a decimal sum, two decimals if a computed ΔR entered it
            start = np.where(prep.female[newly], prep.start_female, prep.start_male)
            v_h = start * 100 + num[newly]  # ΔR in hundredths (d0 = 100)
            arrays.rating[newly] = round_half_up_div(v_h, np.full(newly.shape[0], 100))
            arrays.exact_h[newly] = v_h
            cents = np.zeros(prep.P, dtype=bool)
            cents[recs.player[recs.cents.astype(bool)]] = True
            arrays.exact_cents[newly] = cents[newly]
        arrays.games[newly] = total[newly]
        arrays.status[newly] = ACTIVE
        arrays.rated_since[newly] = L
        arrays.inactive_since[newly] = 0
        done = np.isin(recs.player, newly)
        arrays.log(recs.player[done], recs.end[done], recs.games[done])
        recs.keep(~done)
    now_rated = arrays.rating != NONE
    if rules.k_latch_rating is not None:
        arrays.latched |= now_rated & (arrays.rating >= rules.k_latch_rating)
    _activity_rule(arrays, list_date, now_rated)
    windows = [rules.activity_window_months or 0, rules.reactivation_window_months]
    arrays.prune_log(add_months(list_date, -max(windows)).toordinal())
    exact = ExactFractions(first_ratings)
    return _list(arrays, list_date, exact), exact


def _activity_rule(arrays: PlayerArrays, list_date: date, now_rated: np.ndarray) -> None:
    """不活跃 / 除名 at a publication date (``period._status_after`` for every player at once)."""
    rules = arrays.prep.rules
    L = list_date.toordinal()
    if rules.activity_window_months is None:
        arrays.status = np.where(now_rated, ACTIVE, arrays.status).astype(np.int8)
        arrays.inactive_since = np.where(now_rated, 0, arrays.inactive_since)
        return
    since = add_months(list_date, -rules.activity_window_months).toordinal()
    react_since = add_months(list_date, -rules.reactivation_window_months).toordinal()
    g_act = arrays.games_between(since, L)
    g_react = arrays.games_between(react_since, L)
    inactive = now_rated & (arrays.status == INACTIVE)
    reactivate = inactive & (g_react >= rules.reactivation_min_games)
    remove = np.zeros_like(inactive)
    if rules.removal_after_months is not None:
        stay = inactive & ~reactivate
        for since_day in np.unique(arrays.inactive_since[stay & (arrays.inactive_since > 0)]).tolist():
            limit = add_months(date.fromordinal(since_day), rules.removal_after_months).toordinal()
            if L >= limit:
                remove |= stay & (arrays.inactive_since == since_day)
    judged = (arrays.rated_since > 0) & (arrays.rated_since <= since)
    others = now_rated & ~inactive
    to_inactive = others & judged & (g_act < rules.activity_min_games)
    status = arrays.status.copy()
    status[reactivate] = ACTIVE
    status[others & ~to_inactive] = ACTIVE
    status[to_inactive] = INACTIVE
    arrays.inactive_since = np.where(reactivate, 0, arrays.inactive_since)
    arrays.inactive_since = np.where(to_inactive, L, arrays.inactive_since)
    if remove.any():
        status[remove] = REMOVED
        arrays.rating[remove] = NONE
        arrays.exact_h[remove] = NONE
        arrays.games[remove] = 0
        arrays.rated_since[remove] = 0
        arrays.inactive_since[remove] = 0
        arrays.cleared_seq[remove] = arrays.seq  # his activity so far no longer counts
        arrays.seq += 1
    arrays.status = status


def _list(arrays: PlayerArrays, list_date: date, first_ratings: ExactFractions) -> ListColumns:
    """The published list: status, rating descending, the rule set's tie order, then the player id."""
    prep = arrays.prep
    rules = prep.rules
    rated = arrays.rating != NONE
    by_rating = np.where(rated, -arrays.rating, 1)
    name = prep.tie_rank
    new_key = np.zeros(prep.P, np.int64)
    if rules.list_new_by_registration:  # B–S §13(一)3: rated first on this list → after the others, by registration
        is_new = rated & (arrays.rated_since == list_date.toordinal())
        new_key = np.where(is_new, prep.registered + 1, 0)
    if prep.inactive_by_pinyin:  # B–S §5: the inactive list by pinyin alone
        inactive = arrays.status == INACTIVE
        by_rating = np.where(inactive, 0, by_rating)
        new_key = np.where(inactive, 0, new_key)
        name = np.where(inactive, prep.pinyin_rank, name)
    order = _order(prep.P, arrays.status.astype(np.int64), by_rating, new_key if rules.list_new_by_registration
                   else None, name * prep.P + prep.id_rank)
    games = np.where(rated, arrays.games, arrays.records.totals(prep.P))  # a newcomer: his counted games so far
    return ListColumns(list_date, order, arrays.rating.copy(), games, arrays.status.copy(),
                       np.where(rated, arrays.exact_h, NONE), arrays.exact_cents.copy(), first_ratings)


def _order(n: int, status: np.ndarray, by_rating: np.ndarray, new_key: np.ndarray | None,
           last: np.ndarray) -> np.ndarray:
    """The indices sorted by (status, by_rating, new_key, last): one packed integer key when it fits (a
    single sort is twice as fast as a sort on several keys)."""
    lo, hi = int(by_rating.min(initial=0)), int(by_rating.max(initial=0))
    span = hi - lo + 1
    if new_key is None and 4 * span * n * n < 2**62:
        return np.argsort((status * span + (by_rating - lo)) * (n * n) + last)  # (unique keys: any sort)
    keys = (last, by_rating, status) if new_key is None else (last, new_key, by_rating, status)
    return np.lexsort(keys)
