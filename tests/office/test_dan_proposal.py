"""An event's grade proposals (``qiyuan.grading.proposal``) and the checks of every grant (``grading.grant``):
each clause by name — the conditions of a grading event (BJSH §9(一)–(四)), the cap (第五条), the placing tables,
only raising, eligibility, the recognised bodies (BJSH §13(二)) — and properties over random standings.
Pure: no database."""

from __future__ import annotations

import dataclasses
import functools
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.grading.grant import grant_problems
from qiyuan.grading.policy import Body, example_text, policy_from_toml
from qiyuan.grading.proposal import GradingEvent, Holding, Outcome, Placing, Standard, propose, women_ranks
from qiyuan.people.grades import DAN_GRADES, strength

POLICY = policy_from_toml(example_text())
START, END = date(2024, 8, 10), date(2024, 8, 13)


def field(n=16, women=(), **kw) -> tuple[Placing, ...]:
    return tuple(Placing(f"CN{i:06d}", f"棋手{i}", i, "F" if i in women else "M", **kw) for i in range(1, n + 1))


def event(placings=None, *, standard=Standard("national", date(2024, 7, 1)), unrated=0, chief="national",
          level="state", national=True, list_code="CGA", start=START, end=END) -> GradingEvent:
    return GradingEvent("E1", "2024年全国五子棋锦标赛", start, end, level, national, list_code, unrated,
                        chief_arbiter_level=chief, chief_arbiter="周裁判", standard=standard,
                        placings=field() if placings is None else placings)


def by_player(prop):
    return {line.placing.player: line for line in prop.lines}


def failure_texts(prop) -> list[str]:
    return [str(f) for f in prop.failures]


# -- a grading event and its tables ------------------------------------------------------------------


def test_placings_earn_the_grades_of_the_class_table_dated_the_last_day():
    prop = propose(POLICY, event())
    assert prop.grading_event and prop.grant_on == END and prop.cap == "6d" and prop.event_class.name == "national"
    lines = by_player(prop)
    assert [lines[f"CN{i:06d}"].grade for i in (1, 2, 3, 4, 5, 8, 9, 16)] == ["6d", "5d", "4d", "4d", "3d", "3d",
                                                                             "2d", "2d"]
    assert lines["CN000003"].clause == "national open 3-4"
    assert str(lines["CN000003"].reason) == "placing 3 earns 4d"
    assert all(line.outcome is Outcome.GRANT for line in prop.lines)


def test_a_placing_outside_the_table_earns_nothing():
    prop = propose(POLICY, event(field(30)))
    line = by_player(prop)["CN000025"]
    assert line.outcome is Outcome.NO_GRADE and str(line.reason) == "placing 25 earns no grade in class national"


def test_an_unranked_player_earns_nothing():
    placings = field(15) + (Placing("CN000099", "无名次", None, "M"),)
    line = by_player(propose(POLICY, event(placings)))["CN000099"]
    assert line.outcome is Outcome.NO_GRADE and line.placing.rank is None


# -- BJSH §9: the conditions of a grading event ----------------------------------------------------------


def test_bjsh_9_1_at_least_twelve_players():
    assert propose(POLICY, event(field(12))).grading_event
    prop = propose(POLICY, event(field(11)))
    assert not prop.grading_event and prop.lines == ()
    assert failure_texts(prop) == ["BJSH §9(一): 11 players; a grading event needs at least 12"]


def test_bjsh_9_1_at_most_twenty_percent_unrated():
    assert propose(POLICY, event(field(20), unrated=4)).grading_event  # exactly 20 %
    prop = propose(POLICY, event(field(20), unrated=5))
    assert failure_texts(prop) == ["BJSH §9(一): 5 of 20 players were unrated; at most 20% may be"]


def test_bjsh_9_2_a_national_arbiter_in_charge():
    assert propose(POLICY, event(chief="international")).grading_event
    prop = propose(POLICY, event(chief="first"))
    assert failure_texts(prop) == ["BJSH §9(二): the chief arbiter 周裁判 is not a national-level arbiter"]
    no_chief = dataclasses.replace(event(), chief_arbiter="", chief_arbiter_level="")
    assert "no chief arbiter is recorded" in failure_texts(propose(POLICY, no_chief))[0]


def test_bjsh_9_3_the_standard_recorded_before_the_start():
    prop = propose(POLICY, event(standard=None))
    assert failure_texts(prop) == ["BJSH §9(三): no grading standard was recorded for this event, so it is not a "
                                   "grading event"]
    late = propose(POLICY, event(standard=Standard("national", START)))
    assert failure_texts(late) == ["BJSH §9(三): the standard was recorded on 2024-08-10, not before the start on "
                                   "2024-08-10"]
    assert propose(POLICY, event(standard=Standard("national", date(2024, 8, 9)))).grading_event


