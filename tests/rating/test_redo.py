"""Every explanation can be redone by hand: each number is recomputed here from only the numbers it shows.

The checker below is independent of the engine: its own two tables (read from the spec's ``tables.json``),
its own 四舍五入, its own K rule. For every explained change it recomputes each step from the step's
arguments, checks that every argument is a number shown before it (an earlier step, a game line, a shown
game's rating or score), that the last step is the change's result (ΔR, or Ru), that the per-game lines add
up, and, for every list, that the entry follows from the steps shown (Rn = Ro + ΣΔR rounded, a first
rating as the game-weighted mean of the Ru shown, the provisional rating plus the ΔR shown) and that the
activity verdict follows from the games counted in the window. On hypothesis histories under every rule
set and variant, and on the real history of 59 Chinese events.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from rating_builders import SHARED
from test_fast_equivalence import RULE_SETS, histories
from test_real_history import TSV, load_real_history

from qiyuan.rating import calculation as C
from qiyuan.rating.calendar import add_months
from qiyuan.rating.explain import render_explanation, render_step
from qiyuan.rating.history import compute_history
from qiyuan.rating.rules import BUILTIN_RULES, RuleSet, with_settings

TABLES = json.loads((SHARED / "spec" / "tables.json").read_text(encoding="utf-8"))
BANDS = [(b["lo"], b["hi"], b["H"]) for b in TABLES["table2_difference_to_expected"]["bands"]]
DP = TABLES["table1_score_to_dp"]["values"]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def half_up(x: Fraction) -> int:
    return int((x + Fraction(1, 2)).__floor__())


def pd(d: int) -> Fraction:
    """附表2 from the spec's bands."""
    for lo, hi, h in BANDS:
        if abs(d) >= lo and (hi is None or abs(d) <= hi):
            return Fraction(h if d >= 0 else 100 - h, 100)
    raise AssertionError(d)


def score_p(w: Fraction, n: int) -> Fraction:
    return Fraction(half_up(Fraction(w) / n * 100), 100)


def dp(p: Fraction, rules: RuleSet) -> int:
    value = DP[f"{float(p):.2f}"]
    if value is None:
        assert rules.dp_at_extremes is not None, f"dp({p}) is indeterminate"
        return rules.dp_at_extremes if p == 1 else -rules.dp_at_extremes
    return value


def k_of(rules: RuleSet, games: int, latched: int) -> int:
    if latched and rules.k_latch_rating is not None:
        return rules.k_top
    return rules.k_new if games < rules.k_new_games else rules.k_established


def evaluate(s: C.Step, rules: RuleSet) -> Fraction:
    v = [Fraction(x) for _, x in s.args]
    op = s.op
    if op == "sum":
        return sum(v, Fraction(0))
    if op == "mean":
        return sum(v, Fraction(0)) / len(v)
    if op == "wmean":
        return sum(v[i] * v[i + 1] for i in range(0, len(v), 2)) / sum(v[1::2])
    if op in ("sub", "add", "mul"):
        return {"sub": v[0] - v[1], "add": v[0] + v[1], "mul": v[0] * v[1]}[op]
    if op == "round":
        return Fraction(half_up(v[0]))
    if op == "clamp":
        return max(-v[1], min(v[1], v[0]))
    if op == "clamp_to":
        return max(v[1] - v[2], min(v[1] + v[2], v[0]))
    if op == "PD":
        assert v[0].denominator == 1
        return pd(int(v[0]))
    if op == "p":
        return score_p(v[0], int(v[1]))
    if op == "dp":
        return Fraction(dp(v[0], rules))
    if op == "K":
        return Fraction(k_of(rules, int(v[0]), int(v[1])))
    if op == "delta":
        return v[0] * (v[1] - v[2])
    if op == "go_we":
        return v[0] * v[1] - Fraction(1, 2)
    if op == "go_we_cycles":
        return v[0] * v[2] - v[1] * (Fraction(1, 2) - v[2])
    if op == "half_points":
        return 2 * v[0] - v[1]
    if op == "bonus":
        return v[0] + v[1] * v[2]
    if op == "ra":
        return v[0] - v[1] * Fraction(int(v[2]), int(v[2]) + 1)
    if op == "scaled":
        return v[0] + v[1] * Fraction(int(v[2]), int(v[2]) + 1)
    if op == "protect":
        assert v[0] < 0
        return Fraction(0)
    raise AssertionError(f"unknown step {op}")


