"""Issue 8 (2): concurrent use loses nothing — real processes started at the same moment, several trials,
on SQLite (the default office) and on PostgreSQL.

Observed before: the same report saved under two names and imported at the same moment was stored twice
and rated twice; the same file (or history folder) imported at once died with an IntegrityError traceback;
two `player add` loops at once failed with "database is locked".
"""

from __future__ import annotations

import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.conftest import on_postgres
from tests.support.offices import initialised_office
from tests.support.processes import at_once, loops_at_once, qiyuan

from ._o2_fixtures import history_dir
from .test_import_report import write

TRIALS = 3


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def office(request, tmp_path):
    """A command-line office of its own (SQLite under tmp_path, or a fresh PostgreSQL database), initialised,
    with two associations and the two recognised arbiters the reports name."""
    if request.param == "sqlite" and on_postgres():
        pytest.skip("the SQLite office is tested in the SQLite run")
    steps = [["office", "association", "add", "BJ", "北京棋协"], ["office", "association", "add", "SH", "上海棋协"],
             ["office", "arbiter", "add", "周裁判", "--level", "national", "--recognised"],
             ["office", "arbiter", "add", "吴裁判", "--level", "national", "--recognised"]]
    return initialised_office(request, tmp_path / "home", request.param == "postgres", steps)


def _resident_id(born: date, gender: str, n: int) -> str:
    from qiyuan.people.idnumber import check_character

    first17 = "110105" + born.strftime("%Y%m%d") + f"{(2 * n + (1 if gender == 'M' else 0)) % 1000:03d}"
    return first17 + check_character(first17)


def _report(path: Path, trial: int) -> Path:
    """A 12-player Swiss report of its own for each trial (other players, other dates)."""
    players = []
    for i in range(12):
        sex = "w" if i % 3 == 0 else "m"
        players.append((f"选手{trial}{'甲乙丙丁戊己庚辛壬癸子丑'[i]}", sex,
                        _resident_id(date(2000 + trial, 1, 1 + i), "F" if sex == "w" else "M", i), "BJ" if i % 2 else "SH"))
    return write(path, players, name=f"2024年全国五子棋公开赛第{trial}站", start=date(2024, 3, 1) + timedelta(days=10 * trial))


def _stored(env, sql: str) -> list[str]:
    done = qiyuan(["office", "audit", "--json", "-n", "1000"], env)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_same_report_under_two_names_at_the_same_moment_is_stored_and_rated_once(office, tmp_path):
    for trial in range(1, TRIALS + 1):
        first = _report(tmp_path / f"全国公开赛{trial}.xlsx", trial)
        second = tmp_path / f"转发-全国公开赛{trial}.xlsx"  # the same e-mail, saved under another name
        shutil.copy(first, second)
        outcomes = at_once([["office", "import", str(first), "--list", "CGA", "--confirm-all"],
                            ["office", "import", str(second), "--list", "CGA", "--confirm-all"]], office)
        codes = sorted(o.returncode for o in outcomes)
        assert codes == [0, 2], [(o.returncode, o.stderr[-600:]) for o in outcomes]
        loser = next(o for o in outcomes if o.returncode == 2)
        assert "already imported" in loser.stderr or "already stored" in loser.stderr, loser.stderr
        assert "Traceback" not in loser.stderr and "IntegrityError" not in loser.stderr
    _assert_events_and_rejections(office, events=TRIALS, rejected=TRIALS)
    # rated once: the period's changes hold each player once per event
    done = qiyuan(["office", "period", "compute", "--list", "CGA", "--date", "2025-01-01"], office)
    assert done.returncode == 0, done.stderr
    assert f"{TRIALS} event(s), {12 * TRIALS} change(s)" in done.stdout, done.stdout


def test_the_same_history_folder_under_two_names_at_once_is_stored_once(office, tmp_path):
    for trial in range(1, TRIALS + 1):
        folder = history_dir(tmp_path, seed=trial, prefix=f"C{trial}", first=date(2019, 1, 1), last=date(2019, 6, 1),
                             per_year=4)
        twin = tmp_path / f"copy-of-{folder.name}"
        shutil.copytree(folder, twin)
        outcomes = at_once([["office", "import", str(folder), "--list", "CGA"],
                            ["office", "import", str(twin), "--list", "CGA"]], office)
        assert sorted(o.returncode for o in outcomes) == [0, 2], [(o.returncode, o.stderr[-600:]) for o in outcomes]
        loser = next(o for o in outcomes if o.returncode == 2)
        assert "already imported" in loser.stderr and "Traceback" not in loser.stderr, loser.stderr
    _assert_events_and_rejections(office, rejected=TRIALS)


def _assert_events_and_rejections(env, *, events: int | None = None, rejected: int) -> None:
    script = ("from qiyuan.cli.office import ensure_django; ensure_django();"
              "from qiyuan.office.events.models import Event, ImportBatch, RejectedReport;"
              "print(Event.objects.count(), ImportBatch.objects.count(), RejectedReport.objects.count())")
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    n_events, n_batches, n_rejected = map(int, done.stdout.split())
    assert n_batches == TRIALS and n_rejected == rejected
    if events is not None:
        assert n_events == events


def test_two_officers_registering_players_at_once_never_fail_and_never_share_an_id(office):
    per_loop = 25
    loops = [[["office", "player", "add", "--name", f"棋手{who}{i:02d}", "--gender", "M", "-a", "BJ"]
              for i in range(per_loop)] for who in "甲乙"]
    results = loops_at_once(loops, office)
    failed = [(o.args, o.returncode, o.stderr[-400:]) for loop in results for o in loop if o.returncode != 0]
    assert not failed
    ids = [line.split()[1] for loop in results for o in loop for line in o.stdout.splitlines()
           if line.startswith("registered ")]
    assert len(ids) == 2 * per_loop and len(set(ids)) == 2 * per_loop  # every one stored, every ID given once


def test_two_officers_publishing_the_same_list_at_once_get_one_edition(office, tmp_path):
    folder = history_dir(tmp_path, seed=11, prefix="P", first=date(2019, 1, 1), last=date(2020, 11, 1), per_year=4)
    assert qiyuan(["office", "import", str(folder), "--list", "CGA"], office).returncode == 0
    for list_date in ("2019-07-01", "2020-01-01", "2020-07-01")[:TRIALS]:
        outcomes = at_once([["office", "period", "publish", "--list", "CGA", "--date", list_date]] * 2, office)
        assert sorted(o.returncode for o in outcomes) == [0, 2], [(o.returncode, o.stderr[-400:]) for o in outcomes]
        loser = next(o for o in outcomes if o.returncode == 2)
        assert "already published" in loser.stderr and "Traceback" not in loser.stderr, loser.stderr
    done = qiyuan(["office", "verify"], office)
    assert done.returncode == 0, done.stdout + done.stderr
