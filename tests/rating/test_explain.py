"""The plain-text 'individual calculations' of a player."""

from __future__ import annotations

from datetime import date

import pytest
from rating_builders import BJSH, CGA, EXAMPLES, event, game, player, rate
from test_examples_golden import FIDE_RATED, FIDE_UNRATED, fide_history

from qiyuan.rating.explain import render_explanation


def test_per_game_explanation_lists_every_game_and_the_published_rating():
    ex = EXAMPLES["bjsh_2007_section16"]
    players = [player(p, v["rating"], games=30) for p, v in ex["players"].items()]
    games = [game("E", 1, "A", "C", "1-0"), game("E", 2, "A", "B", "0.5-0.5"), game("E", 3, "C", "B", "1-0")]
    h = rate(BJSH, players, [event("E", date(2008, 3, 1))], games)
    text = render_explanation(h, "C", {p.id: p for p in players})
    assert "per game" in text
    assert "-160  0.29  0  15  -4.35" in text and "-120  0.34  1  15  +9.90" in text
    assert "ΔR +5.55" in text and "rating 2246 (from 2245.55)" in text


def test_averaging_explanation_shows_rc_d_n_pd():
    players = [player("X", 1900, games=40), player("O1", 1850), player("O2", 2010), player("O3", 1700)]
    games = [game("S", 1, "X", "O1", "1-0"), game("S", 2, "X", "O2", "1-0"), game("S", 3, "X", "O3", "0-1")]
    h = rate(CGA, players, [event("S", date(2011, 3, 1))], games)
    text = render_explanation(h, "X", {p.id: p for p in players})
    assert "averaging" in text and "Rc 1853.333333   D +47   N 3   Pd 0.57" in text
    assert "We 1.71" in text and "ΔR +4.35" in text


def test_newcomer_and_rule_notes_in_the_explanation():
    h = fide_history()
    players = {p: player(p) for p in [*FIDE_RATED, *FIDE_UNRATED]}
    text = render_explanation(h, "I", players)
    assert "Rc 2348.45" in text and "Ru 2032.55" in text and "rating 2033" in text
    players = [player("U"), player("A", 2000), player("B", 2000), player("C", 2000)]
    games = [game("E", i + 1, "U", o, "0-1") for i, o in enumerate("ABC")]
    h = rate(CGA, players, [event("E", date(2011, 3, 1))], games)
    assert "scored 0: his results in this event are ignored" in render_explanation(h, "U", {p.id: p for p in players})


def test_explanation_of_an_unknown_player():
    with pytest.raises(KeyError):
        render_explanation(fide_history(), "nobody", {})


def test_delta_keeps_its_hundredths_in_the_explanation():
    players = [player("A", 2000), player("B", 2000)]
    games = [game("E", 1, "A", "B", "0.5-0.5")]
    h = rate(CGA, players, [event("E", date(2011, 3, 1))], games)
    text = render_explanation(h, "A", {p.id: p for p in players})
    assert "W 0.5   We 0.50" in text and "ΔR 0.00" in text
