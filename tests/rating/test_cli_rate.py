"""`qiyuan rate` from the terminal: the lists, changes.csv, --explain, --trf, TOML rules, both engines,
and bad input (every problem printed, exit 2, nothing written)."""

from __future__ import annotations

import csv
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.formats.trf import write_trf
from qiyuan.tournament.model import Entrant, RoundCell, Tournament

REPO = Path(__file__).resolve().parents[2]
RENJU = REPO.parent / "shared" / "data" / "renju-cn-games.tsv"

PLAYERS = """id,name,gender,rating,games
P1,张三,M,2100,40
P2,李四,F,1900,10
P3,王五,M,1850,31
P4,赵六,M,,
P5,钱七,F,,
"""
EVENTS = """id,name,start_date,end_date,format
E1,春季公开赛,2011-03-01,2011-03-05,swiss
E2,秋季循环赛,2011-09-01,2011-09-04,round_robin
E3,冬季公开赛,2012-01-10,2012-01-12,swiss
"""
GAMES = """event_id,round,player1,player2,result
E1,1,P1,P4,1-0
E1,1,P2,P3,0-1
E1,2,P4,P2,½-½
E1,2,P3,P1,=
E1,3,P4,P3,1-0
E1,3,P1,P2,+-
E2,1,P1,P2,1-0
E2,2,P1,P3,0-1
E2,3,P2,P3,1-0
E2,1,P4,P5,1-0
E2,2,P4,P1,0-1
E2,3,P4,P2,1-0
E2,4,P4,P3,0.5-0.5
E2,4,P5,P1,0-1
E2,5,P5,P2,0-1
E2,5,P5,P3,1-0
E3,1,P1,P5,0-1
"""


def files(tmp: Path, **overrides: str) -> dict[str, Path]:
    out = {}
    for name, text in {"players": PLAYERS, "events": EVENTS, "games": GAMES, **overrides}.items():
        path = tmp / f"{name}.csv"
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


def rate(f: dict[str, Path], out: Path, *extra, rules="cga-gomoku-2011", exit_code=0):
    args = ["rate", "--rules", rules, "--players", f["players"], "--events", f["events"], "--games", f["games"],
            "--out", out, *extra]
    if "standings" in f:
        args += ["--standings", f["standings"]]
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == exit_code, (result.stdout, result.stderr, result.exception)
    return result


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_rate_writes_every_list_and_the_changes(tmp_path):
    out = tmp_path / "lists"
    rate(files(tmp_path), out)
    # From the first list after the first event's end to the first list after the last event's end.
    assert sorted(p.name for p in out.iterdir()) == ["2011-07-01.csv", "2012-01-01.csv", "2012-07-01.csv",
                                                     "changes.csv"]
    for name in ("2011-07-01.csv", "2012-01-01.csv", "2012-07-01.csv"):
        listed = rows(out / name)
        assert list(listed[0])[:5] == ["player_id", "name", "rating", "games", "status"]
        assert sorted(r["player_id"] for r in listed) == ["P1", "P2", "P3", "P4", "P5"]
        assert {r["status"] for r in listed} <= {"active", "inactive", "removed", "unrated"}
        for r in listed:
            assert (r["rating"] == "") == (r["status"] in ("unrated", "removed"))
    first = {r["player_id"]: r for r in rows(out / "2011-07-01.csv")}
    assert first["P4"]["rating"] == "" and first["P4"]["status"] == "unrated" and first["P1"]["name"] == "张三"
    changes = rows(out / "changes.csv")
    assert list(changes[0])[:7] == ["player_id", "event_id", "games", "W", "We", "K", "delta"]
    assert len({(c["player_id"], c["event_id"]) for c in changes}) == len(changes)
    e1 = {c["player_id"]: c for c in changes if c["event_id"] == "E1"}
    # P1 (2100, latched K 10) vs rated P3 only: the forfeit and the game against unrated P4 are not rated.
    assert (e1["P1"]["games"], e1["P1"]["W"], e1["P1"]["K"]) == ("1", "0.5", "10")


