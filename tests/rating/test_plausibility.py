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


# -- issue 32: events together ------------------------------------------------------------------------------

from datetime import timedelta  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from qiyuan.rating.plausibility import (  # noqa: E402
    LEAGUE_MIN_DAYS,
    RATINGS_APART,
    AuditEvent,
    flipped_results,
    longest_plausible,
    overlapping_events,
    reported_ratings_apart,
    too_long,
)


def test_events_sharing_a_day_and_a_player_overlap_the_next_day_does_not():
    a = AuditEvent("A", date(2024, 8, 10), date(2024, 8, 12), 5)
    b = AuditEvent("B", date(2024, 8, 12), date(2024, 8, 13), 3)  # the last day of A
    c = AuditEvent("C", date(2024, 8, 13), date(2024, 8, 14), 3)  # after A
    flags = overlapping_events([c, b, a], {"A": {"p", "q"}, "B": {"q", "r"}, "C": {"p"}})
    assert [(f.event, f.detail["other"], f.players) for f in flags] == [("A", "B", ("q",))]
    assert not overlapping_events([a, b], {"A": {"p"}, "B": {"r"}})  # no one in both: nothing to look at


def test_an_event_is_too_long_beyond_a_week_a_round_and_a_week_and_never_under_forty_days():
    assert longest_plausible(1) == LEAGUE_MIN_DAYS == 40 and longest_plausible(9) == 70
    start = date(2024, 1, 1)
    ok = AuditEvent("ok", start, start + timedelta(days=69), 9)  # 70 days, first and last counted
    long = AuditEvent("long", start, start + timedelta(days=70), 9)
    year = AuditEvent("year", start, start + timedelta(days=365), 5)
    assert [f.event for f in too_long([ok, long, year])] == ["long", "year"]


def test_ratings_of_one_player_are_flagged_from_400_apart():
    assert RATINGS_APART == 400
    flags = reported_ratings_apart([("A", "p", 2200), ("B", "p", 1800), ("A", "q", 2199), ("B", "q", 1800)])
    assert [(f.players, f.detail["low"], f.detail["high"]) for f in flags] == [(("p",), 1800, 2200)]


def test_flipped_results_need_most_decisive_games_the_other_way_round():
    a = [AuditGame("A", 1, "p", "q", W), AuditGame("A", 2, "r", "s", L), AuditGame("A", 3, "p", "r", D)]
    b = [AuditGame("B", 1, "q", "p", W), AuditGame("B", 2, "s", "r", L)]  # p lost to q, r beat s: flipped
    same = [AuditGame("C", 1, "p", "q", W), AuditGame("C", 2, "r", "s", L)]
    assert [(f.event, f.detail["other"], f.detail["flipped"]) for f in flipped_results(a + b)] == [("A", "B", 2)]
    assert not flipped_results(a + same)  # the same results: the import's probable duplicate, not this
    assert not flipped_results(a[:1] + b[:1])  # one game is no pattern


_players = st.sampled_from("abcdefgh")


@settings(deadline=None)  # (a loaded machine: no deadline on an example)
@given(st.lists(st.tuples(_players, _players, st.sampled_from([W, L])), min_size=2, max_size=20))
def test_any_event_re_reported_with_every_result_flipped_is_flagged(games):
    games = [(x, y, r) for x, y, r in games if x != y]
    original = [AuditGame("A", i, x, y, r) for i, (x, y, r) in enumerate(games, start=1)]
    flipped = [AuditGame("B", i, y, x, r) for i, (x, y, r) in enumerate(games, start=1)]  # seats swapped
    flags = flipped_results(original + flipped)
    assert (len(flags) == 1) == (len(games) >= 2)
