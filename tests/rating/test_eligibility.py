"""Eligibility of events per rule set: CGA Art. 4–5, Beijing–Shanghai §6–7 and §9, Go §4."""

from __future__ import annotations

from dataclasses import replace

import pytest

from qiyuan.rating.eligibility import (
    ArbiterFacts,
    EventFacts,
    OrganiserLevel,
    TimeControl,
    check_eligibility,
    eligibility_clauses,
    parse_time_control,
)
from qiyuan.rating.model import EventFormat
from qiyuan.rating.rules import BUILTIN_RULES, RulesError, rules_from_mapping, with_settings

TWO_RECOGNISED = (ArbiterFacts("张裁判", "national", True), ArbiterFacts("李裁判", "first", True))

GOOD_CGA = EventFacts(
    format=EventFormat.SWISS,
    players=24,
    rounds=7,
    rated_players=12,
    organiser_level=OrganiserLevel.STATE,
    national=True,
    arbiters=TWO_RECOGNISED,
    time_control=TimeControl(60),
    rated_men=8,
    rated_women=4,
    played_games=84,
)


def clauses(name, facts):
    return [f.clause for f in check_eligibility(BUILTIN_RULES[name], facts).failures]


def test_good_cga_event_is_eligible():
    assert check_eligibility(BUILTIN_RULES["cga-gomoku-2011"], GOOD_CGA).eligible


def test_cga_4_organiser_must_be_state_body():
    assert clauses("cga-gomoku-2011", replace(GOOD_CGA, organiser_level=OrganiserLevel.REGIONAL)) == ["CGA Art. 4"]


def test_cga_4_event_must_be_national_or_international():
    assert clauses("cga-gomoku-2011", replace(GOOD_CGA, national=False)) == ["CGA Art. 4"]
    assert clauses("cga-gomoku-2011", replace(GOOD_CGA, national=False, international=True)) == []


def test_cga_5_1_two_recognised_arbiters():
    one = (ArbiterFacts("张裁判", "national", True), ArbiterFacts("王裁判", "international", False))
    assert clauses("cga-gomoku-2011", replace(GOOD_CGA, arbiters=one)) == ["CGA Art. 5(一)"]
    assert clauses("cga-gomoku-2011", replace(GOOD_CGA, arbiters=())) == ["CGA Art. 5(一)"]


@pytest.mark.parametrize(
    ("players", "rounds", "ok"),
    [(20, 5, True), (20, 4, False), (21, 7, True), (21, 6, False), (8, 5, True)],
)
def test_cga_5_3_swiss_rounds_against_players(players, rounds, ok):
    facts = replace(GOOD_CGA, players=players, rounds=rounds, rated_players=players)
    assert ("CGA Art. 5(三)" not in clauses("cga-gomoku-2011", facts)) is ok


def test_cga_5_3_does_not_apply_to_round_robins():
    facts = replace(GOOD_CGA, format=EventFormat.ROUND_ROBIN, players=12, rounds=3, rated_players=12, national=False,
                    international=True)
    assert "CGA Art. 5(三)" not in clauses("cga-gomoku-2011", facts)


def test_cga_5_4_round_robin_one_third_rated():
    base = replace(GOOD_CGA, format=EventFormat.ROUND_ROBIN, players=12, rounds=11, rated_men=2)
    assert clauses("cga-gomoku-2011", replace(base, rated_players=4)) == []
    failed = clauses("cga-gomoku-2011", replace(base, rated_players=3))
    assert failed == ["CGA Art. 5(四)", "CGA Art. 5(六)"]


def test_cga_5_5_fewer_than_ten_players_need_four_rated():
    facts = replace(GOOD_CGA, players=8, rounds=5, rated_players=3)
    assert clauses("cga-gomoku-2011", facts) == ["CGA Art. 5(五)"]
    assert clauses("cga-gomoku-2011", replace(facts, rated_players=4)) == []


