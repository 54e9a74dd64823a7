"""Issue 14: the event calendar (赛事注册) — registrations checked before the event is played, each check
naming its clause; approve / refuse / withdraw / amend as audited use cases; bad input refused whole."""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta

import pytest

from qiyuan.office.audit.models import AuditLog
from qiyuan.office.calendar.models import Registration
from qiyuan.office.errors import NotFound
from qiyuan.office.event_registration import (
    CalendarError,
    Details,
    amend_registration,
    approve_registration,
    find_registration,
    findings,
    refuse_registration,
    register_event,
    withdraw_registration,
)

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture
def office(make_association):
    """Lists under each rule set, two associations, arbiters of every kind."""
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.ratings.models import RatingList

    for code in ("BJ", "SH", "ZJ"):
        make_association(code)
    for code, rules, game in (("CGA", "cga-gomoku-2011", "gomoku"), ("BJSH", "bjsh-gomoku-2007", "gomoku"),
                              ("GO", "cn-go-1995", "go")):
        RatingList.objects.create(code=code, title=code, rules_name=rules, game=game)
    Arbiter.objects.create(name="周裁判", level="national", recognised_national=True)
    Arbiter.objects.create(name="吴裁判", level="national", recognised_national=True)
    Arbiter.objects.create(name="郑裁判", level="first", recognised_national=False)
    Arbiter.objects.create(name="王裁判", level="second", recognised_national=False)


def national(**changes) -> Details:
    """The demo's next national event, as its organiser registers it: rateable."""
    d = Details(name="2027年全国五子棋锦标赛", list_code="CGA", start_date="2027-04-10", end_date="2027-04-13",
                city="北京", rounds="7", expected_players="36", time_control="每方60分钟", chief_arbiter="周裁判",
                arbiters=("吴裁判", "郑裁判"), format="swiss", organiser="中国围棋协会五子棋分会",
                organiser_level="state", national=True)
    return dataclasses.replace(d, **changes)


def clauses(reg: Registration, key: str = "failures") -> list[str]:
    return [f.clause for f in findings(reg.assessment, key)]


def add(details: Details, today: date = TODAY) -> Registration:
    return register_event(details, actor="officer", today=today)


# -- the verdict -----------------------------------------------------------------------------------------


def test_the_next_national_event_is_rateable_if_played_as_registered(office):
    reg = add(national())
    assert reg.code == "R2027-001"
    assert reg.status == Registration.Status.REGISTERED
    assert reg.assessment["rateable"] and reg.assessment["approvable"]
    assert reg.assessment["verdict"] == "rateable if played as registered"
    assert reg.assessment["failures"] == [] and reg.assessment["clashes"] == []
    # what only the report can show is said, with its clause
    assert "CGA Art. 5(四)–(六)" in clauses(reg, "notes")
    entry = AuditLog.objects.get(action="calendar.add")
    assert entry.object_id == str(reg.pk) and entry.detail["verdict"] == "rateable if played as registered"


def test_cga_art_5_8_a_30_minute_event_is_told_why_not_before_it_is_played(office):
    reg = add(national(name="2027年全国五子棋快棋赛", time_control="每方30分钟"))
    assert reg.status == Registration.Status.REGISTERED  # recorded all the same: the organiser can fix it
    assert not reg.assessment["rateable"]
    assert clauses(reg) == ["CGA Art. 5(八)"]
    assert "first period must be at least 60 min" in findings(reg.assessment, "failures")[0].text()


def test_cga_art_5_8_fischer_45_plus_30_is_enough(office):
    assert add(national(time_control="45 min + 30 s")).assessment["rateable"]
    assert clauses(add(national(time_control="45 min + 20 s"))) == ["CGA Art. 5(八)"]


def test_cga_art_5_1_two_recognised_arbiters(office):
    reg = add(national(arbiters=("郑裁判",)))
    assert clauses(reg) == ["CGA Art. 5(一)"]


def test_cga_art_5_3_rounds_for_the_expected_field(office):
    assert clauses(add(national(expected_players="36", rounds="5"))) == ["CGA Art. 5(三)"]
    assert add(national(expected_players="20", rounds="5")).assessment["rateable"]
    assert clauses(add(national(expected_players="21", rounds="6"))) == ["CGA Art. 5(三)"]


