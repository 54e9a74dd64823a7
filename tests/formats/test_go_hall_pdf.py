"""The hall's printouts of a Go event: 黑/白, 让子, 贴目 on the pairing list; the Go criteria on the standings."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from qiyuan.formats import go_hall_pdf
from qiyuan.formats.opengotha import gotha_event, read_opengotha

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "opengotha"
needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")


@pytest.fixture(scope="module")
def juvisy():
    return gotha_event(read_opengotha(DATA / "tournoi-de-juvisy-2019.xml"))


def _text(data: bytes, tmp_path) -> str:
    pdf = tmp_path / "x.pdf"
    pdf.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


@needs_poppler
def test_go_pairing_list_in_gos_words(juvisy, tmp_path):
    text = _text(go_hall_pdf.document(juvisy, "pairings", round_no=4), tmp_path)
    assert "黑方" in text and "白方" in text and "让子" in text and "贴 7.5 目" in text and "先手" not in text
    first = next(line for line in text.splitlines() if "Pinchard" in line)
    assert "五级" not in first and "5级" in first and " 4 " in first  # 5k takes 4 stones from Minieri (三段)


@needs_poppler
def test_go_standings_by_the_events_criteria(juvisy, tmp_path):
    text = _text(go_hall_pdf.document(juvisy, "standings"), tmp_path)
    assert "麦克马洪分" in text and "对手分" in text and "对手的对手分" in text
    first = next(line for line in text.splitlines() if "Minieri" in line)
    assert first.split()[-3:] == ["36", "128", "503"]


def test_gomoku_printouts_are_unchanged(juvisy):
    juvisy_swiss = gotha_event(read_opengotha(DATA / "tournoi-de-juvisy-2019.xml"))
    juvisy_swiss.extra["XQM"] = ["swiss"]
    assert go_hall_pdf.document(juvisy_swiss, "crosstable")[:4] == b"%PDF"


@needs_poppler
def test_the_go_alphabetical_list_files_names_by_their_pinyin_with_surname_readings(tmp_path):
    """Issue 31 (4): ``event print … pairings --alphabetical`` on a Go event printed the board-order list only.
    Now a second list follows, every player by ``people.pinyin.sort_key`` — 曾 among the z… (Zēng, not céng),
    单 among the s… (Shàn), 解 among the x… (Xiè) — with his board, his colour and his opponent."""
    from qiyuan.people.pinyin import sort_key
    from qiyuan.tournament.sheets import pairing_sheet

    t = gotha_event(read_opengotha(DATA / "tournoi-de-juvisy-2019.xml"))
    surnames = "曾单解仇蔡沙谢秦张夏查朴区欧王李"
    given = "一二三四五六七八九十明亮"
    for i, e in enumerate(t.entrants):
        e.name = surnames[i % len(surnames)] + given[i // len(surnames) % len(given)] + given[i % len(given)]
    names = {e.name for e in t.entrants}
    text = _text(go_hall_pdf.document(t, "pairings", round_no=4, alphabetical=True), tmp_path)
    assert "按姓名拼音排列" in text
    listed = text.split("按姓名拼音排列", 1)[1]
    order = [w for line in listed.splitlines() for w in line.split()[:1] if w in names]
    sheet = pairing_sheet(t, 4)
    seated = [b.opener.name for b in sheet.boards] + [b.other.name for b in sheet.boards] + \
        [u.seat.name for u in sheet.unpaired]
    assert order == sorted(seated, key=sort_key) and order != seated
    zeng = order.index(next(n for n in order if n[0] == "曾"))
    assert all(sort_key(n)[0] < "zeng" for n in order[:zeng])  # not among the c… (céng)
    b = sheet.boards[0]
    black = next(line for line in listed.splitlines() if line.split()[:1] == [b.opener.name])
    assert " 黑 " in black and b.other.name in black