def test_cga_5_6_national_round_robin_with_three_rated_men_is_rated():
    facts = replace(GOOD_CGA, format=EventFormat.ROUND_ROBIN, players=12, rounds=11, rated_players=3, rated_men=3)
    assert clauses("cga-gomoku-2011", facts) == []


def test_cga_5_6_women_only_round_robin_needs_two_rated_women():
    facts = replace(GOOD_CGA, format=EventFormat.ROUND_ROBIN, players=9, rounds=8, rated_players=2, rated_men=0,
                    rated_women=2, women_only=True)
    assert clauses("cga-gomoku-2011", facts) == []
    assert clauses("cga-gomoku-2011", replace(facts, rated_players=1, rated_women=1)) == [
        "CGA Art. 5(四)", "CGA Art. 5(五)", "CGA Art. 5(六)"]


@pytest.mark.parametrize(
    ("tc", "ok"),
    [
        (TimeControl(60), True),
        (TimeControl(59), False),
        (TimeControl(45, 30), True),
        (TimeControl(45, 29), False),
        (TimeControl(44, 30), False),
        (TimeControl(60, 10), True),
        (None, False),
    ],
)
def test_cga_5_8_time_control(tc, ok):
    assert ("CGA Art. 5(八)" not in clauses("cga-gomoku-2011", replace(GOOD_CGA, time_control=tc))) is ok


def test_cga_5_11_unplayed_games_are_noted_and_an_event_without_played_games_fails():
    res = check_eligibility(BUILTIN_RULES["cga-gomoku-2011"], replace(GOOD_CGA, unplayed_games=3))
    assert res.eligible and "3 unplayed game(s)" in str(res.notes[0])
    assert clauses("cga-gomoku-2011", replace(GOOD_CGA, played_games=0, unplayed_games=10)) == ["CGA Art. 5(十一)"]


def test_every_failed_condition_is_listed_at_once():
    bad = replace(GOOD_CGA, organiser_level=OrganiserLevel.OTHER, national=False, arbiters=(), players=8, rounds=3,
                  rated_players=1, time_control=TimeControl(30), played_games=0)
    assert clauses("cga-gomoku-2011", bad) == [
        "CGA Art. 4", "CGA Art. 4", "CGA Art. 5(一)", "CGA Art. 5(三)", "CGA Art. 5(五)", "CGA Art. 5(八)",
        "CGA Art. 5(十一)"]


GOOD_BJSH = replace(GOOD_CGA, organiser_level=OrganiserLevel.REGIONAL, national=False,
                    arbiters=(ArbiterFacts("张裁判", "national"),))


def test_good_bjsh_event_is_eligible():
    assert check_eligibility(BUILTIN_RULES["bjsh-gomoku-2007"], GOOD_BJSH).eligible


def test_bjsh_6_local_events_need_agreement_of_the_parties():
    local = replace(GOOD_BJSH, organiser_level=OrganiserLevel.LOCAL)
    assert clauses("bjsh-gomoku-2007", local) == ["BJSH §6"]
    assert clauses("bjsh-gomoku-2007", replace(local, agreed_by_parties=True)) == []
    assert clauses("bjsh-gomoku-2007", replace(GOOD_BJSH, organiser_level=OrganiserLevel.OTHER)) == ["BJSH §6"]


def test_bjsh_7_1_one_national_arbiter():
    assert clauses("bjsh-gomoku-2007", replace(GOOD_BJSH, arbiters=(ArbiterFacts("王", "first", True),))) == [
        "BJSH §7(一)"]


def test_bjsh_7_4_first_period_sixty_minutes_fischer_no_exception():
    assert clauses("bjsh-gomoku-2007", replace(GOOD_BJSH, time_control=TimeControl(45, 30))) == ["BJSH §7(四)"]
    assert clauses("bjsh-gomoku-2007", replace(GOOD_BJSH, time_control=TimeControl(60, 30))) == []