def test_cga_art_5_5_a_field_under_ten_cannot_have_four_rated_with_three_players(office):
    reg = add(national(format="round_robin", expected_players="3", rounds="2", national=False))
    assert clauses(reg) == ["CGA Art. 4", "CGA Art. 5(五)"]
    assert clauses(add(national(format="round_robin", expected_players="4", rounds="3", national=False))) == [
        "CGA Art. 4"]


def test_cga_art_5_6_a_national_round_robin_with_three_rated_men_is_rated(office):
    assert add(national(format="round_robin", expected_players="3", rounds="2")).assessment["rateable"]


def test_cga_art_5_2_the_national_rules(office):
    assert clauses(add(national(rules_of_play="rif"))) == ["CGA Art. 5(二)"]


def test_cga_art_4_organiser_level_and_national_event(office):
    reg = add(national(organiser_level="local", national=False))
    assert clauses(reg) == ["CGA Art. 4", "CGA Art. 4"]


def test_every_failed_condition_at_once(office):
    reg = add(national(time_control="30分钟", arbiters=(), rounds="5", rules_of_play="rif"))
    assert set(clauses(reg)) == {"CGA Art. 5(一)", "CGA Art. 5(三)", "CGA Art. 5(八)", "CGA Art. 5(二)"}
    assert reg.assessment["verdict"] == "not rateable as registered: 4 condition(s) fail"


# -- Beijing–Shanghai --------------------------------------------------------------------------------------


def bjsh(**changes) -> Details:
    return national(**{"list_code": "BJSH", "name": "2027年京沪五子棋公开赛", "city": "上海", **changes})


def test_bjsh_3_3_an_event_outside_the_two_regions_applies_90_days_ahead(office):
    start = TODAY + timedelta(days=60)
    reg = add(bjsh(city="杭州", start_date=start, end_date=start + timedelta(days=2), agreed_by_parties=True))
    assert reg.inside_regions is False
    assert clauses(reg) == ["BJSH §3(三)"]
    text = findings(reg.assessment, "failures")[0].text()
    assert "applies 90 days before it starts" in text and "60 day(s)" in text
    start = TODAY + timedelta(days=90)
    assert add(bjsh(city="杭州", start_date=start, end_date=start, agreed_by_parties=True)).assessment["rateable"]


def test_bjsh_3_3_outside_events_are_rated_only_if_the_parties_agree(office):
    start = TODAY + timedelta(days=120)
    reg = add(bjsh(city="杭州", start_date=start, end_date=start))
    assert clauses(reg) == ["BJSH §3(三)"]
    assert "parties" in findings(reg.assessment, "failures")[0].text()


def test_bjsh_3_inside_the_regions_no_notice_is_asked(office):
    start = TODAY + timedelta(days=5)
    for city in ("北京", "上海", "北京市朝阳区"):
        reg = add(bjsh(city=city, start_date=start, end_date=start))
        assert reg.inside_regions is True and reg.assessment["rateable"], city


def test_bjsh_3_the_organiser_may_say_where_the_city_lies(office):
    start = TODAY + timedelta(days=5)
    reg = add(bjsh(city="浦东", inside_regions=True, start_date=start, end_date=start))
    assert reg.inside_regions is True and reg.assessment["rateable"]


def test_the_cga_list_has_no_home_regions(office):
    reg = add(national(city="杭州", start_date=TODAY + timedelta(days=3), end_date=TODAY + timedelta(days=4)))
    assert reg.inside_regions is None and reg.assessment["rateable"]


def test_bjsh_7_1_a_national_arbiter(office):
    assert clauses(add(bjsh(chief_arbiter="郑裁判", arbiters=("王裁判",)))) == ["BJSH §7(一)"]


def test_bjsh_7_3_rif_rules_with_the_regions_approval(office):
    assert clauses(add(bjsh(rules_of_play="rif"))) == ["BJSH §7(三)"]
    assert add(bjsh(rules_of_play="rif", rif_approved=True)).assessment["rateable"]


def test_bjsh_7_4_first_period_60_minutes(office):
    assert clauses(add(bjsh(time_control="45 min + 30 s"))) == ["BJSH §7(四)"]


