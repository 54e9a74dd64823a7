"""``qiyuan rules tune``: a federation's own arithmetic searched for the variant that predicts best (issue 36).

The search moves only the settings the texts' tables can express, as the
integers (or choices) they require (``SEARCH``): K by band (新手 / 成熟 /
高分 K and the games that end the newcomer's band), the newcomer's entry
ratings (the prior a rule set seeds with) and the games and rated opponents a
first rating needs, the games that keep a rating active, the
rating-difference cap (none / 350 / 400) and the champion and board
protections.

Forward protocol, as for the baselines (``tuning``): the search sees only the
burn-in. Each candidate rates the history up to ``from_date`` (the engine,
``compute_history(until=…)``), predicts every burn-in game from its list in
force at the event's start (the shared prior for a player it lists not,
``prior``: fitted on the burn-in) and is scored by the burn-in log loss. A
candidate is admissible under the stated limits, measured on its burn-in lists
and changes:

* |mean-rating drift| ≤ ``DRIFT_LIMIT`` points a year — the cohort published on
  the first list, its mean on the last burn-in list against the first
  (``drift``);
* no audit finding (``audit``: an effect ≥ 0.05 a game at two clustered
  standard errors) that the base rule set does not already show — a variant
  must not create an incentive (the base's own findings, such as a losing
  streak after a lost first game, are the history's, not the variant's).

The search is coordinate descent from the base: each setting in turn over its
values, the others held, a change kept when it lowers the burn-in log loss by
more than 1e-9 and is admissible; sweeps repeat until none helps (at most
``SWEEPS``). Only then is the test touched, once: the base and the choice
predict every test game from their lists over the whole history with the same
prior, and the paired per-game difference of log loss is reported with its
standard error clustered by event (``beats``: at least two SEs better).
The test's drift and audit are reported for both.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from qiyuan.errors import InputError, problem
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.history import compute_history
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.rules import RuleSet, RulesError, rules_as_dict, with_settings
from qiyuan.sandbox.audit import Audit, audit_history
from qiyuan.sandbox.drift import drift
from qiyuan.sandbox.games import GameSet, game_set
from qiyuan.sandbox.lists import ListTimeline, lists_of_history, published_lists
from qiyuan.sandbox.metrics import Calibration, Score, calibration, game_log_loss, scores
from qiyuan.sandbox.prediction import Progress
from qiyuan.sandbox.prior import Prior, fit_prior
from qiyuan.sandbox.ruleset import predict_rule_set
from qiyuan.sandbox.tuning import burn_in

#: setting → the values searched (integers and choices the texts' tables can express)
SEARCH: dict[str, tuple] = {
    "k_new": (15, 20, 25, 30, 35, 40, 50),
    "k_established": (8, 10, 12, 15, 18, 20, 25, 30),
    "k_top": (5, 8, 10, 12, 15, 20),
    "k_new_games": (10, 20, 30, 50),
    "start_rating_male": (1600, 1700, 1800, 1900, 2000, 2100, 2200),
    "start_rating_female": (1400, 1500, 1600, 1700, 1800, 1900, 2000, 2100),
    "newcomer_min_games": (1, 2, 3, 4, 5, 7, 9, 12),
    "newcomer_min_rated_opponents": (0, 1, 2, 3, 4),
    "activity_min_games": (1, 2, 4, 7),
    "cap": (None, 350, 400),
    "champion_rule": (True, False),
    "board_rule": (True, False),
}
DRIFT_LIMIT = 5.0  # rating points a year
SWEEPS = 3
TIE = 1e-9


@dataclass(frozen=True)
class Candidate:
    """One variant tried on the burn-in."""

    changes: dict[str, object]  # the settings that differ from the base
    log_loss: float  # burn-in
    drift_per_year: float  # nan: no cohort to follow
    new_findings: tuple[str, ...]  # audit findings the base does not show
    admissible: bool


@dataclass(frozen=True)
class RuleTuning:
    base: RuleSet
    chosen: RuleSet
    changes: dict[str, object]
    tried: list[Candidate]  # in the order tried (the base first)
    burn_in_games: int
    prior: Prior
    test: list[Score]  # base, chosen on every test game (paired, clustered by event)
    calibration: dict[str, Calibration]
    test_drift: dict[str, float]  # per year, on the whole lists from from_date: base, chosen
    test_audit: dict[str, Audit]
    games: GameSet

    @property
    def beats(self) -> bool:
        """The choice is better than the base by at least two clustered standard errors on the test."""
        base = self.test[0]
        return bool(self.changes) and base.diff_vs_best >= 2.0 * base.se_vs_best > 0.0


def drift_per_year(lists: ListTimeline, start: date) -> float:
    """The cohort of the list in force on ``start``: its mean on the last list minus on that one, per year."""
    _, points = drift(lists, start)
    points = [p for p in points if p.cohort and p.cohort_mean == p.cohort_mean]
    if len(points) < 2 or points[-1].date <= points[0].date:
        return float("nan")
    years = (points[-1].date - points[0].date).days / 365.25
    return (points[-1].cohort_mean - points[0].cohort_mean) / years


def _found(result: Audit) -> set[str]:
    return {s.name for s in result.strategies if s.found}


def _variant(base: RuleSet, settings: dict[str, object]) -> RuleSet:
    name = f"{base.name}-tuned"
    values = {k: ("none" if v is None else v) for k, v in settings.items()}
    return with_settings(base, {"name": name, **values}) if settings else base


def tune_rules(base: RuleSet, players: Sequence[Player], events: Sequence[Event], games: Sequence[Game] | GameColumns,
               standings: Sequence[Standing] = (), *, from_date: date | None = None,
               search: dict[str, tuple] | None = None, progress: Progress | None = None) -> RuleTuning:
    """Search ``base``'s arithmetic on the burn-in, then score the base and the choice once on the test
    (``InputError`` for a history the engine refuses or a burn-in without games)."""
    players = list(players)
    search = SEARCH if search is None else search
    gs = game_set(players, events, games, from_date)
    burn, mask = burn_in(gs)
    if not mask.any():
        raise InputError([problem("no game before {date}: nothing to search on (give a later --from)", file="--from",
                                  date=gs.from_date.isoformat())])
    prior = fit_prior(gs, players)
    means = prior.integer_means(players)
    until = gs.from_date
    first_day = date.fromordinal(int(gs.event_start.min()))

    def measure(rules: RuleSet) -> tuple[float, float, set[str]]:
        try:
            history = compute_history(rules, players, events, games, standings, engine="fast", until=until)
        except ValueError as exc:
            raise InputError([problem("rule set {rules}: {reason}", file="--rules", rules=rules.name,
                                      reason=str(exc))]) from None
        lists = lists_of_history(rules, players, events, history)
        loss = float(game_log_loss(predict_rule_set(burn, lists, means).expected[mask], burn.score[mask]).mean())
        return loss, drift_per_year(lists, first_day), _found(audit_history(rules, players, events, games, history,
                                                                            until))

    seen: dict[tuple, Candidate] = {}
    tried: list[Candidate] = []
    base_loss, base_drift, base_found = measure(base)
    start = Candidate({}, base_loss, base_drift, (), True)
    tried.append(start)
    seen[()] = start
    current: dict[str, object] = {}
    best = start
    total = sum(len(v) for v in search.values()) * SWEEPS
    done = 0
    for _ in range(SWEEPS):
        improved = False
        for key, values in search.items():
            for value in values:
                done += 1
                if progress is not None:
                    progress("searching on the burn-in", done, total)
                settings = {**current, key: value}
                if value == getattr(base, key):
                    settings.pop(key)
                ident = tuple(sorted(settings.items(), key=lambda kv: kv[0]))
                if ident in seen:
                    continue
                try:
                    rules = _variant(base, settings)
                except RulesError:
                    continue
                loss, per_year, found = measure(rules)
                new = tuple(sorted(found - base_found))
                ok = not new and (per_year != per_year or abs(per_year) <= DRIFT_LIMIT)
                cand = Candidate(dict(settings), loss, per_year, new, ok)
                seen[ident] = cand
                tried.append(cand)
                if ok and loss < best.log_loss - TIE:
                    best, current, improved = cand, dict(settings), True
        if not improved:
            break
    if progress is not None:
        progress("searching on the burn-in", total, total)
    chosen = _variant(base, best.changes)
    # The test, once: both over the whole history, the same prior, the same games.
    lists = [published_lists(r, players, events, games, standings, progress=progress) for r in (base, chosen)]
    preds = [dataclasses.replace(predict_rule_set(gs, t, means), system=name)
             for t, name in zip(lists, ("base", "chosen"))]
    test = scores(gs, preds)
    audits = {}
    for name, rules in (("base", base), ("chosen", chosen)):
        history = compute_history(rules, players, events, games, standings, engine="fast")
        audits[name] = audit_history(rules, players, events, games, history)
    return RuleTuning(base, chosen, best.changes, tried, int(mask.sum()), prior, test,
                      {p.system: calibration(gs, p) for p in preds},
                      {n: drift_per_year(t, gs.from_date) for n, t in zip(("base", "chosen"), lists)}, audits, gs)


def changed_settings(tuning: RuleTuning) -> dict[str, object]:
    """The chosen variant's settings that differ from the base's, as the variant file writes them."""
    a, b = rules_as_dict(tuning.base), rules_as_dict(tuning.chosen)
    return {k: v for k, v in b.items() if k != "name" and a.get(k) != v}