def test_both_engines_write_identical_files(tmp_path):
    f = files(tmp_path, standings="event_id,player_id,rank\nE1,P4,1\nE1,P3,2\n")
    rate(f, tmp_path / "fast", "--engine", "fast")
    rate(f, tmp_path / "ref", "--engine", "reference")
    names = sorted(p.name for p in (tmp_path / "fast").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "ref").iterdir())
    for name in names:
        assert (tmp_path / "fast" / name).read_bytes() == (tmp_path / "ref" / name).read_bytes(), name


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_changes_csv_leaves_empty_what_does_not_apply(tmp_path, engine):
    """docs/formats.md: We, K and ΔR are empty (unquoted) for newcomer (Ru) and not_rated rows."""
    out = tmp_path / "o"
    rate(files(tmp_path), out, "--engine", engine)
    text = (out / "changes.csv").read_text(encoding="utf-8")
    assert '""' not in text
    changes = rows(out / "changes.csv")
    by_method = {m: [c for c in changes if c["method"] == m] for m in ("newcomer", "not_rated", "averaging")}
    assert all(by_method.values())
    for c in by_method["newcomer"] + by_method["not_rated"]:
        assert (c["We"], c["K"], c["delta"]) == ("", "", ""), c
    p1_e3 = next(c for c in by_method["not_rated"] if (c["player_id"], c["event_id"]) == ("P1", "E3"))
    assert (p1_e3["games"], p1_e3["W"]) == ("0", "0")
    for c in by_method["averaging"]:
        assert c["We"] and c["K"] and c["delta"], c


def test_bad_input_lists_every_problem_exits_2_and_writes_nothing(tmp_path):
    f = files(tmp_path,
              players=PLAYERS + "P6,孙八,,\n",
              games=GAMES + "E1,4,P1,P1,1-0\nE1,4,P9,P2,1-0\nE2,1,P2,P1,0-1\nE1,5,P1,P2,2:0\n")
    out = tmp_path / "lists"
    result = rate(f, out, exit_code=2)
    err = result.stderr
    for expected in ("players.csv, line 7, gender", "meets himself", "unknown player id 'P9'",
                     "the same game twice", "unknown result code '2:0'", "nothing written"):
        assert expected in err, err
    assert not out.exists()
    assert list(tmp_path.glob(".lists*")) == []


def test_an_unknown_rule_set_is_bad_input(tmp_path):
    result = rate(files(tmp_path), tmp_path / "o", rules="no-such-rules", exit_code=2)
    assert "no-such-rules" in result.stderr and not (tmp_path / "o").exists()


def test_rules_from_a_toml_file(tmp_path):
    toml = tmp_path / "variant.toml"
    toml.write_text('base = "cga-gomoku-2011"\nk_new = 40\n', encoding="utf-8")
    out = tmp_path / "o"
    rate(files(tmp_path), out, rules=str(toml))
    e1 = {c["player_id"]: c for c in rows(out / "changes.csv") if c["event_id"] == "E1"}
    assert e1["P2"]["K"] == "40"  # 10 games before the event: the variant's K for new players


def test_explain_prints_the_players_calculation(tmp_path):
    result = rate(files(tmp_path), tmp_path / "o", "--explain", "P2")
    assert "P2" in result.stdout and "E1" in result.stdout and "ΔR" in result.stdout


def test_explain_of_an_unknown_player_is_bad_input(tmp_path):
    result = rate(files(tmp_path), tmp_path / "o", "--explain", "P99", exit_code=2)
    assert "P99" in result.stderr and not (tmp_path / "o").exists()


