"""Published rating lists (等级分名册) as files: CSV, XLSX, fixed-width TXT, PDF; and the full history.

The public shape has no ID number at all (``ListRow`` has no such field) and
only the birth *year*: many players are minors. The TXT follows the manner of
FIDE's ``players_list.txt`` — one fixed-width line per player, a header line —
with widths counted in display columns, so Chinese names (two columns a
character) line up. The PDF embeds the project's CJK font
(``formats.pdf_font``), so it reads the same in every viewer.

The full-history file is one row per player per event, rating before and
after, like the European Go Database's tournament history.
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from qiyuan.formats.xlsx_page import page_setup
from qiyuan.people.grades import GRADE_ZH

FORMATS = ("csv", "xlsx", "txt", "pdf")

STATUS_ZH = {"active": "活跃", "inactive": "不活跃", "removed": "除名", "unrated": "无等级分"}
SEX_ZH = {"M": "男", "F": "女"}


def grade_words(code: str) -> str:
    """A grade as people read it in the files meant for them (XLSX, TXT, PDF): 初段, 五段, 二级 (the CSV keeps the
    code, for programs: docs/formats.md)."""
    return GRADE_ZH.get(code, code)


@dataclass(frozen=True, slots=True)
class ListRow:
    """One player on a public list. Deliberately without an ID number or a full birth date."""

    position: int
    rank: int | None
    federation_id: str
    name: str
    name_latin: str
    gender: str  # M / F
    birth_year: int | None
    association: str
    dan: str
    rating: int | None
    games: int
    status: str
    is_new: bool = False
    k: int | None = None
    change: int | None = None  # against the previous edition; None for a new player


@dataclass(frozen=True, slots=True)
class ListDocument:
    """One edition of a list, ready to be written."""

    list_code: str
    title: str
    rules_title: str
    list_date: date
    edition: int
    is_correction: bool
    reason: str
    rows: Sequence[ListRow] = field(default_factory=tuple)

    @property
    def heading(self) -> str:
        corr = f" 更正第{self.edition - 1}版 correction {self.edition - 1}" if self.is_correction else ""
        return f"{self.title} {self.list_date.isoformat()}{corr}"


COLUMNS = ("position", "rank", "federation_id", "name", "name_latin", "gender", "birth_year", "association", "dan",
           "rating", "games", "k", "status", "new", "change")
HEADINGS_ZH = ("序", "名次", "编号", "姓名", "拼音/Latin", "性别", "出生年", "所属棋协", "段级位", "等级分", "局数", "K",
               "状态", "新", "升降")


def _values(r: ListRow) -> tuple:
    return (r.position, r.rank, r.federation_id, r.name, r.name_latin, r.gender, r.birth_year, r.association, r.dan,
            r.rating, r.games, r.k, r.status, "1" if r.is_new else "", r.change)


def _text(v) -> str:
    return "" if v is None else str(v)


def write_csv(doc: ListDocument, path: str | Path) -> None:
    """UTF-8 CSV (with a BOM so spreadsheet programs read the Chinese names), English column names."""
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in doc.rows:
            w.writerow([_text(v) for v in _values(r)])


def write_xlsx(doc: ListDocument, path: str | Path) -> None:
    """The list as a spreadsheet for people: words for sex, grade and status, and set up to print — A4 landscape,
    one page wide, the heading row repeated on every page and frozen on screen."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    wb = Workbook()
    ws = wb.active
    ws.title = "等级分"
    ws.append([doc.heading])
    ws["A1"].font = Font(bold=True, size=14)
    ws.append([doc.rules_title, doc.list_code, f"第 {doc.edition} 版", f"更正理由：{doc.reason}" if doc.reason else ""])
    ws.append(list(HEADINGS_ZH))
    for cell in ws[3]:
        cell.font = Font(bold=True)
    for r in doc.rows:
        vals = list(_values(r))
        vals[5], vals[8] = SEX_ZH.get(r.gender, r.gender), grade_words(r.dan)
        vals[12], vals[13] = STATUS_ZH.get(r.status, r.status), "新" if r.is_new else ""
        ws.append(vals)
    for i, width in enumerate((5, 5, 11, 10, 16, 5, 7, 12, 7, 7, 6, 4, 8, 4, 6), 1):
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = "A4"
    page_setup(ws, landscape=True, title_rows="3:3", title_cols=None)
    wb.save(path)


