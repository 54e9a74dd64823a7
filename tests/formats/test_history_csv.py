"""The history files: reading, and every kind of bad input reported at once (file, line, column, what)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from qiyuan.formats.errors import InputError
from qiyuan.formats.history_csv import read_history, tournament_rows
from qiyuan.rating.model import EventFormat, Gender, Result
from qiyuan.tournament.model import Entrant, RoundCell, Tournament

PLAYERS = "id,name,gender,dan,rating,games,k_latched,registered_on\nP1,张三,M,3d,2100,40,1,2009-05-01\nP2,李四,F,,,,,\nP3,王五,M,,1850.5,12,0,\n"
EVENTS = "id,name,start_date,end_date,format,international,days\nE1,全国赛,2011-03-01,2011-03-05,swiss,0,\nE2,循环赛,2011-08-01,2011-08-03,round_robin,1,2\n"
GAMES = "event_id,round,player1,player2,result\nE1,1,P1,P2,1-0\nE1,2,P2,P3,½-½\nE1,3,P3,P1,=\nE2,1,P1,P3,+-\nE2,2,P1,P3,0.5-0.5\nE2,3,P2,P1,--\n"


def write(tmp: Path, **files: str | bytes) -> dict[str, Path]:
    paths = {}
    for name, content in {"players": PLAYERS, "events": EVENTS, "games": GAMES, **files}.items():
        path = tmp / f"{name}.csv"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        paths[name] = path
    return paths


def read(paths: dict[str, Path]):
    return read_history(paths["players"], paths["events"], paths["games"], paths.get("standings"))


def problems(tmp: Path, **files) -> list[str]:
    with pytest.raises(InputError) as exc:
        read(write(tmp, **files))
    return [str(p) for p in exc.value.problems]


def test_reads_players_events_games_and_standings(tmp_path):
    data = read(write(tmp_path, standings="event_id,player_id,rank\nE1,P1,1\nE1,P3,2\n"))
    p1, p2, p3 = data.players
    assert (p1.id, p1.name, p1.gender, p1.dan, p1.rating, p1.games, p1.k_latched, p1.registered_on) == \
        ("P1", "张三", Gender.MALE, "3d", Decimal(2100), 40, True, date(2009, 5, 1))
    assert p2.rating is None and p2.gender is Gender.FEMALE and p2.games == 0
    assert p3.rating == Decimal("1850.5")
    e1, e2 = data.events
    assert e1.format is EventFormat.SWISS and e1.end_date == date(2011, 3, 5) and not e1.international
    assert e2.international and e2.days == 2
    games = list(data.games)
    assert [g.result for g in games] == [Result.WIN, Result.DRAW, Result.DRAW, Result.FORFEIT_WIN, Result.DRAW,
                                         Result.NOT_PLAYED]
    assert games[0].player1 == "P1" and games[0].round == 1
    assert [(s.event_id, s.player_id, s.rank) for s in data.standings] == [("E1", "P1", 1), ("E1", "P3", 2)]


def test_unknown_columns_are_ignored_and_a_bom_and_blanks_are_accepted(tmp_path):
    data = read(write(tmp_path, players="\ufeffid, name ,gender,club\n P1 ,张三,M,北京\nP2,李四,F,上海\nP3,王五,M,\n",
                      games="event_id,round,player1,player2,result,note\nE1,1,P1,P2,1-0,好棋\n\n"))
    assert [p.id for p in data.players] == ["P1", "P2", "P3"]
    assert len(data.games) == 1


def test_the_same_pair_in_different_rounds_is_legal(tmp_path):
    data = read(write(tmp_path, games="event_id,round,player1,player2,result\nE2,1,P1,P3,1-0\nE2,2,P3,P1,1-0\n"))
    assert len(data.games) == 2


def test_every_problem_is_listed_at_once_with_file_line_and_column(tmp_path):
    found = problems(
        tmp_path,
        players="id,name,gender,rating\nP1,张三,M,2100\nP2,李四,,\nP1,重复,M,abc\nP4,赵六,X,1900\n",
        events="id,name,start_date,end_date,format\nE1,甲,2011-03-05,2011-03-01,swiss\nE2,乙,2011-02-30,2011-03-01,blitz\n",
        games="event_id,round,player1,player2,result\nE1,1,P1,P4,1-0\nE1,1,P4,P1,0-1\nE1,2,P1,P1,=\nE9,x,P1,PX,2-0\n",
        standings="event_id,player_id,rank\nE1,P1,1\nE1,P1,2\nE1,P7,0\n",
    )
    expected = [
        ("players.csv", "line 3", "gender", "needs a gender"),
        ("players.csv", "line 4", "id", "'P1' appears twice (first on line 2)"),
        ("players.csv", "line 4", "rating", "'abc' is not a rating"),
        ("players.csv", "line 5", "gender", "unknown gender 'X'"),
        ("events.csv", "line 2", "end_date", "ends (2011-03-01) before it starts (2011-03-05)"),
        ("events.csv", "line 3", "format", "unknown event format 'blitz'"),
        ("events.csv", "line 3", "start_date", "'2011-02-30' is not a date"),
        ("games.csv", "line 3", "", "the same game twice: event E1, round 1, P1–P4 (first on line 2)"),
        ("games.csv", "line 4", "player2", "'P1' meets himself"),
        ("games.csv", "line 5", "event_id", "unknown event id 'E9'"),
        ("games.csv", "line 5", "player2", "unknown player id 'PX'"),
        ("games.csv", "line 5", "result", "unknown result code '2-0'"),
        ("games.csv", "line 5", "round", "'x' is not a round number"),
        ("standings.csv", "line 3", "player_id", "ranked twice"),
        ("standings.csv", "line 4", "player_id", "unknown player id 'P7'"),
        ("standings.csv", "line 4", "rank", "'0' is not a rank"),
    ]
    assert len(found) == len(expected), "\n".join(found)
    for text, (file, line, column, what) in zip(found, expected):
        assert file in text and line in text and column in text and what in text, (text, file, line, column, what)


def test_dan_granted_by_national_and_board_columns(tmp_path):
    """B–S §13(五) needs who granted a dan; the team championship rule needs the national flag and boards."""
    data = read(write(
        tmp_path,
        players="id,name,gender,dan,registered_on,dan_granted_by\nP1,张三,M,3d,2008-01-01,中国棋院\nP2,李四,F,,,\n"
                "P3,王五,M,1k,, \n",
        events="id,name,start_date,end_date,format,national\nE1,全国团体赛,2011-03-01,2011-03-05,team,1\n"
               "E2,循环赛,2011-08-01,2011-08-03,round_robin,\n",
        games="event_id,round,player1,player2,result,board\nE1,1,P1,P2,1-0,1\nE1,1,P3,P2,0-1,\nE2,1,P1,P3,1-0,\n"))
    assert [p.dan_granted_by for p in data.players] == ["中国棋院", None, None]
    assert [e.national for e in data.events] == [True, False]
    assert [g.board for g in data.games] == [1, None, None]


def test_games_without_a_board_column_have_no_boards(tmp_path):
    assert read(write(tmp_path)).games.board is None


def test_bad_dan_granted_by_national_and_board_are_reported(tmp_path):
    found = problems(
        tmp_path,
        players="id,name,gender,dan,dan_granted_by\nP1,张三,M,,中国棋院\nP2,李四,F,,\nP3,王五,M,,\n",
        events="id,name,start_date,end_date,format,national\nE1,团体赛,2011-03-01,2011-03-05,team,yes\n",
        games="event_id,round,player1,player2,result,board\nE1,1,P1,P2,1-0,first\nE1,1,P3,P2,0-1,0\n")
    assert found == [
        f"{tmp_path / 'players.csv'}, line 2, dan_granted_by: '中国棋院' granted a dan, but the row has no dan",
        f"{tmp_path / 'events.csv'}, line 2, national: unknown national value 'yes' (one of: 0, 1)",
        f"{tmp_path / 'games.csv'}, line 2, board: 'first' is not a board number (1, 2, …)",
        f"{tmp_path / 'games.csv'}, line 3, board: '0' is not a board number (1, 2, …)",
    ]


def test_a_file_that_is_not_utf8_is_reported_with_its_line(tmp_path):
    found = problems(tmp_path, players="id,name,gender\nP1,张三,M\n".encode("gb18030") + b"")
    assert len(found) == 1 and "players.csv, line 2" in found[0] and "not UTF-8" in found[0]


def test_a_binary_file_is_not_a_csv(tmp_path):
    found = problems(tmp_path, games=b"PK\x03\x04\x00\x00binary")
    assert any("games.csv" in p and ("not UTF-8" in p or "not a CSV" in p) for p in found), found


def test_missing_required_columns_are_named(tmp_path):
    found = problems(tmp_path, events="id,name,start,end_date\nE1,甲,2011-01-01,2011-01-02\n")
    assert any("events.csv, line 1, start_date" in p and "missing" in p for p in found)
    assert any("events.csv, line 1, format" in p and "missing" in p for p in found)


def test_a_line_with_too_many_fields_is_reported(tmp_path):
    found = problems(tmp_path, games="event_id,round,player1,player2,result\nE1,1,P1,P2,1-0,x,y\n")
    assert any("games.csv, line 2" in p and "7 fields" in p for p in found), found


def test_an_empty_file_needs_a_header(tmp_path):
    found = problems(tmp_path, standings="")
    assert any("standings.csv" in p and "header" in p for p in found)


def test_a_trf_tournament_becomes_an_event_with_games_and_ranks():
    def cells(*spec):
        return [RoundCell(opp, colour, res) for opp, colour, res in spec]

    t = Tournament(name="北京公开赛", start_date=date(2011, 5, 1), end_date=date(2011, 5, 2), entrants=[
        Entrant(1, "甲", player_id="P1", rank=1, rounds=cells((2, "b", "1"), (3, "w", "+"), (None, "-", "U"))),
        Entrant(2, "乙", player_id="P2", rank=2, rounds=cells((1, "w", "0"), (None, "-", "U"), (3, "b", "="))),
        Entrant(3, "丙", player_id="P3", rank=3, rounds=cells((None, "-", "U"), (1, "b", "-"), (2, "w", "="))),
    ])
    event, games, standings, found = tournament_rows(t, Path("events/bj-2011.trf"))
    assert found == []
    assert (event.id, event.name, event.format) == ("bj-2011", "北京公开赛", EventFormat.ROUND_ROBIN)
    assert [(g.round, g.player1, g.player2, g.result) for g in games] == [
        (1, "P1", "P2", Result.WIN), (2, "P1", "P3", Result.FORFEIT_WIN), (3, "P2", "P3", Result.DRAW)]
    assert [(s.player_id, s.rank) for s in standings] == [("P1", 1), ("P2", 2), ("P3", 3)]


def test_a_trf_entrant_without_player_id_is_a_problem():
    t = Tournament(name="x", start_date=date(2011, 5, 1), end_date=date(2011, 5, 2),
                   entrants=[Entrant(1, "甲", player_id=""), Entrant(2, "乙", player_id="P2")])
    event, _, _, found = tournament_rows(t, "x.trf")
    assert event is None and len(found) == 1 and "entrant 1" in str(found[0])


def _cells(*spec):
    return [RoundCell(opp, colour, res) for opp, colour, res in spec]


def _double_round_robin(xqm: str | None) -> Tournament:
    t = Tournament(name="双循环", start_date=date(2011, 5, 1), end_date=date(2011, 5, 3), entrants=[
        Entrant(1, "甲", player_id="P1", rounds=_cells((2, "b", "1"), (3, "w", "1"), (2, "w", "0"), (3, "b", "="))),
        Entrant(2, "乙", player_id="P2", rounds=_cells((1, "w", "0"), (3, "b", "1"), (1, "b", "1"), (3, "w", "0"))),
        Entrant(3, "丙", player_id="P3", rounds=_cells((1, "b", "0"), (2, "w", "0"), (2, "b", "1"), (1, "w", "="))),
    ])
    # rounds as written are not a Berger table, but every pair met twice
    if xqm is not None:
        t.extra["XQM"] = [xqm]
    return t


@pytest.mark.parametrize("xqm", ["double_round_robin", None])
def test_a_trf_double_round_robin_is_rated_as_a_round_robin(xqm):
    event, games, _, found = tournament_rows(_double_round_robin(xqm), "drr.trf")
    assert found == [] and event.format is EventFormat.ROUND_ROBIN and len(games) == 6


@pytest.mark.parametrize("xqm, fmt", [("knockout", EventFormat.KNOCKOUT), ("round_robin", EventFormat.ROUND_ROBIN),
                                      ("match", EventFormat.MATCH), ("swiss", EventFormat.SWISS)])
def test_a_trf_event_takes_the_format_its_xqm_line_records(xqm, fmt):
    # four players, two rounds: a knock-out (or a round robin with games missing): not everyone met
    t = Tournament(name="x", start_date=date(2011, 5, 1), end_date=date(2011, 5, 2), entrants=[
        Entrant(1, "甲", player_id="P1", rounds=_cells((4, "b", "1"), (2, "w", "1"))),
        Entrant(2, "乙", player_id="P2", rounds=_cells((3, "b", "1"), (1, "b", "0"))),
        Entrant(3, "丙", player_id="P3", rounds=_cells((2, "w", "0"), (None, "-", "U"))),
        Entrant(4, "丁", player_id="P4", rounds=_cells((1, "w", "0"), (None, "-", "U"))),
    ])
    t.extra["XQM"] = [xqm]
    event, _, _, found = tournament_rows(t, "ko.trf")
    assert found == [] and event.format is fmt


def test_a_trf_event_with_an_unknown_xqm_format_is_a_problem():
    event, _, _, found = tournament_rows(_double_round_robin("blitz"), "b.trf")
    assert event is None and len(found) == 1
    assert "b.trf" in str(found[0]) and "XQM" in str(found[0]) and "'blitz'" in str(found[0])


def _swiss_without_ranks(second_round_12: str) -> Tournament:
    """Round 1: 1 beats 2, 3 beats 4; round 2: 1–3 drawn (or 1–4, 3–2 won by 1 and 3)."""
    if second_round_12 == "draw":
        r2 = {1: (3, "b", "="), 2: (4, "b", "1"), 3: (1, "w", "="), 4: (2, "w", "0")}
    else:
        r2 = {1: (4, "b", "1"), 2: (3, "w", "0"), 3: (2, "b", "1"), 4: (1, "w", "0")}
    r1 = {1: (2, "b", "1"), 2: (1, "w", "0"), 3: (4, "b", "1"), 4: (3, "w", "0")}
    return Tournament(name="x", start_date=date(2011, 5, 1), end_date=date(2011, 5, 2), entrants=[
        Entrant(n, f"棋手{n}", player_id=f"P{n}", rounds=_cells(r1[n], r2[n])) for n in (1, 2, 3, 4)])


def test_a_trf_without_ranks_is_ranked_by_score_and_tie_breaks():
    # 1 and 3 both on 3 points; 辅分一 5 against 3: only 1 is the champion
    _, _, standings, found = tournament_rows(_swiss_without_ranks("draw"), "s.trf")
    assert found == []
    assert [(s.player_id, s.rank) for s in standings] == [("P1", 1), ("P3", 2), ("P2", 3), ("P4", 4)]


def test_a_trf_without_ranks_keeps_shared_places_shared():
    # 1 and 3 both won twice against the same opponents' scores, and never met: they share first place
    _, _, standings, _ = tournament_rows(_swiss_without_ranks("wins"), "s.trf")
    assert {s.player_id: s.rank for s in standings} == {"P1": 1, "P3": 1, "P2": 3, "P4": 3}
