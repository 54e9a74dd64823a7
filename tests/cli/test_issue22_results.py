"""Issue 22, items 2 and 9 (set-pairing, result): no result is overwritten silently, a refused
change leaves the event file byte for byte, the audit trail says who changed what; one wrong
board of a hand-made pairing reads as one fault; a bad result names its player."""

from __future__ import annotations

import json

import pytest

from qiyuan.cli import lang
from qiyuan.formats.trf import write_trf
from qiyuan.tournament import eventfile as ev_core
from qiyuan.tournament.model import Entrant
from tests.cli.test_tournament_cli import run


def small_event(tmp_path, players: int, rounds: int | None = None):
    """An event file with players P1..Pn, written at once (the commands are tested elsewhere)."""
    t = ev_core.new_event("x", rounds=rounds)
    for i in range(players):
        ev_core.add_player(t, Entrant(0, f"P{i + 1}"))
    path = tmp_path / "ev.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    return path


def test_a_second_arbiter_cannot_overwrite_a_result_silently(tmp_path):
    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    r = run("event", "result", ev, 1, "1 1-0")
    assert "1 result(s) entered" in r.stdout
    before = ev.read_bytes()
    r = run("event", "result", ev, 1, "2 1-0", ok=False)
    assert r.exit_code == 2 and ev.read_bytes() == before  # byte for byte
    assert "board 1-2 already reads 0-1 (from 2's side)" in r.stderr and "--change" in r.stderr
    r = run("event", "result", ev, 1, "2 1-0", "--change")
    assert "board 1-2 changed from 1-0 to 0-1" in r.stdout and "entered" not in r.stdout
    trail = json.loads((tmp_path / "ev.trf.audit").read_text().splitlines()[-1])
    assert trail["action"] == "event.results" and trail["actor"]
    assert trail["changed"] == [{"board": "1-2", "from": "1-0", "to": "0-1"}]


def test_the_same_result_again_is_no_change_and_a_clear_says_what_it_cleared(tmp_path):
    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0")
    assert "already read so: unchanged" in run("event", "result", ev, 1, "2 0-1").stdout
    assert "board 1-2 cleared (was 1-0)" in run("event", "result", ev, 1, "1 ", "--change").stdout


def test_clearing_a_result_needs_the_same_confirmation_as_changing_it(tmp_path):
    """Issue 33: `result EVENT 2 "18 "` wiped a board with no confirmation."""
    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0")
    before = ev.read_bytes()
    r = run("event", "result", ev, 1, "2 ", ok=False)
    assert r.exit_code == 2 and ev.read_bytes() == before  # nothing wiped, byte for byte
    assert "board 1-2 reads 0-1 (from 2's side); to clear it, confirm the change (--change)" in r.stderr
    r = run("event", "result", ev, 1, "2 ", "--change")
    assert "board 1-2 cleared (was 1-0)" in r.stdout


def test_a_typed_result_records_its_provenance_in_the_event_file(tmp_path):
    from qiyuan.formats.trf import read_trf
    from qiyuan.tournament import hall

    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0")
    run("event", "result", ev, 1, "2 1-0", "--change")
    run("event", "result", ev, 1, "3 ", "--change")  # an empty board: nothing cleared, nothing recorded
    (record,) = hall.provenances(read_trf(ev)).values()
    assert (record.round, record.board, record.result) == (1, 1, "0-1")
    assert [(a.what, a.via) for a in record.acts] == [("typed", "cli"), ("retyped", "cli")]
    assert record.acts[0].who and record.acts[0].when.endswith("Z")
    run("event", "result", ev, 1, "1 ", "--change")
    assert hall.provenances(read_trf(ev))[(1, 1)].result == "none"
    assert [a.what for a in hall.provenances(read_trf(ev))[(1, 1)].acts][-1] == "cleared"


@pytest.fixture
def chinese():
    lang.activate(lang.CHINESE)
    yield
    lang.activate(lang.ENGLISH)


def test_every_results_refusal_names_its_option_in_chinese_too(tmp_path, chinese):
    ev = small_event(tmp_path, 4, rounds=3)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0", "3 ½-½")
    r = run("event", "result", ev, 1, "1 0-1", ok=False)
    assert "要改为 0-1，请确认修改（--change）" in r.stderr
    r = run("event", "result", ev, 1, "1 ", ok=False)
    assert "要清除，请确认修改（--change）" in r.stderr
    run("event", "pair", ev)
    r = run("event", "result", ev, 1, "3 1-0", "--change", ok=False)
    assert "--force" in r.stderr and "force" not in r.stderr.replace("--force", "")
    r = run("event", "undo", ev, 2)
    r = run("event", "undo", ev, 1, ok=False)
    assert '"N " --change' in r.stderr


def test_clearing_an_empty_board_is_not_one_cleared(tmp_path):
    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    r = run("event", "result", ev, 1, "3 ")
    assert "cleared" not in r.stdout.replace("nothing cleared", "")
    assert "board 3-4 had no result: nothing cleared" in r.stdout


def test_a_bad_result_names_its_player(tmp_path):
    ev = small_event(tmp_path, 4)
    run("event", "pair", ev)
    r = run("event", "result", ev, 1, "3 x", ok=False)
    assert "player 3: unknown result 'x'" in r.stderr


def test_one_wrong_board_of_a_hand_pairing_is_one_fault_not_sixty_lines(tmp_path):
    ev = small_event(tmp_path, 60)
    boards = [f"{2 * k - 1} {2 * k}" for k in range(1, 31)]
    boards[29] = "59 1"  # 60 mistyped as 1
    r = run("event", "set-pairing", ev, 1, *boards, ok=False)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2, r.stderr
    assert "board 30 (59-1): player 1 is already on board 1 (1-2)" in lines[0]
    assert "not paired: 60" in lines[1]


def test_a_late_entry_after_round_1_says_round_1(tmp_path):
    ev = small_event(tmp_path, 4, rounds=5)
    run("event", "pair", ev)
    r = run("event", "add-player", ev, "Late")
    assert "5 Late (late entry: absent in round 1)" in r.stdout and "1-1" not in r.stdout
