"""规则沙盘 (the rule sandbox): how well rating systems predict the games of a real history.

``qiyuan rules evaluate`` predicts every played game of the events ending on
or after a date from what each system knew when its event started — a rule
set by its published list and its own expected-score table (附表2), and the
baselines ``constant``, ``elo``, ``glicko2`` and ``whr`` — and scores them on
the same games (log loss, Brier score, coverage, paired standard error).
``qiyuan rules compare`` sets two rule sets' published lists side by side.

This is measurement, not the rating path: scores are binary floats. A rule
set's prediction itself is the exact table value (hundredths). Pure
computation: no Django, no files.
"""