def test_bjsh_9_4_a_woman_in_a_mixed_event_reaches_the_womens_standard():
    # the best woman places 10th overall (open: 2d) and 1st among the women (women's table: 3d): she gets the better
    placings = field(20, women=(10, 12, 14, 18))
    lines = by_player(propose(POLICY, event(placings)))
    first_woman = lines["CN000010"]
    assert first_woman.women_rank == 1 and first_woman.grade == "3d" and first_woman.table == "women"
    assert first_woman.clause == "national women 1 (BJSH §9(四))"
    assert str(first_woman.reason) == "placing 1 among the women earns 3d (BJSH §9(四))"
    assert lines["CN000012"].women_rank == 2 and lines["CN000012"].grade == "2d"  # open 2d = women 2d: either
    assert lines["CN000018"].women_rank == 4 and lines["CN000018"].grade == "1d"  # 1d both ways: the open one
    assert lines["CN000011"].grade == "2d" and lines["CN000011"].women_rank is None  # a man: open table only


def test_women_ranks_share_a_tied_placing():
    placings = (Placing("a", "", 1, "M"), Placing("b", "", 2, "F"), Placing("c", "", 2, "F"), Placing("d", "", 4, "F"))
    assert women_ranks(placings) == {"b": 1, "c": 1, "d": 3}


def test_policy_class_criteria_decide_which_events_grant():
    prop = propose(POLICY, event(level="regional", national=False, list_code="GO"))
    texts = failure_texts(prop)
    assert "policy: the organiser level is regional; class national covers state" in texts
    assert "policy: class national covers only national events" in texts
    assert "policy: the event is on list GO; class national covers CGA" in texts
    women = field(16, women=range(1, 17))
    assert failure_texts(propose(POLICY, event(women))) == ["policy: class national covers only mixed events"]
    assert propose(POLICY, event(women, standard=Standard("national-women", date(2024, 7, 1)))).grading_event
    unknown = propose(POLICY, event(standard=Standard("world", date(2024, 7, 1))))
    assert failure_texts(unknown) == ["policy: the standard names class 'world', which the policy example does not "
                                      "have"]


def test_every_failed_condition_is_named_at_once():
    prop = propose(POLICY, event(field(10), unrated=5, chief="second", standard=Standard("national", START)))
    clauses = [f.params["clause"] for f in prop.failures]
    assert clauses == ["BJSH §9(三)", "BJSH §9(一)", "BJSH §9(一)", "BJSH §9(二)"]


# -- 第五条: the cap --------------------------------------------------------------------------------------


def test_article_5_a_placing_above_the_cap_is_granted_the_cap():
    raised = policy_from_toml(example_text().replace('"1" = "6d"\n"2" = "5d"', '"1" = "8d"\n"2" = "5d"', 1))
    line = by_player(propose(raised, event()))["CN000001"]
    assert line.outcome is Outcome.GRANT and line.earned == "8d" and line.grade == "6d"
    assert str(line.reason) == "earns 8d, above the cap; granted the cap 6d (第五条)"
    holder = field(16)[0]
    holder = dataclasses.replace(holder, held=Holding("6d", date(2023, 1, 1), "演示五子棋协会"))
    line = by_player(propose(raised, event((holder, *field(16)[1:]))))["CN000001"]
    assert line.outcome is Outcome.ABOVE_CAP and str(line.reason) == "earns 8d, above the cap 6d; holds 6d already"


def test_article_5_above_cap_none_grants_nothing_above_it():
    strict = policy_from_toml(example_text().replace('"1" = "6d"\n"2" = "5d"', '"1" = "8d"\n"2" = "5d"', 1)
                              .replace('above_cap = "grant_cap"', 'above_cap = "none"'))
    line = by_player(propose(strict, event()))["CN000001"]
    assert line.outcome is Outcome.ABOVE_CAP and line.grade is None


def test_article_5_the_cap_in_force_on_the_last_day():
    raised = policy_from_toml(example_text().replace('"1" = "6d"\n"2" = "5d"', '"1" = "7d"\n"2" = "5d"', 1)
                              .replace('# [[cap]]\n# since = "2030-01-01"\n# grade = "7d"',
                                       '[[cap]]\nsince = "2024-08-13"\ngrade = "7d"'))
    assert by_player(propose(raised, event()))["CN000001"].grade == "7d"  # raised on the event's last day
    early = propose(raised, event(start=date(2024, 8, 9), end=date(2024, 8, 12)))
    assert by_player(early)["CN000001"].grade == "6d"
    before = propose(raised, event(start=date(1999, 5, 1), end=date(1999, 5, 3),
                                   standard=Standard("national", date(1999, 4, 1))))
    assert failure_texts(before) == ["第五条: no cap is in force on 1999-05-03 (the policy's first step is 2000-01-01)"]


