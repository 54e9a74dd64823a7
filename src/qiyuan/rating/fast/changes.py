"""The changes as the reference writes them (mirrors the ``EventChange`` that ``event.py`` builds): numbers in the
reference's text form, the notes in its order, the per-game lines.

Most changes of a federation carry no note and no line: a rated player whose
every game was played against a rated opponent, by a method without per-game
lines (averaging, the Go round robin), where no protection acted and no cap
clamped. Their objects are built here from the columns, each decimal with
the exponent the reference's arithmetic gives it:

* W — a sum of 1, 0 and 0.5 starting from 0: one decimal once a draw entered
  it (``3.5``, ``3.0``), none otherwise (``3``);
* We, Pd, ΔR — table values in hundredths (``0.50``) and K(W − We): two decimals;
* Rc — ``exact.to_decimal`` of the exact mean; Ro — the integer rating.

Every other change of the period (a newcomer, a forfeit, an unrated
opponent, a protection, a cap, per-game lines, a champion below his
expectation) is written by the reference ``rate_event`` for those players
alone (``only``), from the same states and K counts as the loop used (the
loop's numbers stand). The property test
``tests/rating/test_engines_full_changes.py`` checks, per rule set and variant,
that the canonical text of every change is the reference's.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from qiyuan.rating import results as R
from qiyuan.rating.columnar import METHOD_NAMES, NONE, ChangeColumns
from qiyuan.rating.exact import to_decimal
from qiyuan.rating.fast.prepare import M_AVERAGING, M_GO_RR, Prepared
from qiyuan.rating.fast.rows import Rows

#: the methods whose change has no per-game lines
_LINELESS = np.array([m in (M_AVERAGING, M_GO_RR) for m in range(len(METHOD_NAMES))], dtype=bool)


def plain_rows(prep: Prepared, rows: Rows, out: dict[str, np.ndarray], unplayed_rows: np.ndarray) -> np.ndarray:
    """Which of the period's rows (one per event and player) are built from the columns: a rated player whose
    every game was played against a rated opponent, by a method without per-game lines, with no protection,
    no cap and no champion's note (see the module's docstring); ``unplayed_rows``: the rows with a game not
    played (a forfeit note)."""
    n = rows.n
    raw, delta = out["raw_delta"], out["delta"]
    ok = rows.rated & ~rows.interacting & _LINELESS[out["method"]] & ~unplayed_rows
    ok &= (raw != NONE) & (raw == delta)  # a rated game counted, and no protection acted
    ok &= ~(rows.champion & (raw < 0))  # the champion rule's notes (a long event: noted, not protected)
    if rows.s_row.shape[0]:
        bad_side = ~rows.opp_rated  # an unrated opponent: his note, or a rating other than a published one
        if prep.rules.cap is not None:
            bad_side = bad_side | (np.abs(rows.R_me - rows.R_opp) > prep.rules.cap)
        ok[rows.s_row[bad_side]] = False
    return ok if n else np.zeros(0, dtype=bool)


def _h(x: int) -> Decimal:
    return Decimal(int(x)).scaleb(-2)


def plain_objects(prep: Prepared, part: ChangeColumns, rows_idx: np.ndarray, draws: np.ndarray,
                  list_date: date) -> list[R.EventChange]:
    """The objects of the plain changes ``rows_idx`` of ``part``; ``draws``: whether a draw entered each one's W."""
    ids = [p.id for p in prep.players]
    events = [e.id for e in prep.events]
    cols = {f: getattr(part, f)[rows_idx].tolist() for f in
            ("player", "event", "games", "W", "We", "K", "delta", "raw_delta", "method", "N", "Ro", "D", "Pd",
             "Rc_num", "Rc_den")}
    out = []
    for j, drew in enumerate(draws.tolist()):
        w = cols["W"][j]
        rc_den = cols["Rc_den"][j]
        pd = cols["Pd"][j]
        out.append(R.EventChange(
            player_id=ids[cols["player"][j]], event_id=events[cols["event"][j]], list_date=list_date,
            games=cols["games"][j], W=Decimal(w // 10).scaleb(-1) if drew else Decimal(w // 100),
            We=_h(cols["We"][j]), K=cols["K"][j], delta=_h(cols["delta"][j]), method=METHOD_NAMES[cols["method"][j]],
            Rc=to_decimal(Fraction(cols["Rc_num"][j], rc_den)) if rc_den else None, N=cols["N"][j],
            Pd=None if pd == NONE else _h(pd), D=None if cols["D"][j] == NONE else cols["D"][j],
            Ro=Decimal(cols["Ro"][j]), raw_delta=_h(cols["raw_delta"][j]),
        ))
    return out
