"""Helpers of the dan/kyu tests: the example policy in force, a grading standard recorded in time, an imported
national event with its final standings."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from qiyuan.grading.policy import EXAMPLE_FILE, example_text

START = date(2024, 8, 10)
NAME = "2024年全国五子棋锦标赛"


def install_example(text: str | None = None):
    from qiyuan.office.grades.policies import install_policy

    return install_policy(text or example_text(), file=EXAMPLE_FILE, actor="officer")


def players(resident_id, n: int = 16, women: tuple[int, ...] = (4, 7)) -> list[tuple]:
    """``n`` report rows (name, sex, ID number, association); players numbered in ``women`` are women."""
    out = []
    for i in range(1, n + 1):
        woman = i in women
        sequence = f"{(2 * i + (0 if woman else 1)) % 1000:03d}"  # the same person has the same ID in every event
        out.append((f"选手{chr(0x4E00 + 7 * i)}{chr(0x4E00 + 11 * i)}", "w" if woman else "m",
                    resident_id(date(1990 + i % 10, 1 + i % 12, 1 + i), "F" if woman else "M", sequence=sequence),
                    "BJ" if i % 2 else "SH"))
    return out


def imported_event(tmp_path, resident_id, *, n: int = 16, name: str = NAME, start: date = START,
                   standard: str | None = "national", recorded: date | None = None, rating_list=None,
                   arbiters=("周裁判", "吴裁判"), women=(4, 7), rated: int | None = None):
    """Import a report of an event of ``n`` players, after recording its standard. The fresh test office has no
    published list, so the import finds every player unrated; ``rated`` (default: all) is written over the
    import's count — the list's ratings are not what these tests are about (the demo grades on real ones)."""
    from qiyuan.office.grades.standards import record_standard
    from qiyuan.office.imports import ImportRefused, import_file

    from ._o2_fixtures import confirm_all, make_list
    from .test_import_report import write

    rl = rating_list or make_list()
    if standard is not None:
        record_standard(name, start, standard, rating_list=rl, actor="officer",
                        today=recorded or start - timedelta(days=30))
    path = write(tmp_path / f"{name}-{start}.xlsx", players(resident_id, n, women), name=name, start=start,
                 arbiters=arbiters, rounds=5 if n <= 20 else 7)  # CGA Art. 5(三): Swiss rounds against players
    try:
        ev = import_file(path, rl, "officer", options=confirm_all()).events[0]
    except ImportRefused as exc:  # the same field with the same results again: a probable duplicate, confirmed
        [dup] = [p for p in exc.problems if p.code == "import.duplicate"]
        ev = import_file(path, rl, "officer", options=confirm_all(
            duplicate_of=dup.params["event"], duplicate_reason="another event of the same field")).events[0]
    ev.eligibility = {**ev.eligibility, "facts": {**ev.eligibility.get("facts", {}), "rated": n if rated is None
                                                  else rated}}
    ev.save(update_fields=["eligibility"])
    return ev


def office_setup(make_association):
    """Two associations and the two national arbiters the reports name."""
    from qiyuan.office.federation.models import Arbiter

    for code in ("BJ", "SH"):
        make_association(code)
    Arbiter.objects.get_or_create(name="周裁判", defaults={"level": "national", "recognised_national": True})
    Arbiter.objects.get_or_create(name="吴裁判", defaults={"level": "national", "recognised_national": True})
    Arbiter.objects.get_or_create(name="郑裁判", defaults={"level": "first", "recognised_national": True})


@pytest.fixture
def office(make_association):
    """The test office with the example policy in force: associations, arbiters, the CGA list."""
    from ._o2_fixtures import make_list

    office_setup(make_association)
    install_example()
    return make_list()
