"""`qiyuan event add-player` refuses every option the event file cannot hold, all at
once, exit 2, file untouched (the reader would refuse the file afterwards)."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiyuan.formats.trf import read_trf
from tests.cli.test_tournament_cli import run


@pytest.fixture
def event(tmp_path: Path) -> Path:
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    run("event", "add-player", ev, "A")
    return ev


@pytest.mark.parametrize("opts, says", [
    (["--rating", "-5"], "rating"),
    (["--rating", "0"], "rating"),
    (["--rating", "12345"], "rating"),
    (["--rating", "abc"], "rating"),
    (["--title", "12d"], "title"),
    (["--title", "99x"], "title"),
    (["--title", "11k"], "title"),
    (["--sex", "x"], "sex"),
    (["--player-id", "123456789012"], "player id"),
])
def test_bad_option_refused_file_untouched(event: Path, opts, says):
    before = event.read_bytes()
    r = run("event", "add-player", event, "B", *opts, ok=False)
    assert r.exit_code == 2
    assert says in r.stderr
    assert event.read_bytes() == before
    read_trf(event)  # still readable


def test_all_bad_options_reported_at_once(event: Path):
    r = run("event", "add-player", event, "B", "--rating", "-5", "--title", "99x", "--sex", "q", ok=False)
    assert r.exit_code == 2
    assert "rating" in r.stderr and "title" in r.stderr and "sex" in r.stderr


def test_good_spellings_normalised(event: Path):
    run("event", "add-player", event, "B", "--rating", "1850", "--title", "3段", "--sex", "女")
    run("event", "add-player", event, "C", "--title", "10K")
    t = read_trf(event)
    assert (t.entrants[1].rating, t.entrants[1].title, t.entrants[1].sex) == (1850, "3d", "w")
    assert t.entrants[2].title == "10k"
