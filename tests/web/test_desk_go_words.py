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
#: what a page may show as typed: the user's name, the event's code, the keys and keywords the arbiter types
TYPED = {"arbiter", "go", "words", "x", "women", "rating", "xlsx", "trf"}
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


def _text_of(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True).stdout.decode()


def test_the_go_desk_speaks_go_in_chinese(desk):
    """黑方/白方, 让子/贴目, the McMahon score and the event's criteria by name; never 先手（假先）, 积分, 辅分;
    no jigo offered with a komi of 7.5; the round-1 explanation says nothing of games not played."""
    from .language_check import problems

    desk.post(f"/desk/events/{CODE}/pair/")
    html = desk.get(f"/desk/events/{CODE}/").content.decode()
    main = html.split("<main", 1)[1]
    form = main.split('id="result-form"')[1].split("</form>")[0]
    assert "黑方" in form and "白方" in form and "先手" not in form and "分先，黑贴 7.5 目" in form
    keys = main.split('id="result-keys"')[1].split("</p>")[0]
    assert "1 黑胜" in keys and "和棋" not in keys
    standings = main.split('id="standings-table"')[1].split("</table>")[0]
    assert "麦克马洪分" in standings and "对手分" in standings and "对手的对手分" in standings, standings[:900]
    for gomoku in ("先手（假先）", "辅分", ">积分<", "假先"):
        assert gomoku not in main, gomoku
    explanation = main.split('id="explanation"')[1].split("</details>")[0]
    assert "交过手" not in explanation and "已无" not in explanation
    assert not problems(html, "zh-hans", allowed_english=TYPED)
    printed = desk.get(f"/desk/events/{CODE}/print/1/").content.decode()
    body = printed.split("<main", 1)[1]
    assert "黑方" in body and "白方" in body and "麦克马洪分" in body and "让子" in body
    assert "先手" not in body and "积分" not in body
    assert not problems(printed, "zh-hans", allowed_english=TYPED)


def test_the_go_desk_speaks_go_in_english(desk):
    from .language_check import problems

    desk.post(f"/desk/events/{CODE}/pair/")
    html = desk.get(f"/desk/events/{CODE}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    main = html.split("<main", 1)[1]
    assert "Black" in main and "White" in main and "MMS (McMahon score)" in main and "SOSOS" in main
    printed = desk.get(f"/desk/events/{CODE}/print/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Black" in printed and "Handicap" in printed
    assert not problems(printed, "en", allowed_english=TYPED)


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs pdftotext (poppler-utils)")
def test_a_slip_offers_a_jigo_only_where_the_komi_allows_one(desk):
    desk.post(f"/desk/events/{CODE}/pair/")
    slips = _text_of(desk.get(f"/desk/events/{CODE}/print/slips.pdf?round=1").content)
    assert "黑胜" in slips and "和棋" not in slips  # komi 7.5, all even in round 1 (handicap by MMS, bar 4d)
    assert "麦分" in slips and "积分" not in slips and "五段" in slips  # the McMahon score and the rank in words
    desk.post(f"/desk/events/{CODE}/undo/")
    desk.post(f"/desk/events/{CODE}/go-settings/", {"komi": "7"})
    desk.post(f"/desk/events/{CODE}/pair/")
    slips = _text_of(desk.get(f"/desk/events/{CODE}/print/slips.pdf?round=1").content)
    assert slips.count("和棋") == len(pairing_sheet(_t(), 1).boards)  # a whole komi: every board may end in jigo
    html = desk.get(f"/desk/events/{CODE}/").content.decode()
    assert "= 和棋" in html.split('id="result-keys"')[1].split("</p>")[0]


def test_go_settings_on_the_desk_before_round_one_and_warned_and_recorded_after(desk):
    """The desk calls the terminal's use case (``go_arbiter.set_go_settings``): before round 1 a plain change;
    after round 1 a warning, and the audit entry records what changed, old and new, and after which round."""
    r = desk.post(f"/desk/events/{CODE}/go-settings/", {"komi": "6.5", "bar": "3d", "floor": "15k",
                                                        "handicap": "rank", "correction": "0", "ceiling": "5",
                                                        "no_handicap_from": "5段", "criteria": "MMS SOS SODOS"},
                   follow=True)
    s = go.settings(_t())
    assert (str(s.komi), s.bar, s.floor, s.hd_basis, s.hd_correction, s.hd_ceiling, s.hd_none_from) == \
        ("6.5", 2, -15, "rank", 0, 5, 4)
    assert s.criteria == ["MMS", "SOSM", "SODOSM"]
    assert "已保存围棋设置" in r.content.decode() and "第 0 轮" not in r.content.decode()
    first = AuditLog.objects.filter(action="event.go_settings").latest("id")
    assert first.detail["changed"]["komi"] == ["7.5", "6.5"] and "after_round" not in first.detail
    desk.post(f"/desk/events/{CODE}/pair/")
    page = desk.get(f"/desk/events/{CODE}/").content.decode()
    assert 'id="go-settings-warning"' in page
    r = desk.post(f"/desk/events/{CODE}/go-settings/", {"bar": "5d"}, follow=True)
    text = r.content.decode()
    assert "第 1 轮后更改了围棋设置" in text and "bar 3d → 5d" in text
    entry = AuditLog.objects.filter(action="event.go_settings").latest("id")
    assert entry.detail["after_round"] == 1 and entry.detail["changed"] == {"bar": ["3d", "5d"]}
    assert go.settings(_t()).bar == 4
    r = desk.post(f"/desk/events/{CODE}/go-settings/", {"floor": "9d"}, follow=True)  # above the bar: refused
    assert "floor is above the bar" not in r.content.decode() and go.settings(_t()).floor == -15


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs pdftotext (poppler-utils)")
def test_the_go_crosstable_says_black_and_white_and_the_mcmahon_score(desk):
    desk.post(f"/desk/events/{CODE}/pair/")
    t = _t()
    results = {f"r-{b.opener.number}-{b.other.number}": "1" for b in pairing_sheet(t, 1).boards}
    desk.post(f"/desk/events/{CODE}/results/", {"round": 1, **results})
    text = _text_of(desk.get(f"/desk/events/{CODE}/print/crosstable.pdf").content)
    assert "黑1" in text and "白0" in text and "麦克马洪分" in text and "胜局" in text
    assert "先手" not in text and "假先" not in text and "积分" not in text
