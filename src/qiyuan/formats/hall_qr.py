"""QR codes on the hall's printouts (二维码): each player's personal link on his entry card (参赛证) and on his
half of each result slip, a round's check-in page on a poster for the hall's door.  The codes are made by ``segno`` and drawn as vector squares
(sharp at any printer's resolution)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

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
    c.drawCentredString(width / 2, height - 62 * mm, "签到：扫描您参赛证上的个人二维码；此码查看谁已签到")
    size = 130 * mm
    draw_qr(c, link, (width - size) / 2, height - 80 * mm - size, size)
    c.setFont(FONT, 9)
    c.drawCentredString(width / 2, height - 86 * mm - size, link)
    c.save()
    return buf.getvalue()


def player_cards(t: Tournament, link: Callable[[int], str], numbers: Iterable[int] | None = None) -> bytes:
    """Entry cards to cut (参赛证, eight to an A4 page): per player the event, his draw number and name, and the
    QR code of his personal link — his own credential for reporting his results and checking in."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    font_name()
    wanted = None if numbers is None else set(numbers)
    players = [e for e in t.entrants if wanted is None or e.number in wanted]
    buf = io.BytesIO()
    width, height = A4
    c = Canvas(buf, pagesize=A4, initialFontName=FONT)
    c.setTitle(f"{t.name} 参赛证")
    cols, rows = 2, 4
    w, h = width / cols, height / rows
    for i, e in enumerate(players):
        k = i % (cols * rows)
        if i and k == 0:
            c.showPage()
        x, y = (k % cols) * w + 8 * mm, height - (k // cols + 1) * h + 8 * mm
        c.setDash(4, 4)
        c.setLineWidth(0.4)
        c.rect(x - 8 * mm, y - 8 * mm, w, h)
        c.setDash()
        size = 42 * mm
        draw_qr(c, link(e.number), x + w - 16 * mm - size, y + (h - 16 * mm - size) / 2, size)
        c.setFont(FONT, 9)
        c.drawString(x, y + h - 22 * mm, t.name[:24])
        c.setFont(FONT, 14)
        c.drawString(x, y + h - 32 * mm, "参赛证")
        c.setFont(FONT, 22)
        c.drawString(x, y + h - 44 * mm, str(e.number))
        c.setFont(FONT, 14)
        c.drawString(x, y + h - 53 * mm, e.name[:10])
        c.setFont(FONT, 7)
        c.drawString(x, y + 2 * mm, "本人专用：扫码报分、签到。遗失请找裁判重新发放。")
    if not players:
        c.setFont(FONT, 14)
        c.drawString(20 * mm, height - 30 * mm, f"{t.name}：没有棋手")
    c.save()
    return buf.getvalue()
