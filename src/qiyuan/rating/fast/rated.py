"""Rated players' changes in a period (mirrors ``expected.py`` and ``event.py`` steps 3 and 5).

For every row of a rated player: the games against opponents that count (rated
ones; in an interacting round robin also the unrated ones the rule set rates),
We by the event's method — per game Σ PD(R − R_opp), averaging N × PD(R − Rc)
with Rc rounded half up, the Go round robin N·Pa − cycles·(½ − Pa) — then K
fixed at the event's start, ΔR = K(W − We), and the protections of the
event's ΣΔR (champion or best on his board; Go international ≥ 50 %).
"""

from __future__ import annotations

import numpy as np

from qiyuan.rating.fast.arrays import NONE, Groups, caps, expected_hundredths, prior_games, round_half_up_div
from qiyuan.rating.fast.prepare import M_AVERAGING, M_GO_RR, M_PER_GAME, M_NOT_RATED, Prepared
from qiyuan.rating.fast.rows import Rows


def rated_rows(prep: Prepared, rows: Rows, out: dict[str, np.ndarray], rating: np.ndarray,
               counts_for_rated: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fill W, We, method, N, Rc, Pd, D of the rated players' rows; return (rows rated on some game,
    rated rows without any rated game). ``counts_for_rated``: sides of interacting round robins whose
    (unrated) opponent enters a rated player's calculation."""
    rules = prep.rules
    P = prep.P
    rr = rows.me_rated & ((rows.opp_rated & ~rows.s_interacting) | counts_for_rated)
    if rules.far_below_not_rated is not None:  # a strong player's games against much weaker rated ones
        lo, gap = rules.far_below_not_rated
        rr &= ~(rows.opp_rated & (rows.R_me >= lo) & (rows.R_me - rows.R_opp > gap))
    grp = Groups(rows.s_row[rr], rows.n)
    n_r = grp.count()
    w_r = grp.sum(rows.s_w[rr])
    R_row = rating[rows.player]
    R_me, R_opp = rows.R_me[rr], rows.R_opp[rr]
    d_game = R_me - R_opp
    opp_clamped = R_opp
    if rules.has_cap():  # FIDE's 350/400 rule: clamp each D, or each opponent's rating before a mean
        cap = caps(rules, R_me)  # by his rating band (cap_bands)
        d_game = np.clip(d_game, -cap, cap)
        opp_clamped = np.clip(opp_clamped, R_me - cap, R_me + cap)
    we_per_game = grp.sum(expected_hundredths(d_game))
    rows.s_used = rr.copy()  # (for the changes as the reference writes them: lines, notes, W's text)
    rows.s_D = np.zeros(rr.shape[0], np.int64)
    rows.s_D[rr] = d_game
    method = prep.method[rows.event]
    safe_n = np.maximum(n_r, 1)
    sum_opp = grp.sum(opp_clamped)
    rc_avg = round_half_up_div(sum_opp, safe_n)
    pd_avg = expected_hundredths(R_row - rc_avg)
    we_avg = n_r * pd_avg
    # Go round robin: himself + the distinct opponents he played; cycles = most meetings with one.
    we_go = np.zeros(rows.n, np.int64)
    pd_go = np.zeros(rows.n, np.int64)
    go_num = np.zeros(rows.n, np.int64)
    go_den = np.ones(rows.n, np.int64)
    go_rc = np.zeros(rows.n, np.int64)
    is_go = (method == M_GO_RR) & rows.rated & (n_r > 0)
    if is_go.any():
        sel = rr & is_go[rows.s_row]
        pair = rows.s_row[sel] * P + rows.s_opp[sel]
        pairs, first_side, pair_count = np.unique(pair, return_index=True, return_counts=True)
        pair_row = pairs // P
        clamped_of_pair = rows.R_opp[sel][first_side]  # the rating used for him (an unrated one's Ru)
        if rules.has_cap():
            r_of = rating[rows.player[pair_row]]
            cap = caps(rules, r_of)
            clamped_of_pair = np.clip(clamped_of_pair, r_of - cap, r_of + cap)
        pg = Groups(pair_row, rows.n)
        distinct = pg.count()
        cycles = pg.max(pair_count)
        go_num = R_row + pg.sum(clamped_of_pair)
        go_den = np.maximum(distinct + 1, 1)
        go_rc = round_half_up_div(go_num, go_den)
        pd_go = expected_hundredths(R_row - go_rc)
        we_go = n_r * pd_go - cycles * (50 - pd_go)
    we_r = np.select([method == M_PER_GAME, method == M_AVERAGING], [we_per_game, we_avg], we_go)
    rated_ok = rows.rated & (n_r > 0)
    rated_none = rows.rated & (n_r == 0)
    out["games"] = np.where(rated_ok, n_r, 0)
    out["W"] = np.where(rated_ok, w_r, 0)
    out["We"] = np.where(rated_ok, we_r, np.where(rated_none, 0, NONE))
    out["method"] = np.where(rated_ok, method, M_NOT_RATED)
    out["N"] = np.where(rated_ok, n_r, NONE)
    avg_like = rated_ok & (method != M_PER_GAME)
    go = method == M_GO_RR
    out["Rc_num"] = np.where(avg_like, np.where(go, go_num, sum_opp), 0)
    out["Rc_den"] = np.where(avg_like, np.where(go, go_den, n_r), 0)
    out["Pd"] = np.where(avg_like, np.where(go, pd_go, pd_avg), NONE)
    out["D"] = np.where(avg_like, R_row - np.where(go, go_rc, rc_avg), NONE)
    return rated_ok, rated_none


def k_factors(prep: Prepared, rows_event: np.ndarray, rows_player: np.ndarray, latched: np.ndarray,
              base: np.ndarray, counted: tuple[list, list, list]) -> np.ndarray:
    """K of each row, fixed at the event's start: his games on the last list (a newcomer: his counted games in
    the window) plus those of this period's events that ended before the event began; the latch."""
    rules = prep.rules
    c_player, c_end, c_games = counted
    prior = prior_games(np.concatenate(c_player), np.concatenate(c_end), np.concatenate(c_games), rows_player,
                        prep.start[rows_event])
    k_games = base[rows_player] + prior
    is_latched = latched[rows_player] & (rules.k_latch_rating is not None)
    return np.where(is_latched, rules.k_top,
                    np.where(k_games < rules.k_new_games, rules.k_new, rules.k_established))


def deltas(prep: Prepared, out: dict[str, np.ndarray], k: np.ndarray, champion: np.ndarray,
           delta_rows: np.ndarray) -> np.ndarray:
    """ΔR = K(W − We) of the rows that have one, and the protections of the event's ΣΔR; returns the rows
    whose ΔR stands as computed (not set to 0 by a protection)."""
    raw = k * (out["W"] - np.where(out["We"] == NONE, 0, out["We"]))
    raw = np.where(delta_rows, raw, 0)
    out["raw_delta"] = np.where(delta_rows, raw, NONE)
    event = out["event"]
    protect = delta_rows & (raw < 0) & champion & prep.champion_ok[event]
    if prep.intl is not None:
        a, b = prep.intl
        protect |= delta_rows & (raw < 0) & prep.international[event] & (out["games"] > 0) \
            & (out["W"] * b >= 100 * a * out["games"])
    out["delta"] = np.where(protect, 0, raw)
    return delta_rows & ~protect
