"""Issue 8 (5): no input, however mangled, may end in a traceback — the readers.

Every reader of every format the project takes from outside (TRF-16, OpenGotha XML, the competition report
workbook, the history CSV files, a registration list) gets real files mutated by hypothesis; the only
outcomes allowed are success or the project's input error (``qiyuan.errors.QiyuanError``, every problem with
its file and place). A few hundred examples per format in ``make test``; thousands under ``make test-slow``.
"""

from __future__ import annotations

import functools
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.errors import QiyuanError

from . import seeds
from .mutations import mutate_bytes, mutate_workbook

FAST = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.data_too_large])
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.data_too_large])
TODAY = date(2026, 12, 1)


def _only_input_errors(read) -> None:
    try:
        read()
    except QiyuanError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)


def _in_file(data: bytes, name: str, read):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        _only_input_errors(lambda: read(path))


# -- TRF-16 ------------------------------------------------------------------------------------------------


def check_trf(data) -> None:
    from qiyuan.formats.trf import read_trf

    seed = data.draw(st.sampled_from(seeds.trf_files()))
    _in_file(data.draw(mutate_bytes(seed)), "event.trf", lambda p: read_trf(p))


@FAST
@given(st.data())
def test_mutated_trf_files_are_read_or_refused(data):
    check_trf(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_trf_files_are_read_or_refused_thousands(data):
    check_trf(data)


# -- OpenGotha ---------------------------------------------------------------------------------------------


def check_opengotha(data) -> None:
    from qiyuan.formats.opengotha import read_opengotha

    seed = data.draw(st.sampled_from(seeds.opengotha_files()))
    _in_file(data.draw(mutate_bytes(seed)), "t.xml", read_opengotha)


@FAST
@given(st.data())
def test_mutated_opengotha_files_are_read_or_refused(data):
    check_opengotha(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_opengotha_files_are_read_or_refused_thousands(data):
    check_opengotha(data)


# -- the competition report workbook ----------------------------------------------------------------------


def check_report(data) -> None:
    from qiyuan.formats.report_xlsx import read_report

    _in_file(data.draw(mutate_workbook(seeds.report_bytes())), "report.xlsx", read_report)


@FAST
@given(st.data())
def test_mutated_reports_are_read_or_refused(data):
    check_report(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_reports_are_read_or_refused_thousands(data):
    check_report(data)


# -- history CSV files --------------------------------------------------------------------------------------


def _with_colours(games: bytes) -> bytes:
    """games.csv with a ``black`` column: player1, player2 or empty, by turns."""
    header, *rows = games.decode("utf-8").splitlines()
    cells = header.split(",")
    one, two = cells.index("player1"), cells.index("player2")
    out = [header + ",black"]
    for i, row in enumerate(rows):
        values = row.split(",")
        out.append(row + "," + (values[one], values[two], "")[i % 3])
    return ("\n".join(out) + "\n").encode("utf-8")


def check_history(data) -> None:
    from qiyuan.formats.history_csv import read_history

    files = dict(seeds.history_files())
    files["games.csv"] = _with_colours(files["games.csv"])  # the optional black column (colour_advantage) too
    name = data.draw(st.sampled_from(sorted(files)))
    files[name] = data.draw(mutate_bytes(files[name]))
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for n, content in files.items():
            (d / n).write_bytes(content)
        standings = d / "standings.csv"
        _only_input_errors(lambda: read_history(d / "players.csv", d / "events.csv", d / "games.csv",
                                                standings if standings.exists() else None))


def test_the_seed_history_with_its_colours_is_read(tmp_path):
    from qiyuan.formats.history_csv import read_history

    files = dict(seeds.history_files())
    files["games.csv"] = _with_colours(files["games.csv"])
    for n, content in files.items():
        (tmp_path / n).write_bytes(content)
    games = read_history(tmp_path / "players.csv", tmp_path / "events.csv", tmp_path / "games.csv").games
    assert set(games.black.tolist()) == {1, -1, 0}


@FAST
@given(st.data())
def test_mutated_history_files_are_read_or_refused(data):
    check_history(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_history_files_are_read_or_refused_thousands(data):
    check_history(data)


# -- registration lists ------------------------------------------------------------------------------------


def check_registration(data) -> None:
    from qiyuan.formats.registration_csv import check_registration_file

    content = data.draw(mutate_bytes(seeds.registration_text()))
    if data.draw(st.booleans()):
        try:
            content = content.decode("utf-8").encode("gb18030")  # as Chinese Excel saves it
        except UnicodeError:
            pass
    _in_file(content, "注册名单.csv", lambda p: check_registration_file(p, today=TODAY))


@FAST
@given(st.data())
def test_mutated_registration_lists_are_read_or_refused(data):
    check_registration(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_registration_lists_are_read_or_refused_thousands(data):
    check_registration(data)


def test_a_bare_cr_in_a_registration_header_is_a_clear_error():
    """Observed: ``printf '姓名\\r,性别\\n'`` crashed the registration import with a traceback."""
    from qiyuan.formats.registration_csv import check_registration_csv

    try:
        checked = check_registration_csv("姓名\r,性别\n", "reg.csv", today=TODAY)
    except QiyuanError as exc:
        assert "reg.csv" in str(exc)
    else:
        assert checked.problems or not checked.rows


# -- entry lists (event add-players) ------------------------------------------------------------------------

ENTRY_CSV = "姓名,性别,身份证号,段级位,所属棋协,等级分\n张三,男,,3段,北京,1800\n李四,女,,2级,上海,\n".encode()


def check_entries(data) -> None:
    from qiyuan.formats.entries import read_entries
    from qiyuan.tournament import eventfile as ev

    if data.draw(st.booleans()):
        raw = data.draw(mutate_bytes(ENTRY_CSV))
    else:
        raw = data.draw(mutate_workbook(seeds.report_bytes()))  # a report's 成绩 sheet is an entry list too

    def read(path):
        rows, faults = read_entries(path)
        ev.add_players(ev.new_event("x"), rows, today=TODAY, faults=faults)

    _in_file(raw, "entries.csv", read)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_mutated_entry_lists_are_read_or_refused(data):
    check_entries(data)


# -- the list a new office starts from (issue 18, item 9) --------------------------------------------------

SEED_LIST = "编号,姓名,等级分,局数,性别,段级位\nS001,甲,2100,80,M,3段\nS002,乙,1900.5,30,女,\nS003,丙,,0,,\n".encode()


@functools.cache
def _seed_xlsx() -> bytes:
    """The workbook's bytes, made once (a new one carries another timestamp: hypothesis wants the same seed)."""
    import io

    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["名册"])
    ws.append(["序", "编号", "姓名", "等级分", "局数"])
    ws.append([1, "X1", "甲", 2100, 80])
    ws.append([2, "X2", "乙", 1980.25, 31])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def check_seed_list(data) -> None:
    from qiyuan.formats.seed_list import read_seed_list

    if data.draw(st.booleans()):
        _in_file(data.draw(mutate_bytes(SEED_LIST)), "list.csv", read_seed_list)
    else:
        _in_file(data.draw(mutate_workbook(_seed_xlsx())), "list.xlsx", read_seed_list)


@FAST
@given(st.data())
def test_mutated_seed_lists_are_read_or_refused(data):
    check_seed_list(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_entry_lists_are_read_or_refused_thousands(data):
    check_entries(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_seed_lists_are_read_or_refused_thousands(data):
    check_seed_list(data)
