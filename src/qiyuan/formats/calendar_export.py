"""The calendar's registration list as a file (赛事注册名单): CSV for programs (codes, docs/formats.md) and xlsx for
people (words, Chinese headings, printed as the federation files its sheets: ``xlsx_page``). Pure: rows in, bytes
out; the desk and the command line call :func:`registration_file` with the same rows."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date

from qiyuan.formats.report_xlsx import FORMATS as FORMAT_WORDS
from qiyuan.formats.xlsx_page import page_setup

FILE_FORMATS = ("csv", "xlsx")
CSV_COLUMNS = ("code", "start_date", "end_date", "name", "name_en", "city", "list", "format", "rounds",
               "expected_players", "time_minutes", "time_increment", "organiser", "organiser_level", "status",
               "rateable", "problems")
XLSX_HEADINGS = ("代码", "开始日期", "结束日期", "名称", "城市", "榜单", "赛制", "轮数", "预计人数", "用时", "主办单位",
                 "主办级别", "状态", "检查")
STATUS_WORDS = {"registered": "待审批", "approved": "已批准", "refused": "未批准", "withdrawn": "已撤回"}
LEVEL_WORDS = {"state": "国家级", "regional": "地区级", "local": "地方级", "other": "其他"}


@dataclass(frozen=True, slots=True)
class RegistrationLine:
    """One registration as the list shows it (nothing personal: who registered it is not in the file)."""

    code: str
    start_date: date
    end_date: date
    name: str
    name_en: str
    city: str
    list_code: str
    format: str
    rounds: int
    expected_players: int
    time_minutes: int
    time_increment: int
    organiser: str
    organiser_level: str
    status: str
    rateable: bool
    problems: int


def _check_words(r: RegistrationLine) -> str:
    return "按注册内容可计算等级分" if r.rateable else f"{r.problems} 个问题"


def registration_file(rows: list[RegistrationLine], fmt: str, *, title: str = "赛事注册名单") -> bytes:
    """The list in ``fmt`` (``csv``: UTF-8 with a header of codes; ``xlsx``: one sheet, words, page setup)."""
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(CSV_COLUMNS)
        for r in rows:
            w.writerow([r.code, r.start_date.isoformat(), r.end_date.isoformat(), r.name, r.name_en, r.city,
                        r.list_code, r.format, r.rounds, r.expected_players, r.time_minutes, r.time_increment,
                        r.organiser, r.organiser_level, r.status, "yes" if r.rateable else "no", r.problems])
        return out.getvalue().encode("utf-8")
    if fmt != "xlsx":
        raise ValueError(f"unknown format {fmt!r}")
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    wb = Workbook()
    ws = wb.active
    ws.title = "赛事注册"
    ws.append([title])
    ws["A1"].font = Font(bold=True, size=14)
    ws.append(list(XLSX_HEADINGS))
    for cell in ws[2]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(horizontal="center")
    for r in rows:
        tc = f"{r.time_minutes} 分钟" + (f" + {r.time_increment} 秒" if r.time_increment else "")
        ws.append([r.code, r.start_date, r.end_date, r.name, r.city, r.list_code, FORMAT_WORDS.get(r.format, r.format),
                   r.rounds, r.expected_players, tc, r.organiser, LEVEL_WORDS.get(r.organiser_level, r.organiser_level),
                   STATUS_WORDS.get(r.status, r.status), _check_words(r)])
    for row in ws.iter_rows(min_row=3, min_col=2, max_col=3):
        for cell in row:
            cell.number_format = "yyyy-mm-dd"
    for col, width in zip("ABCDEFGHIJKLMN", (12, 12, 12, 30, 10, 8, 10, 6, 8, 16, 20, 8, 8, 22)):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "B3"
    page_setup(ws, landscape=True, title_rows="1:2", title_cols="A:A")
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
