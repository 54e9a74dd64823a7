"""Issue 22, item 4 (final ties decided by play-off or lot) and item 5 (round-robin tie-breaks):
a 9-round championship (10 players, round robin) with a two-way tie for first that no tie-break
separates, decided by lot with a recorded seed — the standings, the report, the crosstable and
the places everything reads follow it, and the printouts say how the place was decided."""

from __future__ import annotations

from decimal import Decimal

import pytest
from openpyxl import load_workbook

from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import ties
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.standings import final_places, standings
from tests.cli.test_tournament_cli import run


def championship(tmp_path, *, last_round: bool = True):
    """10 players, round robin (9 rounds): 1 and 2 draw each other and beat everyone else; all
    the other games are drawn.  1 and 2 are equal on score, 直胜, 胜局 and 索分."""
    t = ev.new_event("全国锦标赛", fmt="round_robin")
    for i in range(10):
        ev.add_player(t, Entrant(0, f"选手{i + 1}", federation="北京" if i % 2 else "上海"))
    for rnd in range(1, 10 if last_round else 9):
        pairing = ev.pair_next(t)
        items = []
        for a, b in pairing.boards:
            if {a, b} == {1, 2}:
                items.append((a, "½-½"))
            elif a in (1, 2):
                items.append((a, "1-0"))
            elif b in (1, 2):
                items.append((b, "1-0"))
            else:
                items.append((a, "½-½"))
        ev.enter_results(t, rnd, items)
    path = tmp_path / "champ.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    return path


def test_round_robin_tie_breaks_are_head_to_head_wins_sonneborn_berger(tmp_path):
    t = read_trf(championship(tmp_path))
    rows = standings(t)
    top = {r.number: r for r in rows[:2]}
    assert set(top) == {1, 2} and rows[0].rank == rows[1].rank == 1
    assert top[1].tiebreaks == top[2].tiebreaks == (Decimal(1), Decimal(8), Decimal(56) + Decimal("8.5"))
    assert len(rows[0].tiebreaks) == 3  # not the Swiss seven: 辅分一 is the same for all in a round robin


def test_a_two_way_tie_for_first_decided_by_lot_with_a_seed(tmp_path):
    path = championship(tmp_path)
    r = run("event", "tie", path, "1,2", "--seed", 20260501)
    order = ties.lot_order([1, 2], 20260501)
    assert f"decided by lot (seed 20260501): {order[0]}, {order[1]}" in r.stdout
    t = read_trf(path)
    assert t.extra["XQU"] == [f"lot seed 20260501 {order[0]} {order[1]}"]
    assert final_places(t)[order[0]] == 1 and final_places(t)[order[1]] == 2
    out = run("event", "standings", path).stdout
    assert f"* places 1-2 decided by lot (seed 20260501): {order[0]} 选手{order[0]}" in out
    assert "  1* " in out and "  2* " in out
    run("report", path, "--xlsx", tmp_path / "r.xlsx")
    ws = load_workbook(tmp_path / "r.xlsx")["成绩"]
    rows = {ws.cell(r, 2).value: r for r in range(1, ws.max_row + 1) if isinstance(ws.cell(r, 2).value, int)}
    assert ws.cell(rows[order[0]], 1).value == 1 and ws.cell(rows[order[1]], 1).value == 2
    remarks = [c.value for c in ws[rows[order[0]]] if isinstance(c.value, str) and "抽签" in c.value]
    assert remarks and "第1名抽签决定（随机种子 20260501）" in remarks[0]
    assert "decided by lot" in run("event", "crosstable", path).stdout
    from qiyuan.formats.hall_pdf import decision_notes

    assert decision_notes(standings(read_trf(path)))[0].startswith("* 第1至2名同分，抽签决定（随机种子 20260501）")


def test_a_lot_drawn_in_the_hall_and_a_play_off_are_recorded_as_given(tmp_path):
    path = championship(tmp_path)
    run("event", "tie", path, "2,1", "--lot", "2,1")
    assert final_places(read_trf(path)) [2] == 1
    assert "decided by lot drawn in the hall" in run("event", "standings", path).stdout
    run("event", "tie", path, "1,2", "--playoff", "1,2")  # replaces the lot for the same group
    t = read_trf(path)
    assert t.extra["XQU"] == ["playoff 1 2"] and final_places(t)[1] == 1
    assert "decided by play-off" in run("event", "standings", path).stdout


def test_bad_tie_decisions_are_refused_with_the_reason(tmp_path):
    path = championship(tmp_path)
    before = path.read_bytes()
    assert "do not share a place" in run("event", "tie", path, "1,3", "--seed", 1, ok=False).stderr
    assert "each once" in run("event", "tie", path, "1,2", "--lot", "1,3", ok=False).stderr
    assert "give one of" in run("event", "tie", path, "1,2", ok=False).stderr
    assert "decide the whole group" in run("event", "tie", path, "3,4", "--seed", 1, ok=False).stderr
    assert path.read_bytes() == before
    (tmp_path / "early").mkdir()
    early = championship(tmp_path / "early", last_round=False)
    assert "once every round is paired" in run("event", "tie", early, "1,2", "--seed", 1, ok=False).stderr


def test_a_decision_whose_group_no_longer_ties_is_idle():
    t = ev.new_event("x", fmt="round_robin")
    for i in range(3):
        ev.add_player(t, Entrant(0, f"P{i}"))
    places = {1: 1, 2: 1, 3: 3}
    ties.decide(t, places, [1, 2], "lot", order=[2, 1])
    assert ties.apply(t, places)[0] == {2: 1, 1: 2, 3: 3}
    assert ties.apply(t, {1: 1, 2: 2, 3: 3})[0] == {1: 1, 2: 2, 3: 3}
    assert ties.idle(t, {1: 1, 2: 2, 3: 3}) == ties.decisions(t)
    with pytest.raises(ev.EventError):
        ties.decide(t, places, [1, 2], "coin", order=[2, 1])
