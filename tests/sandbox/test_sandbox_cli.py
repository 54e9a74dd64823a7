"""``qiyuan rules evaluate`` and ``qiyuan rules compare`` from the terminal, bad input included
(every problem printed, exit 2, nothing written)."""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import pytest
from sandbox_builders import BENCH, REPO, TSV, write_files
from typer.testing import CliRunner

from qiyuan.cli import app

VARIANT = REPO / "docs" / "examples" / "cga-first-rating-3-games.toml"

PLAYERS = """id,name,gender,rating,games
P1,张三,M,2100,40
P2,李四,F,1900,10
P3,王五,M,2000,31
P4,赵六,M,,
P5,钱七,F,,
"""
EVENTS = """id,name,start_date,end_date,format
E1,春季公开赛,2011-03-01,2011-03-03,swiss
E2,秋季循环赛,2012-09-01,2012-09-04,round_robin
E3,冬季公开赛,2013-06-01,2013-06-02,swiss
"""
GAMES = """event_id,round,player1,player2,result
E1,1,P1,P4,1-0
E1,1,P2,P3,0-1
E1,2,P4,P2,½-½
E1,2,P3,P1,=
E1,3,P4,P3,1-0
E2,1,P1,P2,1-0
E2,2,P1,P3,0-1
E2,3,P2,P3,1-0
E3,1,P1,P5,0-1
E3,1,P2,P3,1-0
E3,2,P1,P3,1-0
E3,2,P5,P4,+-
"""
SYSTEMS = ["cga-gomoku-2011", "bjsh-gomoku-2007", "constant", "elo", "glicko2", "whr"]


def run(*args, exit_code=0):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == exit_code, (result.stdout, result.stderr, result.exception)
    return result


def history(f: dict[str, Path]) -> list:
    return ["--players", f["players"], "--events", f["events"], "--games", f["games"]]


@pytest.fixture
def files(tmp_path):
    return write_files(tmp_path, PLAYERS, EVENTS, GAMES)


def test_evaluate_prints_one_row_per_system_and_writes_the_csv_and_charts(files, tmp_path):
    out, png, preds = tmp_path / "table.csv", tmp_path / "calibration.png", tmp_path / "predictions.csv"
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", "--rules", "bjsh-gomoku-2007", *history(files),
                 "--from", "2012-01-01", "--csv", out, "--plot", png, "--predictions", preds)
    for system in SYSTEMS:
        assert system in result.stdout
    assert "6 games of 2 events ending on or after 2012-01-01" in result.stdout  # the E3 forfeit is not predicted
    with out.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["system", "log_loss", "se", "brier", "prediction_rate", "games", "coverage", "listed_games",
                             "listed_log_loss", "prior_log_loss", "diff_vs_best", "se_vs_best"]
    assert [r["system"] for r in rows] == SYSTEMS
    assert {r["games"] for r in rows} == {"6"}  # the same games for every row
    assert min(rows, key=lambda r: float(r["log_loss"]))["se_vs_best"] == "0.000000"
    with (tmp_path / "table-both-rated.csv").open(encoding="utf-8", newline="") as fh:
        both = list(csv.DictReader(fh))
    assert list(both[0]) == list(rows[0]) and [r["system"] for r in both] == SYSTEMS  # a second table, same columns
    assert len({r["games"] for r in both}) == 1 and int(both[0]["games"]) <= 6
    assert (tmp_path / "table-calibration.csv").read_text(encoding="utf-8").startswith("system,view,gap_from,gap_to,")
    with preds.open(encoding="utf-8", newline="") as fh:  # one row per test game and system
        predicted = list(csv.DictReader(fh))
    assert list(predicted[0]) == ["event", "round", "player1", "player2", "system", "probability", "outcome", "basis"]
    assert len(predicted) == 6 * len(SYSTEMS) and {r["basis"] for r in predicted} <= {"listed", "prior"}
    for system in SYSTEMS:
        mine = [r for r in predicted if r["system"] == system]
        loss = -sum(float(r["outcome"]) * math.log(min(max(float(r["probability"]), 0.005), 0.995))
                    + (1 - float(r["outcome"])) * math.log(1 - min(max(float(r["probability"]), 0.005), 0.995))
                    for r in mine) / len(mine)
        assert loss == pytest.approx(float(next(r for r in rows if r["system"] == system)["log_loss"]), abs=1e-5)
    assert "drift" in (tmp_path / "table-lists.csv").read_text(encoding="utf-8")
    assert "Forward protocol" in result.stdout and "elo: K = " in result.stdout  # the tuned values, printed
    assert "calibration by the favourite's rating gap" in result.stdout and "drift of the cohort" in result.stdout
    for chart in (png, tmp_path / "calibration-lists.png"):
        assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_evaluate_defaults_to_two_years_after_the_first_event(files):
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(files))
    assert "3 games of 1 events ending on or after 2013-03-01" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "no-such-rules"], "unknown rule set 'no-such-rules'"),
    (["--rules", "cga-gomoku-2011", "--rules", "cga-gomoku-2011"], "rule set cga-gomoku-2011 is given twice"),
    (["--rules", "cga-gomoku-2011", "--from", "2030-01-01"], "--from: 2030-01-01 is outside the history"),
    (["--rules", "cga-gomoku-2011", "--from", "1 May"], "expected a date YYYY-MM-DD, got '1 May'"),
])
def test_evaluate_bad_options_exit_2_and_write_nothing(files, tmp_path, args, message):
    out = tmp_path / "table.csv"
    result = run("rules", "evaluate", *args, *history(files), "--csv", out, exit_code=2)
    assert message in result.stderr
    assert not out.exists()


