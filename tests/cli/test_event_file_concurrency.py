"""Concurrent use of one event file loses nothing (issue 8): real processes started at once.

Ten ``qiyuan event result`` commands, one per board of a 20-player round, released together
from a barrier: every one must succeed and every result must be in the file afterwards — the
file store takes an exclusive lock beside the file, reads under it, writes a synced temporary
file and renames it over the event file.  Five trials.  And a reader running while writers
rename never sees half a file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qiyuan.formats.trf import read_trf
from tests.support.processes import at_once, qiyuan

BOARDS = 10
TRIALS = 5


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(QIYUAN_HOME=str(home), PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    return env


def _event(tmp_path: Path, env: dict[str, str]) -> tuple[Path, list[tuple[int, int]]]:
    ev = tmp_path / "ev.trf"
    assert qiyuan(["event", "new", str(ev), "--name", "并发测试", "--rounds", "5"], env).returncode == 0
    from qiyuan.tournament import eventfile
    from qiyuan.tournament.model import Entrant

    t = read_trf(ev)
    for i in range(2 * BOARDS):
        eventfile.add_player(t, Entrant(0, f"棋手{i + 1}", rating=2000 + i))
    eventfile.pair_next(t)
    from qiyuan.formats.eventstore import TrfFileStore

    TrfFileStore(ev, overwrite=True).create(t, "test")
    boards = [(e.number, e.rounds[0].opponent) for e in read_trf(ev).entrants if e.rounds[0].colour == "b"]
    assert len(boards) == BOARDS
    return ev, boards


@pytest.mark.parametrize("trial", range(TRIALS))
def test_ten_result_commands_for_ten_boards_at_once_all_survive(tmp_path, trial):
    env = _env(tmp_path)
    ev, boards = _event(tmp_path, env)
    wanted = {a: ("1-0", "0-1", "½-½")[(a + trial) % 3] for a, _ in boards}
    outcomes = at_once([["event", "result", str(ev), "1", f"{a} {wanted[a]}"] for a, _ in boards], env)
    assert all(o.returncode == 0 for o in outcomes), [o.stderr for o in outcomes if o.returncode]
    t = read_trf(ev)
    codes = {"1-0": "1", "0-1": "0", "½-½": "="}
    got = {a: t.entrants[a - 1].rounds[0].result for a, _ in boards}
    assert got == {a: codes[r] for a, r in wanted.items()}, "a result was lost"
    assert not list(tmp_path.glob(".ev.trf.*.tmp")), "a temporary file was left behind"


def test_readers_never_see_half_a_file_while_writers_rename(tmp_path):
    env = _env(tmp_path)
    ev, boards = _event(tmp_path, env)
    writers = [["event", "result", str(ev), "1", f"{a} 1-0"] for a, _ in boards]
    readers = [["event", "show", str(ev), "1"] for _ in range(4)]
    outcomes = at_once(writers + readers, env)
    assert all(o.returncode == 0 for o in outcomes), [o.stderr for o in outcomes if o.returncode]
    for o in outcomes[len(writers):]:
        assert o.stdout.startswith("Round 1") and len(o.stdout.splitlines()) == 3 + BOARDS
