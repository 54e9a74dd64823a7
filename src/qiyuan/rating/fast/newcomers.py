"""Unrated players in a period (mirrors ``newcomer.py`` and ``event.py`` steps 2 and 4).

* The zero-score rule (CGA Art. 5(十二)): an unrated player without a point in
  the games that count for him is left out, with his opponents' games against
  him — repeated in a round robin, where leaving one out changes the others'.
* CGA Art. 7: Ru from Rc (the mean of his rated opponents; in a round robin
  Ra = Rar − Dpa × n/(n+1)), + 12.5 per half point above 50 %, + dp below
  (× n/(n+1) in a round robin); the event counts with ≥ 3 rated opponents and
  a score above 0. In a CGA round robin the rated players' games against an
  unrated player use his Ru (rounded), Ra or his provisional rating.
* Beijing–Shanghai §12: from the provisional 2200/2040, per-game K changes
  against rated opponents.
* The counted events (``Records``) wait for the first rating: a game-weighted
  mean of Ru, or the provisional rating plus the ΔR.

Ra and the round-robin Ru are exact fractions, computed only for the few rows
that need them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from qiyuan.rating.exact import round_half_up
from qiyuan.rating.fast.arrays import NONE, Groups, caps, expected_hundredths, int_bincount, round_half_up_div
from qiyuan.rating.fast.prepare import M_NEWCOMER, M_PROVISIONAL, Prepared
from qiyuan.rating.fast.rows import Rows
from qiyuan.rating.rules import (NEWCOMER_NOT_RATED, NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL, RR_UNRATED_EVENT_RU,
                                 RR_UNRATED_PROVISIONAL, RR_UNRATED_RA, ZERO_SCORE_OFF, ZERO_SCORE_ONCE)


class Records:
    """Newcomers' counted events (``NewcomerRecord``) as arrays.

    Each record carries a ``value`` as num/den: Ru × games (performance rule,
    so the first rating is Σ value / Σ games) or ΔR (provisional rule, so it is
    start + Σ value). Records on the common denominator ``den0`` are summed as
    integers; others (a round robin's Ra has any denominator) exactly as
    fractions. ``order`` is the order they were counted in (an event's rank;
    negative for events before the run); ``cents``: a provisional ΔR computed
    (written with two decimals), not set to 0 by a protection (written ``0``).
    """

    FIELDS = ("player", "event", "end", "games", "num", "den", "order", "cents")

    def __init__(self, den0: int):
        self.den0 = den0
        for name in self.FIELDS:
            setattr(self, name, np.zeros(0, np.int64))

    def add(self, player, event, end, games, num, den, order, cents=None) -> None:
        if cents is None:
            cents = np.zeros(np.asarray(player).shape[0], np.int64)
        for name, values in zip(self.FIELDS, (player, event, end, games, num, den, order, cents)):
            setattr(self, name, np.concatenate([getattr(self, name), np.asarray(values, np.int64)]))

    def add_fractions(self, rows: list[tuple[int, int, int, int, Fraction, int, bool]]) -> None:
        """(player, event, end, games, value, order, cents) with exact fractional values."""
        if not rows:
            return
        num, den = [], []
        for *_, value, _order, _cents in rows:
            if self.den0 % value.denominator == 0:
                num.append(value.numerator * (self.den0 // value.denominator))
                den.append(self.den0)
            else:
                num.append(value.numerator)
                den.append(value.denominator)
        self.add(*([r[i] for r in rows] for i in range(4)), num, den, [r[5] for r in rows],
                 [int(r[6]) for r in rows])

    def keep(self, mask: np.ndarray) -> None:
        for name in self.FIELDS:
            setattr(self, name, getattr(self, name)[mask])

    def totals(self, n: int) -> np.ndarray:
        return int_bincount(self.player, self.games, n)

    def value_sums(self, players: np.ndarray, n: int) -> tuple[np.ndarray, dict[int, Fraction]]:
        """Σ value of each player of ``players``: num over den0 (array), or a Fraction where a record is off it."""
        sel = np.isin(self.player, players)
        regular = self.den[sel] == self.den0
        num = int_bincount(self.player[sel][regular], self.num[sel][regular], n)
        odd: dict[int, Fraction] = {}
        for p, a, b in zip(self.player[sel][~regular].tolist(), self.num[sel][~regular].tolist(),
                           self.den[sel][~regular].tolist()):
            odd[p] = odd.get(p, Fraction(0)) + Fraction(a, b)
        for p in odd:
            odd[p] += Fraction(int(num[p]), self.den0)
        return num, odd


@dataclass
class Interacting:
    """The outcome of the interacting round robins (see ``interacting_round_robins``)."""

    ignored: np.ndarray  # rows left out by the zero-score rule
    ignored_round: np.ndarray  # the round of the zero-score rule that left each out (-1: none)
    act: np.ndarray  # per side of the period: the game is still in (neither player left out)
    distinct_rated: np.ndarray  # per row: distinct rated opponents in the games still in
    used_rating: np.ndarray  # per interacting side: the opponent's rating a rated player's game uses
    counts_for_rated: np.ndarray  # per side of the period: the game counts for the rated player
    W: np.ndarray
    N: np.ndarray
    rc_num: np.ndarray
    rc_den: np.ndarray
    ru: dict[int, Fraction]  # row → Ru, where it exists
    counts: np.ndarray  # rows whose event counts toward the newcomer's first rating


def interacting_round_robins(prep: Prepared, rows: Rows, rating: np.ndarray) -> Interacting:
    """Round robins where unrated players take part in the calculation (CGA Art. 5(十二), 6(一), 7).

    Returns, for the sides of these events: the rating a rated player's game uses for the opponent and
    whether it counts; for their rows: the zero-score rule's ``ignored``, and an unrated player's W, N,
    Rc = Ra, Ru and whether his event counts.
    """
    rules = prep.rules
    P = prep.P
    n_rows = rows.n
    s_cx, s_row, row_opp, s_w = rows.s_interacting, rows.s_row, rows.s_opp_row, rows.s_w
    cx_row, row_rated = rows.interacting, rows.rated
    # 2. The zero-score rule: an unrated player with games left and no point is left out, with his
    #    games; repeated (the rule set may say once, or not at all).
    ignored = np.zeros(n_rows, dtype=bool)
    ignored_round = np.full(n_rows, -1, np.int64)
    zero_rule = rules.zero_score_rule != ZERO_SCORE_OFF
    while True:
        act = s_cx & ~ignored[s_row] & ~ignored[row_opp]
        n_act = np.bincount(s_row[act], minlength=n_rows)
        w_act = int_bincount(s_row[act], s_w[act], n_rows)
        if not zero_rule:
            break
        new = cx_row & ~row_rated & ~ignored & (n_act > 0) & (w_act == 0)
        if not new.any():
            break
        ignored_round[new] = ignored_round.max() + 1
        ignored |= new
        if rules.zero_score_rule == ZERO_SCORE_ONCE:
            act = s_cx & ~ignored[s_row] & ~ignored[row_opp]
            n_act = np.bincount(s_row[act], minlength=n_rows)
            w_act = int_bincount(s_row[act], s_w[act], n_rows)
            break
    n_act = n_act.astype(np.int64)
    # Each rated participant's dp (Table 1, from his score over all his games left).
    p_h = round_half_up_div(w_act, np.maximum(n_act, 1))
    dp_known = prep.dp_known[np.clip(p_h, 0, 100)]
    dp = prep.dp[np.clip(p_h, 0, 100)]
    # Distinct opponents (all / rated) of each row over the sides left.
    pairs = np.unique(s_row[act] * P + rows.s_opp[act])
    distinct = np.bincount(pairs // P, minlength=n_rows)
    rated_pairs = pairs[rating[pairs % P] != NONE]
    distinct_rated = np.bincount(rated_pairs // P, minlength=n_rows)
    # 3. Ra of each event: Rar − Dpa × n/(n+1).
    ra: dict[int, Fraction | None] = {}
    for e in np.unique(rows.event[cx_row]).tolist():
        rows_e = np.flatnonzero(cx_row & (rows.event == e) & (n_act > 0))
        rated_e = rows_e[row_rated[rows_e]]
        if not rated_e.shape[0] or rows_e.shape[0] < 2:
            ra[e] = None
            continue
        known = rated_e[dp_known[rated_e] & (n_act[rated_e] > 0)]
        dpa = Fraction(int(dp[known].sum()), int(known.shape[0])) if known.shape[0] else Fraction(0)
        n = rows_e.shape[0] - 1
        value = Fraction(int(rating[rows.player[rated_e]].sum()), int(rated_e.shape[0])) - dpa * Fraction(n, n + 1)
        ra[e] = Fraction(round_half_up(value)) if rules.round_ra_first else value
    # 4. Ru of each unrated player left (Art. 7, round robin: dp × n/(n+1) below 50 %).
    ru: dict[int, Fraction] = {}
    rc_num = np.zeros(n_rows, np.int64)
    rc_den = np.zeros(n_rows, np.int64)
    for j in np.flatnonzero(cx_row & ~row_rated & ~ignored & (n_act > 0)).tolist():
        rc = ra[int(rows.event[j])]
        if rc is None:
            continue
        rc_num[j], rc_den[j] = rc.numerator, rc.denominator
        n_games = int(n_act[j])
        h = int(w_act[j]) // 50 - n_games
        if h == 0:
            ru[j] = rc
        elif h > 0:
            ru[j] = rc + prep.bonus * h
        elif dp_known[j]:
            n_o = int(distinct[j])
            ru[j] = rc + Fraction(int(dp[j])) * Fraction(n_o, n_o + 1)
    # 5. The rating a rated player's game against an unrated opponent uses.
    opp_row_cx = row_opp[s_cx]
    used = rating[rows.s_opp[s_cx]].copy()
    counts_cx = rows.opp_rated[s_cx].copy()
    how = rules.rr_unrated_opponent
    for i in np.flatnonzero(~rows.opp_rated[s_cx] & act[s_cx]).tolist():
        q = int(opp_row_cx[i])
        if how == RR_UNRATED_EVENT_RU:
            value = ru.get(q)
            used_rating = round_half_up(value) if value is not None else None
        elif how == RR_UNRATED_RA:
            value = ra[int(rows.event[q])]
            used_rating = round_half_up(value) if value is not None else None
        elif how == RR_UNRATED_PROVISIONAL:
            used_rating = prep.start_female if prep.female[rows.player[q]] else prep.start_male
        else:
            used_rating = None
        if used_rating is not None:
            used[i] = used_rating
            counts_cx[i] = True
    counts_cx &= act[s_cx]
    counts_for_rated = np.zeros(s_cx.shape[0], dtype=bool)
    counts_for_rated[s_cx] = counts_cx
    counts = np.zeros(n_rows, dtype=bool)
    for j in ru:
        counts[j] = w_act[j] > 0 and distinct_rated[j] >= rules.newcomer_min_rated_opponents
    return Interacting(ignored, ignored_round, act, distinct_rated, used, counts_for_rated, w_act, n_act, rc_num,
                       rc_den, ru, counts)


@dataclass
class NewcomerRows:
    """What the newcomers' rows of a period leave for their K, ΔR and records."""

    counts: np.ndarray | None = None  # performance: rows whose event counts
    opp_sum: np.ndarray | None = None  # performance: Σ rated opponents' ratings
    half_points: np.ndarray | None = None  # performance: 2W − N
    p: np.ndarray | None = None  # performance: W/N in hundredths (rounded half up)
    provisional_ok: np.ndarray | None = None  # provisional: rows with a ΔR
    provisional_k: np.ndarray | None = None  # provisional: rows that show K
    ignored: np.ndarray | None = None  # rows left out by the zero-score rule
    ignored_round: np.ndarray | None = None  # the round of the zero-score rule that left each out (-1: none)
    distinct_rated: np.ndarray | None = None  # distinct rated opponents in the games that count for him


def newcomer_rows(prep: Prepared, rows: Rows, out: dict[str, np.ndarray], rating: np.ndarray,
                  cx: Interacting | None) -> NewcomerRows:
    """Fill the unrated players' rows: W, N, Rc, Ru (performance), or W, We, Ro (provisional)."""
    rules = prep.rules
    P = prep.P
    # Games against rated opponents (their events do not interact here).
    nc = ~rows.me_rated & rows.opp_rated
    ngrp = Groups(rows.s_row[nc], rows.n)
    n_n = ngrp.count()
    w_n = ngrp.sum(rows.s_w[nc])
    unrated_row = ~rows.rated
    zero_rule = rules.zero_score_rule != ZERO_SCORE_OFF and rules.newcomer_method != NEWCOMER_NOT_RATED
    ignored = unrated_row & zero_rule & (n_n > 0) & (w_n == 0) & ~rows.interacting
    if cx is not None:
        ignored |= cx.ignored
    upair = np.unique(rows.s_row[nc] * P + rows.s_opp[nc])
    distinct_n = int_bincount(upair // P, np.ones(upair.shape[0], np.int64), rows.n)
    result = NewcomerRows(ignored=ignored, ignored_round=np.where(ignored, 0, -1), distinct_rated=distinct_n)
    if cx is not None:
        result.ignored_round = np.where(rows.interacting, cx.ignored_round, result.ignored_round)
        result.distinct_rated = np.where(rows.interacting, cx.distinct_rated, distinct_n)
    # the sides each newcomer's change counts (his W's text; a provisional newcomer's lines)
    if rows.s_used is None:
        rows.s_used, rows.s_D = np.zeros(rows.s_row.shape[0], dtype=bool), np.zeros(rows.s_row.shape[0], np.int64)
    if rules.newcomer_method == NEWCOMER_PERFORMANCE:
        sum_n = ngrp.sum(rows.R_opp[nc])
        live = unrated_row & ~ignored
        out["method"] = np.where(live, M_NEWCOMER, out["method"])
        out["W"] = np.where(live, w_n, out["W"])
        out["N"] = np.where(live, n_n, out["N"])
        out["Rc_num"] = np.where(live & (n_n > 0), sum_n, out["Rc_num"])
        out["Rc_den"] = np.where(live & (n_n > 0), n_n, out["Rc_den"])
        # Ru exists unless dp is indeterminate (below 50 % at p = 0).
        h = w_n // 50 - n_n
        p_h = round_half_up_div(w_n, np.maximum(n_n, 1))
        dp = prep.dp[np.clip(p_h, 0, 100)]
        ru_known = (n_n > 0) & ((h >= 0) | prep.dp_known[np.clip(p_h, 0, 100)])
        counts = live & ru_known & (w_n > 0) & (distinct_n >= rules.newcomer_min_rated_opponents)
        # Ru = Rc (50 %), Rc + bonus × h (above), Rc + dp (below), over a common denominator.
        b = prep.bonus
        shown = live & ru_known
        out["ru_num"] = np.where(shown, np.where(h > 0, sum_n * b.denominator + n_n * b.numerator * h,
                                                 (sum_n + np.where(h < 0, n_n * dp, 0)) * b.denominator), 0)
        out["ru_den"] = np.where(shown, n_n * b.denominator, 0)
        if cx is not None:
            live_cx = live & rows.interacting
            out["W"] = np.where(live_cx, cx.W, out["W"])
            out["N"] = np.where(live_cx, cx.N, out["N"])
            out["Rc_num"] = np.where(live_cx, cx.rc_num, out["Rc_num"])
            out["Rc_den"] = np.where(live_cx, cx.rc_den, out["Rc_den"])
            out["ru_num"] = np.where(rows.interacting, 0, out["ru_num"])
            out["ru_den"] = np.where(rows.interacting, 0, out["ru_den"])
            for j, value in cx.ru.items():
                out["ru_num"][j], out["ru_den"][j] = value.numerator, value.denominator
            counts = np.where(rows.interacting, live_cx & cx.counts, counts)
        out["games"] = np.where(counts, out["N"], out["games"])
        theirs = nc if cx is None else np.where(rows.s_interacting, cx.act, nc)
        rows.s_used |= theirs & live[rows.s_row]
        result.counts, result.opp_sum, result.half_points, result.p = counts, sum_n, h, p_h
    elif rules.newcomer_method == NEWCOMER_PROVISIONAL:
        if (unrated_row & ~prep.has_gender[rows.player] & (n_n > 0)).any():
            raise ValueError("a newcomer's provisional rating needs his gender (M/F)")
        start = np.where(prep.female[rows.player], prep.start_female, prep.start_male)
        d_n = start[rows.s_row[nc]] - rows.R_opp[nc]
        if rules.has_cap():
            cap = caps(rules, start[rows.s_row[nc]])
            d_n = np.clip(d_n, -cap, cap)
        we_n = ngrp.sum(expected_hundredths(d_n))
        ok = unrated_row & ~ignored & (n_n > 0) & (distinct_n >= rules.newcomer_min_rated_opponents)
        out["games"] = np.where(ok, n_n, out["games"])
        out["W"] = np.where(ok, w_n, out["W"])
        out["We"] = np.where(ok, we_n, out["We"])
        out["N"] = np.where(ok, n_n, out["N"])
        out["method"] = np.where(ok, M_PROVISIONAL, out["method"])
        out["Ro"] = np.where(unrated_row & ~ignored, start, out["Ro"])
        result.provisional_ok = ok
        rows.s_used |= nc & ok[rows.s_row]
        rows.s_D[nc] = np.where(ok[rows.s_row[nc]], d_n, rows.s_D[nc])
        result.provisional_k = unrated_row & ~ignored  # K is shown for his not-rated rows too
    return result


def add_records(prep: Prepared, records: Records, out: dict[str, np.ndarray], nc: NewcomerRows,
                cx: Interacting | None, cents: np.ndarray) -> None:
    """The period's counted newcomer events, waiting for a first rating (``cents``: rows whose ΔR was
    computed, not set to 0 by a protection)."""
    rules = prep.rules
    end = prep.end[out["event"]]
    if rules.newcomer_method == NEWCOMER_PERFORMANCE:
        bonus = prep.bonus
        cx_ru = {j: v for j, v in cx.ru.items() if cx.counts[j]} if cx is not None else {}
        j = np.flatnonzero(nc.counts & ~np.isin(np.arange(nc.counts.shape[0]), list(cx_ru)))
        n, h, total_r = out["N"][j], nc.half_points[j], nc.opp_sum[j]
        # Ru × N = ΣR_opp + N × (12.5 h above 50 %, dp below), over the bonus's denominator.
        dp = prep.dp[np.clip(nc.p[j], 0, 100)]
        num = np.where(h > 0, total_r * bonus.denominator + n * bonus.numerator * h,
                       (total_r + np.where(h < 0, n * dp, 0)) * bonus.denominator)
        records.add(out["player"][j], out["event"][j], end[j], n, num, np.full(j.shape[0], bonus.denominator),
                    prep.event_rank[out["event"][j]])
        records.add_fractions([(int(out["player"][k]), int(out["event"][k]), int(end[k]), int(out["N"][k]),
                                cx_ru[k] * int(out["N"][k]), int(prep.event_rank[out["event"][k]]), False)
                               for k in cx_ru])
    elif rules.newcomer_method == NEWCOMER_PROVISIONAL:
        j = np.flatnonzero(nc.provisional_ok)
        records.add(out["player"][j], out["event"][j], end[j], out["N"][j], out["delta"][j],
                    np.full(j.shape[0], 100), prep.event_rank[out["event"][j]], cents[j])
