"""Beijing–Shanghai Gomoku 2007 (京沪五子棋棋手等级分制实施细则), clause by clause."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from qiyuan.rating.model import Event, EventFormat
from rating_builders import BJSH, change, entry, event, game, player, rate, round_robin

BYSTANDERS = [player("F1", 2300), player("F2", 2300)]


def filler(eid: str, start: date):
    return event(eid, start), [game(eid, 1, "F1", "F2", "0.5-0.5")]


def fillers(years, months=(2, 5, 8, 11)):
    events, games = [], []
    for year in years:
        for month in months:
            ev, gs = filler(f"F{year}{month:02d}", date(year, month, 1))
            events.append(ev)
            games += gs
    return events, games


def test_bjsh_5_lists_published_quarterly():
    events, games = fillers([2008])
    h = rate(BJSH, BYSTANDERS, events, games)
    assert [lst.date for lst in h.lists] == [date(2008, 4, 1), date(2008, 7, 1), date(2008, 10, 1), date(2009, 1, 1)]


def test_bjsh_5_inactive_under_4_games_in_two_years_active_again_with_4_in_a_year_never_removed():
    events, games = fillers(range(2008, 2013))
    comeback = event("C", date(2010, 2, 10))
    games += [game("C", i, "A", "F1", "0.5-0.5") for i in range(1, 5)]
    h = rate(BJSH, [player("A", 2300), *BYSTANDERS], [*events, comeback], games)
    status = {lst.date: lst.by_player()["A"].status for lst in h.lists}
    assert status[date(2009, 10, 1)] == "active"  # not yet judged: the history started 2008-01-01
    assert status[date(2010, 1, 1)] == "inactive"
    assert status[date(2010, 4, 1)] == "active"
    assert status[date(2012, 1, 1)] == "active"  # 4 games in [2010-01-01, 2012-01-01)
    assert status[date(2012, 4, 1)] == "inactive"
    assert status[date(2013, 1, 1)] == "inactive"  # never removed
    assert entry(h, "A").rating is not None


def test_bjsh_11_k_25_15_and_10_latched_at_2400():
    e1 = event("E1", date(2008, 2, 1))
    e2 = event("E2", date(2008, 5, 1))
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "0-1"), game("E2", 2, "A", "C", "0-1")]
    players = [player("A", 2395, games=30), player("B", 2395, games=10), player("C", 2000, games=30)]
    h = rate(BJSH, players, [e1, e2], games)
    assert change(h, "A", "E1").K == 15 and change(h, "B", "E1").K == 25
    assert h.lists[0].by_player()["A"].rating == 2403
    assert change(h, "A", "E2").K == 10
    assert h.lists[1].by_player()["A"].rating < 2400 and h.final_states["A"].latched


def _champion_with_a_loss(days: int):
    players = [player("A", 2500), player("B", 2200), player("C", 2200)]
    ev = event("E", date(2008, 2, 1), days=days)
    games = [game("E", 1, "A", "B", "1-0"), game("E", 2, "A", "C", "0.5-0.5")]
    return change(rate(BJSH, players, [ev], games), "A", "E")


def test_bjsh_11_champion_does_not_lose_points():
    a = _champion_with_a_loss(days=20)
    assert a.raw_delta < 0 and a.delta == 0 and "champion_protected" in a.notes


def test_bjsh_11_champion_rule_not_for_events_over_20_days():
    a = _champion_with_a_loss(days=21)
    assert a.delta == a.raw_delta < 0 and "champion_rule_not_for_long_event" in a.notes


def test_bjsh_11_event_length_from_days_when_given():
    players = [player("A", 2500), player("B", 2200)]
    ev = Event("E", "E", date(2008, 1, 1), date(2008, 3, 1), EventFormat.SWISS, days=5)  # 5 playing days
    games = [game("E", 1, "A", "B", "0.5-0.5")]
    assert "champion_protected" in change(rate(BJSH, players, [ev], games), "A", "E").notes


def test_bjsh_12_provisional_rating_2200_men_2040_women():
    players = [player("M"), player("W", gender="F"), player("R", 2200)]
    ev = event("E", date(2008, 2, 1))
    games = [game("E", 1, "M", "R", "0.5-0.5"), game("E", 2, "W", "R", "0.5-0.5")]
    h = rate(BJSH, players, [ev], games)
    m, w = change(h, "M", "E"), change(h, "W", "E")
    assert m.method == w.method == "provisional"
    assert m.Ro == 2200 and w.Ro == 2040 and m.K == w.K == 25
    assert m.delta == 0 and w.delta == Decimal(25) * (Decimal("0.5") - Decimal("0.29"))  # D = −160


def test_bjsh_12_rated_players_count_only_games_against_rated_opponents():
    players = [player("A", 2300), player("B", 2300), player("U")]
    ev = event("E", date(2008, 2, 1), fmt="round_robin")
    games = round_robin("E", [("A", "B", "1-0"), ("A", "U", "1-0"), ("B", "U", "0-1")])
    h = rate(BJSH, players, [ev], games)
    assert change(h, "A", "E").games == 1 and "unrated_opponents_not_rated" in change(h, "A", "E").notes


def test_bjsh_12_published_after_9_games_against_rated_players():
    rated = [player(f"R{i}", 2200) for i in range(9)]
    e1 = event("E1", date(2008, 2, 1))
    e2 = event("E2", date(2008, 5, 1))
    g1 = [game("E1", i + 1, "U", f"R{i}", "1-0") for i in range(5)] + [game("E1", 6, "U", "V", "1-0")]
    g2 = [game("E2", i + 1, "U", f"R{i}", "0.5-0.5") for i in range(5, 9)]
    h = rate(BJSH, [player("U"), player("V"), *rated], [e1, e2], g1 + g2)
    first = h.lists[0].by_player()["U"]
    assert (first.status, first.rating) == ("unrated", None)
    assert change(h, "U", "E1").games == 5  # the game against unrated V does not count
    u = entry(h, "U")
    assert u.status == "active" and u.games == 9
    assert u.exact == 2200 + 5 * Decimal("12.5")  # 5 wins at K 25 against equals; draws change nothing


def test_bjsh_12_games_may_accumulate_over_two_consecutive_years_only():
    rated = [player(f"R{i}", 2200) for i in range(9)]
    e1 = event("E1", date(2008, 11, 1))
    e2 = event("E2", date(2010, 2, 1))
    g1 = [game("E1", i + 1, "U", f"R{i}", "0.5-0.5") for i in range(5)]
    g2 = [game("E2", i + 1, "U", f"R{i}", "0.5-0.5") for i in range(5, 9)]
    h = rate(BJSH, [player("U"), *rated], [e1, e2], g1 + g2)
    assert entry(h, "U").status == "unrated"
    e2 = event("E2", date(2009, 11, 1))
    h = rate(BJSH, [player("U"), *rated], [e1, e2], g1 + g2)
    assert entry(h, "U").status == "active" and entry(h, "U").rating == 2200


def test_bjsh_12_zero_score_ignored():
    rated = [player(f"R{i}", 2200) for i in range(3)]
    ev = event("E", date(2008, 2, 1))
    games = [game("E", i + 1, "U", f"R{i}", "0-1") for i in range(3)]
    h = rate(BJSH, [player("U"), *rated], [ev], games)
    u = change(h, "U", "E")
    assert u.games == 0 and u.delta == 0 and "zero_score_ignored" in u.notes
    assert h.final_states["U"].newcomer == ()


def test_bjsh_12_champion_rule_protects_a_newcomers_provisional_change():
    players = [player("U"), player("A", 1900), player("B", 1900)]
    ev = event("E", date(2008, 2, 1))
    games = [game("E", 1, "U", "A", "1-0"), game("E", 2, "U", "B", "0.5-0.5")]
    u = change(rate(BJSH, players, [ev], games), "U", "E")
    assert u.raw_delta < 0 and u.delta == 0 and "champion_protected" in u.notes


def test_bjsh_13_players_registered_by_2007_12_31_start_from_their_dan_rating():
    early = player("E", dan="4d", registered_on=date(2007, 6, 1))
    late = player("L", dan="4d", registered_on=date(2008, 1, 5))
    ev = event("X", date(2008, 2, 1))
    h = rate(BJSH, [early, late, player("R", 2400)], [ev], [game("X", 1, "E", "R", "0.5-0.5"),
                                                          game("X", 2, "L", "R", "0.5-0.5")])
    assert h.lists[0].by_player()["E"].status == "active" and change(h, "E", "X").Ro == 2360
    assert change(h, "E", "X").method == "per_game" and change(h, "E", "X").K == 25
    assert change(h, "L", "X").method == "provisional" and entry(h, "L").status == "unrated"


def test_bjsh_14_reference_rating_is_the_higher_of_rif_and_dan():
    foreign = player("F", dan="3d", reference_rating=Decimal(2300))
    rif_only = player("G", reference_rating=Decimal(2450))
    ev = event("X", date(2008, 2, 1))
    h = rate(BJSH, [foreign, rif_only], [ev], [game("X", 1, "F", "G", "0.5-0.5")])
    assert change(h, "F", "X").Ro == 2320 and change(h, "G", "X").Ro == 2450


def test_bjsh_12_a_newcomer_without_gender_is_an_input_error():
    import pytest

    ev = event("E", date(2008, 2, 1))
    with pytest.raises(ValueError, match="player U: a newcomer's provisional rating needs his gender"):
        rate(BJSH, [player("U", gender=None), player("R", 2200)], [ev], [game("E", 1, "U", "R", "1-0")])


def test_bjsh_13_5_a_later_registrant_with_a_china_qiyuan_dan_starts_from_the_table():
    """§13(五): registered after 2007-12-31 but holding a 段 granted by 中国棋院: the dan table still applies.
    A 3d (2320) registered 2008-01-01 beats a 2250 player in March 2011: D +70, We 0.60, K 25, ΔR +10 → 2330."""
    qiyuan_3d = player("Q", dan="3d", registered_on=date(2008, 1, 1), dan_granted_by="中国棋院")
    h = rate(BJSH, [qiyuan_3d, player("O", 2250)], [event("M", date(2011, 3, 10))], [game("M", 1, "Q", "O", "1-0")])
    q = change(h, "Q", "M")
    assert (q.method, q.Ro, q.K, q.We, q.delta) == ("per_game", Decimal(2320), 25, Decimal("0.60"), Decimal("10.00"))
    assert h.lists[0].date == date(2011, 4, 1)
    assert (entry(h, "Q", 0).rating, entry(h, "Q", 0).status) == (2330, "active")


def test_bjsh_13_5_only_a_dan_granted_by_the_china_qiyuan_not_a_kyu_nor_another_body():
    later = date(2008, 1, 1)
    players = [player("K", dan="2k", registered_on=later, dan_granted_by="中国棋院"),
               player("R", dan="3d", registered_on=later, dan_granted_by="RIF"),
               player("N", dan="3d", registered_on=later), player("O", 2250)]
    games = [game("M", i, p, "O", "1-0") for i, p in enumerate(("K", "R", "N"), start=1)]
    h = rate(BJSH, players, [event("M", date(2011, 3, 10))], games)
    assert {p: change(h, p, "M").method for p in "KRN"} == dict.fromkeys("KRN", "provisional")  # §12


def test_bjsh_13_5_the_granting_bodies_are_a_setting():
    from qiyuan.rating.rules import with_settings

    rif_too = with_settings(BJSH, {"dan_start_granted_by": ["中国棋院", "RIF"]})
    players = [player("R", dan="3d", registered_on=date(2008, 1, 1), dan_granted_by="RIF"), player("O", 2250)]
    h = rate(rif_too, players, [event("M", date(2011, 3, 10))], [game("M", 1, "R", "O", "1-0")])
    assert change(h, "R", "M").Ro == 2320


def test_bjsh_13_1_equal_ratings_are_ordered_by_the_strokes_of_the_name():
    """§13(一)2: 同分段内的排序依姓名的笔划按升序排列 — in `qiyuan rate`'s lists as in the office's."""
    from dataclasses import replace

    names = {"P1": "王五", "P2": "丁一", "P3": "赵六", "P4": "李四"}  # strokes: 丁 2, 王 4, 李 7, 赵 9
    players = [replace(player(pid, 2300), name=name) for pid, name in names.items()]
    h = rate(BJSH, [*players, *BYSTANDERS], [filler("F", date(2008, 2, 1))[0]], filler("F", date(2008, 2, 1))[1])
    order = [e.player_id for e in h.lists[0].entries if e.player_id in names]
    assert [names[p] for p in order] == ["丁一", "王五", "李四", "赵六"]


def test_bjsh_13_1_3_first_rated_players_come_after_the_others_by_registration_date():
    from qiyuan.rating.order import list_order_key

    key = lambda pid, name, new, reg: list_order_key(BJSH, status="active", rating=2300, name=name,  # noqa: E731
                                                     player_id=pid, is_new=new, registered_on=reg)
    rows = [("A", "张三", True, date(2009, 5, 1)), ("B", "王五", False, None), ("C", "丁一", True, date(2009, 3, 1)),
            ("D", "李四", False, None)]
    assert [r[0] for r in sorted(rows, key=lambda r: key(*r))] == ["B", "D", "C", "A"]


def test_bjsh_5_the_inactive_list_is_ordered_by_pinyin():
    from qiyuan.rating.order import list_order_key

    rows = [("A", "张三", 2500), ("B", "李四", 2100), ("C", "王五", 2300)]  # pinyin: li < wang < zhang
    key = lambda r: list_order_key(BJSH, status="inactive", rating=r[2], name=r[1], player_id=r[0])  # noqa: E731
    assert [r[0] for r in sorted(rows, key=key)] == ["B", "C", "A"]


def test_bjsh_13_the_office_and_qiyuan_rate_use_one_list_order():
    from qiyuan.office.ordering import Orderable, order
    from qiyuan.rating.order import list_order_key

    rows = [Orderable("A", "张三", 2300, "active"), Orderable("B", "王五", 2300, "active", True, date(2009, 1, 1)),
            Orderable("C", "李四", 2100, "inactive"), Orderable("D", "丁一", None, "unrated"),
            Orderable("E", "赵六", None, "removed"), Orderable("F", "丁一", 2300, "active")]
    for rules in (BJSH,):
        mine = sorted(rows, key=lambda o: list_order_key(rules, status=o.status, rating=o.rating, name=o.name,
                                                            player_id=o.federation_id, is_new=o.is_new,
                                                            registered_on=o.registered_on))
        assert order(rules, rows) == mine
        assert [o.federation_id for o in mine] == ["F", "A", "B", "C", "E", "D"]


def test_bjsh_11_no_board_rule_in_team_events():
    """The Beijing–Shanghai text has no per-board clause: only the champion rule (not for team events)."""
    from test_cga import national_team_event

    players, ev, games = national_team_event()
    h = rate(BJSH, players, [ev], games)
    assert change(h, "A1", "T").delta < 0
