"""The office's grades use cases (``qiyuan.office.grades``): install a policy, record a standard, propose from an
imported event's standings, confirm, grant by hand — each audited, each refusal listing every problem and writing
nothing; and the grade held on a date that the rating engine starts a player from."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from qiyuan.errors import NotFound
from qiyuan.grading.policy import PolicyError, example_text
from qiyuan.grading.proposal import Outcome
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.federation.models import DanGrant, Player
from qiyuan.office.grades.errors import GradeRefused
from qiyuan.office.grades.grants import confirm_proposals, grant_grade
from qiyuan.office.grades.history import grade_history, grade_on
from qiyuan.office.grades.models import GradingStandard, PolicyVersion
from qiyuan.office.grades.policies import install_policy, policy_in_force
from qiyuan.office.grades.proposals import event_proposal, find_event
from qiyuan.office.grades.standards import record_standard
from qiyuan.office.registry import RegistryError

from ._dan_fixtures import NAME, START, imported_event, install_example, office  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db


def messages(exc) -> list[str]:
    return [str(p) for p in exc.value.problems]


def counts():
    return DanGrant.objects.count(), AuditLog.objects.filter(action__startswith="player.dan").count()


# -- proposals from an imported event ---------------------------------------------------------------------


def test_an_imported_events_standings_give_proposals_under_the_policy(office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id)
    ep = event_proposal(find_event(ev.code))
    prop = ep.proposal
    assert ep.standard.event_name == NAME and prop.grading_event and prop.grant_on == ev.end_date
    by_rank = {line.placing.rank: line for line in prop.lines}
    assert len(prop.lines) == 16 and by_rank[1].grade == "6d" and by_rank[1].clause == "national open 1"
    assert by_rank[16].grade == "2d" and all(line.outcome is Outcome.GRANT for line in prop.lines)


def test_confirming_all_grants_each_line_with_its_event_clause_serial_and_audit(office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id)
    grants = confirm_proposals(ev, actor="officer")
    assert len(grants) == 16
    first = DanGrant.objects.get(event=ev, clause="national open 1")
    assert (first.grade, first.granted_on, first.granted_by) == ("6d", ev.end_date, "演示五子棋协会")
    assert sorted(g.serial for g in grants) == [f"DEMO-2024-{n:05d}" for n in range(1, 17)]
    assert first.player.dan == "6d"  # the record's grade is his latest grant's
    audit = AuditLog.objects.filter(action="player.dan", object_id=str(first.player_id)).get()
    assert audit.detail["event"] == ev.code and audit.detail["clause"] == "national open 1"
    again = event_proposal(ev).proposal
    assert {line.outcome for line in again.lines} == {Outcome.GRANTED}
    before = counts()
    with pytest.raises(GradeRefused) as caught:
        confirm_proposals(ev, actor="officer")
    assert messages(caught) == [f"no proposal of {ev.code} is left to grant"] and counts() == before


def test_confirming_some_grants_only_those_and_a_named_line_that_does_not_grant_refuses_all(office, tmp_path,
                                                                                           resident_id):
    ev = imported_event(tmp_path, resident_id, n=30)
    prop = event_proposal(ev).proposal
    by_rank = {line.placing.rank: line.placing.player for line in prop.lines}
    before = counts()
    with pytest.raises(GradeRefused) as caught:
        confirm_proposals(ev, players=[by_rank[2], by_rank[28], "CN999999"], actor="officer")
    assert messages(caught) == [f"{by_rank[28]}: placing 28 earns no grade in class national",
                                f"CN999999 did not play in {ev.code}"]
    assert counts() == before  # nothing written
    grants = confirm_proposals(ev, players=[by_rank[2], by_rank[3].lower()], actor="officer")
    assert [g.player.federation_id for g in grants] == [by_rank[2], by_rank[3]]


def test_an_event_without_a_standard_grants_nothing_and_says_why(office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id, standard=None)
    prop = event_proposal(ev).proposal
    assert not prop.grading_event and prop.lines == ()
    with pytest.raises(GradeRefused) as caught:
        confirm_proposals(ev, actor="officer")
    assert messages(caught) == [f"{ev.code} is not a grading event and grants nothing",
                                "BJSH §9(三): no grading standard was recorded for this event, so it is not a "
                                "grading event"]
    assert DanGrant.objects.count() == 0


def test_bjsh_9_events_that_miss_a_condition_grant_nothing(office, tmp_path, resident_id):
    small = imported_event(tmp_path, resident_id, n=10, name="十人赛")
    first_class_chief = imported_event(tmp_path, resident_id, name="一级裁判主持", arbiters=("郑裁判", "周裁判"),
                                       start=date(2024, 9, 1))
    assert [str(f) for f in event_proposal(small).proposal.failures] == [
        "BJSH §9(一): 10 players; a grading event needs at least 12"]
    assert [str(f) for f in event_proposal(first_class_chief).proposal.failures] == [
        "BJSH §9(二): the chief arbiter 郑裁判 is not a national-level arbiter"]
    unrated = imported_event(tmp_path, resident_id, name="新手赛", start=date(2024, 10, 1), rated=0)
    assert [str(f) for f in event_proposal(unrated).proposal.failures] == [
        "BJSH §9(一): 16 of 16 players were unrated; at most 20% may be"]


def test_bjsh_9_1_the_unrated_share_is_the_one_measured_at_import(office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id)
    ev.eligibility = {**ev.eligibility, "facts": {**ev.eligibility["facts"], "rated": 13}}  # 3 of 16 unrated
    ev.save(update_fields=["eligibility"])
    assert event_proposal(ev).proposal.grading_event
    ev.eligibility["facts"]["rated"] = 12
    ev.save(update_fields=["eligibility"])
    assert [str(f) for f in event_proposal(ev).proposal.failures] == [
        "BJSH §9(一): 4 of 16 players were unrated; at most 20% may be"]


def test_a_holder_of_a_higher_grade_is_told_so(office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id)
    champion = Player.objects.get(entries__event=ev, entries__rank=2)
    grant_grade(champion, "5d", granted_on=date(2023, 5, 1), granted_by="中国棋院", actor="officer")
    line = next(x for x in event_proposal(ev).proposal.lines if x.placing.rank == 2)
    assert line.outcome is Outcome.HOLDS and str(line.reason) == "earns 5d; holds 5d already (中国棋院, 2023-05-01)"


def test_a_grade_granted_after_the_event_is_not_what_he_held_at_it(office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id)
    p = Player.objects.get(entries__event=ev, entries__rank=5)
    grant_grade(p, "5d", granted_on=ev.end_date + timedelta(days=30), granted_by="中国棋院", actor="officer")
    line = next(x for x in event_proposal(ev).proposal.lines if x.placing.rank == 5)
    assert line.outcome is Outcome.GRANT and line.placing.held is None


def test_a_standard_names_its_event_by_id_when_the_names_differ(office, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id, standard=None)
    s = record_standard("全国锦标赛（简称）", START, "national", actor="officer", today=date(2024, 7, 1))
    assert event_proposal(ev).standard is None
    assert event_proposal(ev, standard_id=s.pk).proposal.grading_event
    assert len(confirm_proposals(ev, standard_id=s.pk, actor="officer")) == 16
    with pytest.raises(NotFound):
        event_proposal(ev, standard_id=999)


# -- grading standards ------------------------------------------------------------------------------------


def test_bjsh_9_3_a_standard_is_recorded_only_before_the_event_starts(office):
    with pytest.raises(GradeRefused) as caught:
        record_standard(NAME, START, "national", actor="officer", today=START)
    assert messages(caught) == ["the event starts on 2024-08-10: a standard must be recorded before the start "
                                "(BJSH §9(三)), and today is 2024-08-10"]
    s = record_standard(NAME, START, "national", rating_list="CGA", actor="officer", today=START - timedelta(days=1))
    assert (s.recorded_on, s.policy, s.recorded_by) == (START - timedelta(days=1), PolicyVersion.objects.get(),
                                                        "officer")
    assert AuditLog.objects.filter(action="dan.standard").count() == 1


def test_a_standard_with_every_problem_at_once_is_refused(office, make_association):
    from qiyuan.office.ratings.models import RatingList

    RatingList.objects.create(code="GO", title="GO", rules_name="cn-go-1995", game="go")
    record_standard(NAME, START, "national", actor="officer", today=date(2024, 1, 1))
    with pytest.raises(GradeRefused) as caught:
        record_standard(f"  {NAME} ", START, "world", rating_list="XX", actor="officer", today=date(2024, 1, 1))
    assert messages(caught) == ["class 'world' is not in the policy example (classes: national, national-women, "
                                "regional)", "unknown rating list 'XX'",
                                f"a standard for {NAME} starting 2024-08-10 is recorded already"]
    with pytest.raises(GradeRefused) as caught:
        record_standard("围棋赛", START, "national", rating_list="GO", actor="officer", today=date(2024, 1, 1))
    assert messages(caught) == ["class national covers lists CGA, not GO"]
    with pytest.raises(GradeRefused):
        record_standard(" ", START, "national", actor="officer", today=date(2024, 1, 1))
    assert GradingStandard.objects.count() == 1


def test_no_standard_without_an_installed_policy(make_association):
    with pytest.raises(GradeRefused) as caught:
        record_standard(NAME, START, "national", actor="officer", today=date(2024, 1, 1))
    assert "no grant policy is installed" in messages(caught)[0]


# -- grants by hand: every refusal --------------------------------------------------------------------------


def test_a_grant_by_hand_records_the_body_date_and_event(office, make_player, tmp_path, resident_id):
    ev = imported_event(tmp_path, resident_id)
    p = make_player("王五")
    g = grant_grade(p, "三段", granted_on=date(2024, 9, 1), granted_by="演示五子棋协会", event=ev, actor="officer")
    assert (g.grade, g.event, g.clause, g.serial) == ("3d", ev, "by hand", "DEMO-2024-00001")
    rif = grant_grade(p, "4d", granted_on=date(2024, 10, 1), granted_by="RIF", actor="officer")
    assert rif.serial == ""  # another body's grant: no certificate of ours
    assoc = grant_grade(p, "4d", granted_on=date(2024, 11, 1), granted_by="BJ", actor="officer")
    assert assoc.granted_by == "BJ棋协"  # a registered association (BJSH §13(二)4), by its name
    p.refresh_from_db()
    assert p.dan == "4d"
    assert [r.body for r in grade_history(p)] == ["演示五子棋协会", "RIF", "BJ棋协"]
    assert AuditLog.objects.filter(action="player.dan", object_id=str(p.pk)).count() == 3


def test_article_5_a_grant_above_the_cap_in_force_on_its_date_is_refused_and_nothing_written(office, make_player):
    p = make_player("王五")
    before = counts()
    with pytest.raises(GradeRefused) as caught:
        grant_grade(p, "7d", granted_on=date(2024, 1, 1), granted_by="中国棋院", actor="officer")
    assert messages(caught) == [f"{p.federation_id}: 7d is above the cap 6d in force on 2024-01-01 (第五条)"]
    assert counts() == before
    # raising the cap (第五条) is a new dated step of the policy: from its date on, 7d may be granted
    install_example(example_text().replace('# [[cap]]\n# since = "2030-01-01"\n# grade = "7d"',
                                           '[[cap]]\nsince = "2025-01-01"\ngrade = "7d"'))
    with pytest.raises(GradeRefused):
        grant_grade(p, "7d", granted_on=date(2024, 12, 31), granted_by="中国棋院", actor="officer")
    assert grant_grade(p, "7d", granted_on=date(2025, 1, 1), granted_by="中国棋院", actor="officer").grade == "7d"


def test_a_lower_grade_is_refused_without_demote_and_a_reason(office, make_player):
    p = make_player("王五")
    grant_grade(p, "4d", granted_on=date(2020, 1, 1), granted_by="中国棋院", actor="officer")
    before = counts()
    with pytest.raises(GradeRefused) as caught:
        grant_grade(p, "2d", granted_on=date(2024, 1, 1), granted_by="中国棋院", actor="officer")
    assert messages(caught) == [f"{p.federation_id}: 2d is lower than the 4d held on 2024-01-01 (中国棋院, "
                                "2020-01-01); a demotion needs --demote and a reason"]
    with pytest.raises(GradeRefused) as caught:
        grant_grade(p, "2d", granted_on=date(2024, 1, 1), granted_by="中国棋院", demote=True, actor="officer")
    assert messages(caught) == [f"{p.federation_id}: a demotion needs a reason"]
    assert counts() == before
    g = grant_grade(p, "2d", granted_on=date(2024, 1, 1), granted_by="中国棋院", demote=True,
                    reason="committee decision 2023-12", actor="officer")
    assert g.demotion_reason == "committee decision 2023-12"
    p.refresh_from_db()
    assert p.dan == "2d" and grade_on(p, date(2023, 12, 31)).grade == "4d" and grade_on(p, date(2024, 1, 1)).grade == "2d"
    # a grade earned later may again be 3d: a demotion is no lowering to protect
    assert grant_grade(p, "3d", granted_on=date(2024, 6, 1), granted_by="中国棋院", actor="officer").grade == "3d"


def test_a_backdated_grant_must_not_turn_a_later_one_into_a_lowering(office, make_player):
    p = make_player("王五")
    grant_grade(p, "2d", granted_on=date(2024, 1, 1), granted_by="中国棋院", actor="officer")
    with pytest.raises(GradeRefused) as caught:
        grant_grade(p, "3d", granted_on=date(2023, 1, 1), granted_by="RIF", actor="officer")
    assert "a later grant (2d on 2024-01-01, 中国棋院) would then lower the grade" in messages(caught)[0]
    grant_grade(p, "1d", granted_on=date(2023, 1, 1), granted_by="RIF", actor="officer")
    p.refresh_from_db()
    assert p.dan == "2d"  # the latest grant by date


def test_an_unknown_grade_or_body_is_refused_with_every_problem(office, make_player):
    p = make_player("王五")
    with pytest.raises(GradeRefused) as caught:
        grant_grade(p, "10d", granted_on=date(2024, 1, 1), granted_by="某俱乐部", actor="officer")
    assert messages(caught) == [
        f"{p.federation_id}: '10d' is not a grade (9d…1d, 1k…10k; 九段…初段, 一级…十级)",
        f"{p.federation_id}: '某俱乐部' is not a recognised body (BJSH §13(二)): 演示五子棋协会, 中国棋院, RIF, 日本连珠社, "
        "or a registered association"]
    assert isinstance(caught.value, RegistryError) and DanGrant.objects.count() == 0


def test_a_merged_duplicate_is_not_granted(office, make_player):
    from qiyuan.office.registry import merge_players

    keep, dup = make_player("王五"), make_player("王五")
    merge_players(keep, dup, "officer")
    with pytest.raises(GradeRefused) as caught:
        grant_grade(dup, "1d", granted_on=date(2024, 1, 1), granted_by="中国棋院", actor="officer")
    assert "merged into another record" in messages(caught)[0]


def test_registering_with_a_grade_runs_the_same_checks(office, make_association):
    from qiyuan.office.registry import register_player

    make_association("BJ")
    with pytest.raises(RegistryError) as caught:
        register_player(name="赵六", gender="M", association="BJ", dan="8d", dan_granted_on=date(2020, 1, 1),
                        dan_granted_by="中国棋院", actor="t", today=date(2024, 1, 1))
    assert "8d is above the cap 6d in force on 2020-01-01 (第五条)" in messages(caught)[0]
    assert not Player.objects.filter(name="赵六").exists()
    p = register_player(name="赵六", gender="M", association="BJ", dan="3d", dan_granted_on=date(2020, 1, 1),
                        dan_granted_by="RIF", actor="t", today=date(2024, 1, 1))
    assert p.dan == "3d" and [(g.grade, g.granted_by) for g in p.dan_grants.all()] == [("3d", "RIF")]


# -- the policy in force -------------------------------------------------------------------------------------


def test_without_a_policy_the_texts_alone_are_in_force(make_player):
    assert policy_in_force().version is None and policy_in_force().policy.name == "texts"
    p = make_player("王五")
    with pytest.raises(GradeRefused) as caught:
        grant_grade(p, "7d", granted_on=date(2024, 1, 1), granted_by="中国棋院", actor="officer")
    assert "7d is above the cap 6d in force on 2024-01-01 (第五条)" in messages(caught)[0]
    assert grant_grade(p, "7d", granted_on=date(2024, 1, 1), granted_by="日本连珠社", actor="o").serial == ""


def test_a_policy_file_is_installed_once_checked_and_audited(make_association):
    v = install_example()
    assert policy_in_force().version == v and AuditLog.objects.get(action="dan.policy").detail["caps"] == [
        ["2000-01-01", "6d"]]
    with pytest.raises(GradeRefused) as caught:
        install_example()
    assert "this policy is in force already" in messages(caught)[0]
    with pytest.raises(PolicyError) as bad:
        install_policy('name = "x"\n', file="bad.toml", actor="o")
    assert all(p.file == "bad.toml" for p in bad.value.problems) and PolicyVersion.objects.count() == 1


def test_a_policy_whose_cap_a_recorded_grant_exceeds_is_refused(office, make_player):
    p = make_player("王五")
    grant_grade(p, "6d", granted_on=date(2010, 1, 1), granted_by="中国棋院", actor="officer")
    lower = example_text().replace('since = "2000-01-01"\ngrade = "6d"', 'since = "2000-01-01"\ngrade = "5d"')
    with pytest.raises(GradeRefused) as caught:
        install_policy(lower, file="lower.toml", actor="officer")
    assert messages(caught) == [f"{p.federation_id} was granted 6d by 中国棋院 on 2010-01-01; this policy's cap on "
                                "that day is 5d"]
    assert PolicyVersion.objects.count() == 1


# -- item 4: the grade held on the date, and its body, reach the rating engine --------------------------------


def test_a_list_member_is_frozen_with_the_grade_held_when_his_first_event_began(office, tmp_path, resident_id,
                                                                               make_player):
    from qiyuan.office.engine import member_from_registry
    from qiyuan.office.ratings.models import ListMember

    p = make_player("王五")
    grant_grade(p, "2d", granted_on=date(2020, 1, 1), granted_by="中国棋院", actor="officer")
    grant_grade(p, "4d", granted_on=date(2024, 8, 13), granted_by="演示五子棋协会", actor="officer")
    before = member_from_registry(office, p, on=date(2024, 8, 10))
    assert (before.dan, before.dan_granted_by) == ("2d", "中国棋院")
    after = member_from_registry(office, p, on=date(2024, 8, 13))
    assert (after.dan, after.dan_granted_by) == ("4d", "演示五子棋协会")
    assert member_from_registry(office, p, on=date(2019, 1, 1)).dan == ""
    # an import freezes the members of its event with the grade held on the event's start
    ev = imported_event(tmp_path, resident_id)
    q = Player.objects.get(entries__event=ev, entries__rank=1)
    m = ListMember.objects.get(rating_list=office, player=q)
    assert (m.dan, m.dan_granted_by) == ("", "")
    confirm_proposals(ev, actor="officer")
    m.refresh_from_db()
    assert m.dan == ""  # frozen: the grant that came after the event's start never changes the list's facts


def test_the_period_reads_the_frozen_body_of_each_member(office, make_player):
    from qiyuan.office.engine import member_from_registry
    from qiyuan.office.periods import _members

    p = make_player("王五")
    grant_grade(p, "3d", granted_on=date(2008, 1, 1), granted_by="中国棋院", actor="officer")
    member_from_registry(office, p, on=date(2011, 3, 1)).save()
    ((fid, facts),) = _members(office, set())
    assert fid == p.federation_id and (facts.dan, facts.dan_granted_by) == ("3d", "中国棋院")
