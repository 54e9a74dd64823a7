"""Team events (团体赛) and matches (对抗赛): the team result from the board results."""

from __future__ import annotations

from decimal import Decimal

import pytest

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.teams import TeamError, join_team, match_standings, team_round, team_standings, teams


def team_event(n_teams: int, boards: int):
    t = ev.new_event("t", fmt="team", boards=boards)
    for k in range(n_teams):
        for b in range(boards):
            e = ev.add_player(t, Entrant(0, f"T{k + 1}B{b + 1}"))
            join_team(t, f"T{k + 1}", e.number)
    return t


def test_team_match_won_by_more_board_points_drawn_when_level():
    t = team_event(2, 4)
    ev.pair_next(t)
    a, b = teams(t)
    # boards: a wins board 1, loses board 2, draws 3, wins 4 by forfeit -> 5 : 3 (Gomoku points 2/1/0)
    for k, res in enumerate(["1-0", "0-1", "½-½", "+-"]):
        ev.enter_result(t, 1, a.members[k], res)
    rows = team_standings(t)
    assert [(r.team.name, r.match_points, r.board_points, r.won, r.lost) for r in rows] == [
        ("T1", 2, Decimal(5), 1, 0), ("T2", 0, Decimal(3), 0, 1)]
    ev.enter_result(t, 1, a.members[3], "-+", change=True)  # now 3 : 5
    assert [r.team.name for r in team_standings(t)] == ["T2", "T1"]
    ev.enter_result(t, 1, a.members[3], "½-½", change=True)  # 4 : 4, a drawn team match shares the place
    assert [(r.rank, r.match_points, r.drawn) for r in team_standings(t)] == [(1, 1, 1), (1, 1, 1)]


def test_board_openers_alternate_and_odd_team_rests():
    t = team_event(3, 4)
    boards, byes, notes = team_round(t, 1)
    assert byes == [] and len(boards) == 4 and "rests" in notes[-1]
    home = {n for n in teams(t)[1].members}
    assert [a in home for a, _ in boards] == [True, False, True, False]


def test_incomplete_team_is_refused():
    t = team_event(2, 2)
    e = ev.add_player(t, Entrant(0, "extra"))
    with pytest.raises(TeamError, match="already has its 2 boards"):
        join_team(t, "T1", e.number)
    with pytest.raises(TeamError, match="on no team"):
        team_round(t, 1)


def test_match_standings_level_match_shares_first():
    t = ev.new_event("m", fmt="match", rounds=2)
    ev.add_player(t, Entrant(0, "A"))
    ev.add_player(t, Entrant(0, "B"))
    for res in ("1-0", "1-0"):  # each wins the game he opens
        p = ev.pair_next(t)
        ev.enter_result(t, p.number, p.boards[0][0], res)
    assert [(r.rank, r.score, r.won, r.lost) for r in match_standings(t)] == [
        (1, Decimal(2), 1, 1), (1, Decimal(2), 1, 1)]


def test_absent_board_player_is_refused_with_the_way_out():
    t = team_event(2, 2)
    ev.excuse(t, 3, 1)
    with pytest.raises(TeamError, match=r"3 \(T2, board 1\).*forfeit"):
        team_round(t, 1)