# -- only raising, eligibility, granted already -----------------------------------------------------------


def test_a_holder_of_the_grade_or_a_higher_one_is_not_proposed():
    placings = list(field(16))
    placings[2] = dataclasses.replace(placings[2], held=Holding("4d", date(2020, 1, 1), "中国棋院"))  # earns 4d
    placings[3] = dataclasses.replace(placings[3], held=Holding("5d"))  # earns 4d, holds an undated 5d
    placings[4] = dataclasses.replace(placings[4], held=Holding("2d", date(2020, 1, 1), "RIF"))  # earns 3d
    lines = by_player(propose(POLICY, event(tuple(placings))))
    assert lines["CN000003"].outcome is Outcome.HOLDS
    assert str(lines["CN000003"].reason) == "earns 4d; holds 4d already (中国棋院, 2020-01-01)"
    assert str(lines["CN000004"].reason) == "earns 4d; holds 5d already (the registry's grade, undated)"
    assert lines["CN000005"].outcome is Outcome.GRANT and lines["CN000005"].grade == "3d"


def test_only_raise_false_re_grants_an_equal_grade_but_never_a_lower_one():
    lenient = policy_from_toml(example_text().replace("only_raise = true", "only_raise = false"))
    placings = list(field(16))
    placings[2] = dataclasses.replace(placings[2], held=Holding("4d", date(2020, 1, 1), "中国棋院"))
    placings[3] = dataclasses.replace(placings[3], held=Holding("5d", date(2020, 1, 1), "中国棋院"))
    lines = by_player(propose(lenient, event(tuple(placings))))
    assert lines["CN000003"].outcome is Outcome.GRANT and lines["CN000003"].grade == "4d"
    assert lines["CN000004"].outcome is Outcome.HOLDS


def test_only_active_players_of_the_policys_nationalities_are_eligible():
    national_only = policy_from_toml(example_text().replace('# nationalities = ["CHN"]', 'nationalities = ["CHN"]'))
    placings = list(field(16, nationality="CHN"))
    placings[0] = dataclasses.replace(placings[0], status="suspended")
    placings[1] = dataclasses.replace(placings[1], nationality="JPN")
    lines = by_player(propose(national_only, event(tuple(placings))))
    assert lines["CN000001"].outcome is Outcome.NOT_ELIGIBLE
    assert str(lines["CN000001"].reason) == "not eligible: registration status suspended"
    assert str(lines["CN000002"].reason) == "not eligible: nationality JPN (the policy grants CHN)"
    assert lines["CN000003"].outcome is Outcome.GRANT


def test_a_grant_made_for_this_event_shows_as_granted():
    placings = list(field(16))
    placings[0] = dataclasses.replace(placings[0], granted_here=Holding("6d", END, "演示五子棋协会", "E1"))
    line = by_player(propose(POLICY, event(tuple(placings))))["CN000001"]
    assert line.outcome is Outcome.GRANTED and line.grade == "6d" and line.clause == "national open 1"
    assert str(line.reason) == "granted 6d on 2024-08-13"


# -- the checks of every grant ----------------------------------------------------------------------------

FED = POLICY.body("演示五子棋协会")


def check(grade="3d", on=date(2024, 1, 1), body=FED, body_name="演示五子棋协会", **kw) -> list[str]:
    return [str(p) for p in grant_problems(POLICY, grade=grade, on=on, body=body, body_name=body_name, **kw)]


def test_a_grant_within_the_rules_has_no_problem():
    assert check() == []
    assert check("7d", body=POLICY.body("RIF"), body_name="RIF") == []  # RIF's grades are not capped here


def test_article_4_an_unknown_grade_is_refused():
    assert check("10d") == ["'10d' is not a grade (9d…1d, 1k…10k; 九段…初段, 一级…十级)"]


def test_article_5_a_grant_above_the_cap_in_force_on_its_date_is_refused():
    assert check("7d") == ["7d is above the cap 6d in force on 2024-01-01 (第五条)"]
    assert check("7d", body=POLICY.body("中国棋院"), body_name="中国棋院") == [
        "7d is above the cap 6d in force on 2024-01-01 (第五条)"]
    assert check("1d", on=date(1999, 1, 1)) == [
        "no cap is in force on 1999-01-01 (the policy's first step is 2000-01-01, 第五条)"]
    assert check("5k", on=date(1999, 1, 1)) == []  # the cap concerns dan grades