def test_bjsh_7_does_not_ask_for_rounds_or_rated_share():
    facts = replace(GOOD_BJSH, players=30, rounds=3, rated_players=0)
    assert clauses("bjsh-gomoku-2007", facts) == []


def test_bjsh_9_dan_event_conditions():
    dan = replace(GOOD_BJSH, dan_event=True, players=12, rated_players=10, standards_published=True)
    assert clauses("bjsh-gomoku-2007", dan) == []
    assert clauses("bjsh-gomoku-2007", replace(dan, players=11, rated_players=11)) == ["BJSH §9(一)"]
    assert clauses("bjsh-gomoku-2007", replace(dan, rated_players=9)) == ["BJSH §9(一)"]  # 3 of 12 unrated > 20 %
    assert clauses("bjsh-gomoku-2007", replace(dan, standards_published=False)) == ["BJSH §9(三)"]
    assert clauses("bjsh-gomoku-2007", replace(dan, arbiters=())) == ["BJSH §7(一)", "BJSH §9(二)"]


def test_go_4_events_approved_at_state_level():
    go = replace(GOOD_CGA, arbiters=(), time_control=None, organiser_level=OrganiserLevel.STATE)
    assert clauses("cn-go-1995", go) == []
    assert clauses("cn-go-1995", replace(go, organiser_level=OrganiserLevel.REGIONAL)) == ["Go §4"]


def test_go_5_an_event_without_played_games_fails():
    go = replace(GOOD_CGA, arbiters=(), time_control=None)
    assert clauses("cn-go-1995", replace(go, played_games=0)) == ["Go §5"]


def test_the_conditions_are_a_setting_of_the_rule_set():
    """A variant chooses its conditions by the ``eligibility`` setting, not by its name."""
    go_like = with_settings(BUILTIN_RULES["cga-gomoku-2011"], {"eligibility": "go-1995"})
    regional = replace(GOOD_CGA, organiser_level=OrganiserLevel.REGIONAL)
    assert [f.clause for f in check_eligibility(go_like, regional).failures] == ["Go §4"]
    anything = with_settings(BUILTIN_RULES["cga-gomoku-2011"], {"eligibility": "none"})
    assert check_eligibility(anything, replace(regional, arbiters=(), played_games=0)).eligible
    with pytest.raises(RulesError, match="setting 'eligibility': expected one of cga-2011"):
        rules_from_mapping({"base": "cga-gomoku-2011", "eligibility": "fide-2024"})


@pytest.mark.parametrize("name", sorted(BUILTIN_RULES))
def test_every_failed_clause_is_one_the_rule_set_lists(name):
    """The portal ticks each listed clause unless a failure names it: every failure must name a listed clause."""
    rules = BUILTIN_RULES[name]
    listed = [c.clause for c in eligibility_clauses(rules)]
    worst = replace(GOOD_CGA, organiser_level=OrganiserLevel.OTHER, national=False, arbiters=(), players=8, rounds=3,
                    rated_players=1, time_control=TimeControl(30), played_games=0, format=EventFormat.ROUND_ROBIN,
                    dan_event=True)
    failures = check_eligibility(rules, worst).failures
    assert failures
    assert all(any(f.clause.startswith(c) for c in listed) for f in failures), (failures, listed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90", TimeControl(90)),
        ("G/60", TimeControl(60)),
        ("90+30", TimeControl(90, 30)),
        ("60分钟", TimeControl(60)),
        ("每方45分钟，每步加30秒", TimeControl(45, 30)),
        ("1小时", TimeControl(60)),
        ("2小时30分", TimeControl(150)),
        ("45 min + 30 s", TimeControl(45, 30)),
        ("1h30", TimeControl(90)),
        ("60 min, byo-yomi 30 s", TimeControl(60)),
        ("", None),
        ("快棋", None),
    ],
)
def test_parse_time_control(text, expected):
    assert parse_time_control(text) == expected
