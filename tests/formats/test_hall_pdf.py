"""The hall printouts: A4 PDF with the CJK font embedded, readable text, rendered to PNG."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from qiyuan.errors import InputError
from qiyuan.formats import hall_pdf
from tests.formats.test_report_print import played_event

POPPLER = all(shutil.which(x) for x in ("pdftoppm", "pdffonts", "pdftotext", "pdfinfo"))
needs_poppler = pytest.mark.skipif(not POPPLER, reason="needs poppler-utils (bash scripts/system-deps.sh)")


@pytest.fixture(scope="module")
def event():
    from qiyuan.tournament import categories

    t = played_event(players=12, rounds=7)
    categories.set_categories(t, ["women", "rating -2199"])
    return t


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@needs_poppler
@pytest.mark.parametrize("what", hall_pdf.WHATS)
def test_printout_is_a4_with_an_embedded_cjk_subset_and_renders(tmp_path, event, what):
    pdf = tmp_path / f"{what}.pdf"
    if what in ("schedule", "bracket"):  # printed for a round robin, a knock-out
        from copy import copy

        event = copy(event)
        event.extra = {**event.extra, "XQM": ["round_robin" if what == "schedule" else "knockout"]}
    links = (lambda n: f"https://hall.example.org/hall/e/open/{n}/") if what == "cards" else None
    pdf.write_bytes(hall_pdf.document(event, what, round_no=7, alphabetical=True, links=links))
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert fonts and all(line.split()[-5:-2] == ["yes", "yes", "yes"] for line in fonts), fonts  # emb sub uni
    assert all("+NotoSansCJK" in line for line in fonts)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "595.276 x 841.89" in info or "841.89 x 595.276" in info  # A4
    text = pdf_text(pdf)
    assert "2026年全国五子棋锦标赛" in text and "棋手1" in text
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")], check=True)
    png = next(tmp_path.glob("page*.png"))
    assert png.stat().st_size > 5000  # a page with text on it, not a blank one


@needs_poppler
def test_pairing_list_by_board_and_by_pinyin(tmp_path, event):
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(hall_pdf.document(event, "pairings", round_no=7, alphabetical=True))
    text = pdf_text(pdf)
    assert "第 7 轮对阵表" in text and "先手（假先）" in text and "等级分" in text and "按姓名拼音排列" in text
    names = [line.split()[0] for line in text.split("按姓名拼音排列")[1].splitlines()
             if line.strip().startswith("棋手") or line.strip().startswith("迟到者")]
    assert names == sorted(names, key=hall_pdf.pinyin_key)
    assert hall_pdf.pinyin_key("陈") < hall_pdf.pinyin_key("张") < hall_pdf.pinyin_key("赵")


@needs_poppler
def test_slips_one_per_board_and_standings_with_categories(tmp_path, event):
    from qiyuan.tournament.sheets import pairing_sheet

    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(hall_pdf.document(event, "slips", round_no=7))
    text = pdf_text(pdf)
    assert text.count("对局记录单") == len(pairing_sheet(event, 7).boards) and "裁判签名" in text
    pdf.write_bytes(hall_pdf.document(event, "standings", after=3))
    text = pdf_text(pdf)
    assert "第 3 轮后名次" in text and "辅分七" in text and "女子组" in text and "等级分2199以下组" in text


def test_bad_requests_are_refused_with_every_problem():
    from tests.formats.test_report_print import played_event as make

    t = make(players=8, rounds=7)
    with pytest.raises(InputError) as exc:
        hall_pdf.document(t, "posters", round_no=9, after=9)
    assert len(exc.value.problems) == 2
    with pytest.raises(InputError, match="round 9 is not paired"):
        hall_pdf.document(t, "slips", round_no=9)
