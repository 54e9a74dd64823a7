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

ENTRY_CSV = "姓名,性别,身份证号,段级位,所属棋协,等级分,分段等级分\n张三,男,,3段,北京,1800,1950\n李四,女,,2级,上海,,\n".encode()
#: the columns an arbiter's list has too (issue 33): grades in words, the document type, the nationality, 签号
ENTRY_CSV_DOCUMENTS = ("签号,姓名,性别,证件类型,身份证号,国籍,段级位\n2,朴永勋,男,,M12345678,KOR,初段\n"
                       "1,Ann Lee,女,护照,E1234567,USA,一级\n3,王五,男,居民身份证,,CHN,六段\n").encode()


def check_entries(data) -> None:
    from qiyuan.formats.entries import read_entries
    from qiyuan.tournament import categories as cat
    from qiyuan.tournament import eventfile as ev

    kind = data.draw(st.sampled_from(["csv", "documents", "report"]))
    if kind == "report":
        raw = data.draw(mutate_workbook(seeds.report_bytes()))  # a report's 成绩 (and 棋手资料) sheet: an entry list too
    else:
        raw = data.draw(mutate_bytes(ENTRY_CSV if kind == "csv" else ENTRY_CSV_DOCUMENTS))

    def read(path):
        rows, faults = read_entries(path)
        t = ev.new_event("x")
        cat.keep_band_floors(t, ev.add_players(t, rows, today=TODAY, faults=faults))  # as the arbiter's use case

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


# -- edition sheets (issue 34) -----------------------------------------------------------------------------


@functools.cache
def _sheet_seed():
    from qiyuan.formats import edition_sheet as S

    n = 30
    entries = {"player": list(range(1, n + 1)), "federation_id": [f"CN{i:06d}" for i in range(n)],
               "name": ["张三"] * n, "position": list(range(1, n + 1)), "rank": [None if i % 7 == 0 else i for i in
                                                                               range(n)],
               "rating": [1500 + i for i in range(n)], "exact": ["1500.25"] * n, "games": [3] * n,
               "status": ["active"] * n, "is_new": [i % 2 == 0 for i in range(n)], "k": [20] * n,
               "state": ['{"r":1500}'] * n}
    changes = {"player": [1, 2], "event": [5, 5], "event_code": ["E1", "E1"], "federation_id": ["CN000000", "CN000001"],
               "before": ["1500.0000", None], "after": ["1506.0000", None], "games": [3, 1], "W": ["2.0000", "0.5"],
               "We": ["1.5000", None], "K": [20, None], "delta": ["6.0000", "0.0000"], "method": ["per_game"] * 2,
               "explanation": ['{"games":3}', '{"games":1}']}
    return S.sheet_of(entries, changes)


def check_sheet(data) -> None:
    """A sheet's bytes mangled: decoded and written as text, or refused as a ``SheetError`` naming the part."""
    from qiyuan.formats import edition_sheet as S

    seed = _sheet_seed()
    part = data.draw(st.sampled_from(["entries", "changes"]))
    blob = data.draw(mutate_bytes(getattr(seed, part)))
    sheet = S.Sheet(seed.format, blob, seed.changes) if part == "entries" else S.Sheet(seed.format, seed.entries, blob)
    try:
        S.text_from_sheet(1, sheet, ["E1"])
    except S.SheetError as exc:
        assert exc.part == part and exc.reason


def check_sheet_columns(data) -> None:
    """A sheet's bytes mangled, some of its columns read from their own bytes (``ipc_columns``: alone, or with an
    intact sheet in one pass): read, or refused as a ``SheetError`` naming the part — never another error."""
    from qiyuan.formats import edition_sheet as S
    from qiyuan.formats import ipc_columns

    seed = _sheet_seed()
    part = data.draw(st.sampled_from(["entries", "changes"]))
    schema = S.ENTRY_SCHEMA if part == "entries" else S.CHANGE_SCHEMA
    blob = data.draw(mutate_bytes(getattr(seed, part)))
    names = data.draw(st.lists(st.sampled_from(list(schema)), min_size=1, unique=True))
    intact = getattr(seed, part)
    sources = [(lambda o, n, b=b: b[o:o + n], len(b)) for b in (intact, blob)]
    try:
        if data.draw(st.booleans()):
            ipc_columns.decode_columns(*sources[1], schema, part, names)
        else:
            ipc_columns.decode_many(sources, schema, part, names)
    except S.SheetError as exc:
        assert exc.part == part and exc.reason


# -- TRF26 -------------------------------------------------------------------------------------------------

#: the records TRF26 adds, with values that are almost right
_TRF26_VALUES = st.one_of(st.text(max_size=40), st.sampled_from([
    "W 2 D 1 L 0", "W 1 D 0.5", "W", "W x", "X 1", "W 1 D 1 H 0", "W -1", "W NaN", "W Infinity", "1 2 3",
    "swiss", "go_mcmahon", "chess", "MMS SOS", "", "  1 Team", "abc Team", "1 2", "1", "x y", "   ",
]))


def check_trf26(data) -> None:
    from qiyuan.formats.trf import read_trf

    seed = data.draw(st.sampled_from(seeds.trf26_files()))
    if data.draw(st.booleans()):
        text = seed.decode()
        lines = text.splitlines()
        at = data.draw(st.integers(0, len(lines)))
        code = data.draw(st.sampled_from(["162", "192", "202", "212", "260", "310"]))
        lines.insert(at, f"{code} {data.draw(_TRF26_VALUES)}")
        seed = ("\n".join(lines) + "\n").encode("utf-8", errors="surrogatepass")
    _in_file(data.draw(mutate_bytes(seed)), "event.trf", lambda p: read_trf(p))


@FAST
@given(st.data())
def test_mutated_edition_sheets_are_read_or_refused(data):
    check_sheet(data)


@FAST
@given(st.data())
def test_mutated_edition_sheets_columns_are_read_or_refused(data):
    check_sheet_columns(data)


@FAST
@given(st.data())
def test_mutated_trf26_files_are_read_or_refused(data):
    check_trf26(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_edition_sheets_are_read_or_refused_thousands(data):
    check_sheet(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_edition_sheets_columns_are_read_or_refused_thousands(data):
    check_sheet_columns(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_trf26_files_are_read_or_refused_thousands(data):
    check_trf26(data)