def test_bjsh_13_2_an_unrecognised_or_missing_body_is_refused():
    assert check(body=None, body_name="某俱乐部") == [
        "'某俱乐部' is not a recognised body (BJSH §13(二)): 演示五子棋协会, 中国棋院, RIF, 日本连珠社, or a registered "
        "association"]
    assert check(body=None, body_name=" ") == ["the granting body is missing (e.g. 演示五子棋协会, 中国棋院, RIF)"]


def test_a_lower_grade_needs_demote_and_a_reason():
    held = Holding("4d", date(2020, 1, 1), "中国棋院")
    assert check("3d", held=held) == ["3d is lower than the 4d held on 2024-01-01 (中国棋院, 2020-01-01); a demotion "
                                      "needs --demote and a reason"]
    assert check("3d", held=held, demote=True) == ["a demotion needs a reason"]
    assert check("3d", held=held, demote=True, reason="ruled by the committee") == []
    assert check("4d", held=held, demote=True, reason="x") == [
        "--demote: 4d is not lower than the grade held on 2024-01-01 (4d)"]
    assert check("4d", held=held) == []  # the same grade again (another body's, say) is no lowering


def test_a_grant_that_would_turn_a_later_one_into_a_lowering_is_refused():
    later = [Holding("2d", date(2025, 1, 1), "中国棋院")]
    assert check("3d", later=later) == ["a later grant (2d on 2025-01-01, 中国棋院) would then lower the grade; record "
                                        "this one in date order"]
    assert check("1d", later=later) == []


def test_every_problem_of_a_grant_at_once():
    found = check("12d", body=None, body_name="", demote=True)
    assert len(found) == 3


# -- properties -------------------------------------------------------------------------------------------

grades = st.sampled_from(DAN_GRADES)


@st.composite
def standings(draw):
    n = draw(st.integers(min_value=0, max_value=40))
    out = []
    for i in range(1, n + 1):
        held = draw(st.none() | grades.map(lambda g: Holding(g, date(2020, 1, 1), "中国棋院")))
        out.append(Placing(f"P{i}", "", draw(st.none() | st.integers(1, n)), draw(st.sampled_from("MF")),
                           draw(st.sampled_from(["active", "active", "suspended"])), "CHN", held))
    return tuple(out)


@functools.cache
def _variant(table_top: str, only_raise: bool):
    return policy_from_toml(example_text().replace('"1" = "6d"', f'"1" = "{table_top}"', 1)
                            .replace("only_raise = true", f"only_raise = {str(only_raise).lower()}"))


@settings(max_examples=300, deadline=None)
@given(standings(), st.integers(0, 40), st.sampled_from(["national", "international", "first", ""]),
       st.sampled_from([None, date(2024, 7, 1), START]), st.sampled_from(["6d", "7d", "9d"]), st.booleans())
def test_property_a_proposal_never_grants_against_the_rules(placings, unrated, chief, recorded, table_top, only_raise):
    policy = _variant(table_top, only_raise)
    standard = Standard("national", recorded) if recorded else None
    prop = propose(policy, event(placings, unrated=min(unrated, len(placings)), chief=chief, standard=standard))
    if prop.failures:
        assert prop.grants == ()  # an event that misses a condition grants nothing
    for line in prop.grants:
        p = line.placing
        assert strength(line.grade) <= strength(prop.cap)  # never above the cap (第五条)
        assert p.status == "active" and p.rank is not None
        if p.held is not None:  # never lowers; raises when only_raise
            assert strength(line.grade) > strength(p.held.grade) or (
                not only_raise and strength(line.grade) == strength(p.held.grade))
        assert grant_problems(policy, grade=line.grade, on=prop.grant_on, body=Body(policy.federation),
                              body_name=policy.federation, held=p.held) == []
    assert len(prop.lines) in (0, len(placings))  # every player gets a line, or none when the event fails


@settings(max_examples=200, deadline=None)
@given(grades, grades, st.dates(date(1990, 1, 1), date(2040, 1, 1)))
def test_property_the_grant_check_refuses_exactly_lowering_and_above_cap(grade, held_grade, on):
    found = grant_problems(POLICY, grade=grade, on=on, body=FED, body_name=FED.name,
                           held=Holding(held_grade, date(1990, 1, 1), "中国棋院"))
    cap = POLICY.cap_on(on)
    lowers = strength(grade) < strength(held_grade)
    above = grade.endswith("d") and (cap is None or strength(grade) > strength(cap))  # the cap is on dan grades
    assert {p.code for p in found} == ({"grades.lower"} if lowers else set()) | ({"grades.cap"} if above else set())
