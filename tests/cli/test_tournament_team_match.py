"""Matches (对抗赛) and team events (团体赛) from the terminal: set-up, pairing, results,
standings (text and CSV) and the competition report; the board games are ordinary
rated games in the file."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from openpyxl import load_workbook

from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament.teams import teams
from tests.cli.test_tournament_cli import run


def rows(*args) -> list[list[str]]:
    return list(csv.reader(io.StringIO(run(*args).stdout)))


def test_match_alternates_the_opener_and_scores_the_match(tmp_path: Path):
    ev = tmp_path / "m.trf"
    r = run("event", "new", ev, "--name", "对抗赛", "--format", "match", ok=False)
    assert r.exit_code == 2 and "number of games" in r.stderr
    run("event", "new", ev, "--name", "对抗赛", "--format", "match", "--rounds", 4)
    run("event", "add-player", ev, "甲", "--rating", 2200)
    run("event", "add-player", ev, "乙", "--rating", 2100)
    r = run("event", "add-player", ev, "丙", ok=False)
    assert r.exit_code == 2 and "2 players" in r.stderr
    for game, result in enumerate(["1-0", "½-½", "0-1", "1-0"], start=1):
        run("event", "pair", ev)
        run("event", "result", ev, game, f"1 {result}")
    t = read_trf(ev)
    assert [c.colour for c in t.entrants[0].rounds] == ["b", "w", "b", "w"]  # player 1 opens the odd games
    assert [c.result for c in t.entrants[0].rounds] == ["1", "=", "0", "1"]
    r = run("event", "pair", ev, ok=False)
    assert r.exit_code == 2 and "all 4 rounds" in r.stderr
    assert rows("standings", ev, "--csv") == [["rank", "number", "name", "score", "won", "drawn", "lost"],
                                              ["1", "1", "甲", "5", "2", "1", "1"],
                                              ["2", "2", "乙", "3", "1", "1", "2"]]
    assert run("standings", ev).stdout.startswith("match of 4 games")
    xlsx = tmp_path / "m.xlsx"
    run("report", ev, "--xlsx", xlsx)
    wb = load_workbook(xlsx)
    assert wb["竞赛报告"]["B9"].value == "对抗赛"
    assert [wb["成绩"].cell(r, 3).value for r in (3, 4)] == ["甲", "乙"]


def team_event(tmp_path: Path) -> Path:
    ev = tmp_path / "t.trf"
    run("event", "new", ev, "--name", "团体赛", "--format", "team", "--boards", 2)
    for name, team in [("红一", "红队"), ("红二", "红队"), ("蓝一", "蓝队"), ("蓝二", "蓝队"),
                       ("黄一", "黄队"), ("黄二", "黄队"), ("绿一", "绿队"), ("绿二", "绿队")]:
        run("event", "add-player", ev, name, "--team", team)
    return ev


def test_team_event_setup_is_checked(tmp_path: Path):
    ev = tmp_path / "t.trf"
    r = run("event", "new", ev, "--name", "x", "--format", "team", ok=False)
    assert r.exit_code == 2 and "--boards" in r.stderr
    run("event", "new", ev, "--name", "x", "--format", "team", "--boards", 2)
    r = run("event", "add-player", ev, "nobody", ok=False)
    assert r.exit_code == 2 and "--team" in r.stderr
    run("event", "add-player", ev, "A1", "--team", "A")
    run("event", "add-player", ev, "A2", "--team", "A")
    r = run("event", "add-player", ev, "A3", "--team", "A", ok=False)
    assert r.exit_code == 2 and "already has its 2 boards" in r.stderr
    run("event", "add-player", ev, "B1", "--team", "B")
    before = ev.read_bytes()
    r = run("event", "pair", ev, ok=False)
    assert r.exit_code == 2 and "team B has 1 of its 2 boards" in r.stderr
    assert ev.read_bytes() == before
    swiss = tmp_path / "s.trf"
    run("event", "new", swiss, "--name", "s")
    r = run("event", "add-player", swiss, "P", "--team", "A", ok=False)
    assert r.exit_code == 2 and "team event" in r.stderr


def test_team_event_boards_results_and_standings(tmp_path: Path):
    ev = team_event(tmp_path)
    for rnd in (1, 2, 3):
        run("event", "pair", ev)
        t = read_trf(ev)
        team_of = {n: team.name for team in teams(t) for n in team.members}
        for e in t.entrants:
            c = e.rounds[rnd - 1]
            assert team_of[e.number] != team_of[c.opponent]  # team against team
            if c.colour == "b":  # board k meets board k
                idx = {n: i for team in teams(t) for i, n in enumerate(team.members)}
                assert idx[e.number] == idx[c.opponent]
        # 红队 wins both boards every round; elsewhere board 1 wins and board 2 draws
        results = []
        for e in t.entrants:
            c = e.rounds[rnd - 1]
            if e.number < c.opponent:
                if team_of[e.number] == "红队":
                    results.append(f"{e.number} 1-0")
                else:
                    board1 = e.number % 2 == 1
                    results.append(f"{e.number} {'1-0' if board1 else '½-½'}")
        run("event", "result", ev, rnd, *results)
    r = run("event", "pair", ev, ok=False)
    assert r.exit_code == 2 and "all 3 rounds" in r.stderr
    table = rows("standings", ev, "--csv")
    assert table[0] == ["rank", "team", "name", "match_points", "board_points", "won", "drawn", "lost"]
    # the others lost 0-4 to 红队; among them the lower-numbered team wins board 1, board 2 is drawn: 3-1
    assert table[1:] == [["1", "1", "红队", "6", "12", "3", "0", "0"], ["2", "2", "蓝队", "4", "6", "2", "0", "1"],
                         ["3", "3", "黄队", "2", "4", "1", "0", "2"], ["4", "4", "绿队", "0", "2", "0", "0", "3"]]
    text = run("standings", ev).stdout
    assert text.startswith("team event") and "红队" in text
    t = read_trf(ev)
    assert write_trf(read_trf(write_trf(t))) == write_trf(t)  # 013 lines round-trip
    assert [team.name for team in teams(read_trf(write_trf(t)))] == ["红队", "蓝队", "黄队", "绿队"]
    xlsx = tmp_path / "t.xlsx"
    run("report", ev, "--xlsx", xlsx)
    wb = load_workbook(xlsx)
    assert wb["竞赛报告"]["B9"].value == "团体赛"
    ws = wb["团体成绩"]
    assert [ws.cell(3, j).value for j in range(1, 9)] == [1, 1, "红队", 6, 12, 3, 0, 0]
    assert ws.cell(3, 9).value == "红一、红二"
    res = wb["成绩"]
    assert [res.cell(r, 3).value for r in (3, 4)] == ["红一", "红二"]  # the winning team first, by board
    assert "红队第1台" in res.cell(3, 8 + 3 + 2).value
