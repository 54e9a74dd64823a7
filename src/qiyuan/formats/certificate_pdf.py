"""The certificate of a grant (段位证书 / 级位证书) as an A4 PDF.

One page, portrait: a double border, the certificate's title in both languages,
the sentence of the grant — the player, the event and his placing, the grade —
the grade in large characters, the date in Chinese numerals (二〇二四年八月十三日)
and in ISO form, the granting federation's name, and the serial number (证书编号)
that identifies the grant (unique, and the same every time it is printed). The
CJK font is embedded (a subset of the characters used), so the page reads the
same on every machine. Plain data in, bytes out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

from qiyuan.people.grades import GRADE_EN, GRADE_ZH, is_dan

_DIGITS = "〇一二三四五六七八九"
_MONTHS = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二")


@dataclass(frozen=True, slots=True)
class Certificate:
    """What a certificate says (no ID number, no birth date: it is shown and framed)."""

    serial: str
    federation: str
    federation_en: str
    player_name: str
    player_latin: str
    federation_id: str
    grade: str  # "3d", "2k"
    granted_on: date
    event_name: str = ""
    event_name_en: str = ""
    placing: int | None = None
    policy_title: str = ""


def chinese_date(day: date) -> str:
    """``2024-08-13`` → ``二〇二四年八月十三日``."""
    year = "".join(_DIGITS[int(d)] for d in str(day.year))
    d = day.day
    days = _MONTHS[d] if d <= 10 else ("十" + _DIGITS[d - 10] if d < 20 else
                                        _DIGITS[d // 10] + "十" + (_DIGITS[d % 10] if d % 10 else ""))
    return f"{year}年{_MONTHS[day.month]}月{days}日"


def _sentence_zh(c: Certificate) -> str:
    grade = GRADE_ZH[c.grade]
    if c.event_name and c.placing:
        return f"{c.player_name}在{c.event_name}中获得第{c.placing}名，经审核，授予{grade}称号，特发此证。"
    if c.event_name:
        return f"{c.player_name}在{c.event_name}中达到{grade}标准，经审核，授予{grade}称号，特发此证。"
    return f"经审核，授予{c.player_name}{grade}称号，特发此证。"


def _sentence_en(c: Certificate) -> str:
    name = c.player_latin or c.player_name
    grade = GRADE_EN[c.grade]
    event = c.event_name_en or c.event_name
    if event and c.placing:
        return f"{name}, placed {_ordinal(c.placing)} at {event}, is granted the grade of {grade}."
    if event:
        return f"{name} reached the standard of {grade} at {event} and is granted that grade."
    return f"{name} is granted the grade of {grade}."


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def certificate_pdf(c: Certificate, *, font: str, latin_font: str = "Helvetica") -> bytes:
    """The certificate as PDF bytes; ``font`` is a registered reportlab font with the CJK characters."""
    from reportlab.lib.colors import Color
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    width, height = A4
    pdf = canvas.Canvas(buf, pagesize=A4, pageCompression=1, invariant=1)  # the same grant, the same bytes
    dan = is_dan(c.grade)
    title_zh = "段位证书" if dan else "级位证书"
    title_en = "Dan Certificate" if dan else "Kyu Certificate"
    pdf.setTitle(f"{title_zh} {c.serial}")
    pdf.setAuthor(c.federation)
    pdf.setSubject(f"{c.player_name} {GRADE_ZH[c.grade]}")
    red = Color(0.62, 0.09, 0.11)
    gold = Color(0.70, 0.55, 0.20)
    ink = Color(0.12, 0.12, 0.12)

    # the frame: a thick red line and a thin gold one inside it
    pdf.setStrokeColor(red)
    pdf.setLineWidth(4)
    pdf.rect(12 * mm, 12 * mm, width - 24 * mm, height - 24 * mm)
    pdf.setStrokeColor(gold)
    pdf.setLineWidth(1)
    pdf.rect(17 * mm, 17 * mm, width - 34 * mm, height - 34 * mm)

    def centred(text: str, y: float, face: str, size: float, color=ink) -> None:
        pdf.setFillColor(color)
        pdf.setFont(face, size)
        pdf.drawCentredString(width / 2, y, text)

    def wrapped(text: str, y: float, face: str, size: float, max_width: float, leading: float, *,
                words: bool = False) -> float:
        """Draw ``text`` centred in lines no wider than ``max_width`` (Chinese breaks anywhere, ``words`` at
        spaces)."""
        pdf.setFillColor(ink)
        pdf.setFont(face, size)
        lines, line = [], ""
        tokens = text.split(" ") if words else list(text)
        sep = " " if words else ""
        for token in tokens:
            trial = f"{line}{sep}{token}" if line else token
            if stringWidth(trial, face, size) > max_width and line:
                lines.append(line)
                line = token
            else:
                line = trial
        lines.append(line)
        for text_line in lines:
            pdf.drawCentredString(width / 2, y, text_line)
            y -= leading
        return y

    centred(c.federation, height - 45 * mm, font, 18, red)
    if c.federation_en:
        centred(c.federation_en, height - 53 * mm, latin_font, 11, red)
    centred(title_zh, height - 82 * mm, font, 44, red)
    centred(title_en.upper(), height - 95 * mm, latin_font, 14, gold)

    y = height - 122 * mm
    y = wrapped(_sentence_zh(c), y, font, 15, width - 60 * mm, 9 * mm)
    english = _sentence_en(c)  # a name or event without a Latin form stays in characters: set in the CJK font
    y = wrapped(english, y - 2 * mm, latin_font if all(ord(ch) < 256 for ch in english) else font, 11,
                width - 60 * mm, 6 * mm, words=True)

    centred(GRADE_ZH[c.grade], y - 28 * mm, font, 64, red)
    centred(GRADE_EN[c.grade].upper(), y - 40 * mm, latin_font, 16, gold)

    centred(f"{c.player_name}" + (f"  {c.player_latin}" if c.player_latin else ""), 92 * mm, font, 16)
    centred(f"注册号 Federation ID {c.federation_id}", 84 * mm, font, 10)
    if c.policy_title:
        centred(f"依据《{c.policy_title}》", 76 * mm, font, 10)

    pdf.setFillColor(ink)
    pdf.setFont(font, 13)
    pdf.drawRightString(width - 32 * mm, 56 * mm, c.federation)
    pdf.drawRightString(width - 32 * mm, 48 * mm, chinese_date(c.granted_on))
    pdf.setFont(latin_font, 9)
    pdf.drawRightString(width - 32 * mm, 42 * mm, c.granted_on.isoformat())
    pdf.setFont(font, 10)
    pdf.drawString(32 * mm, 28 * mm, f"证书编号 No. {c.serial}")
    pdf.showPage()
    pdf.save()
    return buf.getvalue()
