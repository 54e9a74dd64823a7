"""Issue 18, item 4: the plausibility audit's checks, clause by clause of the Precisions (pure core)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from qiyuan.rating.model import Result
from qiyuan.rating.plausibility import (
    IMPROBABLE_D,
    AuditGame,
    improbable_results,
    opener_contradictions,
    same_person,
    standings_mismatches,
    twice_in_a_round,
)
from qiyuan.tournament.openers import opener_rule
from qiyuan.tournament.state import PlayerState

W, L, D = Result.WIN, Result.LOSS, Result.DRAW


def test_under_one_percent_means_the_loser_was_678_points_above():
    """Precisions: the loser expected ≥ 0.99, D ≥ 678 by the table."""
    assert IMPROBABLE_D == 678
    games = [AuditGame("E", 1, "weak", "strong", W), AuditGame("E", 2, "weak", "mid", W),
             AuditGame("E", 3, "strong", "weak", L), AuditGame("E", 4, "weak", "strong", D),
             AuditGame("E", 5, "weak", "strong", Result.FORFEIT_WIN), AuditGame("E", 6, "new", "strong", W)]
    rating = {"weak": 1500, "strong": 1500 + 678, "mid": 1500 + 677, "new": None}
    flags = improbable_results(games, rating)
    assert [(f.round, f.players, f.detail["D"]) for f in flags] == [(1, ("weak", "strong"), 678),
                                                                     (3, ("weak", "strong"), 678)]


def _swiss(n_players: int, rounds: int) -> list[AuditGame]:
    """A Swiss-like event whose openers follow the opener rules (pairs by a fixed rotation)."""
    players = [f"P{i}" for i in range(1, n_players + 1)]
    roles: dict[str, list[str]] = {p: [] for p in players}
    games = []
    for rnd in range(1, rounds + 1):
        order = players[rnd - 1:] + players[:rnd - 1]
        for a, b in zip(order[0::2], order[1::2]):
            sa = PlayerState(int(a[1:]), Decimal(0), set(), False, 0, 0, tuple(roles[a]))
            sb = PlayerState(int(b[1:]), Decimal(0), set(), False, 0, 0, tuple(roles[b]))
            first, _, _ = opener_rule(sa, sb, rnd)
            games.append(AuditGame("S", rnd, a, b, W, 1 if first == int(a[1:]) else 2))
            roles[a].append("b" if first == int(a[1:]) else "w")
            roles[b].append("w" if first == int(a[1:]) else "b")
    return games


def test_openers_that_follow_the_rules_are_not_flagged_and_one_swap_is_one_flag():
    games = _swiss(8, 7)
    numbers = {f"P{i}": i for i in range(1, 9)}
    assert opener_contradictions("S", games, numbers) == []
    swapped = list(games)
    g = swapped[13]
    swapped[13] = AuditGame(g.event, g.round, g.player1, g.player2, g.result, 3 - g.opener)
    flags = opener_contradictions("S", swapped, numbers)
    assert [(f.round, set(f.players)) for f in flags] == [(g.round, {g.player1, g.player2})]


def test_one_player_twice_in_a_round():
    games = [AuditGame("E", 1, "a", "b", W), AuditGame("E", 1, "a", "c", L), AuditGame("E", 2, "a", "b", D)]
    flags = twice_in_a_round(games)
    assert [(f.event, f.round, f.players) for f in flags] == [("E", 1, ("a",))]


def test_standings_that_the_crosstable_does_not_add_up_to():
    games = [AuditGame("E", 1, "a", "b", W), AuditGame("E", 2, "a", "c", D), AuditGame("E", 2, "b", "d", W)]
    scores = {"a": Decimal("1.5"), "b": Decimal("1"), "c": Decimal("1.5"), "d": Decimal("3")}
    flags = standings_mismatches("E", games, scores, rounds=2)
    # c and d missed a round (a bye may give a point); d's 3 cannot come from 1 round without a game
    assert [f.players for f in flags] == [("d",)]
    doubled = {p: 2 * s for p, s in scores.items()}  # a report counting 2 a win
    assert [f.players for f in standings_mismatches("E", games, doubled, rounds=2)] == [("d",)]


def test_two_records_that_look_like_one_person():
    records = [("CN1", "张三", date(2001, 5, 6)), ("CN2", "张三", date(2001, 5, 6)), ("CN3", "张三", date(2001, 5, 7)),
               ("CN4", "李四", None), ("CN5", "李四", None)]
    assert [f.players for f in same_person(records)] == [("CN1", "CN2")]
    assert same_person(records, among={"CN3"}) == []


def test_an_event_whose_openers_follow_other_rules_is_not_judged():
    """Openers set by lot or by hand (another 规程) contradict the rules in about half the games: no flags."""
    games = [AuditGame(g.event, g.round, g.player1, g.player2, g.result, 3 - g.opener if i % 2 else g.opener)
             for i, g in enumerate(_swiss(8, 7))]
    assert opener_contradictions("S", games, {f"P{i}": i for i in range(1, 9)}) == []