class Shown:
    """The numbers shown so far, by symbol."""

    def __init__(self):
        self.values: dict[str, Counter] = {}

    def add(self, symbol: str, value) -> None:
        self.values.setdefault(symbol, Counter())[Fraction(value)] += 1

    def has(self, symbol: str, value) -> bool:
        return self.values.get(symbol, Counter())[Fraction(value)] > 0


#: Arguments that are constants of the formula or settings, not numbers computed before.
CONSTANTS = {"himself", "latched", "cap", "colour_advantage", "colour"}


def check_steps(steps, shown: Shown, rules: RuleSet) -> None:
    for s in steps:
        if s.op != "given":
            for symbol, value in s.args:
                if symbol in CONSTANTS:
                    if symbol == "cap":
                        assert value == rules.cap
                    if symbol == "colour_advantage":  # Black's (+A) or White's (−A)
                        assert abs(value) == rules.colour_advantage != 0
                    if symbol == "colour":
                        assert value in (1, 0, -1)  # Black, not known, White
                    continue
                assert shown.has(symbol, value), f"{render_step(s)}: {symbol} = {value} is not shown before it"
            assert evaluate(s, rules) == Fraction(s.value), f"does not redo: {render_step(s)}"
        shown.add(s.symbol, s.value)


def check_event(x: C.EventExplanation, rules: RuleSet) -> None:
    c = x.change
    shown = Shown()
    for g in x.games:  # the games table: opponents' ratings and his scores
        if g.counted and g.rating is not None:
            shown.add("R_opp", g.rating)
            shown.add("R", g.rating)
        if g.counted and g.W is not None:
            shown.add("W", g.W)
    ro = next((s.value for s in x.steps if s.symbol == "Ro" and s.op == "given"), None)
    for ln in c.lines:  # a per-game line: D = Ro − R_opp (capped), We = PD(D), ΔR = K(W − We)
        d = ro - int(ln.opponent_rating)
        if rules.cap is not None:
            d = max(-rules.cap, min(rules.cap, d))
        if ln.D != d:  # colour_advantage: a step D = (R − R_opp) ± A shows it
            assert abs(ln.D - d) == rules.colour_advantage and any(
                s.symbol == "D" and s.value == ln.D and s.args[0] == ("R − R_opp", d) for s in x.steps)
            shown.add("R − R_opp", d)
            d = ln.D
        assert ln.D == d and Fraction(ln.We) == pd(d) and ln.K == c.K
        assert Fraction(ln.dR) == ln.K * (Fraction(ln.W) - Fraction(ln.We))
        for symbol, value in (("W", ln.W), ("We", ln.We), ("ΔR", ln.dR)):
            shown.add(symbol, value)
    for s in x.steps:  # the Ra of a round robin takes every rated player's rating and score
        if s.symbol == "p" and s.ref.startswith("rated player"):
            shown.add("W", s.args[0][1])
            shown.add("N", s.args[1][1])
        if s.symbol == "Rar":
            for _, r in s.args:
                shown.add("R", r)
    check_steps(x.steps, shown, rules)
    if c.method == "newcomer":
        ru = [s for s in x.steps if s.symbol == "Ru"]
        assert (c.ru is None) == (not ru)
        if ru:
            assert shown_as(c.ru, ru[-1].value)
    elif c.method != "not_rated":
        last = [s for s in x.steps if s.symbol == "ΔR"][-1]
        assert Fraction(last.value) == Fraction(c.delta), render_step(last)
        k = [s for s in x.steps if s.symbol == "K"]
        assert k and k[-1].value == c.K


def shown_as(shown: Decimal, exact) -> bool:
    """A value as the lists and changes show it: exact, or to six decimals (half up) without a finite form."""
    return abs(Fraction(shown) - Fraction(exact)) <= Fraction(1, 2 * 10**6)


