"""Issue 31 at the Go desk: one board numbering for the pairing list, the slips, the results form and the QR
codes; Go's words on a Go event (黑方/白方, 让子, 贴目, 和棋 only where the komi allows a jigo, MMS and the
event's criteria by name); the Go settings editable on the desk, a change after round 1 warned and recorded."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.events.models import LiveEvent
from qiyuan.tournament import go
from qiyuan.tournament.hall import boards_of
from qiyuan.tournament.sheets import pairing_sheet

CODE = "go-words"
#: drawn weakest first: by the Gomoku order board 1 would hold player 1, by McMahon score the strongest pair
GRADES = ["8k", "8k", "3k", "3k", "1d", "1d", "4d", "5d"]


def _t():
    return read_trf(LiveEvent.objects.get(code=CODE).trf_text)


@pytest.fixture
def desk(staff, login, make_association):
    make_association("BJ", "北京")
    c = login(staff["arbiter"])
    r = c.post("/desk/events/new/", {"code": CODE, "name": "围棋公开赛", "fmt": "go_mcmahon", "rounds": 4,
                                     "start": "2026-05-01"})
    assert r.status_code == 302, r.content.decode()[:2000]
    for i, grade in enumerate(GRADES):
        c.post(f"/desk/events/{CODE}/players/", {"name": f"棋手{i + 1:02d}", "sex": "m", "title": grade,
                                                 "association": "BJ", "birth": "2000-01-01"})
    return c


def _sheet_boards(t, rnd):
    return [(b.board, b.opener.number, b.other.number) for b in pairing_sheet(t, rnd).boards]


def test_one_board_numbering_for_list_slips_form_and_qr_codes(desk):
    """The issue's case: the list said board 1 = 4–2 while the slips, the form and the QR codes said 8–1."""
    desk.post(f"/desk/events/{CODE}/pair/")
    t = _t()
    sheet = _sheet_boards(t, 1)
    assert 8 in sheet[0][1:]  # the McMahon order: the 5d's board first, as the pairing numbered it
    assert [(b.board, b.first, b.second) for b in boards_of(t, 1)] == sheet  # the QR codes, the phones
    printed = desk.get(f"/desk/events/{CODE}/print/{1}/").content.decode()
    rows = re.findall(r'<tr><td class="num">(\d+)</td><td>(\d+)\. .*?</td>.*?<td>(\d+)\. ', printed)
    assert [tuple(map(int, r)) for r in rows] == sheet
    page = desk.get(f"/desk/events/{CODE}/").content.decode()
    form = re.findall(r'name="r-(\d+)-(\d+)"[^>]*data-board="(\d+)"', page)
    assert sorted((int(n), int(a), int(b)) for a, b, n in form) == sheet
    if shutil.which("pdftotext"):
        for what in ("pairings", "slips"):
            pdf = desk.get(f"/desk/events/{CODE}/print/{what}.pdf?round=1").content
            text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True).stdout.decode()
            first = sheet[0]
            if what == "pairings":
                line = next(x for x in text.splitlines() if re.match(r"\s*1\s+\d", x))
                assert re.match(rf"\s*1\s+{first[1]}\s", line), line
            else:
                assert "第1台" in text  # the slips are the pairing sheet's boards, as are their QR codes
