"""What is predicted and when a system learns: only played games, events learned once they have ended."""

from __future__ import annotations

from datetime import date

import pytest
from sandbox_builders import event, game, player

from qiyuan.errors import InputError
from qiyuan.sandbox.games import LEARN, PREDICT, default_from, game_set

PLAYERS = [player(p, 2000) for p in "ABCDEF"]


def test_an_event_is_predicted_from_what_ended_before_it_started():
    """E1 (2–6 Oct) and its final E2 (5–6 Oct) overlap: E2 is predicted without E1's games. E3 (10 Oct)
    knows both, learned by end date, then start date."""
    events = [event("E1", date(2011, 10, 2), date(2011, 10, 6)), event("E2", date(2011, 10, 5), date(2011, 10, 6)),
              event("E3", date(2011, 10, 10)), event("E0", date(2011, 9, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "C", "1-0"), game("E3", 1, "A", "D", "0-1"),
             game("E0", 1, "E", "F", "=")]
    gs = game_set(PLAYERS, events, games, date(2011, 10, 1))
    ids = gs.event_ids
    assert [(kind, ids[e]) for kind, e in gs.steps()] == [
        (LEARN, "E0"), (PREDICT, "E1"), (PREDICT, "E2"), (LEARN, "E1"), (LEARN, "E2"), (PREDICT, "E3")]


def test_only_played_games_are_predicted_and_a_draw_scores_half():
    events = [event("E1", date(2012, 5, 1))]
    games = [game("E1", 1, "A", "B", "+-"), game("E1", 1, "C", "D", "-+"), game("E1", 1, "E", "F", "--"),
             game("E1", 2, "A", "C", "½-½"), game("E1", 2, "B", "D", "0-1")]
    gs = game_set(PLAYERS, events, games, date(2012, 5, 1))
    assert gs.player1.shape[0] == 2
    assert gs.score.tolist() == [0.5, 0.0]


def test_the_default_start_is_two_years_after_the_first_event():
    assert default_from([event("E1", date(2010, 3, 7)), event("E2", date(2009, 11, 14))]) == date(2011, 11, 14)
    assert default_from([event("E1", date(2012, 2, 29))]) == date(2014, 2, 28)


def test_from_outside_the_history_is_bad_input():
    events = [event("E1", date(2012, 5, 1)), event("E2", date(2013, 5, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "1-0")]
    for day in (date(2012, 4, 30), date(2013, 5, 2)):
        with pytest.raises(InputError) as exc:
            game_set(PLAYERS, events, games, day)
        assert str(exc.value) == f"--from: {day.isoformat()} is outside the history (2012-05-01 to 2013-05-01)"


def test_nothing_left_to_predict_is_bad_input():
    events = [event("E1", date(2012, 5, 1)), event("E2", date(2013, 5, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "+-")]  # E2: only a forfeit
    with pytest.raises(InputError, match="nothing to predict"):
        game_set(PLAYERS, events, games, date(2013, 1, 1))
    with pytest.raises(InputError, match="no events"):
        game_set(PLAYERS, [], [], None)


def test_batches_keep_the_order_and_never_learn_one_player_twice_at_once():
    events = [event(f"E{i}", date(2011, 1, 1 if i < 4 else 10)) for i in range(8)]
    pairs = ["AB", "CD", "AC", "EF", "BD", "AE", "CF", "AB"]  # E0–E3 learned as [AB, CD], [AC, EF]
    games = [game(f"E{i}", 1, a, b, "1-0") for i, (a, b) in enumerate(pairs)]
    gs = game_set(PLAYERS, events, games, date(2011, 1, 1))
    batches = list(gs.batches())
    assert [(kind, e) for kind, batch in batches for e in batch] == list(gs.steps())
    assert [(kind, [gs.event_ids[e] for e in batch]) for kind, batch in batches] == [
        (PREDICT, ["E0", "E1", "E2", "E3"]), (LEARN, ["E0", "E1"]), (LEARN, ["E2", "E3"]),
        (PREDICT, ["E4", "E5", "E6", "E7"])]
    for kind, batch in batches:
        if kind == LEARN:
            players = [p for e in batch for p in (gs.player1[gs.games_of(e)].tolist() + gs.player2[gs.games_of(e)]
                                                  .tolist())]
            assert len(players) == len(set(players))