def test_bjsh_9_a_dan_event_needs_twelve_players_and_its_standard_published_before_the_start(office):
    reg = add(bjsh(grants_grades=True, expected_players="10"))
    assert clauses(reg) == ["BJSH §9(一)", "BJSH §9(三)"]
    assert "BJSH §9(一)" in clauses(reg, "notes")  # the unrated share: only the report shows it
    reg = add(bjsh(grants_grades=True, standard_published_on=TODAY))
    assert reg.assessment["rateable"]


def test_bjsh_6_a_local_event_needs_the_parties(office):
    assert clauses(add(bjsh(organiser_level="local"))) == ["BJSH §6"]
    assert add(bjsh(organiser_level="local", agreed_by_parties=True)).assessment["rateable"]


def test_go_4_approved_by_the_state(office):
    reg = add(national(list_code="GO", name="2027年全国围棋个人赛", organiser_level="regional"))
    assert clauses(reg) == ["Go §4"]


# -- clashes (BJSH §3) ---------------------------------------------------------------------------------------


def test_bjsh_3_a_clash_is_named(office):
    first = add(national())
    second = add(national(name="2027年北京五子棋公开赛", organiser_level="local", national=False,
                          start_date="2027-04-12", end_date="2027-04-14", list_code="BJSH"))
    clash = second.assessment["clashes"]
    assert [c["code"] for c in clash] == [first.code]
    assert clash[0]["same_city"] and not clash[0]["same_level"]
    text = findings(second.assessment, "clashes")[0]
    assert text.clause == "BJSH §3"
    assert str(text) == ("BJSH §3: clashes with R2027-001 2027年全国五子棋锦标赛 (2027-04-10 – 2027-04-13): "
                         "same dates and same city")
    assert not second.assessment["approvable"]


def test_bjsh_3_same_level_elsewhere_clashes_other_level_elsewhere_does_not(office):
    first = add(national())
    same_level = add(national(name="2027年全国女子五子棋赛", city="广州"))
    other = add(national(name="2027年杭州五子棋公开赛", city="杭州", organiser_level="regional", national=False))
    later = add(national(name="2027年全国五子棋精英赛", start_date="2027-04-14", end_date="2027-04-15"))
    assert [c["code"] for c in same_level.assessment["clashes"]] == [first.code]
    assert same_level.assessment["clashes"][0]["same_level"]
    assert other.assessment["clashes"] == [] and later.assessment["clashes"] == []


def test_a_go_event_does_not_clash_with_a_gomoku_event(office):
    add(national())
    go = add(national(list_code="GO", name="2027年全国围棋个人赛"))
    assert go.assessment["clashes"] == []


def test_withdrawn_and_refused_events_clash_with_nothing(office):
    first = add(national())
    withdraw_registration(first.code, actor="organiser")
    assert add(national(name="2027年全国五子棋锦标赛（改期）")).assessment["clashes"] == []


# -- approve, refuse, withdraw -------------------------------------------------------------------------------


def test_approve_a_clean_registration(office):
    reg = approve_registration(add(national()).code, actor="officer", today=TODAY)
    assert reg.status == Registration.Status.APPROVED and not reg.overridden and reg.decided_by == "officer"
    entry = AuditLog.objects.get(action="calendar.approve")
    assert entry.detail["override"] is False


def test_problems_are_never_approved_without_an_override_and_its_reason(office):
    reg = add(national(time_control="每方30分钟"))
    with pytest.raises(CalendarError) as exc:
        approve_registration(reg.code, actor="officer", today=TODAY)
    text = "\n".join(exc.value.messages)
    assert "cannot be approved as registered" in text and "CGA Art. 5(八)" in text
    assert Registration.objects.get(pk=reg.pk).status == Registration.Status.REGISTERED
    assert not AuditLog.objects.filter(action="calendar.approve").exists()
    with pytest.raises(CalendarError):
        approve_registration(reg.code, actor="officer", override_reason="   ", today=TODAY)
    done = approve_registration(reg.code, actor="officer", override_reason="exhibition event, rated by agreement",
                                today=TODAY)
    assert done.status == Registration.Status.APPROVED and done.overridden
    entry = AuditLog.objects.get(action="calendar.approve")
    assert entry.detail["override"] is True
    assert entry.detail["reason"] == "exhibition event, rated by agreement"
    assert any("CGA Art. 5(八)" in f for f in entry.detail["failures"])


