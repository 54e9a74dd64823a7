"""The calendar's pure checks (qiyuan.calendar.checks): properties over generated registrations.

* A failure at registration is a failure whatever happens: for every way the event can actually go (who is
  rated, which games are played, within what was registered), the report's eligibility fails every clause the
  registration failed (CGA Art. 4–5, BJSH §6–7, §9, Go §4).
* Clashes (BJSH §3) are symmetric and exactly "overlapping dates and (same city or same organiser level)".
* BJSH §3(三): the 90-day rule depends only on the days between application and start, and only outside.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.calendar.checks import (
    BJSH_2007,
    CGA_2011,
    GO_1995,
    PlannedEvent,
    Scheduled,
    assess,
    clashes,
    facts_in_advance,
    notice_failures,
    rules_failures,
    text_rules,
)
from qiyuan.rating.eligibility import ArbiterFacts, EventFacts, OrganiserLevel, TimeControl, check_eligibility
from qiyuan.rating.model import EventFormat
from qiyuan.rating.rules import BUILTIN_RULES

FAMILIES = ("cga-gomoku-2011", "bjsh-gomoku-2007", "cn-go-1995")
DAY0 = date(2027, 1, 1)
PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

arbiters = st.lists(st.builds(ArbiterFacts, name=st.sampled_from("甲乙丙丁"),
                              level=st.sampled_from(["international", "national", "first", "second", ""]),
                              recognised_national=st.booleans()), max_size=4).map(tuple)


@st.composite
def planned(draw, *, city=None, level=None):
    start = DAY0 + timedelta(days=draw(st.integers(0, 60)))
    return PlannedEvent(
        name="赛", start=start, end=start + timedelta(days=draw(st.integers(0, 6))),
        applied_on=start - timedelta(days=draw(st.integers(0, 200))),
        format=draw(st.sampled_from([EventFormat.SWISS, EventFormat.ROUND_ROBIN])),
        rounds=draw(st.integers(1, 12)), expected_players=draw(st.integers(2, 60)),
        time_control=TimeControl(draw(st.integers(5, 180)), draw(st.sampled_from([0, 10, 30, 60]))),
        organiser_level=level or draw(st.sampled_from(list(OrganiserLevel))), national=draw(st.booleans()),
        international=draw(st.booleans()), agreed_by_parties=draw(st.booleans()),
        city=city or draw(st.sampled_from(["北京", "上海", "杭州", "广州"])),
        inside_regions=draw(st.sampled_from([True, False, None])), arbiters=draw(arbiters),
        grants_grades=draw(st.booleans()),
        standard_published_on=draw(st.sampled_from([None, DAY0 - timedelta(days=1), DAY0 + timedelta(days=90)])),
    )


@st.composite
def outcome(draw, p: PlannedEvent) -> EventFacts:
    """One way the registered event can go: the same organiser, arbiters, format, time control and field, any
    share of rated entrants and of games played (at least one), rounds up to those planned."""
    n = p.expected_players
    rated = draw(st.integers(0, n))
    men = draw(st.integers(0, rated))
    games = p.rounds * (n // 2)
    played = draw(st.integers(1, max(1, games)))
    return EventFacts(
        format=p.format, players=n, rounds=draw(st.integers(1, p.rounds)), rated_players=rated,
        organiser_level=p.organiser_level, national=p.national, international=p.international,
        agreed_by_parties=p.agreed_by_parties, arbiters=p.arbiters, time_control=p.time_control, rated_men=men,
        rated_women=rated - men, women_only=False, played_games=played, unplayed_games=games - played,
        dan_event=p.grants_grades, unrated_players=n - rated,
        standards_published=p.standard_published_on is not None and p.standard_published_on < p.start)


@PROPS
@given(st.sampled_from(FAMILIES), st.data())
def test_a_failure_at_registration_is_a_failure_whatever_happens(family, data):
    p = data.draw(planned())
    before = {f.clause for f in check_eligibility(BUILTIN_RULES[family], facts_in_advance(p)).failures}
    actual = data.draw(outcome(p))
    after = {f.clause for f in check_eligibility(BUILTIN_RULES[family], actual).failures}
    assert before <= after, (before, after)


@PROPS
@given(planned(), planned())
def test_clashes_are_symmetric_and_exactly_overlap_and_city_or_level(a, b):
    def scheduled(p):
        return Scheduled("X", p.name, p.start, p.end, p.city, p.organiser_level)

    ab, ba = clashes(a, [scheduled(b)]), clashes(b, [scheduled(a)])
    assert bool(ab) == bool(ba)
    overlap = a.start <= b.end and b.start <= a.end
    assert bool(ab) == (overlap and (a.city == b.city or a.organiser_level is b.organiser_level))
    if ab:
        assert ab[0].finding().clause == "BJSH §3"


@PROPS
@given(planned(), st.integers(0, 200))
def test_bjsh_3_3_the_90_days_only_outside(p, ahead):
    q = replace(p, applied_on=p.start - timedelta(days=ahead), agreed_by_parties=True)
    late = [f for f in notice_failures(q, BJSH_2007) if "applies" in f.message]
    assert bool(late) == (q.inside_regions is False and ahead < 90)
    assert notice_failures(q, CGA_2011) == [] and notice_failures(q, GO_1995) == []


def test_rules_of_play_by_text():
    base = PlannedEvent("赛", DAY0, DAY0, DAY0, EventFormat.SWISS, 7, 20, TimeControl(60))
    rif = replace(base, rules_of_play="rif")
    assert [f.clause for f in rules_failures(rif, CGA_2011)] == ["CGA Art. 5(二)"]
    assert [f.clause for f in rules_failures(rif, BJSH_2007)] == ["BJSH §7(三)"]
    assert rules_failures(replace(rif, rif_approved=True), BJSH_2007) == []
    assert rules_failures(rif, GO_1995) == [] and rules_failures(base, CGA_2011) == []


def test_unknown_text_has_no_registration_rules():
    p = PlannedEvent("赛", DAY0, DAY0, DAY0 - timedelta(days=1), EventFormat.SWISS, 7, 20, TimeControl(60),
                     inside_regions=False, rules_of_play="rif")
    a = assess(p, check_eligibility(BUILTIN_RULES["cga-gomoku-2011"], facts_in_advance(p)),
               text_rules("variant-of-nothing"), [])
    assert not any(f.clause.startswith("BJSH") for f in a.failures) and a.notes == ()
