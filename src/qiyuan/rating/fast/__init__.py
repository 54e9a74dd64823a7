"""快速引擎: the whole history on NumPy arrays of integer hundredths, with exactly the reference engine's results.

The reference engine (``qiyuan.rating.reference``) reads like the texts, game by
game. This one computes the same lists, changes and states period by period on
arrays, in parts that each mirror a reference module:

* ``prepare``: the input as arrays — events ranked, games sorted by event, the
  rule set's per-event choices as flags, standings, tables, name ranks
  (``model.py``, ``columnar.py``);
* ``rows``: one period's games as rows (event, player) and sides, the champions
  and the best on each board (``event.py``, ``champion.py``);
* ``rated``: We per game, by averaging or the Go round robin, K, ΔR and the
  protections (``expected.py``, ``event.py``);
* ``newcomers``: the zero-score rule, Ra and Ru, the provisional start, the
  counted events (``newcomer.py``, ``event.py``);
* ``publish``: rounding, first ratings, the latch, activity and removal, the
  list's order (``period.py``, ``order.py``);
* ``state``: the players' states as arrays, to and from ``PlayerState``
  (``state.py``);
* ``arrays``: exact integer arithmetic on arrays (``exact.py``, ``tables.py``);
* ``run``: the period loop (``reference.py``, ``period.rate_period``).

Call it through ``qiyuan.rating.history.compute_history(…, engine="fast")``.
"""

from qiyuan.rating.fast.run import compute

__all__ = ["compute"]