def test_the_registration_made_first_keeps_its_approval_path(office):
    """Issue 22, item 8: a later, overlapping registration does not block the earlier one; the
    clash is reported on the later one only (at registration and at its approval)."""
    first = add(national())
    second = add(national(name="2027年北京五子棋公开赛", organiser_level="local", national=False, list_code="BJSH"))
    assert first.assessment["clashes"] == [] and [c["code"] for c in second.assessment["clashes"]] == [first.code]
    done = approve_registration(first.code, actor="officer", today=TODAY)
    assert done.status == Registration.Status.APPROVED and not done.overridden
    with pytest.raises(CalendarError) as exc:
        approve_registration(second.code, actor="officer", today=TODAY)
    assert f"clashes with {first.code}" in "\n".join(exc.value.messages)


def test_refuse_needs_a_reason(office):
    reg = add(national())
    with pytest.raises(CalendarError) as exc:
        refuse_registration(reg.code, "", actor="officer")
    assert "needs its reason" in exc.value.messages[0]
    done = refuse_registration(reg.code, "clashes with the national team championship", actor="officer")
    assert done.status == Registration.Status.REFUSED and done.reason.startswith("clashes")
    assert AuditLog.objects.get(action="calendar.refuse").detail["reason"].startswith("clashes")


def test_what_each_status_allows(office):
    reg = add(national())
    withdraw_registration(reg.code, actor="organiser", reason="no venue")
    for action in (lambda: approve_registration(reg.code, actor="o", today=TODAY),
                   lambda: refuse_registration(reg.code, "x", actor="o"),
                   lambda: withdraw_registration(reg.code, actor="o"),
                   lambda: amend_registration(reg.code, {"rounds": "9"}, actor="o", today=TODAY)):
        with pytest.raises(CalendarError) as exc:
            action()
        assert "is withdrawn: it cannot be" in exc.value.messages[0]
    approved = approve_registration(add(national(name="另一场")).code, actor="o", today=TODAY)
    with pytest.raises(CalendarError):
        approve_registration(approved.code, actor="o", today=TODAY)
    assert refuse_registration(approved.code, "venue lost", actor="o").status == Registration.Status.REFUSED


def test_unknown_code_is_not_found(office):
    with pytest.raises(NotFound) as exc:
        find_registration("R1999-999")
    assert "no registered event 'R1999-999'" in exc.value.messages[0]


# -- amend ---------------------------------------------------------------------------------------------------


def test_amend_rechecks_the_whole_registration(office):
    reg = add(national(time_control="每方30分钟"))
    done = amend_registration(reg.code, {"time_control": "每方60分钟"}, actor="organiser", today=TODAY)
    assert done.assessment["rateable"] and done.time_minutes == 60
    entry = AuditLog.objects.get(action="calendar.amend")
    assert entry.detail["changed"] == {"time_control": ["每方30分钟", "每方60分钟"]}


def test_an_approved_registration_that_changes_goes_back_to_the_officer(office):
    reg = approve_registration(add(national()).code, actor="officer", today=TODAY)
    done = amend_registration(reg.code, {"arbiters": ["吴裁判"], "rounds": 9}, actor="organiser", today=TODAY)
    assert done.status == Registration.Status.REGISTERED
    assert done.arbiter_names == ["吴裁判"] and done.rounds == 9
    assert AuditLog.objects.get(action="calendar.amend").detail["approval_withdrawn"] is True


def test_amend_keeps_the_application_date_for_the_90_days(office):
    start = TODAY + timedelta(days=100)
    reg = add(bjsh(city="杭州", start_date=start, end_date=start, agreed_by_parties=True))
    assert reg.assessment["rateable"]
    later = amend_registration(reg.code, {"rounds": "9"}, actor="organiser", today=TODAY + timedelta(days=30))
    assert later.applied_on == TODAY and later.assessment["rateable"]  # applied 100 days ahead, not 70


