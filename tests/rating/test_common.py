"""Clauses shared by the three rule sets (spec §0.3 and the 'All rule sets' decisions)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from rating_builders import BJSH, CGA, GO, change, entry, event, game, player, rate

from qiyuan.rating.period import rate_period
from qiyuan.rating.state import initial_states


def test_common_0_3_only_the_published_rating_is_rounded_half_up():
    # A (2400, K 10) — We .03, .03, .29 with W 1, ½, 0: ΣΔR = 11.50 exactly → 2412 (floats give 2411).
    players = [player("A", 2400), player("B", 2930), player("C", 2930), player("D", 2560)]
    ev = event("E", date(2008, 3, 1))
    games = [game("E", 1, "A", "B", "1-0"), game("E", 2, "A", "C", "0.5-0.5"), game("E", 3, "A", "D", "0-1")]
    h = rate(BJSH, players, [ev], games)
    assert [ln.We for ln in change(h, "A", "E").lines] == [Decimal("0.03"), Decimal("0.03"), Decimal("0.29")]
    assert entry(h, "A").exact == Decimal("2411.50")
    assert entry(h, "A").rating == 2412


def test_common_0_3_delta_is_not_rounded_per_game_or_per_event():
    players = [player("A", 2400), player("C", 2240, games=30)]
    evs = [event("E1", date(2008, 2, 1)), event("E2", date(2008, 2, 10))]
    games = [game("E1", 1, "C", "A", "0-1"), game("E2", 1, "C", "A", "0-1")]
    h = rate(BJSH, players, evs, games)
    assert change(h, "C", "E1").delta == Decimal("-4.35")  # not −4
    assert entry(h, "C").exact == Decimal("2231.30") and entry(h, "C").rating == 2231


def test_common_0_3_ro_is_the_last_published_rating_for_every_event_of_the_period():
    players = [player("A", 2000), player("B", 2000)]
    evs = [event("E1", date(2011, 2, 1)), event("E2", date(2011, 3, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "1-0")]
    h = rate(CGA, players, evs, games)
    assert change(h, "A", "E2").Ro == Decimal(2000)  # not 2005 after E1
    assert change(h, "A", "E1").delta == change(h, "A", "E2").delta == Decimal("5.00")
    assert entry(h, "A").rating == 2010


@pytest.mark.parametrize("rules", [CGA, BJSH, GO], ids=lambda r: r.name)
def test_common_unplayed_games_are_never_rated(rules):
    players = [player("A", 2000), player("B", 2000), player("C", 2000)]
    ev = event("E", date(2011, 2, 1))
    games = [game("E", 1, "A", "B", "+-"), game("E", 2, "A", "C", "-+"), game("E", 3, "B", "C", "--"),
             game("E", 4, "B", "C", "1-0")]
    h = rate(rules, players, [ev], games)
    a = change(h, "A", "E")
    assert a.games == 0 and a.delta == 0 and "forfeit_not_rated" in a.notes
    assert change(h, "B", "E").games == 1 and change(h, "C", "E").games == 1
    assert entry(h, "A").games == 100


def test_common_event_ending_on_a_publication_date_goes_to_the_next_list():
    players = [player("A", 2000), player("B", 2000)]
    evs = [event("E1", date(2011, 6, 29), days=3),  # ends 2011-07-01
           event("E0", date(2011, 3, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E0", 1, "A", "B", "0.5-0.5")]
    h = rate(CGA, players, evs, games)
    assert [lst.date for lst in h.lists] == [date(2011, 7, 1), date(2012, 1, 1)]
    assert change(h, "A", "E1").list_date == date(2012, 1, 1)
    assert change(h, "A", "E0").list_date == date(2011, 7, 1)


def test_common_every_player_is_on_every_list_in_status_rating_id_order():
    players = [player("Z", 1900), player("Y", 2100), player("X", 1900), player("N"), player("V", 2100)]
    ev = event("E", date(2011, 2, 1))
    h = rate(CGA, players, [ev], [game("E", 1, "V", "Y", "0.5-0.5")])
    assert [(e.player_id, e.status) for e in h.lists[0].entries] == [
        ("V", "active"), ("Y", "active"), ("X", "active"), ("Z", "active"), ("N", "unrated")]
    assert entry(h, "N").rating is None and entry(h, "N").exact is None


def test_common_champion_by_standings_rank_1_and_all_tied_players_without_standings():
    players = [player("A", 2000), player("B", 2300), player("C", 2300)]
    ev = event("E", date(2011, 2, 1), fmt="round_robin")
    games = [game("E", 1, "A", "B", "1-0"), game("E", 2, "B", "C", "1-0"), game("E", 3, "C", "A", "1-0")]
    h = rate(CGA, players, [ev], games)  # everyone on 1 point: all three are champions
    assert all(change(h, p, "E").delta >= 0 for p in "ABC")
    assert "champion_protected" in change(h, "B", "E").notes
    from rating_builders import standing
    h = rate(CGA, players, [ev], games, [standing("E", "A", 1), standing("E", "B", 2), standing("E", "C", 3)])
    assert change(h, "B", "E").delta < 0 and "champion_protected" not in change(h, "B", "E").notes


def test_common_champion_score_counts_forfeit_wins():
    players = [player("A", 2000), player("B", 2300), player("C", 2300)]
    ev = event("E", date(2011, 2, 1))
    games = [game("E", 1, "B", "A", "0-1"), game("E", 2, "B", "C", "+-")]  # B: 1 point by forfeit
    h = rate(CGA, players, [ev], games)
    b = change(h, "B", "E")
    assert b.raw_delta < 0 and b.delta == 0 and "champion_protected" in b.notes


def test_common_rate_period_equals_the_history_loop():
    players = [player("A", 2000), player("B", 1900), player("N")]
    ev = event("E", date(2011, 2, 1))
    games = [game("E", 1, "A", "B", "1-0")]
    h = rate(CGA, players, [ev], games)
    states = initial_states(CGA, players, date(2011, 1, 1))
    result = rate_period(CGA, states, [ev], games, (), date(2011, 7, 1))
    assert result.published == h.lists[0] and result.changes == h.changes


def test_common_rate_period_refuses_events_of_a_later_period_and_unknown_players():
    players = [player("A", 2000), player("B", 1900)]
    states = initial_states(CGA, players, date(2011, 1, 1))
    with pytest.raises(ValueError, match="on or after the list date"):
        rate_period(CGA, states, [event("E", date(2011, 6, 30))], [], (), date(2011, 7, 1))
    with pytest.raises(ValueError, match="unknown player"):
        rate_period(CGA, states, [event("E", date(2011, 2, 1))], [game("E", 1, "A", "Q", "1-0")], (),
                    date(2011, 7, 1))


def test_common_publication_calendar_and_month_arithmetic():
    from qiyuan.rating.calendar import (add_months, next_publication_date, previous_publication_date,
                                        publication_dates)

    assert add_months(date(2012, 2, 29), -12) == date(2011, 2, 28)
    assert add_months(date(2011, 7, 1), -24) == date(2009, 7, 1)
    assert next_publication_date((1, 7), date(2011, 7, 1)) == date(2012, 1, 1)
    assert next_publication_date((1, 7), date(2011, 6, 30)) == date(2011, 7, 1)
    assert previous_publication_date((1, 4, 7, 10), date(2008, 4, 1)) == date(2008, 1, 1)
    assert publication_dates((1, 7), date(2011, 3, 1), date(2012, 7, 1)) == [
        date(2011, 7, 1), date(2012, 1, 1), date(2012, 7, 1), date(2013, 1, 1)]
    assert publication_dates(tuple(range(1, 13)), date(2013, 1, 15), date(2013, 3, 1)) == [
        date(2013, 2, 1), date(2013, 3, 1), date(2013, 4, 1)]


def test_common_progress_is_reported_per_list_and_an_empty_history_has_no_lists():
    from qiyuan.rating.history import compute_history

    seen = []
    players = [player("A", 2000), player("B", 2000)]
    evs = [event("E1", date(2011, 2, 1)), event("E2", date(2012, 2, 1))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "1-0")]
    h = compute_history(CGA, players, evs, games, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)] and len(h.lists) == 3
    assert compute_history(CGA, players, [], []).lists == []


def test_common_players_given_twice_are_an_error():
    from qiyuan.rating.history import compute_history

    with pytest.raises(ValueError, match="given twice: A"):
        compute_history(CGA, [player("A", 2000), player("A", 1900)], [event("E", date(2011, 2, 1))], [])
