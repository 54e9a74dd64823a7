"""A rule set predicts by its published list and 附表2; Elo by per-game updates from its own starts."""

from __future__ import annotations

import dataclasses
from datetime import date

import numpy as np
import pytest
from sandbox_builders import event, fixed_prior, game, player, starts

from qiyuan.rating.history import compute_history
from qiyuan.rating.rules import BUILTIN_RULES
from qiyuan.rating.tables import pd_hundredths
from qiyuan.sandbox.elo import predict_elo
from qiyuan.sandbox.games import game_set
from qiyuan.sandbox.lists import published_lists
from qiyuan.sandbox.ruleset import predict_rule_set

CGA = BUILTIN_RULES["cga-gomoku-2011"]
BJSH = BUILTIN_RULES["bjsh-gomoku-2007"]


def prior(rules, players):
    """The shared prior's integer means (here given by hand: the rule set's own entry ratings)."""
    return fixed_prior(rules.start_rating_male, rules.start_rating_female).integer_means(players)


PLAYERS = [player("A", 2100), player("B", 1900), player("C", 2000), player("N", gender="F")]
EVENTS = [event("E1", date(2011, 3, 1), date(2011, 3, 3)),  # before the 2011-07-01 list
          event("E2", date(2011, 7, 1), date(2011, 7, 2)),  # starts on the list date: that list is in force
          event("E3", date(2011, 12, 20), date(2012, 1, 5))]  # starts before 2012-01-01: the July list
GAMES = [game("E1", 1, "A", "B", "0-1"), game("E1", 2, "A", "C", "1-0"), game("E1", 3, "B", "C", "="),
         game("E1", 1, "N", "C", "0-1"),
         game("E2", 1, "A", "B", "1-0"), game("E2", 2, "C", "N", "1-0"),
         game("E3", 1, "B", "A", "1-0"), game("E3", 2, "A", "C", "=")]


def test_a_rule_set_predicts_from_the_list_in_force_with_the_exact_table_value():
    """The list in force is the last published on or before the event's start; the prediction is
    附表2's PD(D) in hundredths, D = player1's published rating − player2's, as the rules publish it
    (checked against the reference engine's lists)."""
    gs = game_set(PLAYERS, EVENTS, GAMES, date(2011, 3, 1))
    p = predict_rule_set(gs, published_lists(CGA, PLAYERS, EVENTS, GAMES), prior(CGA, PLAYERS))
    reference = {lst.date: lst.by_player() for lst in compute_history(CGA, PLAYERS, EVENTS, GAMES).lists}
    in_force = {"E1": None, "E2": date(2011, 7, 1), "E3": date(2011, 7, 1)}
    start = {p.id: int(p.rating) if p.rating is not None else None for p in PLAYERS}
    ids = gs.player_ids
    for i in range(gs.player1.shape[0]):
        a, b, e = ids[gs.player1[i]], ids[gs.player2[i]], gs.event_ids[gs.event[i]]
        listed = start if in_force[e] is None else {k: v.rating for k, v in reference[in_force[e]].items()}
        if listed[a] is None or listed[b] is None:  # predicted from the prior: N, a woman, enters at 1400
            ra, rb = (listed[x] if listed[x] is not None else 1400 for x in (a, b))
            assert not p.covered[i] and int(p.hundredths[i]) == pd_hundredths(ra - rb)
            assert p.expected[i] == pd_hundredths(ra - rb) / 100 != 0.5
            continue
        assert p.covered[i]
        assert int(p.hundredths[i]) == pd_hundredths(listed[a] - listed[b])
        assert p.expected[i] == pd_hundredths(listed[a] - listed[b]) / 100
    # N (a newcomer under CGA) is on no list: her games are not covered.
    assert not p.covered[[i for i in range(gs.player1.shape[0]) if "N" in (ids[gs.player1[i]], ids[gs.player2[i]])]].any()
    assert p.covered.sum() == 6


