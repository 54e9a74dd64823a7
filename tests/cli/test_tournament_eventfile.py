"""Event-file operations (qiyuan.tournament.eventfile): the arbiter's hard rules and bookkeeping."""

from __future__ import annotations

import pytest

from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import sheets
from qiyuan.tournament.model import Entrant, RoundCell


def six():
    t = ev.new_event("Test", rounds=5)
    for i in range(6):
        ev.add_player(t, Entrant(0, f"P{i + 1}", rating=2000 + i))
    return t


def test_new_event_records_format_and_rejects_unknown():
    t = ev.new_event("RR", fmt="round_robin")
    assert ev.event_format(read_trf(write_trf(t) + "001    1      A                                                                  0.0\n"
                                    "001    2      B                                                                  0.0\n")) == "round_robin"
    with pytest.raises(ev.EventError, match="unknown format"):
        ev.new_event("X", fmt="league")


def test_draw_by_lot_is_reproducible_from_the_recorded_seed():
    a, b = six(), six()
    ev.draw_numbers(a, seed=42)
    ev.draw_numbers(b, seed=42)
    assert [e.name for e in a.entrants] == [e.name for e in b.entrants]
    assert [e.number for e in a.entrants] == [1, 2, 3, 4, 5, 6]
    assert a.extra["XQD"] == ["lot seed 42"]
    assert read_trf(write_trf(a)).extra["XQD"] == ["lot seed 42"]


def test_draw_as_given_and_its_checks():
    t = six()
    ev.draw_numbers(t, order=[6, 5, 4, 3, 2, 1])
    assert [e.name for e in t.entrants] == ["P6", "P5", "P4", "P3", "P2", "P1"]
    with pytest.raises(ev.EventError, match="missing"):
        ev.draw_numbers(t, order=[1, 2, 3])
    ev.set_round(t, 1, [(1, 2), (3, 4), (5, 6)], None)
    with pytest.raises(ev.EventError, match="fixed once round 1 is paired"):
        ev.draw_numbers(t, seed=1)


def test_late_entry_is_absent_for_rounds_already_paired():
    t = six()
    ev.set_round(t, 1, [(1, 2), (3, 4), (5, 6)], None)
    e = ev.add_player(t, Entrant(0, "Late"))
    assert e.number == 7 and e.rounds == [RoundCell(None, "-", "Z")]
    with pytest.raises(ev.EventError, match="already entered"):
        ev.add_player(t, Entrant(0, "Late"))


def test_results_both_sides_and_forfeits():
    t = six()
    ev.set_round(t, 1, [(1, 2), (3, 4), (5, 6)], None)
    assert ev.unfinished_boards(t, 1) == [(1, 2), (3, 4), (5, 6)]
    ev.enter_result(t, 1, 2, "0-1")
    ev.enter_result(t, 1, 3, "½-½")
    ev.enter_result(t, 1, 6, "-+")
    assert [e.rounds[0].result for e in t.entrants] == ["1", "0", "=", "=", "+", "-"]
    assert ev.unfinished_boards(t, 1) == []
    assert [ev.score(e, t.points) for e in t.entrants] == [2, 0, 1, 1, 2, 0]
    with pytest.raises(ev.EventError, match="unknown result"):
        ev.enter_result(t, 1, 1, "3-0")
    with pytest.raises(ev.EventError, match="no game in round 2"):
        ev.enter_result(t, 2, 1, "1-0")


def test_law_1_hand_pairing_checked_against_the_hard_rules():
    t = six()
    ev.set_round(t, 1, [(1, 2), (3, 4), (5, 6)], None)
    ev.withdraw(t, 6)
    faults = [str(p) for p in ev.check_pairing(t, 2, [(2, 1), (3, 3), (4, 6)], None)]
    assert "board 1 (2-1): 2 and 1 already met in round 1" in faults
    assert "board 2 (3-3): player 3 cannot play himself" in faults
    assert "board 3 (4-6): player 6 is withdrawn or absent in round 2" in faults
    assert "not paired: 5" in faults
    assert "an odd number of players needs a bye" in faults
    ev.set_round(t, 2, [(1, 3), (2, 4)], 5)
    faults = [str(p) for p in ev.check_pairing(t, 3, [(1, 4), (2, 3)], 5)]
    assert faults == ["player 5 already had the bye in round 2"]
    assert ev.check_pairing(t, 3, [(1, 4), (5, 3)], 2) == []


