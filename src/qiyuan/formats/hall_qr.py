"""QR codes on the hall's printouts (二维码): a board's link on its result slip, a round's check-in
link on a poster for the hall's door.  The codes are made by ``segno`` and drawn as vector squares
(sharp at any printer's resolution)."""

from __future__ import annotations

import io

import segno

from qiyuan.formats.pdf_font import FONT, font_name
from qiyuan.tournament.model import Tournament

#: modules of white around the code, as the QR standard asks
QUIET = 4


def draw_qr(canvas, data: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``data`` with its lower left corner at (``x``, ``y``), ``size`` points wide
    (quiet zone included)."""
    qr = segno.make(data, error="m", micro=False)
    rows = [list(r) for r in qr.matrix]
    n = len(rows) + 2 * QUIET
    cell = size / n
    canvas.saveState()
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    for i, row in enumerate(rows):
        top = y + size - (i + QUIET + 1) * cell
        j = 0
        while j < len(row):  # one rectangle per run of dark modules
            if row[j]:
                k = j
                while k < len(row) and row[k]:
                    k += 1
                canvas.rect(x + (j + QUIET) * cell, top, (k - j) * cell, cell, stroke=0, fill=1)
                j = k
            else:
                j += 1
    canvas.restoreState()


def checkin_poster(t: Tournament, rnd: int, link: str) -> bytes:
    """An A4 poster: the event, 第 N 轮签到, a large QR code of the check-in link, and the link."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    font_name()
    buf = io.BytesIO()
    width, height = A4
    c = Canvas(buf, pagesize=A4, initialFontName=FONT)
    c.setTitle(f"{t.name} 第 {rnd} 轮签到")
    c.setFont(FONT, 20)
    c.drawCentredString(width / 2, height - 30 * mm, t.name)
    c.setFont(FONT, 36)
    c.drawCentredString(width / 2, height - 50 * mm, f"第 {rnd} 轮签到")
    c.setFont(FONT, 14)
    c.drawCentredString(width / 2, height - 62 * mm, "用手机扫描二维码，找到自己的名字，点“签到”")
    size = 130 * mm
    draw_qr(c, link, (width - size) / 2, height - 80 * mm - size, size)
    c.setFont(FONT, 9)
    c.drawCentredString(width / 2, height - 86 * mm - size, link)
    c.save()
    return buf.getvalue()