def test_a_cap_clamps_the_rating_difference_before_the_table():
    """A variant with FIDE's 400-point rule: D = 2600 − 1900 = 700 is taken as 400, PD 0.92, not 0.99."""
    players = [player("A", 2600), player("B", 1900)]
    events = [event("E1", date(2011, 3, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E1", 2, "B", "A", "1-0")]
    gs = game_set(players, events, games, date(2011, 3, 1))
    capped = dataclasses.replace(CGA, name="cap400", cap=400)
    assert predict_rule_set(gs, published_lists(capped, players, events, games),
                            prior(capped, players)).hundredths.tolist() == [92, 8]
    assert predict_rule_set(gs, published_lists(CGA, players, events, games), prior(CGA, players)).hundredths.tolist() \
        == [99, 1]


def test_elo_learns_game_by_game_and_predicts_a_whole_event_from_its_start():
    """K 32, E = 1/(1 + 10^((R_opp − R)/400)), from its starts: A 1800, B 1800 (held), N a woman
    without a rating, entering at the prior's 1400 for women. E1 (learned): A beats B: +16/−16; then N beats A:
    N's E = 1/(1 + 10^(416/400)), she gains 32(1 − E). E2 is predicted from the ratings after E1,
    both of its games from the same ratings."""
    players = [player("A", 1800), player("B", 1800), player("N", gender="F")]
    events = [event("E1", date(2011, 3, 1), date(2011, 3, 2)), event("E2", date(2011, 4, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E1", 2, "N", "A", "1-0"),
             game("E2", 1, "A", "B", "0-1"), game("E2", 2, "A", "B", "1-0"), game("E2", 3, "N", "B", "=")]
    gs = game_set(players, events, games, date(2011, 4, 1))
    p = predict_elo(gs, *starts(players))
    e_n = 1 / (1 + 10 ** ((1816 - 1400) / 400))
    a, b, n = 1816 - 32 * (1 - e_n), 1784, 1400 + 32 * (1 - e_n)
    ab = 1 / (1 + 10 ** ((b - a) / 400))
    assert p.expected[2:].tolist() == pytest.approx([ab, ab, 1 / (1 + 10 ** ((b - n) / 400))], rel=1e-12)
    assert p.covered[2:].all()


def test_elo_predicts_a_player_it_has_not_seen_play_from_his_prior():
    """A newcomer's first games are predicted from the prior's entry mean of her group (here 1400 for a woman),
    not covered; a player holding a starting rating is covered at once."""
    players = [player("A", 1800), player("N", gender="F")]
    events = [event("E1", date(2011, 3, 1))]
    games = [game("E1", 1, "A", "N", "1-0")]
    gs = game_set(players, events, games, date(2011, 3, 1))
    p = predict_elo(gs, *starts(players))
    assert p.expected.tolist() == pytest.approx([1 / (1 + 10 ** (-400 / 400))]) and p.covered.tolist() == [False]
    wide = predict_elo(gs, *starts(players), scale=800)  # the scale is a setting (tuned on the burn-in)
    assert wide.expected.tolist() == pytest.approx([1 / (1 + 10 ** (-400 / 800))])


def test_a_rule_set_predicts_an_unlisted_player_from_the_shared_prior():
    """Every game predicted: before any list, the prior for a man is (here) 1800, for a woman 1400 (附表2's PD(400))."""
    players = [player("M"), player("W", gender="F")]
    events = [event("E1", date(2011, 3, 1))]
    games = [game("E1", 1, "M", "W", "1-0")]
    gs = game_set(players, events, games, date(2011, 3, 1))
    p = predict_rule_set(gs, published_lists(CGA, players, events, games), prior(CGA, players))
    assert p.hundredths.tolist() == [pd_hundredths(400)] and p.covered.tolist() == [False]


def test_the_baselines_start_from_players_csv_and_the_prior_not_from_a_rule_set():
    """A dan player without a published rating is a newcomer to the baselines (his dan start is a rule of
    a rule set); a published rating in players.csv is held; everyone else enters at the prior's mean
    of his group, and the colour term adds Black's advantage to player1's rating."""
    players = [dataclasses.replace(player("D"), dan="5d"), player("N"), player("A", 2300)]
    events = [event("E1", date(2011, 3, 1)), event("E2", date(2011, 5, 1))]
    games = [game("E1", 1, "N", "A", "1-0"), game("E2", 1, "D", "A", "1-0"), game("E2", 2, "N", "A", "1-0")]
    gs = game_set(players, events, games, date(2011, 5, 1))
    p = predict_elo(gs, *starts(players, men=1900))
    e = 1 / (1 + 10 ** ((2300 - 1900) / 400))  # N (1900) beat A (2300) in E1
    n, a = 1900 + 32 * (1 - e), 2300 - 32 * (1 - e)
    assert p.expected[1:].tolist() == pytest.approx([1 / (1 + 10 ** ((a - 1900) / 400)),
                                                     1 / (1 + 10 ** ((a - n) / 400))])
    assert p.covered.tolist() == [False, False, True]
    # the colour term: +16 for Black — player1 N in the first game, player2 A in the second
    coloured = game_set(players, events, games, date(2011, 3, 1), colours=np.array([1, -1, 0], np.int8))
    black = predict_elo(coloured, *starts(players, men=1900), advantage=16)
    assert black.expected[0] == pytest.approx(1 / (1 + 10 ** ((2300 - 1900 - 16) / 400)))
    assert predict_elo(game_set(players, events, games, date(2011, 3, 1)), *starts(players, men=1900),
                       advantage=16).expected[0] == pytest.approx(1 / (1 + 10 ** ((2300 - 1900) / 400)))