def test_excuse_and_withdraw():
    t = six()
    ev.excuse(t, 4, 1, "H")
    assert not ev.is_active(t.entrants[3], 1) and ev.is_active(t.entrants[3], 2)
    assert ev.excuse(t, 4, 3) == [3]  # any round not yet paired: kept until round 3 comes
    assert t.entrants[3].excused == {3: "Z"} and not ev.is_active(t.entrants[3], 3)
    ev.set_round(t, 1, [(1, 2), (3, 5)], 6)
    assert t.entrants[3].rounds == [RoundCell(None, "-", "H")]
    with pytest.raises(ev.EventError, match="already paired"):
        ev.excuse(t, 1, 1)
    assert ev.withdraw(t, 2) == 1
    assert not ev.is_active(t.entrants[1], 2)
    with pytest.raises(ev.EventError, match="no player 9"):
        ev.withdraw(t, 9)


def test_undo_only_the_last_round_and_only_without_results():
    t = six()
    ev.set_round(t, 1, [(1, 2), (3, 4), (5, 6)], None)
    for p in (1, 3, 5):
        ev.enter_result(t, 1, p, "1-0")
    ev.excuse(t, 6, 2)
    ev.set_round(t, 2, [(1, 3), (2, 5)], 4)
    with pytest.raises(ev.EventError, match="only the last round"):
        ev.clear_round(t, 1)
    ev.enter_result(t, 2, 1, "1-0")
    with pytest.raises(ev.EventError, match="already has results"):
        ev.clear_round(t, 2)
    ev.enter_result(t, 2, 1, " ", change=True)
    ev.clear_round(t, 2)
    assert ev.rounds_paired(t) == 1
    assert t.entrants[5].rounds[1] == RoundCell(None, "-", "Z")  # the absence entered before stays
    assert all(len(e.rounds) == 1 for e in t.entrants[:5])


def test_round_table_and_crosstable_text():
    t = six()
    ev.set_round(t, 1, [(1, 2), (3, 4)], None)
    ev.enter_result(t, 1, 1, "1-0")
    table = sheets.round_table(t, 1)
    lines = table.splitlines()
    assert lines[3].split() == ["1", "1", "P1", "0", "2000", "2", "P2", "0", "2001", "1-0"]
    assert lines[4].split() == ["2", "3", "P3", "0", "2002", "4", "P4", "0", "2003"]
    assert lines[5].split() == ["5", "P5", "0", "2004", "absent"]
    cross = sheets.crosstable(t).splitlines()
    assert cross[1].split() == ["1", "P1", "2000", "2b1", "2"]
    assert cross[5].split() == ["5", "P5", "2004", "Z", "0"]


# -- property: whatever the arbiter does, the file stays consistent and reads back the same --------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from qiyuan.tournament.swiss import PairingError, apply_pairing, pair_round  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 14), st.data())
def test_property_event_file_stays_consistent(n, data):
    t = ev.new_event("P", rounds=6)
    for i in range(n):
        ev.add_player(t, Entrant(0, f"P{i + 1}", rating=1500 + i))
    ev.draw_numbers(t, seed=data.draw(st.integers(0, 10**6)))
    for rnd in range(1, 7):
        action = data.draw(st.sampled_from(["none", "withdraw", "excuse", "late"]))
        active = [e.number for e in t.entrants if ev.is_active(e, rnd)]
        if action == "withdraw" and len(active) > 2:
            ev.withdraw(t, data.draw(st.sampled_from(active)))
        elif action == "excuse" and len(active) > 2:
            ev.excuse(t, data.draw(st.sampled_from(active)), rnd, data.draw(st.sampled_from("ZHF")))
        elif action == "late":
            ev.add_player(t, Entrant(0, f"L{rnd}"))
        for e in t.entrants:
            if not ev.is_active(e, rnd):
                ev.excuse_fill(e, rnd)
        try:
            pairing = pair_round(t, rnd)
        except PairingError:
            break
        # the engine's pairing passes the arbiter's hard-rule check of hand pairings
        assert ev.check_pairing(t, rnd, [(b.opener, b.other) for b in pairing.boards], pairing.bye) == []
        apply_pairing(t, pairing)
        for b in pairing.boards:
            ev.enter_result(t, rnd, b.opener, data.draw(st.sampled_from(["1-0", "0-1", "½-½", "+-", "-+", "--"])))
        assert ev.unfinished_boards(t, rnd) == []
        for e in t.entrants:
            e.points = None
        back = read_trf(write_trf(t))  # raises on any inconsistency: asymmetric cells, wrong scores
        assert [e.rounds for e in back.entrants] == [e.rounds for e in t.entrants]
        assert ev.rounds_paired(back) == rnd


