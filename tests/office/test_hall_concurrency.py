"""Issue 23: the phones and the arbiter acting at the same moment lose nothing — real processes released
together, several trials: for every board both players report the same result at the same instant (one
becomes the report, the other the confirmation: never two reports, never an error), while an arbiter
signs whatever is confirmed, again and again.  At the end every board is confirmed or signed, the event
file holds exactly the signed results, and a last signature takes the rest."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import on_postgres
from tests.support.offices import initialised_office
from tests.support.processes import office_env

TRIALS = 2
PLAYERS = 24  # 12 boards

_RUNNER = r"""
import json, sys, time
from pathlib import Path
ready, go, plan = sys.argv[1:]
from qiyuan.cli.office import ensure_django
ensure_django()
from django.db import connection
connection.ensure_connection()
from qiyuan.errors import QiyuanError
from qiyuan.formats.trf import read_trf
from qiyuan.office.hall import cases
from qiyuan.office.hall.tokens import player_token
from qiyuan.tournament import hall
plan = json.loads(plan)
if plan["kind"] == "phone":
    boards = {b.board: b for b in hall.boards_of(read_trf(plan["file"]), 1)}
    steps = []
    for n in plan["boards"]:
        b = boards[n]
        steps.append(player_token(plan["event"], b.first if plan["side"] == 0 else b.second))
Path(ready).touch()
while not Path(go).exists():
    time.sleep(0.0005)
out = []
if plan["kind"] == "phone":
    for token in steps:
        try:
            out.append(cases.phone_report(plan["event"], token, "1-0").state)
        except QiyuanError as exc:
            out.append("refused: " + str(exc))
else:
    for _ in range(plan["times"]):
        try:
            out.append(cases.sign(plan["event"], "arbiter", 1))
        except QiyuanError as exc:
            out.append("refused: " + str(exc))
        time.sleep(0.01)
print(json.dumps(out))
"""

def _at_once(plans: list[dict], env: dict[str, str]) -> list[list]:
    with tempfile.TemporaryDirectory(prefix="qiyuan-hall-") as tmp:
        go = Path(tmp) / "go"
        readies = [Path(tmp) / f"ready{i}" for i in range(len(plans))]
        procs = [subprocess.Popen([sys.executable, "-c", _RUNNER, str(r), str(go), json.dumps(p)], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for r, p in zip(readies, plans)]
        deadline = time.monotonic() + 240
        while not all(r.exists() for r in readies) and time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs):
                break
            time.sleep(0.005)
        go.touch()
        outs = []
        for p in procs:
            stdout, stderr = p.communicate(timeout=240)
            assert p.returncode == 0, stderr
            outs.append(json.loads(stdout.strip().splitlines()[-1]))
        return outs


@pytest.fixture(scope="module")
def office_home(request, tmp_path_factory):
    home = tmp_path_factory.mktemp("hall-office")
    initialised_office(request, home, postgres=False)
    return home


def _event_file(path: Path) -> int:
    """A paired 24-player Swiss event file; returns its number of boards."""
    from qiyuan.formats.trf import write_trf
    from qiyuan.tournament import eventfile as ev
    from qiyuan.tournament.model import Entrant

    t = ev.new_event("并发报分", fmt="swiss", rounds=5)
    for i in range(PLAYERS):
        ev.add_player(t, Entrant(0, f"棋手{i + 1}", rating=2200 - i))
    ev.pair_next(t)
    path.write_text(write_trf(t), encoding="utf-8")
    return PLAYERS // 2


@pytest.mark.skipif(on_postgres(), reason="the SQLite office is tested in the SQLite run")
@pytest.mark.parametrize("trial", range(TRIALS))
def test_phones_and_the_arbiter_at_the_same_moment_lose_nothing(office_home, tmp_path, trial):
    event = tmp_path / f"open{trial}.trf"
    boards = _event_file(event)
    env = office_env(office_home, QIYUAN_HALL_FILE=str(event))
    halves = (list(range(1, boards // 2 + 1)), list(range(boards // 2 + 1, boards + 1)))
    plans = []
    for part in halves:  # per half: the first players' phones and the others', at once, board by board
        for side in (0, 1):
            plans.append({"kind": "phone", "file": str(event), "event": event.stem,
                          "boards": part, "side": side})
    plans.append({"kind": "arbiter", "event": event.stem, "times": 15})
    outs = _at_once(plans, env)
    phone_states = [s for out in outs[:-1] for s in out]
    assert not [s for s in phone_states if s.startswith("refused")], phone_states
    assert phone_states.count("reported") == boards  # one report per board …
    assert phone_states.count("confirmed") == boards  # … and one confirmation, never two reports
    signed_while = [b for batch in outs[-1] if isinstance(batch, list) for b in batch]
    assert len(signed_while) == len(set(signed_while))  # no board signed twice

    check = r"""
import json
from qiyuan.cli.office import ensure_django
ensure_django()
from qiyuan.office.hall import cases
from qiyuan.office.hall.models import PhoneClaim
from qiyuan.office.audit.models import AuditLog
import sys
code = sys.argv[1]
before = {r.board.board: r.board.result for r in cases.queue(code).rows}
states = {c.board: c.state for c in PhoneClaim.objects.filter(event=code)}
late = cases.sign(code, "arbiter", 1)
after = {r.board.board: r.board.result for r in cases.queue(code).rows}
print(json.dumps({"before": before, "states": states, "late": late, "after": after,
                  "reports": AuditLog.objects.filter(action="hall.report", detail__event=code).count()}))
"""
    got = json.loads(subprocess.run([sys.executable, "-c", check, event.stem], env=env, capture_output=True,
                                    text=True, check=True).stdout)
    states = {int(k): v for k, v in got["states"].items()}
    assert set(states) == set(range(1, boards + 1))
    for board, result in got["before"].items():  # the file holds exactly the signed results
        assert (result == "1-0") == (states[int(board)] == "signed")
    assert sorted(set(signed_while) | set(got["late"])) == list(range(1, boards + 1))
    assert set(got["after"].values()) == {"1-0"}
    assert got["reports"] == 2 * boards
