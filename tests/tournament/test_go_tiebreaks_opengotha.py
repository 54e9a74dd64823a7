"""Issue 31 (2): the Go placement criteria as OpenGotha computes them (``Tournament.fillBaseScoringInfo``), by hand
on a small event: a jigo's half point kept while an absence is rounded down, EXT/EXR, SOS-1, SDC, CAT."""

from __future__ import annotations

from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import compute, standings
from qiyuan.tournament.model import Entrant, RoundCell, Tournament


def _event() -> Tournament:
    """3d, 1d, 1k, 3k. Round 1: 3d (white) gives 3k two stones and loses; 1d – 1k jigo.
    Round 2: 3d beats 1d; 1k has the bye; 3k is absent."""
    t = Tournament(name="x", points=go.GO_POINTS, rounds_planned=2, entrants=[
        Entrant(1, "A", title="3d", rounds=[RoundCell(4, "w", "0"), RoundCell(2, "b", "1")]),
        Entrant(2, "B", title="1d", rounds=[RoundCell(3, "b", "="), RoundCell(1, "w", "0")]),
        Entrant(3, "C", title="1k", rounds=[RoundCell(2, "w", "="), RoundCell(None, "-", "U")]),
        Entrant(4, "D", title="3k", rounds=[RoundCell(1, "b", "1"), RoundCell(None, "-", "Z")])])
    t.extra["XQM"] = ["go_mcmahon"]
    ps = go.players(t)
    ps[1].handicaps[1] = ps[4].handicaps[1] = 2
    go.set_players(t, ps)
    return t


def _values():
    t = _event()
    s = go.GoSettings(categories=[0])  # 1d and stronger: the first category
    return compute(t, s, go.players(t)), t, s


def test_only_the_points_of_rounds_without_a_game_are_rounded_down():
    v, _, _ = _values()
    # start scores (bar 4d, zero 30k): 3d 32, 1d 30, 1k 29, 3k 27
    assert v["MMS"][1] == 2 * 33  # 32 + one win
    assert v["MMS"][2] == 2 * 30 + 1  # 30 + a jigo: 30½ stays (the old reading rounded it to 30)
    assert v["MMS"][3] == 2 * 29 + 1 + 2  # a jigo and a bye worth a win
    assert v["MMS"][4] == 2 * 28  # a win; the absence's ½ is rounded down


def test_exploits_attempted_and_achieved():
    v, _, _ = _values()
    # 3k took 2 stones from 3d (natural handicap 5): 3 stones beyond → weight 3 × 3d's NBW (1 win) = 3, won
    assert (v["EXT"][4], v["EXR"][4]) == (2 * 3, 2 * 3)
    # 1d played 3d even (natural 2): weight 3 × 3d's one win, lost
    assert (v["EXT"][2], v["EXR"][2]) == (2 * 3, 0)
    # 1k played 1d even (natural 1): weight 2 × 1d's jigo (½), drew
    assert (v["EXT"][3], v["EXR"][3]) == (2, 0)
    # 3d gave fewer stones than the natural handicap both times: nothing
    assert (v["EXT"][1], v["EXR"][1]) == (0, 0)


def test_sos_less_the_lowest_after_two_rounds_as_opengotha():
    v, _, _ = _values()
    assert v["SOSW"][1] == 2 + 1 and v["SOSW-1"][1] == 2 and v["SOSW-2"][1] == 0
    assert v["SOSM-1"][1] == 0  # OpenGotha never stores SOSM-1 after two rounds


def test_simplified_direct_confrontation_and_category():
    v, t, s = _values()
    rows = standings(t, s, go.players(t), criteria=["NBW", "SDC"])
    sdc = {r.number: r.values["SDC"] for r in rows}
    assert sdc[4] == 2 and sdc[1] == 0  # equal on NBW, they met: 3k beat 3d
    assert [r.number for r in rows][:3] == [3, 4, 1]
    assert (v["CAT"][1], v["CAT"][2], v["CAT"][3], v["CAT"][4]) == (0, 0, -2, -2)
