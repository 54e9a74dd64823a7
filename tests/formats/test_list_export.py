"""Published list files: CSV, XLSX, TXT (fixed width, CJK-aware), PDF; no ID numbers, birth year only."""

from __future__ import annotations

import csv
from datetime import date

import pytest

from qiyuan.formats.list_export import (
    FORMATS,
    ListDocument,
    ListRow,
    display_width,
    fit,
    write_list,
)

ROWS = (
    ListRow(1, 1, "CN000001", "王小明", "Wang Xiaoming", "M", 2008, "北京", "3d", 2412, 57, "active", False, 15, 12),
    ListRow(2, 2, "CN000002", "欧阳娜娜", "Ouyang Nana", "F", 2010, "上海", "", 2290, 9, "active", True, 25, None),
    ListRow(3, None, "CN000003", "李四", "", "M", None, "", "1k", 2001, 40, "inactive", False, 15),
)
DOC = ListDocument("CGA-GMK", "中国五子棋等级分", "cga-gomoku-2011", date(2024, 1, 1), 2, True, "late report", ROWS)


def test_display_width_counts_cjk_twice():
    assert display_width("王a") == 3
    assert fit("欧阳娜娜", 5) == "欧阳 "
    assert fit("12", 4, right=True) == "  12"


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_written(tmp_path, fmt):
    out = tmp_path / f"list.{fmt}"
    write_list(DOC, fmt, out)
    assert out.stat().st_size > 100


def test_csv_rows_and_columns(tmp_path):
    out = tmp_path / "l.csv"
    write_list(DOC, "csv", out)
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert [r["name"] for r in rows] == ["王小明", "欧阳娜娜", "李四"]
    assert rows[0]["birth_year"] == "2008" and rows[1]["new"] == "1" and rows[2]["status"] == "inactive"
    assert "id_number" not in rows[0]


def test_txt_lines_up_in_display_columns(tmp_path):
    out = tmp_path / "l.txt"
    write_list(DOC, "txt", out)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split()[:3] == ["Rank", "ID", "Number"]
    # the rating column starts at the same display column on every line
    starts = {display_width(line[: line.index("2412" if i == 1 else "2290" if i == 2 else "2001")])
              for i, line in enumerate(lines[1:], start=1)}
    assert len(starts) == 1
    assert lines[3].rstrip().endswith("i") and lines[2].rstrip().endswith("n")


def test_pdf_is_a_pdf(tmp_path):
    out = tmp_path / "l.pdf"
    write_list(DOC, "pdf", out)
    assert out.read_bytes().startswith(b"%PDF")


def test_unknown_format():
    with pytest.raises(ValueError, match="unknown list format"):
        write_list(DOC, "doc", "x")
