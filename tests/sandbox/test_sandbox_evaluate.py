"""``evaluate``: every system on the same games, the rows in order, and the real Chinese history."""

from __future__ import annotations

import dataclasses
import math
import random
from datetime import date

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sandbox_builders import event, game, player, real_files

from qiyuan.errors import InputError
from qiyuan.formats.history_csv import read_history
from qiyuan.rating.rules import BUILTIN_RULES
from qiyuan.sandbox.evaluate import evaluate

CGA = BUILTIN_RULES["cga-gomoku-2011"]
BJSH = BUILTIN_RULES["bjsh-gomoku-2007"]


def small_history():
    players = [player("A", 2100), player("B", 1900), player("C", 2000), player("N"), player("W", gender="F")]
    events = [event("E1", date(2011, 3, 1), date(2011, 3, 3)), event("E2", date(2011, 9, 1), fmt="round_robin"),
              event("E3", date(2012, 2, 1))]
    games = [game("E1", 1, "A", "N", "1-0"), game("E1", 1, "B", "C", "0-1"), game("E1", 2, "N", "B", "="),
             game("E2", 1, "A", "B", "1-0"), game("E2", 2, "A", "C", "0-1"), game("E2", 3, "B", "C", "1-0"),
             game("E3", 1, "A", "W", "0-1"), game("E3", 1, "B", "C", "+-"), game("E3", 2, "W", "C", "1-0")]
    return players, events, games


def test_every_row_scores_the_same_games():
    players, events, games = small_history()
    result = evaluate([CGA, BJSH], players, events, games, from_date=date(2011, 6, 1))
    assert [s.system for s in result.scores] == ["cga-gomoku-2011", "bjsh-gomoku-2007", "constant", "elo",
                                                 "glicko2", "whr"]
    mask = result.games.predicted
    assert mask.sum() == 5  # E2's three games and E3's two played ones (the forfeit is not predicted)
    assert {s.games for s in result.scores} == {5}
    for p in result.predictions:
        assert p.expected.shape == p.covered.shape == mask.shape
        assert p.covered.sum() <= mask.sum()
    constant = result.scores[2]
    assert constant.log_loss == pytest.approx(math.log(2)) and constant.coverage == 0.0
    best = min(result.scores, key=lambda s: s.log_loss)
    assert best.se_vs_best == 0.0
    assert set(result.calibration) == {s.system for s in result.scores}
    assert [s.system for s in result.both_rated] == [s.system for s in result.scores]


def test_rule_sets_are_checked_before_any_work():
    players, events, games = small_history()
    for rule_sets, message in (([], "at least one"), ([CGA, CGA], "given twice"),
                               ([dataclasses.replace(CGA, name="elo")], "the name of a baseline row")):
        with pytest.raises(InputError, match=message):
            evaluate(rule_sets, players, events, games)


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    f = real_files(tmp_path_factory)
    return read_history(f["players"], f["events"], f["games"])


def test_the_real_history(real):
    """59 national events 2009–2019, predicted from 1 January 2012 (issue 25): 2,807 played games of
    the 44 events ending from then on, every one predicted by every system (a prior for a player
    without a rating). The baselines are tuned on the 1,837 burn-in games only; the tuned Elo beats the
    coin; the both-rated subset is one table of the same games for every row."""
    result = evaluate([CGA, BJSH], real.players, real.events, real.games, from_date=date(2012, 1, 1))
    rows = {s.system: s for s in result.scores}
    assert {s.games for s in result.scores} == {2807}
    assert rows["constant"].log_loss == pytest.approx(math.log(2)) and rows["constant"].prediction_rate == 0.5
    assert rows["elo"].log_loss < math.log(2) - 0.03  # the baseline beats the coin, by many standard errors
    assert rows["elo"].log_loss + 2 * rows["elo"].se_vs_best < math.log(2) or rows["elo"].se_vs_best == 0
    assert rows["elo"].coverage == rows["glicko2"].coverage == rows["whr"].coverage
    assert rows["cga-gomoku-2011"].coverage < 0.25 < rows["elo"].coverage
    for s in result.scores:  # every game predicted: a rule set's prediction is not 0.5 wherever it lacks a rating
        assert 0.5 < s.prediction_rate < 0.7 or s.system in ("constant", "bjsh-gomoku-2007")
    assert result.tuned.searched and result.tuned.burn_in_games == 1837
    assert result.tuned.elo.values["K"] > 0 and result.tuned.whr.values["w2"] in result.tuned.whr.grid["w2"]
    both = {s.games for s in result.both_rated}
    assert len(both) == 1 and 0 < both.pop() < 2807
    assert result.whr.every_event  # a WHR refit before every predicted event
    assert all(c.slope.slope == c.slope.slope for n, c in result.calibration.items() if n != "constant")
    cga = result.lists[0]
    assert cga.system == "cga-gomoku-2011" and cga.drift[0].cohort == cga.drift[0].listed > 0
    assert cga.establishment.players > 0 and cga.volatility[0].per_game > cga.volatility[2].per_game  # K 25 → 15