def check_player(history, player_id: str, rules: RuleSet, end_of: dict[str, date]) -> None:
    explanation = history.explanation(player_id)
    text = render_explanation(history, player_id, {player_id: object()})
    previous_rating: int | None | str = "before the history"
    counted: list[tuple[date, int]] = []  # (event end, games) that count toward activity
    for period in explanation.periods:
        deltas = Counter()
        if previous_rating == "before the history":  # his first list: was he rated when the history began?
            rated = any(s.symbol == "Rn" or (s.symbol == "rating" and s.op == "given")
                        for s in period.publication.steps)
        else:
            rated = previous_rating is not None
        for x in period.events:
            check_event(x, rules)
            for s in x.steps:
                assert render_step(s) in text
            if rated:  # rated during the period: Rn = Ro + ΣΔR; his games count for activity
                deltas[Fraction(x.change.delta)] += 1
                if x.change.games:
                    counted.append((end_of[x.change.event_id], x.change.games))
        p, entry = period.publication, period.entry
        shown = Shown()
        for part in p.newcomer_parts:
            shown.add("games", part.games)
            shown.add("n", part.games)
            if part.ru is not None:
                shown.add("Ru", part.ru)
            if part.delta is not None:
                shown.add("ΔR", part.delta)
        for d, n in deltas.items():
            for _ in range(n):
                shown.add("ΔR", d)
        for x in period.events:
            shown.add("games", x.change.games)
        check_steps(p.steps, shown, rules)
        ratings = [s for s in p.steps if s.symbol == "rating"]
        if ratings and not p.removed_now:  # removed (除名) after it: the entry has no rating
            assert ratings[-1].value == entry.rating
        rn = [s for s in p.steps if s.symbol in ("Rn", "first rating")]
        if rn and not p.removed_now:
            assert shown_as(entry.exact, rn[-1].value)
            if rn[-1].symbol == "Rn" and previous_rating != "before the history":
                assert rn[-1].args[0][1] == previous_rating
            else:
                counted += [(part.end_date, part.games) for part in p.newcomer_parts]
        a = p.activity
        if a is not None and a.verdict not in (C.ACT_NO_RULE, C.ACT_NOT_JUDGED):
            months = (rules.activity_window_months if a.verdict in (C.ACT_ACTIVE, C.ACT_INACTIVE)
                      else rules.reactivation_window_months)
            assert a.window_from == add_months(p.list_date, -months)
            assert a.games == sum(n for end, n in counted if a.window_from <= end < p.list_date)
            assert (a.games >= a.needed) == (a.verdict in (C.ACT_ACTIVE, C.ACT_REACTIVATED))
            assert (a.verdict == C.ACT_REMOVED) == (entry.status == "removed")
        if p.removed_now:
            counted = []
        previous_rating = entry.rating


def check_history(rules, players, events, games, standings=()):
    history = compute_history(rules, players, events, games, standings, engine="reference", explain=True)
    end_of = {e.id: e.end_date for e in events}
    for p in players:
        check_player(history, p.id, rules, end_of)
    return history


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@FAST
@given(data=histories())
def test_every_explanation_redoes_from_the_numbers_it_shows(name, data):
    check_history(RULE_SETS[name], *data)


def _coloured(games):
    """Each game's colours as a fixed function of the game (about one in five not known)."""
    def black(g) -> int:
        return (0, 1, -1, 1, -1)[(g.round + sum(map(ord, g.player1)) * 3 + sum(map(ord, g.player2))) % 5]

    return [replace(g, black=black(g)) for g in games]


@pytest.mark.parametrize("name", ["cga-gomoku-2011", "cn-go-1995"])
@FAST
@given(data=histories())
def test_colour_advantage_explanations_redo_from_the_numbers_they_show(name, data):
    """Issue 36 (4): with a colour_advantage, per-game (a D step for each coloured game), averaging and the Go
    round robin (C and Rc − C) redo by hand."""
    players, events, games, *rest = data
    check_history(with_settings(BUILTIN_RULES[name], {"colour_advantage": 30}), players, events, _coloured(games),
                  *rest)


@pytest.mark.parametrize("name", sorted(BUILTIN_RULES))
def test_every_explanation_of_the_real_history_redoes(name):
    if not TSV.exists():
        pytest.skip("../shared/data/renju-cn-games.tsv is not here")
    players, events, games = load_real_history()
    history = check_history(BUILTIN_RULES[name], players, events, games)
    assert len(history.list_dates) > 10
