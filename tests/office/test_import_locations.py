"""Where a report's problems are: one convention (sheet and cell, draw number and name), the file's own name."""

from __future__ import annotations

import re

import pytest

from ._o2_fixtures import confirm_all
from openpyxl import load_workbook

from .test_import_report import _ranks, field_of, office, write  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def _edit(path, cells: dict[str, object]):
    wb = load_workbook(path)
    ws = wb["成绩"]
    for ref, value in cells.items():
        ws[ref] = value
    wb.save(path)
    return path


def test_a_duplicated_draw_number_is_reported_as_such_without_a_cascade(office, tmp_path, resident_id):
    from qiyuan.office.imports import ImportRefused, import_file

    path = write(tmp_path / "dup.xlsx", field_of(resident_id))
    ws = load_workbook(path)["成绩"]
    _edit(path, {"B10": ws["B9"].value})
    with pytest.raises(ImportRefused) as exc:
        import_file(path, office, "officer", options=confirm_all())
    problems = exc.value.messages
    assert len(problems) == 1, problems
    assert f"draw number {ws['B9'].value} is used twice" in problems[0] and "cells B9, B10" in problems[0]
    assert "out of range" not in problems[0]


def test_identity_problems_name_sheet_cell_draw_number_and_name(office, tmp_path, resident_id):
    from qiyuan.office.imports import ImportRefused, import_file

    path = write(tmp_path / "bad.xlsx", field_of(resident_id))
    ws = load_workbook(path)["成绩"]
    (no7, name7, id7), (no8, name8) = (ws["B7"].value, ws["C7"].value, str(ws["E7"].value)), (ws["B8"].value, ws["C8"].value)
    _edit(path, {"E7": id7[:-1] + ("0" if id7[-1] != "0" else "1"), "G8": "ZZ"})
    with pytest.raises(ImportRefused) as exc:
        import_file(path, office, "officer", options=confirm_all())
    text = "\n".join(exc.value.messages)
    assert f"Sheet 成绩, cell E7 (No. {no7} {name7})" in text
    assert f"Sheet 成绩, cell G8 (No. {no8} {name8})" in text
    assert not re.search(r"\brow \d", text)  # never the ambiguous "row N"


def test_problems_show_the_file_name_not_the_server_path(office, tmp_path, resident_id):
    from qiyuan.office.imports import ImportRefused, import_file

    path = _edit(write(tmp_path / "bad1.xlsx", field_of(resident_id)), {"J3": "99先1"})
    with pytest.raises(ImportRefused) as exc:
        import_file(path, office, "officer", options=confirm_all())
    text = "\n".join(exc.value.messages)
    assert "bad1.xlsx" in text and str(tmp_path) not in text
