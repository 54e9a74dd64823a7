"""Issue 19 (6): the long commands — import, publish --all, correct, backup, restore (verify: test_verify_robust) —
say what they are doing off a terminal too: plain progress lines (a Rich bar on a terminal)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from typer.testing import CliRunner

from ._o2_fixtures import FACTS, SHARED, history_dir, make_list
from .test_periods import late_batch


def _lines(output: str, pattern: str) -> list[str]:
    return [line for line in output.splitlines() if re.fullmatch(pattern, line)]


@pytest.mark.django_db
def test_import_publish_all_and_correct_print_plain_progress_lines(tmp_path):
    from qiyuan.cli import app

    make_list()
    src = history_dir(tmp_path, per_year=3)  # (small: the lines are what is tested)
    runner = CliRunner()
    result = runner.invoke(app, ["office", "import", str(src), "--list", "CGA"])
    assert result.exit_code == 0, result.output
    for what in ("players", "games", "entries"):  # each step, and its end
        assert _lines(result.output, rf"importing {what}: (\d+)/\1"), result.output

    result = runner.invoke(app, ["office", "period", "publish", "--list", "CGA", "--all"])
    assert result.exit_code == 0, result.output
    assert _lines(result.output, r"publishing CGA editions: (\d+)/\1"), result.output

    assert runner.invoke(app, ["office", "import", str(late_batch(tmp_path, src, date(2019, 11, 2))),
                               "--list", "CGA"]).exit_code == 0
    result = runner.invoke(app, ["office", "period", "correct", "--list", "CGA", "--date", "2020-01-01",
                                 "--reason", "late report"])
    assert result.exit_code == 0, result.output
    assert _lines(result.output, r"correcting CGA list dates: 1/\d+ \(2020-01-01\)"), result.output
    assert _lines(result.output, r"correcting CGA list dates: (\d+)/\1 \(\d{4}-\d\d-01\)"), result.output


@pytest.mark.django_db
def test_a_report_import_says_each_step():
    """A report is one event: reading the file, checking it, storing it — each step's start and end."""
    from qiyuan.cli import app

    make_list(code="GO", rules="cn-go-1995", game="go")
    result = CliRunner().invoke(app, ["office", "import", str(SHARED / "data" / "opengotha" /
                                                             "tournoi-de-juvisy-2019.xml"), "--list", "GO",
                                      "--organiser-level", "state", *FACTS])
    assert result.exit_code == 0, result.output
    for what in ("reading the file", "checking the report", "storing"):
        assert _lines(result.output, rf"importing {what}: 0/1"), result.output
        assert _lines(result.output, rf"importing {what}: 1/1"), result.output


@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_print_plain_progress_lines(tmp_path):
    from qiyuan.cli import app
    from qiyuan.office.imports import import_file

    import_file(history_dir(tmp_path, per_year=2), make_list(), "tester")
    runner = CliRunner()
    saved = tmp_path / "office.jsonl.gz"
    result = runner.invoke(app, ["office", "backup", str(saved)])
    assert result.exit_code == 0, result.output
    assert _lines(result.output, r"backing up events\.game: (\d+)/\1"), result.output
    result = runner.invoke(app, ["office", "restore", str(saved), "--replace"])
    assert result.exit_code == 0, result.output
    assert _lines(result.output, r"restoring events\.game: (\d+)/\1"), result.output
    assert _lines(result.output, r"restoring federation\.player: (\d+)/\1"), result.output
