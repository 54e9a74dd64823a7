"""How a sheet prints (打印设置): the federation files its sheets on paper — A4, one page wide, the title rows (and
name columns) repeated on every page, page numbers in the footer. Shared by the competition report, the published
lists and the calendar's registration list."""

from __future__ import annotations


def page_setup(ws, *, landscape: bool, title_rows: str | None, title_cols: str | None = None,
               area: str | None = None) -> None:
    """A4, fit to one page wide (as many pages down as needed), the title rows and the name
    columns on every page, page numbers in the footer: the sheet prints as the federation files it."""
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0  # as many pages down as the rows need
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    ws.print_options.horizontalCentered = True
    if title_rows:
        ws.print_title_rows = title_rows
    if title_cols:
        ws.print_title_cols = title_cols
    if area:
        ws.print_area = area
    ws.oddFooter.center.text = "第 &P 页，共 &N 页"
