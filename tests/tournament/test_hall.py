"""Results from the players' phones (赛场手机报分), the pure rules: reported by one player, confirmed by
the other from his own phone, disputed on any difference or change, signed only by the arbiter; and
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


def test_the_first_choice_is_reported_and_the_others_same_choice_confirms():
    c = hall.report(None, B, 9, "0-1", "phone-b")
    assert (c.state, c.result, c.reported_by) == (hall.REPORTED, "0-1", 9)
    c = hall.report(c, B, 5, "0-1", "phone-a")
    assert (c.state, c.confirmed_by) == (hall.CONFIRMED, 5)


def test_the_other_player_must_confirm_from_his_own_phone():
    c = hall.report(None, B, 5, "1-0", "phone-a")
    with pytest.raises(EventError, match="his own phone"):
        hall.report(c, B, 9, "1-0", "phone-a")


def test_another_result_or_a_change_goes_to_the_arbiter():
    c = hall.report(None, B, 5, "1-0", "a")
    d = hall.report(c, B, 9, "½-½", "b")
    assert (d.state, d.result, d.disputed_result) == (hall.DISPUTED, "1-0", "½-½")
    changed = hall.report(c, B, 5, "0-1", "a")  # the reporter changes his mind
    assert changed.state == hall.DISPUTED
    confirmed = hall.report(hall.report(c, B, 9, "1-0", "b"), B, 9, "0-1", "b")  # a change after confirming
    assert confirmed.state == hall.DISPUTED


def test_a_signed_or_entered_result_is_the_arbiters():
    c = hall.sign(hall.report(hall.report(None, B, 5, "1-0", "a"), B, 9, "1-0", "b"))
    assert c.state == hall.SIGNED
    with pytest.raises(EventError, match="signed"):
        hall.report(c, B, 5, "0-1", "a")
    entered = hall.Board(2, 3, 5, 9, "张三", "李四", result="1-0")
    with pytest.raises(EventError, match="entered"):
        hall.report(None, entered, 5, "0-1", "a")


def test_the_arbiter_signs_a_disputed_board_only_with_his_decision():
    d = hall.report(hall.report(None, B, 5, "1-0", "a"), B, 9, "0-1", "b")
    with pytest.raises(EventError, match="not confirmed"):
        hall.sign(d)
    assert hall.sign(d, "½-½").result == "½-½"


def test_only_the_boards_players_and_real_results():
    with pytest.raises(EventError, match="does not play"):
        hall.report(None, B, 7, "1-0", "x")
    with pytest.raises(EventError, match="1-0, ½-½ or 0-1"):
        hall.report(None, B, 5, "2-0", "x")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([5, 9]), st.sampled_from(hall.PHONE_RESULTS),
                          st.sampled_from(["a", "b"])), min_size=1, max_size=8))
def test_a_confirmed_claim_always_has_two_players_on_two_phones_agreeing(steps):
    claim = None
    for player, result, device in steps:
        try:
            claim = hall.report(claim, B, player, result, device)
        except EventError:
            continue
        assert claim.state != hall.SIGNED  # only the arbiter signs
        if claim.state == hall.CONFIRMED:
            assert claim.confirmed_by not in (None, claim.reported_by)
            assert claim.reporter_device != claim.confirmer_device


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