def display_width(text: str) -> int:
    """Columns a text takes in a fixed-width file: wide (CJK) characters count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def fit(text: str, width: int, *, right: bool = False) -> str:
    """Cut or pad ``text`` to exactly ``width`` display columns."""
    out, used = [], 0
    for ch in text:
        w = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if used + w > width:
            break
        out.append(ch)
        used += w
    pad = " " * (width - used)
    return pad + "".join(out) if right else "".join(out) + pad


#: (heading, width, right-aligned) of each TXT column, in FIDE's manner.
TXT_COLUMNS = (
    ("Rank", 5, True), ("ID Number", 10, False), ("Name", 24, False), ("Latin", 22, False), ("Sex", 4, False),
    ("Assoc", 10, False), ("Dan", 4, False), ("Rtng", 5, True), ("Gms", 5, True), ("K", 3, True),
    ("B-day", 6, True), ("Flag", 5, False),
)


def txt_line(values: Sequence[str]) -> str:
    return " ".join(fit(v, w, right=right) for v, (_, w, right) in zip(values, TXT_COLUMNS)).rstrip()


def write_txt(doc: ListDocument, path: str | Path) -> None:
    """Fixed-width text: a header line, then one line per player (Flag: i inactive, r removed, n new)."""
    lines = [txt_line([h for h, _, _ in TXT_COLUMNS])]
    for r in doc.rows:
        flag = {"inactive": "i", "removed": "r"}.get(r.status, "") + ("n" if r.is_new else "")
        lines.append(txt_line([
            _text(r.rank), r.federation_id, r.name, r.name_latin, r.gender, r.association, grade_words(r.dan),
            _text(r.rating),
            str(r.games), _text(r.k), _text(r.birth_year), flag,
        ]))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_pdf(doc: ListDocument, path: str | Path) -> None:
    """A4 PDF with the list as a table, the CJK font embedded (``formats.pdf_font``)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, TableStyle

    from qiyuan.formats.pdf_font import font_name  # here, not on top: it loads reportlab, which only the PDF needs

    CJK_FONT = font_name()  # noqa: N806 - the font's registered name
    title = ParagraphStyle("t", fontName=CJK_FONT, fontSize=14, leading=18)
    small = ParagraphStyle("s", fontName=CJK_FONT, fontSize=8, leading=10)
    head = ["名次", "编号", "姓名", "性别", "出生年", "所属棋协", "段级位", "等级分", "局数", "状态"]
    data = [head] + [
        [_text(r.rank), r.federation_id, r.name, SEX_ZH.get(r.gender, r.gender), _text(r.birth_year),
         r.association, grade_words(r.dan), _text(r.rating), str(r.games), STATUS_ZH.get(r.status, r.status) + ("·新" if r.is_new else "")]
        for r in doc.rows
    ]
    table = LongTable(data, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), CJK_FONT),
        ("FONTSIZE", (0, 0), (-1, -1), 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
        ("ALIGN", (7, 1), (8, -1), "RIGHT"),
    ]))
    story = [Paragraph(doc.heading, title), Paragraph(f"{doc.rules_title} · {doc.list_code} · 第{doc.edition}版", small)]
    if doc.reason:
        story.append(Paragraph(f"更正理由 reason: {doc.reason}", small))
    story += [Spacer(1, 4 * mm), table]
    SimpleDocTemplate(str(path), pagesize=A4, title=doc.heading, leftMargin=12 * mm, rightMargin=12 * mm,
                      topMargin=12 * mm, bottomMargin=12 * mm).build(story)


WRITERS = {"csv": write_csv, "xlsx": write_xlsx, "txt": write_txt, "pdf": write_pdf}


def write_list(doc: ListDocument, fmt: str, path: str | Path) -> None:
    """Write ``doc`` in ``fmt`` (csv, xlsx, txt, pdf)."""
    if fmt not in WRITERS:
        raise ValueError(f"unknown list format {fmt!r}; one of {', '.join(FORMATS)}")
    WRITERS[fmt](doc, path)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One player's result in one rated event (European Go Database manner): rating before and after."""

    federation_id: str
    name: str
    event_code: str
    event_name: str
    end_date: date
    list_date: date
    edition: int
    games: int
    W: str
    We: str
    K: str
    before: str
    after: str
    delta: str
    method: str


HISTORY_COLUMNS = ("federation_id", "name", "event", "event_name", "end_date", "list_date", "edition", "games", "W",
                   "We", "K", "before", "after", "delta", "method")


def write_history_csv(rows, path: str | Path) -> int:
    """Write the full history (any iterable of ``HistoryRow``); returns the number of rows."""
    n = 0
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(HISTORY_COLUMNS)
        for r in rows:
            w.writerow([r.federation_id, r.name, r.event_code, r.event_name, r.end_date.isoformat(),
                        r.list_date.isoformat(), r.edition, r.games, r.W, r.We, r.K, r.before, r.after, r.delta,
                        r.method])
            n += 1
    return n
