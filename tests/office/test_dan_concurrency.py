"""Grants at the same moment lose nothing and double nothing — real processes, several trials, on SQLite and on
PostgreSQL: two officers confirming the same event's proposals at once grant each grade once; grants by hand
running side by side all get their own certificate serial."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, timedelta

from tests.support.processes import at_once, loops_at_once, qiyuan

from ._dan_fixtures import players
from .test_concurrency import office  # noqa: F401 - the fixture: an initialised command-line office per database
from .test_import_report import write

TRIALS = 3


def _resident_id(born: date, gender: str, sequence: str | None = None) -> str:
    from qiyuan.people.idnumber import check_character

    first17 = "110105" + born.strftime("%Y%m%d") + (sequence or "001")
    return first17 + check_character(first17)


def _policy(tmp_path, env):
    from qiyuan.grading.policy import example_text

    # a fresh office has no published list, so every player is unrated: this policy lets that be
    path = tmp_path / "policy.toml"
    path.write_text(example_text().replace('max_unrated_share = "0.20"', 'max_unrated_share = "100%"'),
                    encoding="utf-8")
    done = qiyuan(["office", "dan", "policy", "install", str(path)], env)
    assert done.returncode == 0, done.stderr


def _graded_events(tmp_path, env, trials: int) -> list[str]:
    """For each trial an event's standard recorded before it started, then — once it is over — its report
    imported (one officer, one process, one command after another); returns the events' codes. (The standards
    are recorded as of a month before each event: a report of an event still to come is refused.)"""
    steps = []
    record = ["from datetime import date; from qiyuan.cli.office import ensure_django; ensure_django()",
              "from qiyuan.office.grades.standards import record_standard"]
    for trial in range(1, trials + 1):
        start = date.today() - timedelta(days=60 + 7 * trial)
        name = f"全国五子棋公开赛第{trial}站"
        record.append(f"record_standard({name!r}, date.fromisoformat({start.isoformat()!r}), 'national', "
                      f"rating_list='CGA', actor='officer', today=date.fromisoformat("
                      f"{(start - timedelta(days=30)).isoformat()!r}))")

        def other_people(born: date, gender: str, sequence: str | None = None, trial=trial) -> str:
            return _resident_id(born.replace(year=born.year - 20 * trial), gender, sequence)  # new players each trial

        rows = [(f"{n}{trial}", sex, idn, assoc) for n, sex, idn, assoc in players(other_people, 16)]
        path = write(tmp_path / f"r{trial}.xlsx", rows, name=name, start=start)
        steps.append(["office", "import", str(path), "--list", "CGA", "--confirm-all"])
    recorded = subprocess.run([sys.executable, "-c", "\n".join(record)], env=env, capture_output=True, text=True,
                              timeout=120)
    assert recorded.returncode == 0, recorded.stderr
    [done] = loops_at_once([steps], env)
    assert all(o.returncode == 0 for o in done), [o.stderr[-400:] for o in done]
    return [next(line.split()[0] for line in o.stdout.splitlines() if line.strip().startswith("CGA-"))
            for o in done]


def _grants(env) -> list[tuple[str, str, str]]:
    script = ("from qiyuan.cli.office import ensure_django; ensure_django();"
              "from qiyuan.office.federation.models import DanGrant;"
              "[print(g.player.federation_id, g.event.code if g.event else '-', g.serial or '-') "
              "for g in DanGrant.objects.select_related('player', 'event')]")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [tuple(line.split()) for line in done.stdout.splitlines()]


def test_two_officers_confirming_the_same_proposals_at_once_grant_each_grade_once(office, tmp_path):  # noqa: F811
    _policy(tmp_path, office)
    for code in _graded_events(tmp_path, office, TRIALS):
        outcomes = at_once([["office", "dan", "grant", code, "--all"]] * 2, office)
        assert sorted(o.returncode for o in outcomes) == [0, 2], [(o.returncode, o.stderr[-500:]) for o in outcomes]
        loser = next(o for o in outcomes if o.returncode == 2)
        assert "no proposal of" in loser.stderr and "Traceback" not in loser.stderr, loser.stderr
    grants = _grants(office)
    assert len(grants) == 16 * TRIALS
    assert len({(fid, event) for fid, event, _ in grants}) == 16 * TRIALS  # once per player and event
    serials = [s for _, _, s in grants]
    assert len(set(serials)) == len(serials) and all(s.startswith("DEMO-") for s in serials)


def test_grants_by_hand_side_by_side_each_get_their_own_serial(office, tmp_path):  # noqa: F811
    _policy(tmp_path, office)
    per_loop = 12
    # the players registered one after another by one officer (one process); the grants below race
    [added] = loops_at_once([[["office", "player", "add", "--name", f"段位棋手{i:02d}", "--gender", "M", "-a", "BJ"]
                              for i in range(2 * per_loop)]], office)
    assert all(o.returncode == 0 for o in added), [o.stderr[-400:] for o in added]
    ids = [o.stdout.split()[1] for o in added]
    loops = [[["office", "dan", "grant", fid, "2d", "--on", "2024-05-01", "--by", "演示五子棋协会"] for fid in half]
             for half in (ids[:per_loop], ids[per_loop:])]
    results = loops_at_once(loops, office)
    failed = [(o.args, o.returncode, o.stderr[-400:]) for loop in results for o in loop if o.returncode != 0]
    assert not failed
    serials = [s for _, _, s in _grants(office)]
    assert sorted(serials) == [f"DEMO-2024-{n:05d}" for n in range(1, 2 * per_loop + 1)]