@st.composite
def histories(draw):
    n_players = draw(st.integers(3, 7))
    players = [player(f"P{i}", draw(st.one_of(st.none(), st.integers(1500, 2400))), draw(st.sampled_from("MF")))
               for i in range(n_players)]
    n_events = draw(st.integers(2, 5))
    events, games = [], []
    for e in range(n_events):
        start = date(2011, 1, 1).toordinal() + draw(st.integers(0, 900))
        events.append(event(f"E{e}", date.fromordinal(start), date.fromordinal(start + draw(st.integers(0, 4)))))
        for r in range(1, draw(st.integers(1, 4)) + 1):
            a, b = draw(st.lists(st.integers(0, n_players - 1), min_size=2, max_size=2, unique=True))
            games.append(game(f"E{e}", r, f"P{a}", f"P{b}", draw(st.sampled_from(["1-0", "0-1", "=", "+-"]))))
    return players, events, games


@settings(max_examples=25, deadline=None)
@given(history=histories(), seed=st.integers(0, 2**32 - 1))
def test_scores_do_not_depend_on_the_order_of_the_rows(history, seed):
    """Invariants on random small histories: predictions are probabilities, a rule set's are table
    hundredths, and shuffling the players, events and games changes no score (WHR iterates its players
    in another order: differences within 1e-6)."""
    players, events, games = history
    first = min(e.start_date for e in events)
    try:
        result = evaluate([CGA], players, events, games, from_date=first)
    except InputError:  # every game a forfeit: nothing to predict
        return
    for p in result.predictions:
        assert np.all((p.expected >= 0) & (p.expected <= 1))
    rule_set = result.predictions[0]
    assert np.array_equal(rule_set.expected, rule_set.hundredths / 100)
    rng = random.Random(seed)
    shuffled = [list(x) for x in (players, events, games)]
    for x in shuffled:
        rng.shuffle(x)
    again = evaluate([CGA], *shuffled, from_date=first)
    for x, y in zip(again.scores, result.scores):
        assert (x.system, x.games, x.coverage) == (y.system, y.games, y.coverage)
        assert (x.log_loss, x.brier, x.se_vs_best) == pytest.approx((y.log_loss, y.brier, y.se_vs_best), abs=1e-6)
        assert x.prediction_rate == pytest.approx(y.prediction_rate, abs=1e-6)


def test_a_variant_that_changes_no_published_list_scores_the_same(real):
    """Issue 36: CGA uses its women's entry rating (1400) only for seeding; a variant entering women at
    1600 publishes the same lists on every date — so, every row predicting an unlisted player from the
    one shared prior (fitted on the burn-in), it scores exactly the same, listed and prior-driven games
    alike (before: 0.6970 → 0.6606)."""
    women = dataclasses.replace(CGA, name="cga-women-1600", start_rating_female=1600)
    result = evaluate([CGA, women], real.players, real.events, real.games, from_date=date(2012, 1, 1))
    cga, variant = result.scores[:2]
    assert np.array_equal(result.predictions[0].expected, result.predictions[1].expected)
    assert (cga.log_loss, cga.listed_log_loss, cga.prior_log_loss, cga.se) == \
        (variant.log_loss, variant.listed_log_loss, variant.prior_log_loss, variant.se)
    assert cga.listed_games + round((1 - cga.coverage) * cga.games) == cga.games
    prior = result.prior
    assert prior.games == 1837 and prior.newcomers["F"] > 0 and prior.newcomers["M"] > 0
    assert 40 <= prior.sd <= 600 and prior.virtual_draws >= 1


def test_the_baselines_do_not_depend_on_the_order_of_the_rule_sets(real):
    """Issue 36: the baselines start from players.csv and the shared prior, not from the first --rules
    (before: swapping the order moved Glicko-2 from 0.6285 to 0.6724 and changed the best row)."""
    one = evaluate([CGA, BJSH], real.players, real.events, real.games, from_date=date(2012, 1, 1))
    two = evaluate([BJSH, CGA], real.players, real.events, real.games, from_date=date(2012, 1, 1))
    for a, b in zip(one.predictions[2:], two.predictions[2:]):
        assert a.system == b.system and np.array_equal(a.expected, b.expected)
    assert one.tuned == two.tuned
    assert repr(sorted(one.scores[2:], key=lambda s: s.system)) == repr(sorted(two.scores[2:], key=lambda s: s.system))


def test_the_prior_is_fitted_on_the_burn_in_only(real):
    """Flipping every test result changes no prior and no tuned value: the search never sees the test."""
    from qiyuan.sandbox.games import game_set
    from qiyuan.sandbox.prior import fit_prior

    gs = game_set(real.players, real.events, real.games, date(2012, 1, 1))
    flipped = dataclasses.replace(gs, score=np.where(gs.predicted, 1.0 - gs.score, gs.score))
    assert fit_prior(gs, real.players) == fit_prior(flipped, real.players)


def test_a_tuned_value_on_its_grids_edge_is_flagged():
    from qiyuan.sandbox.tuning import Choice

    edge = Choice("glicko2", {"tau": 0.005, "rd_new": 200.0}, {"tau": (0.005, 0.5, 1.0)}, 0.6)
    inside = Choice("elo", {"K": 40.0, "scale": 800.0}, {"scale": (400.0, 800.0, 1600.0),
                                                         "K/scale": (0.02, 0.05, 0.08)}, 0.6)
    assert edge.edges == ["tau"] and inside.edges == []
    assert "edge of its grid" in edge.describe().message and "edge" not in inside.describe().message
