"""``qiyuan rules evaluate``: rule sets and the four baselines predicting the same games.

The systems, in the order of the rows: each rule set given (its published
lists, 附表2), then ``constant`` (0.5 for every game), ``elo``, ``glicko2``
and ``whr``. Every system predicts every game, from one prior for a player it
has no rating for, fitted on the burn-in (``prior``); the baselines start from
players.csv's ratings and that prior, whatever rule sets are given (coverage
says how often a row had both players' ratings; its loss is split into those
listed games and the prior-driven rest); the table is given
on all predicted games and again on the games where every system that keeps
ratings had both (``both_rated``). The baselines' settings are tuned on the
burn-in (``tuning``) before the test. Per rule set, the list's drift,
volatility and games to a first rating (``drift``). Where games.csv gives
the colours, Black's advantage is measured (``colour``) and two more rows,
``elo+colour`` and ``glicko2+colour``, add the burn-in's advantage to Black
(the tuned settings otherwise).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import InputError, problem
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.rules import RuleSet
from qiyuan.sandbox.colour import Advantage, black_advantage, burn_in_advantage
from qiyuan.sandbox.drift import ListMeasures, list_measures
from qiyuan.sandbox.elo import predict_elo
from qiyuan.sandbox.games import GameSet, game_set
from qiyuan.sandbox.glicko2 import predict_glicko2
from qiyuan.sandbox.lists import published_lists
from qiyuan.sandbox.metrics import Calibration, Score, both_rated, calibration, scores
from qiyuan.sandbox.prediction import NO_RATING, Prediction, Progress
from qiyuan.sandbox.prior import Prior, fit_prior
from qiyuan.sandbox.ruleset import predict_rule_set
from qiyuan.sandbox.tuning import Tuned, tune
from qiyuan.sandbox.whr import WhrSchedule, WhrSettings, predict_whr

BASELINES = ("constant", "elo", "glicko2", "whr", "elo+colour", "glicko2+colour")


@dataclass(frozen=True, eq=False)
class Evaluation:
    games: GameSet
    predictions: list[Prediction]
    scores: list[Score]
    both_rated: list[Score]  # the same rows on the games every rating-keeping system had both ratings for
    calibration: dict[str, Calibration]
    whr: WhrSchedule
    tuned: Tuned
    lists: list[ListMeasures]  # per rule set
    prior: Prior
    colour: Advantage  # Black's score on the predicted games (no game: colours not given)
    colour_burn_in: Advantage  # …in the burn-in: the colour rows' advantage

    @property
    def first_event(self) -> date:
        return date.fromordinal(int(self.games.event_start[self.games.predicted_events].min()))


def check_rule_sets(rule_sets: Sequence[RuleSet]) -> None:
    """At least one rule set, no name twice, none named like a baseline (``InputError``)."""
    problems = []
    if not rule_sets:
        problems.append(problem("give at least one rule set", file="--rules"))
    seen: set[str] = set()
    for rules in rule_sets:
        if rules.name in BASELINES:
            problems.append(problem("rule set {name}: the name of a baseline row; give the variant another "
                                    "name", file="--rules", name=rules.name))
        elif rules.name in seen:
            problems.append(problem("rule set {name} is given twice", file="--rules", name=rules.name))
        seen.add(rules.name)
    if problems:
        raise InputError(problems)


def evaluate(rule_sets: Sequence[RuleSet], players: Sequence[Player], events: Sequence[Event],
             games: Sequence[Game] | GameColumns, standings: Sequence[Standing] = (), *,
             from_date: date | None = None, whr: WhrSettings = WhrSettings(), colours: np.ndarray | None = None,
             progress: Progress | None = None) -> Evaluation:
    """Predict every played game of the events ending on or after ``from_date`` (default: two
    years after the first event started) with every system, and score them. The events that ended
    before ``from_date`` are the burn-in: the baselines' settings are tuned on them. ``colours``: per
    game (the order of ``games``), +1 player1 had Black, −1 player2, 0 not known."""
    check_rule_sets(rule_sets)
    players = list(players)
    gs = game_set(players, events, games, from_date, colours)
    prior = fit_prior(gs, players)
    predictions, measures = [], []
    for rules in rule_sets:
        lists = published_lists(rules, players, events, games, standings, progress=progress)
        if lists.player_ids != gs.player_ids:
            raise AssertionError("the engine's players are not the history's")
        predictions.append(predict_rule_set(gs, lists, prior.integer_means(players)))
        measures.append(list_measures(lists, gs))
    start, held = prior.starts(players)
    unfitted = prior.means(players) - prior.centre
    tuned = tune(gs, prior, start, held, whr, unfitted=unfitted, progress=progress)
    n = gs.player1.shape[0]
    predictions.append(Prediction("constant", np.full(n, NO_RATING), np.zeros(n, bool)))
    predictions.append(predict_elo(gs, start, held, k=tuned.elo.values["K"], scale=tuned.elo.values["scale"],
                                   progress=progress))
    predictions.append(predict_glicko2(gs, start, held, tau=tuned.glicko2.values["tau"],
                                       rd_new=tuned.glicko2.values["rd_new"], progress=progress))
    whr_prediction, schedule = predict_whr(gs, tuned.whr_settings(whr), unfitted=unfitted, progress=progress)
    predictions.append(whr_prediction)
    colour, colour_burn_in = black_advantage(gs, gs.predicted), burn_in_advantage(gs)
    if colour_burn_in.games:
        edge, scale = colour_burn_in.elo, tuned.elo.values["scale"]
        predictions.append(dataclasses.replace(predict_elo(
            gs, start, held, k=tuned.elo.values["K"], scale=scale, advantage=edge * scale / 400.0), system="elo+colour"))
        predictions.append(dataclasses.replace(predict_glicko2(
            gs, start, held, tau=tuned.glicko2.values["tau"], rd_new=tuned.glicko2.values["rd_new"], advantage=edge),
            system="glicko2+colour"))
    if progress is not None:
        progress("scoring", 0, 1)
    result = Evaluation(gs, predictions, scores(gs, predictions), scores(gs, predictions, both_rated(gs, predictions)),
                        {p.system: calibration(gs, p) for p in predictions}, schedule, tuned, measures, prior, colour,
                        colour_burn_in)
    if progress is not None:
        progress("scoring", 1, 1)
    return result