def test_an_existing_output_directory_gets_the_new_files(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    rate(files(tmp_path), out)
    assert (out / "notes.txt").exists() and (out / "changes.csv").exists()


def test_an_event_from_a_trf_file(tmp_path):
    def cells(*spec):
        return [RoundCell(opp, colour, res) for opp, colour, res in spec]

    t = Tournament(name="TRF 赛", start_date=date(2011, 4, 1), end_date=date(2011, 4, 2), entrants=[
        Entrant(1, "张三", player_id="P1", rating=2100, rounds=cells((2, "b", "1"), (3, "w", "0"), (None, "-", "U"))),
        Entrant(2, "李四", player_id="P2", rating=1900, rounds=cells((1, "w", "0"), (None, "-", "U"), (3, "b", "="))),
        Entrant(3, "王五", player_id="P3", rating=1850, rounds=cells((None, "-", "U"), (1, "b", "1"), (2, "w", "="))),
    ])
    trf = tmp_path / "trf-2011.trf"
    trf.write_text(write_trf(t), encoding="utf-8")
    out = tmp_path / "o"
    rate(files(tmp_path), out, "--trf", trf)
    assert {c["player_id"] for c in rows(out / "changes.csv") if c["event_id"] == "trf-2011"} == {"P1", "P2", "P3"}


def test_a_trf_player_unknown_to_players_csv_is_bad_input(tmp_path):
    t = Tournament(name="x", start_date=date(2011, 4, 1), end_date=date(2011, 4, 2), entrants=[
        Entrant(1, "甲", player_id="P1", rounds=[RoundCell(2, "b", "1")]),
        Entrant(2, "乙", player_id="PX", rounds=[RoundCell(1, "w", "0")]),
    ])
    trf = tmp_path / "x.trf"
    trf.write_text(write_trf(t), encoding="utf-8")
    result = rate(files(tmp_path), tmp_path / "o", "--trf", trf, exit_code=2)
    assert "PX" in result.stderr and not (tmp_path / "o").exists()


@pytest.mark.skipif(not RENJU.exists(), reason="needs ../shared/data")
def test_real_renju_history_rates_identically_with_both_engines(tmp_path):
    """59 dated Chinese national events 2009–2019 (4,644 games); most players start as newcomers."""
    players, events, games = {}, [], []
    for line in RENJU.read_text(encoding="utf-8").splitlines():
        tag, *f = line.split("\t")
        if tag == "tournament":
            fmt = "round_robin" if "Round" in f[1] or "Final" in f[1] else "swiss"
            events.append(f"{f[0]},{f[1].replace(',', ' ')},{f[4]},{f[5]},{fmt}")
        elif tag == "game":
            _, event, rnd, _, black, white, result = f
            rnd = rnd if rnd.isdigit() else "99"  # 'T': a tie-break play-off after the rounds
            players.setdefault(black, None)
            players.setdefault(white, None)
            games.append(f"{event},{rnd},{black},{white},{ {'B': '1-0', 'W': '0-1', 'D': '=', }[result]}")
    # Rounds can repeat a pair in a play-off; keep the first of a (event, round, pair).
    seen, unique_games = set(), []
    for g in games:
        e, r, a, b, _ = g.split(",")
        key = (e, r, min(a, b), max(a, b))
        if key not in seen:
            seen.add(key)
            unique_games.append(g)
    # A founding list: the 40 busiest players start at 2000; everyone else is a newcomer.
    busy = Counter(p for g in unique_games for p in g.split(",")[2:4])
    founders = {p for p, _ in sorted(busy.items(), key=lambda kv: (-kv[1], kv[0]))[:40]}
    f = files(tmp_path,
              players="id,name,gender,rating,games\n"
              + "".join(f"{p},棋手{p},M,{'2000,30' if p in founders else ','}\n" for p in players),
              events="id,name,start_date,end_date,format\n" + "\n".join(events) + "\n",
              games="event_id,round,player1,player2,result\n" + "\n".join(unique_games) + "\n")
    rate(f, tmp_path / "fast", "--engine", "fast")
    rate(f, tmp_path / "ref", "--engine", "reference")
    names = sorted(p.name for p in (tmp_path / "ref").iterdir())
    assert len(names) > 15
    for name in names:
        assert (tmp_path / "fast" / name).read_bytes() == (tmp_path / "ref" / name).read_bytes(), name
    last = rows(tmp_path / "ref" / names[-2])
    assert any(r["rating"] for r in last)  # newcomers earned first ratings


@pytest.mark.parametrize("player", ["P1", "P3", "P4", "P5"])
def test_explain_is_the_same_with_either_engine(tmp_path, player):
    f = files(tmp_path)
    fast = rate(f, tmp_path / "a", "--explain", player, "--engine", "fast").stdout
    reference = rate(f, tmp_path / "b", "--explain", player, "--engine", "reference").stdout
    assert fast == reference and player in fast
    assert fast.endswith("\n") and not fast.endswith("\n\n")  # the text ends its last line, once


def test_the_progress_bar_path_rates_the_same(tmp_path):
    from qiyuan.cli.rating import Engine, _compute
    from qiyuan.formats.history_csv import read_history
    from qiyuan.rating.rules import load_rules

    f = files(tmp_path)
    data = read_history(f["players"], f["events"], f["games"])
    rules = load_rules("cga-gomoku-2011")
    with_bar = _compute(Engine.fast, rules, data, show_progress=True)
    without = _compute(Engine.reference, rules, data, show_progress=False)
    assert with_bar.lists == without.lists


def _small_trf(tmp_path: Path, name: str, second_id: str = "P2", result: str = "1", xqm: str | None = None) -> Path:
    other = {"1": "0", "0": "1", "=": "=", " ": " "}[result]
    t = Tournament(name="小赛", start_date=date(2011, 4, 1), end_date=date(2011, 4, 2), entrants=[
        Entrant(1, "张三", player_id="P1", rounds=[RoundCell(2, "b", result), RoundCell(2, "w", result)]),
        Entrant(2, "李四", player_id=second_id, rounds=[RoundCell(1, "w", other), RoundCell(1, "b", other)]),
    ])
    if xqm is not None:
        t.extra["XQM"] = [xqm]
    path = tmp_path / name
    path.write_text(write_trf(t), encoding="utf-8")
    return path


def test_a_trf_event_id_already_in_events_csv_is_bad_input(tmp_path):
    trf = _small_trf(tmp_path, "E1.trf")
    result = rate(files(tmp_path), tmp_path / "o", "--trf", trf, exit_code=2)
    assert "E1.trf" in result.stderr and "event id 'E1'" in result.stderr and "events.csv" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "o").exists()


