"""Result entry: a result a later round was paired on changes only with --force (and a
loud warning); entering the same result again, or results of the last round, is free."""

from __future__ import annotations

from pathlib import Path

from qiyuan.formats.trf import read_trf
from tests.cli.test_tournament_cli import run, small_event


def two_rounds(tmp_path: Path) -> Path:
    ev = small_event(tmp_path, 6, 5)
    run("event", "pair", ev)
    t = read_trf(ev)
    run("event", "result", ev, 1, *[f"{e.number} 1-0" for e in t.entrants if e.rounds[0].colour == "b"])
    run("event", "pair", ev)
    return ev


def opener(path: Path, rnd: int) -> int:
    return next(e.number for e in read_trf(path).entrants if e.rounds[rnd - 1].colour == "b")


def test_changing_an_earlier_round_needs_force(tmp_path: Path):
    ev = two_rounds(tmp_path)
    p = opener(ev, 1)
    before = ev.read_bytes()
    r = run("event", "result", ev, 1, f"{p} 0-1", ok=False)
    assert r.exit_code == 2 and "paired on the old scores" in r.stderr and "--force" in r.stderr
    assert ev.read_bytes() == before
    r = run("event", "result", ev, 1, f"{p} ½-½", "--force")
    assert "warning" in r.stderr and "paired on the old scores" in r.stderr
    assert read_trf(ev).entrants[p - 1].rounds[0].result == "="


def test_same_result_again_and_the_last_round_are_free(tmp_path: Path):
    ev = two_rounds(tmp_path)
    p = opener(ev, 1)
    run("event", "result", ev, 1, f"{p} 1-0")  # unchanged: nothing to refuse
    q = opener(ev, 2)
    run("event", "result", ev, 2, f"{q} 1-0")
    run("event", "result", ev, 2, f"{q} 0-1", ok=False)  # never over a result silently (issue 22)
    run("event", "result", ev, 2, f"{q} 0-1", "--change")  # the last round paired: confirmed, no --force
    assert read_trf(ev).entrants[q - 1].rounds[1].result == "0"
