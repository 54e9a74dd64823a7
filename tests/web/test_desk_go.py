"""Issue 21 at the desk: a Go McMahon event run from the browser's forms — grades typed as 段级位, rounds paired
by McMahon with handicaps, results entered, no repeated pairing, the hall's pairing list in Go's words."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.office.events.models import LiveEvent
from qiyuan.tournament import go
from qiyuan.tournament.state import rounds_paired

CODE = "go-open"
GRADES = ["5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k", "5k", "8k"]
#: the issue's field: 40 players from 6d to 20k
FORTY = [f"{d}d" for d in range(6, 0, -1)] + [f"{k}k" for k in range(1, 21)] + [f"{k}k" for k in range(1, 15)]


def _t():
    return read_trf(LiveEvent.objects.get(code=CODE).trf_text)


@pytest.fixture(params=[pytest.param((GRADES, 3), id="10-players"),
                        pytest.param((FORTY, 5), id="40-players", marks=pytest.mark.slow)])
def field(request):
    return request.param


@pytest.fixture
def desk(staff, login, make_association, field):
    make_association("BJ", "北京")
    c = login(staff["arbiter"])
    grades, rounds = field
    r = c.post("/desk/events/new/", {"code": CODE, "name": "2026年北京围棋公开赛", "fmt": "go_mcmahon",
                                     "rounds": max(4, rounds), "start": "2026-05-01"})
    assert r.status_code == 302, r.content.decode()[:2000]
    for i, grade in enumerate(grades):
        c.post(f"/desk/events/{CODE}/players/", {"name": f"棋手{i + 1:02d}", "sex": "mw"[i % 2], "title": grade,
                                                 "association": "BJ", "birth": "2000-01-01"})
    return c


def test_a_mcmahon_event_runs_at_the_desk(desk, field, tmp_path):
    grades, rounds = field
    assert go.is_go(_t()) and len(_t().entrants) == len(grades)
    met = set()
    stones = 0
    for rnd in range(1, rounds + 1):
        desk.post(f"/desk/events/{CODE}/pair/")
        t = _t()
        assert rounds_paired(t) == rnd
        results = {}
        for e in t.entrants:
            c = e.rounds[rnd - 1]
            if c.opponent is not None and e.number < c.opponent:
                pair = (e.number, c.opponent)
                assert pair not in met  # no repeated pairing
                met.add(pair)
                results[f"r-{e.number}-{c.opponent}"] = "1"
        desk.post(f"/desk/events/{CODE}/results/", {"round": rnd, **results})
        stones += sum(h for p in go.players(_t()).values() for h in p.handicaps.values())
    assert stones > 0  # handicap games were played
    page = desk.get(f"/desk/events/{CODE}/").content.decode()
    assert "go_mcmahon" not in page.split("<main", 1)[1]  # the format in words, never its code
    pdf = desk.get(f"/desk/events/{CODE}/print/pairings.pdf?round=3")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    if shutil.which("pdftotext"):
        (tmp_path / "p.pdf").write_bytes(pdf.content)
        text = subprocess.run(["pdftotext", str(tmp_path / "p.pdf"), "-"], capture_output=True, text=True).stdout
        assert "黑" in text and "白" in text


def test_a_go_events_slips_say_black_and_white_with_the_stones(desk, field, tmp_path):
    if field[1] != 3:
        pytest.skip("once is enough")
    if not shutil.which("pdftotext"):
        pytest.skip("needs pdftotext (poppler-utils)")
    desk.post(f"/desk/events/{CODE}/pair/")
    pdf = desk.get(f"/desk/events/{CODE}/print/slips.pdf?round=1")
    (tmp_path / "s.pdf").write_bytes(pdf.content)
    text = subprocess.run(["pdftotext", str(tmp_path / "s.pdf"), "-"], capture_output=True, text=True).stdout
    assert "黑方" in text and "白方" in text and "黑胜" in text and "先手" not in text
    assert "让" in text or "贴" in text