def test_the_same_trf_twice_is_bad_input(tmp_path):
    trf = _small_trf(tmp_path, "cup.trf")
    result = rate(files(tmp_path), tmp_path / "o", "--trf", trf, "--trf", trf, exit_code=2)
    assert "cup.trf" in result.stderr and "given twice" in result.stderr and not (tmp_path / "o").exists()
    assert result.stderr.count("cup.trf") == 1, result.stderr


def test_a_trf_player_unknown_to_players_csv_is_named_once_with_its_line(tmp_path):
    trf = _small_trf(tmp_path, "cup.trf", second_id="P66")
    line = next(n for n, text in enumerate(trf.read_text(encoding="utf-8").split("\n"), 1)
                if text.startswith("001") and "P66" in text)
    result = rate(files(tmp_path), tmp_path / "o", "--trf", trf, exit_code=2)
    assert result.stderr.count("P66") == 1, result.stderr
    assert f"cup.trf, line {line}" in result.stderr and "players.csv" in result.stderr


def test_an_unfinished_trf_is_bad_input(tmp_path):
    trf = _small_trf(tmp_path, "cup.trf", result=" ")
    result = rate(files(tmp_path), tmp_path / "o", "--trf", trf, exit_code=2)
    assert "cup.trf" in result.stderr and "round 1" in result.stderr and "not finished" in result.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("xqm, rules, method", [
    ("double_round_robin", "cga-gomoku-2011", "per_game"), (None, "cga-gomoku-2011", "averaging"),
    ("knockout", "cn-go-1995", "per_game"), ("double_round_robin", "cn-go-1995", "go_round_robin"),
])
def test_a_trf_event_is_rated_by_the_format_its_xqm_line_records(tmp_path, xqm, rules, method):
    trf = _small_trf(tmp_path, "cup.trf", xqm=xqm)
    out = tmp_path / "o"
    rate(files(tmp_path), out, "--trf", trf, rules=rules)
    cup = {c["player_id"]: c for c in rows(out / "changes.csv") if c["event_id"] == "cup"}
    assert cup["P1"]["method"] == method and cup["P1"]["games"] == "2"