def test_evaluate_with_nothing_to_predict_exits_2(tmp_path):
    last_event_forfeits = "\n".join(line if not line.startswith("E3,") else line.rsplit(",", 1)[0] + ",+-"
                                     for line in GAMES.splitlines()) + "\n"
    f = write_files(tmp_path, PLAYERS, EVENTS, last_event_forfeits)
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(f), "--from", "2013-01-01",
                 exit_code=2)
    assert "--from: no played game in the events ending on or after 2013-01-01: nothing to predict" in result.stderr


def test_evaluate_reports_every_bad_file_and_option_at_once(tmp_path):
    f = write_files(tmp_path, PLAYERS, EVENTS, GAMES.replace("E3,2,P1,P3,1-0", "E3,2,P1,PX,1-0"))
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text('base = "cga-gomoku-2011"\ncapp = 400\n', encoding="utf-8")
    result = run("rules", "evaluate", "--rules", bad_toml, *history(f), "--csv", tmp_path / "no" / "t.csv",
                 "--plot", tmp_path, exit_code=2)
    assert "unknown setting 'capp'" in result.stderr
    assert "games.csv, line 12, player2: unknown player id 'PX'" in result.stderr
    assert "does not exist" in result.stderr and "is a directory" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_evaluate_without_matplotlib_says_how_to_get_it(files, tmp_path, monkeypatch):
    import qiyuan.formats.sandbox_files as files_module

    monkeypatch.setattr(files_module, "plot_available", lambda: False)
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(files), "--plot", tmp_path / "c.png",
                 exit_code=2)
    assert "pip install 'qiyuan[plot]'" in result.stderr and not (tmp_path / "c.png").exists()


def test_compare_prints_every_list_date_and_who_moves_most(files, tmp_path):
    out = tmp_path / "compare.csv"
    result = run("rules", "compare", "cga-gomoku-2011", "bjsh-gomoku-2007", *history(files), "--top", "3",
                 "--csv", out)
    assert "A = cga-gomoku-2011, B = bjsh-gomoku-2007" in result.stdout
    assert "who moves most (top 3)" in result.stdout
    with out.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["list_date"] == "2011-01-01"  # the starting list, then every date of either calendar
    assert [r["list_date"] for r in rows[1:3]] == ["2011-04-01", "2011-07-01"]
    assert list(rows[0]) == ["list_date", "published_a", "published_b", "both", "only_a", "only_b", "mean_diff",
                             "mean_abs_diff", "largest_diff", "largest_player"]


@pytest.mark.parametrize(("a", "b", "message"), [
    ("cga-gomoku-2011", "cga-gomoku-2011", "A and B are the same rule set"),
    ("cga-gomoku-2011", "nope", "unknown rule set 'nope'"),
])
def test_compare_bad_rule_sets_exit_2(files, tmp_path, a, b, message):
    out = tmp_path / "c.csv"
    result = run("rules", "compare", a, b, *history(files), "--csv", out, exit_code=2)
    assert message in result.stderr and not out.exists()


def test_compare_bad_files_exit_2(tmp_path):
    f = write_files(tmp_path, PLAYERS, EVENTS.replace("2013-06-02", "2013-05-02"), GAMES)
    result = run("rules", "compare", "cga-gomoku-2011", VARIANT, *history(f), exit_code=2)
    assert "events.csv, line 4, end_date" in result.stderr


@pytest.mark.skipif(not TSV.exists(), reason="needs ../shared/data")
def test_the_real_history_with_the_shipped_variant(tmp_path):
    """The 59 Chinese events: the variant that asks 3 games for a first rating publishes more players."""
    sys.path.insert(0, str(BENCH))
    from real_history import write_real_history

    f = write_real_history(tmp_path / "real")
    out = tmp_path / "compare.csv"
    run("rules", "compare", "cga-gomoku-2011", VARIANT, *history(f), "--csv", out)
    with out.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert sum(int(r["only_b"]) for r in rows) > 0 and all(r["only_a"] == "0" for r in rows[:8])
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", "--rules", VARIANT, *history(f))
    assert "cga-first-rating-3-games" in result.stdout and "3,320 games of 50 events" in result.stdout


def test_two_evaluations_writing_the_same_files_at_once_leave_whole_files(files, tmp_path):
    """Real processes at the same moment: each file is written beside its target and renamed into
    place, so the table and the chart are complete (one run's, byte for byte), never a mix."""
    import os

    from tests.support.processes import at_once

    out, png = tmp_path / "table.csv", tmp_path / "chart.png"
    args = ["rules", "evaluate", "--rules", "cga-gomoku-2011", *map(str, history(files)), "--from", "2012-01-01",
            "--csv", str(out), "--plot", str(png)]
    outcomes = at_once([args, args, args], dict(os.environ))
    assert [o.returncode for o in outcomes] == [0, 0, 0], [o.stderr for o in outcomes]
    alone = tmp_path / "alone.csv"
    run(*args[:-4], "--csv", alone)
    assert out.read_bytes() == alone.read_bytes()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.read_bytes()[-8:] == b"IEND\xaeB`\x82"
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_an_output_that_cannot_be_written_is_reported_and_undoes_the_others(files, tmp_path, monkeypatch):
    import qiyuan.formats.sandbox_files as files_module

    def refuse(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files_module, "write_calibration_png", refuse)
    out, png = tmp_path / "table.csv", tmp_path / "chart.png"
    result = run("rules", "evaluate", "--rules", "cga-gomoku-2011", *history(files), "--csv", out, "--plot", png,
                 exit_code=2)
    assert f"{png}, --plot: cannot write the file: permission denied" in result.stderr
    assert not out.exists() and not png.exists()
