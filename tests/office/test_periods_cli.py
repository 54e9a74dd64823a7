"""`qiyuan office period compute | publish | correct`, `list add | show`, `history-export`, `rejected` from the terminal."""

from __future__ import annotations

from datetime import date

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app

from ._o2_fixtures import history_dir, make_list
from .test_periods import late_batch

pytestmark = pytest.mark.django_db


def run(*args):
    return CliRunner().invoke(app, list(args))


def test_period_commands_from_the_terminal(tmp_path):
    src = history_dir(tmp_path)
    make_list()
    r = run("office", "import", str(src), "--list", "CGA")
    assert r.exit_code == 0, r.output
    r = run("office", "period", "compute", "--list", "CGA", "--player", "T00001")
    assert r.exit_code == 0, r.output
    assert "CGA 2019-07-01" in r.output and "T00001" in r.output and "review, then publish" in r.output
    r = run("office", "period", "publish", "--list", "CGA", "--date", "2020-01-01")
    assert r.exit_code == 2 and "2019-07-01" in r.output
    r = run("office", "period", "publish", "--list", "CGA")
    assert r.exit_code == 0 and "published CGA 2019-07-01 (edition 1)" in r.output
    r = run("office", "period", "publish", "--list", "CGA", "--all")
    assert r.exit_code == 0 and "2021-01-01" in r.output
    r = run("office", "import", str(late_batch(tmp_path, src, date(2020, 3, 3))), "--list", "CGA")
    assert r.exit_code == 0 and "late report" in r.output and "2020-07-01" in r.output
    r = run("office", "period", "correct", "--list", "CGA", "--date", "2020-07-01", "--reason", "late report LATE1")
    assert r.exit_code == 0 and "edition 2" in r.output
    r = run("office", "list", "show", "--list", "CGA")
    assert "2020-07-01 #2" in r.output and "late report LATE1" in r.output
    out = tmp_path / "h.csv"
    r = run("office", "history-export", "--list", "CGA", "--out", str(out))
    assert r.exit_code == 0 and out.read_text(encoding="utf-8").startswith("federation_id,name,event")
    r = run("office", "verify")
    assert r.exit_code == 0, r.output


def test_list_add_refuses_bad_rules_and_overrides(tmp_path):
    r = run("office", "list", "add", "X", "--rules", "fide")
    assert r.exit_code == 2 and "unknown rule set" in r.output
    bad = tmp_path / "v.toml"
    bad.write_text("cap = 'lots'\n", encoding="utf-8")
    r = run("office", "list", "add", "X", "--rules", "cga-gomoku-2011", "--overrides", str(bad))
    assert r.exit_code == 2 and "cap" in r.output
    good = tmp_path / "g.toml"
    good.write_text("cap = 400\n", encoding="utf-8")
    r = run("office", "list", "add", "X", "--rules", "cga-gomoku-2011", "--overrides", str(good))
    assert r.exit_code == 0
    from qiyuan.office.ratings.models import RatingList

    assert RatingList.objects.get(code="X").rules().cap == 400


def test_rejected_reports_are_listed(tmp_path):
    from pathlib import Path

    juvisy = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "opengotha" / "tournoi-de-juvisy-2019.xml"
    make_list(code="GO", rules="cn-go-1995", game="go")
    run("office", "import", str(juvisy), "--list", "GO", "--organiser-level", "local", "--format", "swiss", "--national",
        "--not-international", "--confirm-all")
    r = run("office", "rejected")
    assert r.exit_code == 0 and juvisy.name in r.output and "Go §4" in r.output


def test_compute_of_a_published_date_points_to_a_correction_not_to_publish(tmp_path):
    make_list()
    assert run("office", "import", str(history_dir(tmp_path)), "--list", "CGA").exit_code == 0
    assert run("office", "period", "publish", "--list", "CGA").exit_code == 0
    r = run("office", "period", "compute", "--list", "CGA", "--date", "2019-07-01")
    assert r.exit_code == 0, r.output
    assert "period publish" not in r.output and "period correct --list CGA --date 2019-07-01" in r.output
    r = run("office", "period", "compute", "--list", "CGA", "--date", "2020-07-01")
    assert "period publish" not in r.output and "next list of CGA to publish is 2020-01-01" in r.output
    r = run("office", "period", "publish", "--list", "CGA", "--date", "2019-07-01")
    assert r.exit_code == 2 and "period correct --list CGA --date 2019-07-01" in r.output
