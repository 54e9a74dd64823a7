"""The certificate of a grant (段位证书): an A4 PDF with the CJK font embedded, the federation's name, the player,
the grade, the date, the event and the serial; the same bytes every time; rendered to PNG by pdftoppm."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from datetime import date

import pytest

from qiyuan.formats.certificate_pdf import Certificate, certificate_pdf, chinese_date
from qiyuan.formats.pdf_font import font_name
from qiyuan.office.federation.models import Player
from qiyuan.office.grades.certificates import certificate_for
from qiyuan.office.grades.certificates import certificate_pdf as office_certificate
from qiyuan.office.grades.grants import confirm_proposals, grant_grade

from ._dan_fixtures import imported_event, office  # noqa: F401 - a fixture

CERT = Certificate("DEMO-2024-00001", "演示五子棋协会", "Demo Gomoku Federation", "刘扬", "Liu Yang", "CN000142", "6d",
                   date(2024, 8, 13), "2024年全国五子棋锦标赛", "2024 National Gomoku Championship", 1,
                   "段级位授予办法（示例）")


def test_chinese_dates_in_numerals():
    assert chinese_date(date(2024, 8, 13)) == "二〇二四年八月十三日"
    assert chinese_date(date(2007, 12, 1)) == "二〇〇七年十二月一日"
    assert chinese_date(date(2010, 10, 20)) == "二〇一〇年十月二十日"
    assert chinese_date(date(2031, 1, 31)) == "二〇三一年一月三十一日"
    assert chinese_date(date(2030, 2, 10)) == "二〇三〇年二月十日"


def _title(pdf: bytes) -> str:
    """The document's /Title, a PDF literal string in UTF-16 with octal escapes."""
    raw = re.search(rb"/Title \((.*?)\) /", pdf, re.S)[1]
    raw = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m[1], 8)]), raw)
    raw = re.sub(rb"\\(.)", rb"\1", raw)
    return raw.decode("utf-16")


def test_the_certificate_is_one_a4_page_with_its_font_name_embedded_and_the_same_bytes_each_time():
    pdf = certificate_pdf(CERT, font=font_name())
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + \
        pdf.count(b"/Type /Page/") >= 1
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in pdf  # A4
    assert b"/FontFile2" in pdf, "the CJK font must be embedded (a TrueType subset)"
    assert certificate_pdf(CERT, font=font_name()) == pdf  # invariant: the same grant prints the same bytes
    assert "DEMO-2024-00001" in _title(pdf)  # the serial is in the document's title as well
    kyu = certificate_pdf(dataclasses.replace(CERT, grade="2k"), font=font_name())  # 级位证书
    assert kyu != pdf


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_the_certificate_renders_to_png_with_its_text_drawn(tmp_path):
    from PIL import Image

    path = tmp_path / "c.pdf"
    path.write_bytes(certificate_pdf(CERT, font=font_name()))
    done = subprocess.run(["pdftoppm", "-r", "40", "-png", str(path), str(tmp_path / "c")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "Syntax Error" not in done.stderr, done.stderr
    png = tmp_path / "c-1.png"
    image = Image.open(png).convert("L")
    width, height = image.size
    assert abs(width / height - 210 / 297) < 0.01  # A4 portrait
    # the title (段位证书) and the grade (六段) are drawn: dark pixels in their bands
    for top, bottom in ((0.23, 0.30), (0.55, 0.65)):
        band = image.crop((int(width * 0.25), int(height * top), int(width * 0.75), int(height * bottom)))
        assert min(band.getdata()) < 128, (top, bottom)


def test_the_office_certificate_of_a_grant(office, tmp_path, resident_id, make_player):  # noqa: F811
    ev = imported_event(tmp_path, resident_id)
    grants = confirm_proposals(ev, actor="officer")
    champion = next(g for g in grants if g.clause == "national open 1")
    c = certificate_for(champion.serial)
    assert (c.federation, c.federation_en, c.grade, c.granted_on, c.placing) == (
        "演示五子棋协会", "Demo Gomoku Federation", "6d", ev.end_date, 1)
    assert c.event_name == ev.name and c.player_name == champion.player.name and c.policy_title
    pdf = office_certificate(champion.serial)
    assert pdf == office_certificate(champion.serial)  # stable
    p = make_player("王五", name_latin="Wang Wu")
    rif = grant_grade(p, "3d", granted_on=date(2024, 1, 1), granted_by="RIF", actor="officer")
    assert rif.serial == ""
    hand = grant_grade(p, "4d", granted_on=date(2024, 9, 1), granted_by="演示五子棋协会", actor="officer")
    c = certificate_for(hand.serial)
    assert c.placing is None and c.event_name == "" and c.player_latin == "Wang Wu"
    assert Player.objects.get(pk=p.pk).dan == "4d"
