"""Results from the players' phones (赛场手机报分), the pure rules: reported by one player, confirmed by
the other (each through his own credential), corrected by the reporter before the confirmation, disputed by
whoever disagrees or changes after it, signed only by the arbiter; the provenance record (XRP); and
check-in closing (签到截止) making the players who did not check in absent in the next round."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import hall
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.state import rounds_paired

B = hall.Board(2, 3, first=5, second=9, first_name="张三", second_name="李四", result="")


def _say(claim, player, result):
    return hall.report(claim, B, player, result)[0]


def test_the_first_choice_is_reported_and_the_others_same_choice_confirms():
    c, step = hall.report(None, B, 9, "0-1")
    assert (c.state, c.result, c.reported_by) == (hall.REPORTED, "0-1", 9) and step == hall.Step(9, "reported", "0-1")
    c, step = hall.report(c, B, 5, "0-1")
    assert (c.state, c.confirmed_by) == (hall.CONFIRMED, 5) and step.what == "confirmed"


def test_the_reporter_choosing_his_own_result_again_confirms_nothing():
    c = _say(None, B.first, "1-0")
    again, step = hall.report(c, B, B.first, "1-0")
    assert again == c and step is None and again.state == hall.REPORTED


def test_a_change_by_the_reporter_before_the_confirmation_is_a_correction_not_a_dispute():
    c = _say(None, 5, "1-0")
    corrected, step = hall.report(c, B, 5, "0-1")
    assert (corrected.state, corrected.result, corrected.reported_by) == (hall.REPORTED, "0-1", 5)
    assert step == hall.Step(5, "corrected", "0-1", "1-0")
    assert _say(corrected, 9, "0-1").state == hall.CONFIRMED  # the other confirms the corrected result


def test_another_result_from_the_other_player_is_his_dispute():
    d, step = hall.report(_say(None, 5, "1-0"), B, 9, "½-½")
    assert (d.state, d.result, d.disputed_result, d.disputed_by) == (hall.DISPUTED, "1-0", "½-½", 9)
    assert step == hall.Step(9, "disputed", "½-½", "1-0")


def test_a_change_after_the_confirmation_by_the_reporter_is_his_dispute_not_the_confirmers():
    confirmed = _say(_say(None, 5, "1-0"), 9, "1-0")
    d, step = hall.report(confirmed, B, 5, "½-½")
    assert (d.state, d.disputed_by, d.disputed_result, d.result) == (hall.DISPUTED, 5, "½-½", "1-0")
    assert step == hall.Step(5, "changed", "½-½", "1-0")
    by_confirmer, step = hall.report(confirmed, B, 9, "0-1")
    assert (by_confirmer.disputed_by, step.by) == (9, 9)


def test_in_a_dispute_each_player_changes_only_his_own_answer():
    d = _say(_say(None, 5, "1-0"), 9, "0-1")
    mine, step = hall.report(d, B, 9, "½-½")
    assert (mine.result, mine.disputed_result, step.was) == ("1-0", "½-½", "0-1")
    theirs, step = hall.report(d, B, 5, "½-½")
    assert (theirs.result, theirs.disputed_result, theirs.state) == ("½-½", "0-1", hall.DISPUTED)
    assert hall.report(d, B, 9, "0-1") == (d, None)


def test_a_signed_or_entered_result_is_the_arbiters():
    c = hall.sign(_say(_say(None, 5, "1-0"), 9, "1-0"))
    assert c.state == hall.SIGNED
    with pytest.raises(EventError, match="signed"):
        hall.report(c, B, 5, "0-1")
    entered = hall.Board(2, 3, 5, 9, "张三", "李四", result="1-0")
    with pytest.raises(EventError, match="entered"):
        hall.report(None, entered, 5, "0-1")


def test_the_arbiter_signs_a_disputed_board_only_with_his_decision():
    d = _say(_say(None, 5, "1-0"), 9, "0-1")
    with pytest.raises(EventError, match="not confirmed"):
        hall.sign(d)
    assert hall.sign(d, "½-½").result == "½-½"


def test_only_the_boards_players_and_real_results():
    with pytest.raises(EventError, match="does not play"):
        hall.report(None, B, 7, "1-0")
    with pytest.raises(EventError, match="1-0, ½-½ or 0-1"):
        hall.report(None, B, 5, "2-0")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([5, 9]), st.sampled_from(hall.PHONE_RESULTS)), min_size=1, max_size=10))
def test_a_confirmed_claim_always_has_both_players_agreeing_and_every_dispute_names_who_disputed(steps):
    claim, said = None, {}
    for player, result in steps:
        claim, step = hall.report(claim, B, player, result)
        if step is not None:
            assert step.by == player and step.result == result
            said[player] = result
        assert claim.state != hall.SIGNED  # only the arbiter signs
        if claim.state == hall.CONFIRMED:  # two players, through their own credentials, the same result
            assert claim.confirmed_by not in (None, claim.reported_by)
            assert said[5] == said[9] == claim.result
        if claim.state == hall.DISPUTED:  # the disputer is the one who last chose a result the other did not
            assert claim.disputed_by in (5, 9) and said[claim.disputed_by] == claim.disputed_result
        if claim.state == hall.REPORTED:  # only the reporter has spoken: corrections are not disputes
            assert set(said) == {claim.reported_by} and said[claim.reported_by] == claim.result


def test_provenance_is_recorded_in_the_event_file_and_read_back():
    from qiyuan.formats.trf import read_trf, write_trf

    t = _event()
    acts = (hall.Act("reported", "5", "p5.1", "20261206T101500Z"), hall.Act("confirmed", "9", "p9.2", "20261206T1016Z"),
            hall.Act("signed", "chief arbiter:x", "arbiter", "20261206T1020Z"))
    hall.record_provenance(t, [hall.Provenance(1, 3, "1-0", acts)])
    hall.record_provenance(t, [hall.Provenance(1, 1, "½-½", acts[:1])])
    t = read_trf(write_trf(t))
    got = hall.provenances(t)
    assert list(got) == [(1, 1), (1, 3)]
    assert got[(1, 3)].acts[2] == hall.Act("signed", "chief_arbiter_x", "arbiter", "20261206T1020Z")
    assert got[(1, 3)].acts[:2] == acts[:2] and got[(1, 3)].result == "1-0"
    assert t.extra["XRP"][1].startswith("1 3 1-0 reported:5:p5.1:")


def _event(n: int = 6):
    t = ev.new_event("签到测试", fmt="swiss", rounds=3)
    for i in range(n):
        ev.add_player(t, Entrant(0, f"棋手{i + 1}", rating=2000 - i))
    return t


def test_closing_check_in_makes_the_others_absent_in_the_next_round():
    t = _event()
    assert hall.absent_at_close(t, 1, [1, 2, 3, 4]) == [5, 6]
    ev.excuse(t, 6, [1], "H")  # excused already: not absent as well
    assert hall.absent_at_close(t, 1, [1, 2, 3, 4]) == [5]
    with pytest.raises(EventError, match="next round"):
        hall.absent_at_close(t, 2, [])
    assert rounds_paired(t) == 0


def test_the_event_file_records_the_closing_and_a_late_entry_is_absent_too():
    from qiyuan.formats.trf import read_trf, write_trf

    t = _event()
    assert hall.close_check_in(t, 1, [1, 2, 3, 4]) == [5, 6]
    t = read_trf(write_trf(t))  # the record survives the file
    assert hall.closed_check_ins(t) == {1: [5, 6]}
    with pytest.raises(EventError, match="closed already"):
        hall.close_check_in(t, 1, [])
    ev.add_player(t, Entrant(0, "迟到者", rating=1500))
    assert hall.late_entry(t, 7) and hall.closed_check_ins(t) == {1: [5, 6, 7]}
    assert hall.reopen_check_in(t, 1) == [5, 6, 7]
    assert hall.closed_check_ins(t) == {} and hall.absent_at_close(t, 1, []) == [1, 2, 3, 4, 5, 6, 7]
    assert not hall.late_entry(t, 7)


def test_reopening_a_paired_round_is_refused():
    t = _event()
    hall.close_check_in(t, 1, [1, 2, 3, 4])
    ev.pair_next(t)
    with pytest.raises(EventError, match="already paired"):
        hall.reopen_check_in(t, 1)


@given(komi=st.decimals(min_value=0, max_value=10, places=1), stones=st.integers(0, 9),
       result=st.sampled_from(hall.PHONE_RESULTS))
def test_a_go_board_takes_a_jigo_only_where_its_komi_allows_one(komi, stones, result):
    """Issue 31 on the phones: ½-½ on a Go board whose komi is not a whole number (an even game with 7.5) is
    refused by name; a whole komi, or a handicap game (no komi), takes it; a win is taken on every board."""
    from decimal import Decimal

    from qiyuan.tournament import go

    s = go.GoSettings(komi=komi)
    terms = go.board_terms(s, {5: go.GoPlayer(5, handicaps={2: stones})}, 2, 5)
    assert terms == go.BoardTerms(stones, None if stones else komi, stones > 0 or komi % 1 == 0)
    board = hall.Board(2, 3, 5, 9, "张三", "李四", "", terms)
    if result == "½-½" and stones == 0 and komi % 1 != Decimal(0):
        with pytest.raises(EventError) as exc:
            hall.report(None, board, 5, result)
        assert exc.value.problems[0].code == "hall.no_jigo" and str(komi) in exc.value.problems[0].text()
    else:
        assert hall.report(None, board, 5, result)[0].result == result
