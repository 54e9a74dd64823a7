"""CGA Gomoku 2011 (中国围棋协会五子棋项目等级分制度实施办法), clause by clause."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

from rating_builders import CGA, change, entry, event, game, player, rate, round_robin, standing
from test_examples_golden import FIDE_RR, FIDE_RATED, FIDE_UNRATED

from qiyuan.rating.exact import round_half_up
from qiyuan.rating.newcomer import first_rating, performance_rating

OPPS = {"O1": 1850, "O2": 1900, "O3": 2000, "O4": 1750}  # Rc = 1875


def newcomer_swiss(eid: str, start: date, pid: str, wins: int, opponents=OPPS, loser_first=False):
    """A Swiss where ``pid`` meets each of ``opponents`` once and wins the first ``wins`` games."""
    results = ["1-0"] * wins + ["0-1"] * (len(opponents) - wins)
    return event(eid, start), [game(eid, i + 1, pid, o, r) for i, (o, r) in enumerate(zip(opponents, results))]


def rated_opponents(ids=OPPS):
    return [player(p, r) for p, r in ids.items()]


def filler(eid: str, start: date):
    """An event between two bystanders, to carry the history on to later lists."""
    return event(eid, start), [game(eid, 1, "F1", "F2", "0.5-0.5")]


BYSTANDERS = [player("F1", 2000), player("F2", 2000)]


def test_cga_2_1_lists_published_on_1_january_and_1_july():
    e1, g1 = filler("E1", date(2011, 2, 1))
    e2, g2 = filler("E2", date(2011, 8, 1))
    h = rate(CGA, BYSTANDERS, [e1, e2], g1 + g2)
    assert [lst.date for lst in h.lists] == [date(2011, 7, 1), date(2012, 1, 1)]


def test_cga_2_2_an_event_spanning_a_cut_off_counts_by_its_end_date():
    ev = event("E", date(2011, 6, 28), days=6)  # 28 June – 3 July
    h = rate(CGA, BYSTANDERS, [ev], [game("E", 1, "F1", "F2", "1-0")])
    assert [lst.date for lst in h.lists] == [date(2012, 1, 1)]


def test_cga_2_3_newcomer_needs_3_rated_opponents_in_one_event():
    ev, games = newcomer_swiss("E", date(2011, 2, 1), "U", 1, {"O1": 1850, "O2": 1900})
    h = rate(CGA, [player("U"), *rated_opponents()], [ev], games)
    c = change(h, "U", "E")
    assert c.games == 0 and "fewer_than_3_rated_opponents" in c.notes
    assert h.final_states["U"].newcomer == ()


def test_cga_2_3_first_rating_published_after_7_counted_games_within_24_months():
    e1, g1 = newcomer_swiss("E1", date(2011, 2, 1), "U", 3)  # Ru 1900 over 4 games
    e2, g2 = newcomer_swiss("E2", date(2011, 9, 1), "U", 1)  # Ru 1682 over 4 games
    h = rate(CGA, [player("U"), *rated_opponents()], [e1, e2], g1 + g2)
    first, second = (lst.by_player()["U"] for lst in h.lists)
    # Unpublished, but the list shows his real count: 4 counted games of the 7 (the games K counts).
    assert (first.status, first.rating, first.games) == ("unrated", None, 4)
    assert (second.status, second.rating, second.games) == ("active", 1791, 8)  # (1900×4 + 1682×4)/8


def test_cga_2_3_counted_games_older_than_24_months_drop_out():
    e1, g1 = newcomer_swiss("E1", date(2011, 2, 1), "U", 3)
    e2, g2 = newcomer_swiss("E2", date(2013, 4, 1), "U", 1)
    h = rate(CGA, [player("U"), *rated_opponents()], [e1, e2], g1 + g2)
    assert entry(h, "U").status == "unrated"
    assert [r.event_id for r in h.final_states["U"].newcomer] == ["E2"]


def test_cga_2_4_inactive_after_fewer_than_7_rated_games_in_12_months_and_back_with_7():
    opponents = {f"O{i}": 2000 for i in range(7)}
    e1 = event("E1", date(2011, 2, 1))
    g1 = [game("E1", i + 1, "A", o, "0.5-0.5") for i, o in enumerate(list(opponents)[:6])]  # 6 games
    e2, g2 = filler("E2", date(2011, 9, 1))
    e3 = event("E3", date(2012, 3, 1))
    g3 = [game("E3", i + 1, "A", o, "0.5-0.5") for i, o in enumerate(opponents)]  # 7 games
    h = rate(CGA, [player("A", 2000), *rated_opponents(opponents), *BYSTANDERS], [e1, e2, e3], g1 + g2 + g3)
    assert [lst.by_player()["A"].status for lst in h.lists] == ["active", "inactive", "active"]
    assert [lst.by_player()["A"].rating for lst in h.lists] == [2000, 2000, 2000]  # inactive keeps his rating


def test_cga_2_4_a_new_rating_is_not_judged_before_a_full_12_months():
    e1, g1 = newcomer_swiss("E1", date(2011, 2, 1), "U", 2, {**OPPS, "O5": 1875, "O6": 1875, "O7": 1875})
    e2, g2 = filler("E2", date(2011, 9, 1))
    e3, g3 = filler("E3", date(2012, 3, 1))
    h = rate(CGA, [player("U"), *rated_opponents({**OPPS, "O5": 1875, "O6": 1875, "O7": 1875}), *BYSTANDERS],
             [e1, e2, e3], g1 + g2 + g3)
    assert [lst.by_player()["U"].status for lst in h.lists] == ["active", "active", "inactive"]


def test_cga_2_6_removed_after_24_months_on_the_inactive_list_keeps_the_latch():
    events, games = [], []
    for year in range(2011, 2015):
        for month in (2, 8):
            ev, gs = filler(f"F{year}{month}", date(year, month, 1))
            events.append(ev)
            games += gs
    h = rate(CGA, [player("A", 2050), *BYSTANDERS], events, games)
    statuses = {lst.date: lst.by_player()["A"] for lst in h.lists}
    assert statuses[date(2011, 7, 1)].status == "active"
    assert statuses[date(2012, 1, 1)].status == "inactive"
    assert statuses[date(2013, 7, 1)].status == "inactive"
    removed = statuses[date(2014, 1, 1)]
    assert (removed.status, removed.rating, removed.games) == ("removed", None, 0)
    assert statuses[date(2015, 1, 1)].status == "removed"
    assert h.final_states["A"].latched


def test_cga_2_6_a_removed_player_is_rated_again_as_a_newcomer():
    seven = {**OPPS, "O5": 1875, "O6": 1875, "O7": 1875}
    rules = replace(CGA, activity_min_games=1, reactivation_min_games=1)  # keep the opponents active
    events, games = [], []
    for year in range(2011, 2014):
        for month in (2, 8):
            eid = f"F{year}{month}"
            events.append(event(eid, date(year, month, 1)))
            games += [game(eid, i + 1, o, "F1", "0.5-0.5") for i, o in enumerate([*seven, "F2"])]
    ev, gs = newcomer_swiss("N", date(2014, 3, 1), "A", 4, seven)
    h = rate(rules, [player("A", 2050), *rated_opponents(seven), *BYSTANDERS], [*events, ev], games + gs)
    assert h.lists[-2].by_player()["A"].status == "removed"
    c = change(h, "A", "N")
    assert c.method == "newcomer" and c.games == 7 and c.ru == c.Rc + Decimal("12.5")  # 4 of 7
    assert (entry(h, "A").status, entry(h, "A").rating, entry(h, "A").games) == ("active", round_half_up(c.ru), 7)


def test_cga_5_7_all_games_between_rated_players_count():
    ev = event("E", date(2011, 2, 1), fmt="round_robin")
    games = round_robin("E", [("A", "B", "1-0"), ("A", "C", "0-1"), ("B", "C", "0.5-0.5")])
    h = rate(CGA, [player("A", 1900), player("B", 1800), player("C", 2100)], [ev], games)
    assert [change(h, p, "E").games for p in "ABC"] == [2, 2, 2]


def test_cga_5_11_unplayed_games_never_count_even_for_newcomers():
    ev, games = newcomer_swiss("E", date(2011, 2, 1), "U", 2)
    games[0] = game("E", 1, "U", "O1", "+-")
    h = rate(CGA, [player("U"), *rated_opponents()], [ev], games)
    c = change(h, "U", "E")
    assert c.N == 3 and "forfeit_not_rated" in c.notes


def test_cga_5_12_zero_score_ignored():
    rated = {"A": 2000, "B": 2000, "C": 2000}
    ev = event("E", date(2011, 2, 1), fmt="round_robin")
    games = round_robin("E", [("A", "B", "0.5-0.5"), ("A", "C", "0.5-0.5"), ("B", "C", "0.5-0.5"),
                              ("U", "A", "0-1"), ("U", "B", "0-1"), ("U", "C", "0-1")])
    h = rate(CGA, [player("U"), *rated_opponents(rated)], [ev], games)
    u = change(h, "U", "E")
    assert u.games == 0 and "zero_score_ignored" in u.notes
    a = change(h, "A", "E")
    assert a.games == 2 and "zero_score_opponent_ignored" in a.notes
    assert all(ln.opponent_id != "U" for ln in a.lines)


def _two_zero_newcomers():
    rated = {"A": 2000, "B": 2000, "C": 2000}
    ev = event("E", date(2011, 2, 1), fmt="round_robin")
    games = round_robin("E", [("A", "B", "0.5-0.5"), ("A", "C", "0.5-0.5"), ("B", "C", "0.5-0.5"),
                              ("U", "A", "0-1"), ("U", "B", "0-1"), ("U", "C", "0-1"), ("V", "U", "1-0"),
                              ("V", "A", "0-1"), ("V", "B", "0-1"), ("V", "C", "0-1")])
    return [player("U"), player("V"), *rated_opponents(rated)], [ev], games


def test_cga_5_12_zero_score_rule_applied_repeatedly():
    h = rate(CGA, *_two_zero_newcomers())
    # U scored 0; without U's games V is on 0 too, so V is left out as well.
    assert "zero_score_ignored" in change(h, "U", "E").notes
    assert "zero_score_ignored" in change(h, "V", "E").notes
    assert change(h, "A", "E").games == 2


def test_cga_5_12_zero_score_rule_once_as_a_setting():
    h = rate(replace(CGA, zero_score_rule="once"), *_two_zero_newcomers())
    # Only U is left out; V's event does not count for him (score 0) and, having no Ru, he cannot enter
    # his opponents' calculations either.
    v = change(h, "V", "E")
    assert v.N == 3 and v.games == 0 and v.ru is None
    assert "unrated_opponents_not_rated" in change(h, "A", "E").notes


def test_cga_6_1_swiss_rc_is_the_mean_of_the_rated_opponents_only():
    ev = event("E", date(2011, 2, 1))
    games = [game("E", 1, "X", "O1", "1-0"), game("E", 2, "X", "O2", "0-1"), game("E", 3, "X", "U", "0.5-0.5"),
             game("E", 4, "X", "O3", "0.5-0.5")]
    h = rate(CGA, [player("X", 1900, games=40), player("U"), *rated_opponents()], [ev], games)
    x = change(h, "X", "E")
    assert x.N == 3 and x.Rc == Decimal("1916.666667")
    assert x.D == 1900 - 1917 and x.Pd == Decimal("0.48") and x.We == Decimal("1.44")
    assert "unrated_opponents_not_rated" in x.notes


def test_cga_6_2_k_25_for_the_first_30_games_then_15():
    ev = event("E", date(2011, 2, 1))
    games = [game("E", 1, "A", "B", "1-0")]
    h = rate(CGA, [player("A", 1800, games=29), player("B", 1800, games=30)], [ev], games)
    assert change(h, "A", "E").K == 25 and change(h, "B", "E").K == 15


def test_cga_6_2_k_10_for_good_once_a_published_rating_reached_2000():
    e1 = event("E1", date(2011, 2, 1))
    g1 = [game("E1", 1, "A", "B", "1-0")]  # 1995 + 15 × 0.5 = 2002.5 → 2003 published
    e2 = event("E2", date(2011, 8, 1))
    g2 = [game("E2", i, "A", "B", "0-1") for i in range(1, 4)]  # back below 2000
    e3 = event("E3", date(2012, 2, 1))
    g3 = [game("E3", 1, "A", "B", "0-1")]
    h = rate(CGA, [player("A", 1995), player("B", 1995)], [e1, e2, e3], g1 + g2 + g3)
    assert change(h, "A", "E1").K == 15 and h.lists[0].by_player()["A"].rating == 2003
    assert change(h, "A", "E2").K == 10
    assert h.lists[1].by_player()["A"].rating < 2000
    assert change(h, "A", "E3").K == 10


def test_cga_6_2_k_fixed_at_event_start_from_games_of_earlier_events_of_the_period():
    e1 = event("E1", date(2011, 2, 1))
    e2 = event("E2", date(2011, 3, 1))
    e3 = event("E3", date(2011, 2, 2), days=30)  # starts before E1 ends
    g1 = [game("E1", i, "A", "B", "0.5-0.5") for i in (1, 2)]
    g2 = [game("E2", 1, "A", "B", "0.5-0.5")]
    g3 = [game("E3", 1, "A", "B", "0.5-0.5")]
    h = rate(CGA, [player("A", 1800, games=28), player("B", 1800, games=100)], [e1, e2, e3], g1 + g2 + g3)
    assert [change(h, "A", e).K for e in ("E1", "E2", "E3")] == [25, 15, 25]
    assert entry(h, "A").games == 32


def test_cga_6_2_round_robin_per_game_by_default_averaging_as_a_setting():
    ev = event("E", date(2011, 2, 1), fmt="round_robin")
    games = round_robin("E", [("X", "O1", "1-0"), ("X", "O2", "1-0"), ("X", "O3", "0-1"), ("O1", "O2", "1-0"),
                              ("O1", "O3", "1-0"), ("O2", "O3", "1-0")])
    players = [player("X", 1900, games=40), *rated_opponents({"O1": 1850, "O2": 2010, "O3": 1700})]
    x = change(rate(CGA, players, [ev], games), "X", "E")
    assert x.method == "per_game" and x.We == Decimal("1.68") and x.delta == Decimal("4.80")
    x = change(rate(replace(CGA, we_round_robin="averaging"), players, [ev], games), "X", "E")
    assert x.method == "averaging" and x.We == Decimal("1.71") and x.delta == Decimal("4.35")


def _fide_field(rules):
    players = [player(p, r) for p, r in FIDE_RATED.items()] + [player(p) for p in FIDE_UNRATED]
    ev = event("RR", date(2011, 3, 1), days=9, fmt="round_robin")
    return rate(rules, players, [ev], round_robin("RR", FIDE_RR))


def test_cga_6_2_round_robin_unrated_opponent_enters_with_his_event_ru_rounded():
    a = change(_fide_field(CGA), "A", "RR")
    assert a.games == 9
    used = {ln.opponent_id: ln.opponent_rating for ln in a.lines}
    assert used["C"] == 2411 and used["E"] == 2386 and used["H"] == 2150 and used["I"] == 2033
    a = change(_fide_field(replace(CGA, rr_unrated_opponent="ra")), "A", "RR")
    assert {ln.opponent_rating for ln in a.lines if ln.opponent_id in FIDE_UNRATED} == {2348}
    a = change(_fide_field(replace(CGA, rr_unrated_opponent="provisional")), "A", "RR")
    assert {ln.opponent_rating for ln in a.lines if ln.opponent_id in FIDE_UNRATED} == {1800}
    a = change(_fide_field(replace(CGA, rr_unrated_opponent="not_rated")), "A", "RR")
    assert a.games == 5 and "unrated_opponents_not_rated" in a.notes


def test_cga_6_2_cap_clamps_d_per_game_and_opponents_in_averages():
    players = [player("A", 2400, games=40), player("B", 1900), player("C", 1900)]
    ev = event("E", date(2011, 2, 1), fmt="round_robin")
    games = round_robin("E", [("A", "B", "1-0"), ("A", "C", "1-0"), ("B", "C", "1-0")])
    a = change(rate(replace(CGA, cap=350), players, [ev], games), "A", "E")
    assert [ln.D for ln in a.lines] == [350, 350] and "rating_difference_capped" in a.notes
    assert a.We == Decimal("1.78")  # PD(350) = .89
    a = change(rate(replace(CGA, cap=400, we_round_robin="averaging"), players, [ev], games), "A", "E")
    assert a.Rc == Decimal(2000) and a.D == 400 and a.Pd == Decimal("0.92")
    a = change(rate(CGA, players, [ev], games), "A", "E")
    assert [ln.D for ln in a.lines] == [500, 500]


def test_cga_6_4_champion_never_loses():
    players = [player("A", 2300), *rated_opponents({"B": 1800, "C": 1800, "D": 1800})]
    ev = event("E", date(2011, 2, 1))
    games = [game("E", 1, "A", "B", "1-0"), game("E", 2, "A", "C", "1-0"), game("E", 3, "A", "D", "0.5-0.5")]
    a = change(rate(CGA, players, [ev], games), "A", "E")
    assert a.raw_delta == Decimal("-3.80") and a.delta == 0 and "champion_protected" in a.notes
    assert entry(rate(CGA, players, [ev], games), "A").rating == 2300


def test_cga_6_4_champion_rule_is_per_event_not_per_period():
    players = [player("A", 2300), *rated_opponents({"B": 1800, "C": 1800, "D": 1800})]
    e1 = event("E1", date(2011, 2, 1))
    e2 = event("E2", date(2011, 3, 1))
    games = [game("E1", 1, "A", "B", "1-0"), game("E1", 2, "A", "C", "0.5-0.5"),
             game("E2", 1, "A", "B", "1-0"), game("E2", 2, "C", "A", "1-0")]
    h = rate(CGA, players, [e1, e2], games, [standing("E2", "C", 1)])
    assert change(h, "A", "E1").delta == 0
    assert change(h, "A", "E2").delta == Decimal("-9.20")
    assert entry(h, "A").exact == Decimal("2290.80")


def board_game(eid: str, rnd: int, a: str, b: str, result: str, board: int):
    return replace(game(eid, rnd, a, b, result), board=board)


def national_team_event(national: bool = True):
    """Two boards: A1 draws B1 on board 1 (A1 and B1 share the best rate, ½); on board 2 A2 beats B2 and B2
    beats C2 (A2 best, 1/1). A1's draw with a 500 points weaker player costs him; so does C2's loss."""
    players = [player("A1", 2300), player("B1", 1800), player("A2", 2300), player("B2", 1800), player("C2", 2300)]
    ev = event("T", date(2011, 2, 1), fmt="team", national=national)
    games = [board_game("T", 1, "A1", "B1", "0.5-0.5", 1), board_game("T", 1, "A2", "B2", "1-0", 2),
             board_game("T", 2, "B2", "C2", "1-0", 2)]
    return players, ev, games


def test_cga_6_4_national_team_championship_best_score_rate_on_each_board_does_not_lose_points():
    """Art. 6(四): 在全国团体赛中，各台次得分率最高者也同样对待 (as the champion: a negative ΣΔR counts as 0)."""
    players, ev, games = national_team_event()
    h = rate(CGA, players, [ev], games)
    a1, c2 = change(h, "A1", "T"), change(h, "C2", "T")
    assert a1.raw_delta < 0 and a1.delta == 0 and "best_on_board_protected" in a1.notes  # best on board 1 (tied)
    assert c2.raw_delta < 0 and c2.delta == c2.raw_delta and not c2.notes  # 0/1 on board 2: not protected
    assert entry(h, "A1").rating == 2300


def test_cga_6_4_board_rule_ties_are_all_protected():
    players, ev, games = national_team_event()
    h = rate(CGA, players, [ev], games)
    assert "best_on_board_protected" in change(h, "A1", "T").notes
    assert change(h, "B1", "T").delta > 0  # B1 shares the best rate on board 1 but gains: nothing to protect


def test_cga_6_4_board_rule_only_in_national_team_events_whose_games_carry_boards():
    players, ev, games = national_team_event(national=False)
    assert change(rate(CGA, players, [ev], games), "A1", "T").delta < 0  # not national
    players, ev, games = national_team_event()
    no_boards = [replace(g, board=None) for g in games]
    assert change(rate(CGA, players, [ev], no_boards), "A1", "T").delta < 0  # no boards: the champion rule's
    assert change(rate(CGA, players, [replace(ev, format="swiss")], games), "A1", "T").delta < 0  # not team


def test_cga_6_4_board_rule_takes_the_place_of_the_champion_rule():
    from qiyuan.rating.rules import with_settings

    team_champions = with_settings(CGA, {"champion_formats": ["swiss", "round_robin", "match", "knockout", "team"]})
    players, ev, games = national_team_event()
    ranked_first = [standing("T", "C2", 1)]  # C2 ranked 1, but not best on his board
    c2 = change(rate(team_champions, players, [ev], games, ranked_first), "C2", "T")
    assert c2.delta < 0 and "champion_protected" not in c2.notes
    plain = replace(ev, national=False)  # outside the national championship the champion rule acts
    assert change(rate(team_champions, players, [plain], games, ranked_first), "C2", "T").delta == 0


def test_cga_6_4_board_rule_is_a_setting():
    from qiyuan.rating.rules import with_settings

    players, ev, games = national_team_event()
    off = with_settings(CGA, {"board_rule": False})
    assert change(rate(off, players, [ev], games), "A1", "T").delta < 0


def test_cga_6_5_swiss_team_and_match_count_only_games_against_rated_opponents():
    for fmt in ("swiss", "team", "match", "knockout"):
        ev = event("E", date(2011, 2, 1), fmt=fmt)
        games = [game("E", 1, "X", "U", "1-0"), game("E", 2, "X", "O1", "1-0")]
        x = change(rate(CGA, [player("X", 1900), player("U"), *rated_opponents()], [ev], games), "X", "E")
        assert x.method == "averaging" and x.games == 1, fmt


def test_cga_7_1_ru_equals_rc_at_50_percent():
    assert performance_rating(Fraction(1875), Decimal(2), 4, round_robin=False, n_opponents=4) == 1875


def test_cga_7_2_plus_12_5_per_half_point_above_50_percent():
    assert performance_rating(Fraction(1875), Decimal("3.5"), 4, round_robin=True, n_opponents=4) == 1875 + 12.5 * 3


def test_cga_7_3_below_50_percent_in_swiss_rc_plus_dp():
    assert performance_rating(Fraction(1875), Decimal(1), 4, round_robin=False, n_opponents=4) == 1875 - 193


def test_cga_7_4_below_50_percent_in_round_robin_dp_times_n_over_n_plus_1():
    ru = performance_rating(Fraction(1875), Decimal(1), 4, round_robin=True, n_opponents=4)
    assert ru == Fraction(1875) - Fraction(193 * 4, 5)


def test_cga_7_5_first_rating_is_the_game_weighted_mean_of_ru():
    # The Xiangqi text's example: (2280×5 + 2400×10 + 2000×5) / 20 = 2270.
    assert first_rating([(Fraction(2280), 5), (Fraction(2400), 10), (Fraction(2000), 5)]) == 2270


def test_cga_8_1_entry_rating_1800_is_not_his_ro():
    ev, games = newcomer_swiss("E", date(2011, 2, 1), "U", 2)
    c = change(rate(CGA, [player("U"), *rated_opponents()], [ev], games), "U", "E")
    assert c.ru == 1875 and c.K is None and c.We is None


def test_cga_8_3_a_zero_score_event_does_not_block_a_later_first_rating():
    seven = {**OPPS, "O5": 1875, "O6": 1875, "O7": 1875}
    e1, g1 = newcomer_swiss("E1", date(2011, 2, 1), "U", 0)
    e2, g2 = newcomer_swiss("E2", date(2011, 3, 1), "U", 4, seven)
    h = rate(CGA, [player("U"), *rated_opponents(seven)], [e1, e2], g1 + g2)
    assert "zero_score_ignored" in change(h, "U", "E1").notes
    assert entry(h, "U").rating == 1875 + 13 and entry(h, "U").games == 7  # Rc 1875 + 12.5 × 1
