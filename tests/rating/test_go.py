"""Chinese Go rating 1995 (中国围棋等级分), clause by clause."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from rating_builders import GO, change, entry, event, game, player, rate, round_robin, standing


def test_go_k_10_for_everyone():
    players = [player("A", 2240, games=0), player("B", 2600, games=500)]
    ev = event("E", date(1995, 2, 1))
    h = rate(GO, players, [ev], [game("E", 1, "A", "B", "1-0")])
    assert change(h, "A", "E").K == change(h, "B", "E").K == 10


def test_go_lists_on_1_january_and_1_july():
    players = [player("A", 2400), player("B", 2400)]
    evs = [event("E1", date(1995, 2, 1)), event("E2", date(1995, 9, 1))]
    h = rate(GO, players, evs, [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "1-0")])
    assert [lst.date for lst in h.lists] == [date(1995, 7, 1), date(1996, 1, 1)]


def test_go_swiss_we_is_n_times_pd_of_the_mean_of_his_opponents():
    players = [player("A", 2400), player("B", 2480), player("C", 2320)]
    ev = event("E", date(1995, 2, 1))
    games = [game("E", 1, "A", "B", "1-0"), game("E", 2, "A", "C", "0-1"), game("E", 3, "A", "B", "1-0")]
    a = change(rate(GO, players, [ev], games), "A", "E")
    # Rc = (2480 + 2320 + 2480) / 3 = 2426.67 → 2427; D = −27 → .46; We = 3 × .46
    assert a.method == "averaging" and a.D == -27 and a.Pd == Decimal("0.46") and a.We == Decimal("1.38")
    assert a.delta == Decimal("6.20")


def test_go_team_and_match_use_the_swiss_formula():
    players = [player("A", 2400), player("B", 2480)]
    for fmt in ("team", "match"):
        ev = event("E", date(1995, 2, 1), fmt=fmt)
        a = change(rate(GO, players, [ev], [game("E", 1, "A", "B", "1-0")]), "A", "E")
        assert a.method == "averaging", fmt


def test_go_round_robin_we_is_m_times_pa_minus_half():
    ids = "PQRS"
    players = [player(p, r) for p, r in zip(ids, (2560, 2480, 2400, 2320))]
    ev = event("G", date(1995, 3, 1), fmt="round_robin")
    games = round_robin("G", [(a, b, "0.5-0.5") for i, a in enumerate(ids) for b in ids[i + 1:]])
    p = change(rate(GO, players, [ev], games), "P", "G")
    assert p.We == 4 * Decimal("0.66") - Decimal("0.5") and p.raw_delta == 10 * (Decimal("1.5") - Decimal("2.14"))


def test_go_round_robin_with_a_forfeit_counts_only_the_opponents_he_played():
    ids = "PQRS"
    players = [player(p, r) for p, r in zip(ids, (2560, 2480, 2400, 2320))]
    ev = event("G", date(1995, 3, 1), fmt="round_robin")
    results = [(a, b, "0.5-0.5") for i, a in enumerate(ids) for b in ids[i + 1:]]
    results[2] = ("P", "S", "+-")
    p = change(rate(GO, players, [ev], round_robin("G", results)), "P", "G")
    # M = 3 (P, Q, R): mean 2480, D = 80 → .61; We = 3 × .61 − ½
    assert p.N == 2 and p.Rc == 2480 and p.Pd == Decimal("0.61") and p.We == Decimal("1.33")


def test_go_double_round_robin_counts_every_cycle():
    players = [player("P", 2560), player("Q", 2480), player("R", 2400)]
    ev = event("G", date(1995, 3, 1), fmt="round_robin")
    pairs = [("P", "Q"), ("P", "R"), ("Q", "R")]
    games = round_robin("G", [(a, b, "0.5-0.5") for a, b in pairs * 2])
    p = change(rate(GO, players, [ev], games), "P", "G")
    # M = 3, mean 2480, Pa = .61: two cycles of 3 × .61 − ½
    assert p.N == 4 and p.We == 2 * (3 * Decimal("0.61") - Decimal("0.5"))


def test_go_knockout_is_rated_game_by_game():
    players = [player("A", 2400), player("B", 2480), player("C", 2320)]
    ev = event("K", date(1995, 2, 1), fmt="knockout")
    games = [game("K", 1, "A", "C", "1-0"), game("K", 2, "A", "B", "0-1")]
    a = change(rate(GO, players, [ev], games), "A", "K")
    assert a.method == "per_game" and [ln.We for ln in a.lines] == [Decimal("0.61"), Decimal("0.39")]


def test_go_newcomers_start_from_their_dan_rating():
    players = [player("N", dan="3d"), player("A", 2320)]
    ev = event("E", date(1995, 2, 1))
    h = rate(GO, players, [ev], [game("E", 1, "N", "A", "0.5-0.5")])
    assert change(h, "N", "E").Ro == 2320 and entry(h, "N").rating == 2320 and entry(h, "N").status == "active"


def test_go_foreign_reference_rating_is_entered_as_a_rating_and_updated():
    players = [player("J", reference_rating=Decimal(2600)), player("A", 2600)]
    ev = event("E", date(1995, 2, 1), international=True)
    h = rate(GO, players, [ev], [game("E", 1, "A", "J", "1-0")])
    assert change(h, "J", "E").Ro == 2600 and entry(h, "J").rating == 2595


def test_go_player_without_rating_or_dan_is_unrated_and_games_against_him_not_rated():
    players = [player("X"), player("A", 2400)]
    ev = event("E", date(1995, 2, 1))
    h = rate(GO, players, [ev], [game("E", 1, "A", "X", "1-0")])
    assert change(h, "A", "E").games == 0 and "unrated_opponents_not_rated" in change(h, "A", "E").notes
    x = change(h, "X", "E")
    assert x.method == "not_rated" and "unrated_player_not_rated" in x.notes
    assert entry(h, "X").status == "unrated"


def test_go_champion_negative_change_becomes_zero():
    players = [player("A", 2600), player("B", 2300), player("C", 2300)]
    ev = event("E", date(1995, 2, 1), fmt="round_robin")
    games = round_robin("E", [("A", "B", "1-0"), ("A", "C", "0.5-0.5"), ("B", "C", "0.5-0.5")])
    h = rate(GO, players, [ev], games, [standing("E", "A", 1)])
    a = change(h, "A", "E")
    assert a.raw_delta < 0 and a.delta == 0 and "champion_protected" in a.notes


def test_go_international_event_50_percent_loses_nothing():
    players = [player("A", 2600), player("B", 2300), player("C", 2300), player("D", 2700)]
    games = [game("E", 1, "A", "B", "0.5-0.5"), game("E", 2, "A", "C", "1-0"), game("E", 3, "D", "A", "1-0"),
             game("E", 4, "D", "B", "1-0")]
    international = event("E", date(1995, 2, 1), international=True)
    a = change(rate(GO, players, [international], games), "A", "E")
    assert a.W == Decimal("1.5") and a.games == 3  # exactly 50 %
    assert a.raw_delta < 0 and a.delta == 0 and "international_50pct_protected" in a.notes
    domestic = event("E", date(1995, 2, 1))
    assert change(rate(GO, players, [domestic], games), "A", "E").delta < 0


def test_go_international_below_50_percent_loses_points():
    players = [player("A", 2600), player("B", 2300), player("D", 2700)]
    games = [game("E", 1, "A", "B", "0.5-0.5"), game("E", 2, "D", "A", "1-0"), game("E", 3, "D", "B", "1-0")]
    ev = event("E", date(1995, 2, 1), international=True)
    a = change(rate(GO, players, [ev], games), "A", "E")
    assert a.delta < 0 and not a.notes


def test_go_every_rated_player_is_active():
    players = [player("A", 2400), player("B", 2400), player("Q", 2400)]
    evs = [event(f"E{y}", date(y, 2, 1)) for y in range(1995, 2000)]
    games = [game(e.id, 1, "A", "B", "0.5-0.5") for e in evs]
    h = rate(GO, players, evs, games)
    assert all(lst.by_player()["Q"].status == "active" for lst in h.lists)


def test_go_1_initial_ratings_by_dan_only_not_kyu():
    players = [player("D", dan="9d"), player("K", dan="1k"), player("A", 2400)]
    ev = event("E", date(1995, 2, 1))
    h = rate(GO, players, [ev], [game("E", 1, "D", "A", "0.5-0.5"), game("E", 2, "K", "A", "0.5-0.5")])
    assert change(h, "D", "E").Ro == 2560
    assert change(h, "K", "E").method == "not_rated" and entry(h, "K").status == "unrated"


def test_go_national_team_championship_best_score_rate_on_each_board_does_not_lose_points():
    """在全国团体赛中，各臺次得分率最高者，同样不降分."""
    from test_cga import national_team_event

    players, ev, games = national_team_event()
    a1 = change(rate(GO, players, [ev], games), "A1", "T")
    assert a1.raw_delta < 0 and a1.delta == 0 and "best_on_board_protected" in a1.notes