def test_reinstate_a_withdrawn_player():
    t = six()
    ev.set_round(t, 1, [(1, 2), (3, 4), (5, 6)], None)
    ev.withdraw(t, 6)
    ev.excuse_fill(t.entrants[5], 2)
    ev.reinstate(t, 6)
    assert t.entrants[5].withdrawn_after is None and len(t.entrants[5].rounds) == 1
    assert ev.is_active(t.entrants[5], 2)
    with pytest.raises(ev.EventError, match="has not withdrawn"):
        ev.reinstate(t, 6)


def _play_round(t, rnd: int) -> None:
    for a, _b in ev.unfinished_boards(t, rnd):
        ev.enter_result(t, rnd, a, "1-0")


@pytest.mark.parametrize("fmt", ["swiss", "round_robin", "knockout"])
def test_pair_next_pairs_every_format_and_writes_the_round(fmt):
    t = ev.new_event("Any", fmt=fmt, rounds=3 if fmt != "knockout" else None)
    for i in range(4):
        ev.add_player(t, Entrant(0, f"P{i + 1}", rating=2000 - i))
    for rnd in (1, 2):
        p = ev.pair_next(t)
        assert isinstance(p, ev.RoundPairing) and p.number == rnd
        assert ev.rounds_paired(t) == rnd
        assert sorted(x for b in p.boards for x in b) == sorted(x for b in ev.unfinished_boards(t, rnd) for x in b)
        with pytest.raises(ev.EventError, match="without a result"):
            ev.pair_next(t)
        _play_round(t, rnd)
    if fmt == "knockout":  # 4 players: semi-finals, final, then over
        with pytest.raises(ev.EventError, match="knock-out is over"):
            ev.pair_next(t)
    else:
        ev.pair_next(t)
        _play_round(t, 3)
        with pytest.raises(ev.EventError, match="rounds are paired|round robin is complete"):
            ev.pair_next(t)


def test_next_pairing_does_not_write_the_round():
    t = six()
    p = ev.next_pairing(t, explain=True)
    assert p.number == 1 and len(p.boards) == 3 and p.explanation
    assert ev.rounds_paired(t) == 0


def test_round_robin_without_planned_rounds_stops_after_the_cycle():
    t = ev.new_event("RR", fmt="round_robin")
    for i in range(4):
        ev.add_player(t, Entrant(0, f"P{i + 1}", rating=2000 - i))
    for rnd in (1, 2, 3):
        ev.pair_next(t)
        _play_round(t, rnd)
    with pytest.raises(ev.EventError, match="round robin is complete"):
        ev.pair_next(t)


def test_issue22_item1_two_players_of_one_name_and_association_are_entered_when_told_apart(resident_id):
    from datetime import date

    t = ev.new_event("x")
    a = ev.add_player(t, Entrant(0, "王伟", federation="北京", id_number=resident_id(date(1990, 1, 1), "M")))
    b = ev.add_player(t, Entrant(0, "王伟", federation="北京", id_number=resident_id(date(1995, 5, 5), "M")))
    c = ev.add_player(t, Entrant(0, "王伟", federation="北京", birth="2001/02/03"))
    assert (a.number, b.number, c.number) == (1, 2, 3) and {e.name for e in t.entrants} == {"王伟"}
    with pytest.raises(ev.EventError, match="the same ID number is already entered as number 1"):
        ev.add_player(t, Entrant(0, "王伟", federation="上海", id_number=a.id_number))
    with pytest.raises(ev.EventError, match=r"王伟 \(北京\) is already entered as number 3; if they are two"):
        ev.add_player(t, Entrant(0, "王伟", federation="北京", birth="2001-02-03"))
    ev.add_player(t, Entrant(0, "李娜", player_id="CN000001"))
    with pytest.raises(ev.EventError, match=r"registry id CN000001\) is already entered as number 4"):
        ev.add_player(t, Entrant(0, "李娜", federation="天津", player_id="CN000001"))
