"""The changes as the reference writes them (mirrors the ``EventChange`` that ``event.py`` builds): numbers in the
reference's text form, the notes in its order, the per-game lines — all from the engine's arrays, handed back as
columns (``columnar.ChangeTexts``: no object per change; ``ChangeTexts.objects()`` makes them when asked for).

Each decimal gets the exponent the reference's arithmetic gives it:

* W — a sum of 1, 0 and 0.5 from 0 over the games that count for him: one
  decimal once a draw entered it (``3.5``, ``3.0``), none otherwise (``3``);
  ``0`` when nothing counts (not rated);
* We, Pd, ΔR — table values in hundredths (``0.50``) and K(W − We): two
  decimals; a rated player without a rated game has We ``0``; a ΔR set to 0 by
  a protection, or none computed, is ``0``;
* Rc, Ru — ``exact.to_decimal`` of the exact fraction; Ro — an integer.

The notes (``results.NOTE_*``) are flags per row, written in one order that
every branch of ``rate_event`` keeps (``columnar.NOTE_ORDER``): a game not played;
the zero-score rule (an opponent left out, then he himself — a player left
out in a later round, or later in id order in the same round, may first have
been the opponent of one left out before him); unrated opponents, opponents
too far below; no rated games, too few rated opponents; the cap; the
protections (best on his board, the champion rule's long event, champion,
international); a Go newcomer's games not rated.

Per-game lines (the per-game method and the provisional newcomers): one per
game that counts, in the reference's order (round, player 1 and player 2 by
id, result), with the opponent's rating used, D after the cap, PD(D), W, K
and K(W − PD).

What stays with the reference ``rate_event``: the round robins with an unrated
player under a rule set whose newcomers are not rated by performance while
unrated players still enter the others' calculations (``run.py``: the whole
event is rated by the reference, its changes are the reference's own). The
property test ``tests/rating/test_engines_full_changes.py`` checks, per rule
set and variant, that the canonical text of every change is the reference's.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from qiyuan.rating import results as R
from qiyuan.rating.columnar import LINE_FIELDS, METHOD_NAMES, NONE, NOTE_ORDER, ChangeTexts
from qiyuan.rating.exact import to_decimal
from qiyuan.rating.fast.arrays import expected_hundredths, int_bincount
from qiyuan.rating.fast.newcomers import NewcomerRows
from qiyuan.rating.fast.prepare import M_PER_GAME, M_PROVISIONAL, Prepared
from qiyuan.rating.fast.rows import Rows
from qiyuan.rating.rules import NEWCOMER_NOT_RATED, NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL

_BIT = {note: 1 << i for i, note in enumerate(NOTE_ORDER)}
_W_TEXT = {100: "1", 0: "0", 50: "0.5"}


def _any(rows_of: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    """Per row: whether any of its sides in ``mask`` exists."""
    return np.bincount(rows_of[mask], minlength=n)[:n] > 0


def note_bits(prep: Prepared, rows: Rows, out: dict[str, np.ndarray], nc: NewcomerRows,
              unplayed_rows: np.ndarray) -> np.ndarray:
    """Each row's notes as bits of ``NOTE_ORDER`` (``rate_event``'s rules, row by row)."""
    rules = prep.rules
    n = rows.n
    bits = np.zeros(n, np.int64)

    def put(note: str, mask: np.ndarray) -> None:
        bits[mask] |= _BIT[note]

    s_row, opp_row = rows.s_row, rows.s_opp_row
    ignored = nc.ignored if nc.ignored is not None else np.zeros(n, dtype=bool)
    rnd = nc.ignored_round if nc.ignored_round is not None else np.full(n, -1, np.int64)
    put(R.NOTE_FORFEIT, unplayed_rows)
    # The zero-score rule: his opponent was left out before him (or he never was).
    opp_out = rnd[opp_row] >= 0
    me, them = rnd[s_row], rnd[opp_row]
    earlier = (me < 0) | (me > them) | ((me == them) & (prep.id_rank[rows.s_player] > prep.id_rank[rows.s_opp]))
    put(R.NOTE_ZERO_SCORE_OPPONENT, _any(s_row, opp_out & earlier, n))
    put(R.NOTE_ZERO_SCORE_IGNORED, ignored)
    used = rows.s_used if rows.s_used is not None else np.zeros(s_row.shape[0], dtype=bool)
    raw = out["raw_delta"]
    unrated_row = ~rows.rated & ~ignored
    rated_opp = rows.opp_rated
    # Games against unrated opponents left aside (a rated player, a provisional newcomer).
    left_aside = _any(s_row, ~rated_opp & ~ignored[opp_row] & ~used, n)
    provisional = unrated_row & (rules.newcomer_method == NEWCOMER_PROVISIONAL)
    put(R.NOTE_UNRATED_OPPONENTS, left_aside & (rows.rated | provisional))
    put(R.NOTE_FAR_BELOW, rows.rated & _any(s_row, rated_opp & ~used, n))
    if rules.newcomer_method == NEWCOMER_PERFORMANCE:
        few = unrated_row & (nc.distinct_rated < rules.newcomer_min_rated_opponents)
        put(R.NOTE_FEW_RATED_OPPONENTS, few)
        games = np.where(out["N"] == NONE, 0, out["N"])
        put(R.NOTE_ZERO_SCORE_IGNORED, unrated_row & ~few & (games > 0) & (out["W"] == 0))
        put(R.NOTE_NO_RATED_GAMES, unrated_row & ~few & (games == 0))
    rated_games = _any(s_row, rated_opp, n)
    put(R.NOTE_NO_RATED_GAMES, rows.rated & (raw == NONE))
    put(R.NOTE_NO_RATED_GAMES, provisional & ~rated_games)
    put(R.NOTE_FEW_RATED_OPPONENTS, provisional & rated_games & (nc.distinct_rated < rules.newcomer_min_rated_opponents))
    # The cap clamped a D (an opponent's rating, in the averaging methods).
    computed = raw != NONE
    if rules.has_cap():
        clamped = used & (rows.s_D != out["Ro"][s_row] - rows.R_opp)
        put(R.NOTE_CAP, computed & _any(s_row, clamped, n))
    # The protections of a negative ΣΔR.
    event = rows.event
    below = computed & (raw < 0) & rows.champion
    board = below & prep.board_event[event]
    champion = below & ~prep.board_event[event] & prep.champion_ok[event]
    put(R.NOTE_BOARD_PROTECTED, board)
    put(R.NOTE_CHAMPION_RULE_LONG_EVENT, below & prep.champion_long[event])
    put(R.NOTE_CHAMPION_PROTECTED, champion)
    put(R.NOTE_INTERNATIONAL_PROTECTED, computed & (raw < 0) & (out["delta"] == 0) & ~board & ~champion)
    if rules.newcomer_method == NEWCOMER_NOT_RATED:
        put(R.NOTE_UNRATED_NOT_RATED, ~rows.rated & _any(s_row, np.ones(s_row.shape[0], dtype=bool), n))
    return bits


def _each(values: np.ndarray, make) -> list:
    """``make`` of each value, computed once per distinct value (texts are immutable: shared)."""
    if not values.shape[0]:
        return []
    distinct, inverse = np.unique(values, return_inverse=True)
    made = [make(v) for v in distinct.tolist()]
    return [made[i] for i in inverse.tolist()]


def _hundredths(x: int) -> str:
    return str(Decimal(x).scaleb(-2))


def _opt(make):
    return lambda x: None if x == NONE else make(x)


def _fractions(num: np.ndarray, den: np.ndarray) -> list[str | None]:
    """The text of ``to_decimal`` of each num/den (None where den is 0), once per distinct pair."""
    made: dict[tuple[int, int], str | None] = {}
    out = []
    for pair in zip(num.tolist(), den.tolist()):
        value = made.get(pair, False)
        if value is False:
            value = made[pair] = str(to_decimal(Fraction(*pair))) if pair[1] else None
        out.append(value)
    return out


def _scaled(x: int) -> str:
    """``x // 2`` with two decimals if ``x`` is odd, none if even (a text and its exponent in one integer)."""
    return str(Decimal(x // 2).scaleb(-2 * (x % 2)))


def _lines(prep: Prepared, rows: Rows, out: dict[str, np.ndarray]) -> tuple[np.ndarray, list[list]]:
    """The per-game lines of the rows that have them, in the reference's order of the games: each line's row
    (ascending), and the line columns (``columnar.LINE_FIELDS``)."""
    per_game = (out["raw_delta"] != NONE) & ((out["method"] == M_PER_GAME) | (out["method"] == M_PROVISIONAL))
    sel = np.flatnonzero(rows.s_used & per_game[rows.s_row])
    if not sel.shape[0]:
        return np.zeros(0, np.int64), [[] for _ in LINE_FIELDS]
    first = rows.s_first[sel]
    me, opp = rows.s_player[sel], rows.s_opp[sel]
    w = rows.s_w[sel]
    p1, p2 = np.where(first, me, opp), np.where(first, opp, me)
    # a game's result sorts "0-1" < "0.5-0.5" < "1-0": player 1's score
    order = np.lexsort((np.where(first, w, 100 - w), prep.id_rank[p2], prep.id_rank[p1], rows.s_round[sel],
                        rows.s_row[sel]))
    sel = sel[order]
    row = rows.s_row[sel]
    k = out["K"][row]
    w = rows.s_w[sel]
    pd = expected_hundredths(rows.s_D[sel])
    ids = prep.ids
    return row, [rows.s_round[sel].tolist(), [ids[q] for q in rows.s_opp[sel].tolist()], _each(rows.R_opp[sel], str),
                 rows.s_D[sel].tolist(), _each(pd, _hundredths), _each(w, _W_TEXT.__getitem__), k.tolist(),
                 _each(k * (w - pd), _hundredths)]


def change_texts(prep: Prepared, rows: Rows, out: dict[str, np.ndarray], nc: NewcomerRows,
                 unplayed_rows: np.ndarray, list_date: date) -> ChangeTexts:
    """Every row's change as the reference writes it (in the rows' order), in columns: no object per row."""
    n = rows.n
    bits = note_bits(prep, rows, out, nc, unplayed_rows)
    drew = int_bincount(rows.s_row, rows.s_used & (rows.s_w == 50), n) > 0
    line_row, lines = _lines(prep, rows, out)
    ids, events = prep.ids, [e.id for e in prep.events]
    raw, delta, we, w = out["raw_delta"], out["delta"], out["We"], out["W"]
    computed = raw != NONE
    # W: tenths once a draw entered it, else an integer; We: hundredths where computed, else 0 (a rated player
    # without a rated game) or none; ΔR: hundredths where it stands as computed, else 0.
    w_text = _each(np.where(drew, w // 10 * 2 + 1, w // 100 * 2), lambda x: str(Decimal(x // 2).scaleb(-(x % 2))))
    we_text = _each(np.where(we == NONE, NONE, np.where(computed, we * 2 + 1, we // 100 * 2)), _opt(_scaled))
    delta_text = _each(np.where(computed & (raw == delta), delta, 0) * 2 + (computed & (raw == delta)), _scaled)
    notes = _each(bits, lambda b: tuple(note for note in NOTE_ORDER if b & _BIT[note]))
    starts = np.zeros(n + 1, np.int64)
    starts[1:] = np.cumsum(np.bincount(line_row, minlength=n)[:n])
    return ChangeTexts(
        [ids[p] for p in out["player"].tolist()], [events[e] for e in out["event"].tolist()], [list_date] * n,
        out["games"].tolist(), w_text, we_text, _each(out["K"], _opt(int)), delta_text,
        [METHOD_NAMES[m] for m in out["method"].tolist()], _fractions(out["Rc_num"], out["Rc_den"]),
        _each(out["N"], _opt(int)), _each(out["Pd"], _opt(_hundredths)), _each(out["D"], _opt(int)),
        _fractions(out["ru_num"], out["ru_den"]), _each(out["Ro"], _opt(str)), _each(raw, _opt(_hundredths)),
        notes, starts.tolist(), *lines)