def test_amend_refuses_unknown_fields_and_no_change(office):
    reg = add(national())
    with pytest.raises(CalendarError) as exc:
        amend_registration(reg.code, {"list_code": "GO", "colour": "red"}, actor="o", today=TODAY)
    assert "colour, list_code: not something an amendment changes" in exc.value.messages[0]
    with pytest.raises(CalendarError) as exc:
        amend_registration(reg.code, {"rounds": "7"}, actor="o", today=TODAY)
    assert "nothing to amend" in exc.value.messages[0]


def test_amend_validates_as_registering_does(office):
    reg = add(national())
    with pytest.raises(CalendarError) as exc:
        amend_registration(reg.code, {"end_date": "2027-04-01", "chief_arbiter": "无名氏"}, actor="o", today=TODAY)
    assert len(exc.value.problems) == 2
    assert Registration.objects.get(pk=reg.pk).end_date == date(2027, 4, 13)


# -- bad input -----------------------------------------------------------------------------------------------


def test_bad_input_every_problem_at_once_nothing_written(office):
    bad = national(start_date="2026-11-01", end_date="2026-10-30", chief_arbiter="无名氏", arbiters=("李四",),
                   association="XX", time_control="快棋", rounds="abc", expected_players="1", list_code="NOPE",
                   organiser_level="bogus", format="swiss-ish")
    with pytest.raises(CalendarError) as exc:
        add(bad)
    text = "\n".join(exc.value.messages)
    for expected in ("start date 2026-11-01 is in the past (today is 2026-12-01)",
                     "end date 2026-10-30 is before the start date 2026-11-01",
                     "unknown arbiter '无名氏'", "unknown arbiter '李四'", "unknown association 'XX'",
                     "the time control '快棋' cannot be read", "the number of rounds 'abc' is not a whole number",
                     "the number of expected players must be 2–9999, not 1", "unknown rating list 'NOPE'",
                     "the organiser level 'bogus' is not one of", "the format 'swiss-ish' is not one of"):
        assert expected in text, expected
    assert len(exc.value.problems) == 11
    assert Registration.objects.count() == 0 and not AuditLog.objects.filter(action__startswith="calendar").exists()


@pytest.mark.parametrize("changes, message", [
    ({"start_date": "2027-02-30"}, "the start date '2027-02-30' is not a date"),
    ({"end_date": ""}, "the end date is missing"),
    ({"name": " "}, "the event's name is missing"),
    ({"name": "名\x00称"}, "the name contains control characters"),
    ({"list_code": "C\x00GA"}, "the list code contains control characters"),
    ({"arbiters": ("吴\x00裁判",)}, "an arbiter's name contains control characters"),
    ({"city": "北" * 101}, "the city is longer than 100 characters"),
    ({"rounds": "99999999999999999999"}, "the number of rounds must be 1–99"),
    ({"rounds": "３"}, "the number of rounds '３' is not a whole number"),
    ({"time_control": ""}, "the time control is missing"),
    ({"time_control": "9223372036854775808"}, "the time control '9223372036854775808' cannot be read"),
    ({"time_control": "60 min + 99999 s"}, "cannot be read"),
    ({"chief_arbiter": ""}, "the chief arbiter (裁判长) is missing"),
    ({"rules_of_play": "renju"}, "the rules of play 'renju' are not one of national, rif"),
    ({"end_date": "2028-06-01"}, "the event lasts 419 days; at most 366"),
    ({"standard_published_on": "2026-12-02"}, "the title standard's publication date 2026-12-02 is in the future"),
])
def test_bad_input_is_named(office, changes, message):
    with pytest.raises(CalendarError) as exc:
        add(national(**changes))
    assert any(message in m for m in exc.value.messages), exc.value.messages
    assert Registration.objects.count() == 0


def test_an_event_starting_today_may_still_register(office):
    assert add(national(start_date=TODAY, end_date=TODAY)).start_date == TODAY


def test_codes_count_per_year(office):
    a = add(national())
    b = add(national(name="下一届", start_date="2028-01-05", end_date="2028-01-06"))
    c = add(national(name="又一届"))
    assert (a.code, b.code, c.code) == ("R2027-001", "R2028-001", "R2027-002")
