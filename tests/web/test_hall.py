"""Issue 23: players' phones in the hall — a board's link on its slip, the result reported by one player
and confirmed by the other on his own phone, signed by the arbiter (through ``enter_results``, audited:
who reported, confirmed, signed); disagreements settled at the desk; check-in closed before pairing; the
live round page; tokens that allow one board of one round and nothing else; limits per link and address."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from qiyuan.formats.trf import read_trf
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall import cases
from qiyuan.office.hall.models import PhoneClaim
from qiyuan.office.hall.tokens import board_token, checkin_token
from qiyuan.tournament import hall
from qiyuan.tournament.state import rounds_paired

CODE = "hall-2026"
NAMES = ["张一", "李二", "王三", "赵四", "钱五", "孙六", "周七", "吴八"]


@pytest.fixture
def desk(staff, login, make_association, settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    make_association("BJ", "北京")
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": CODE, "name": "2026年赛场报分测试", "fmt": "swiss", "rounds": 3,
                                 "start": "2026-05-01"})
    for i, name in enumerate(NAMES):
        c.post(f"/desk/events/{CODE}/players/", {"name": name, "sex": "mw"[i % 2], "rating": 2000 - 10 * i,
                                                 "association": "BJ", "birth": "2010-01-01"})
    c.post(f"/desk/events/{CODE}/pair/")
    assert rounds_paired(_t()) == 1
    return c


def _t():
    return read_trf(LiveEvent.objects.get(code=CODE).trf_text)


def _boards():
    return hall.boards_of(_t(), rounds_paired(_t()))


def _link(b) -> str:
    return f"/hall/b/{board_token(CODE, b.round, b.board, b.first, b.second)}/"


def _phone() -> Client:
    return Client(enforce_csrf_checks=False)


def test_two_phones_report_and_confirm_then_the_arbiter_signs(desk):
    b = _boards()[0]
    first, second = _phone(), _phone()
    page = first.get(_link(b))
    assert page.status_code == 200 and b.first_name in page.content.decode()
    r = first.post(_link(b), {"player": b.first, "result": "1-0"})
    assert r.status_code == 302
    second.get(_link(b))
    second.post(_link(b), {"player": b.second, "result": "1-0"})
    claim = PhoneClaim.objects.get(event=CODE, board=b.board)
    assert claim.state == hall.CONFIRMED
    assert _boards()[0].result == ""  # nothing counts before the arbiter signs
    q = desk.get(f"/desk/hall/{CODE}/")
    assert q.status_code == 200 and "双方已确认" in q.content.decode()
    desk.post(f"/desk/hall/{CODE}/sign/", {"round": 1, "all": "1"})
    assert _boards()[0].result == "1-0"
    sign = AuditLog.objects.filter(action="hall.sign").get()
    assert sign.actor == "arbiter" and sign.detail["phones"] == [
        {"board": b.board, "reported_by": b.first, "confirmed_by": b.second}]
    assert AuditLog.objects.filter(action="event.results").get().detail["phones"]
    assert "裁判已签认" in first.get(_link(b)).content.decode()


def test_the_same_phone_cannot_confirm_its_own_report(desk):
    b = _boards()[0]
    phone = _phone()
    phone.get(_link(b))
    phone.post(_link(b), {"player": b.first, "result": "½-½"})
    r = phone.post(_link(b), {"player": b.second, "result": "½-½"})
    assert r.status_code == 409 and "自己的手机" in r.content.decode()
    assert PhoneClaim.objects.get(event=CODE, board=b.board).state == hall.REPORTED


def test_a_disagreement_goes_to_the_arbiter_who_settles_it(desk):
    b = _boards()[1]
    a, c = _phone(), _phone()
    a.post(_link(b), {"player": b.first, "result": "1-0"})
    c.post(_link(b), {"player": b.second, "result": "0-1"})
    assert PhoneClaim.objects.get(event=CODE, board=b.board).state == hall.DISPUTED
    assert "结果有争议" in desk.get(f"/desk/hall/{CODE}/").content.decode()
    desk.post(f"/desk/hall/{CODE}/settle/", {"round": 1, "board": b.board, "result": "0-1"})
    assert _boards()[1].result == "0-1"
    entry = AuditLog.objects.filter(action="hall.settle").get()
    assert entry.detail["was"] == hall.DISPUTED and entry.actor == "arbiter"


def test_a_token_for_one_board_cannot_change_another(desk):
    b3, b4 = _boards()[2], _boards()[3]
    token = board_token(CODE, 1, b3.board, b3.first, b3.second)
    # the signed board number cannot be edited, nor a board's players swapped in
    forged = token.replace(f"b.{CODE}.1.{b3.board}.", f"b.{CODE}.1.{b4.board}.")
    r = _phone().post(f"/hall/b/{forged}/", {"player": b4.first, "result": "1-0"})
    assert r.status_code == 400 and not PhoneClaim.objects.exists()
    # a player of board 4 using board 3's link changes nothing on board 4
    r = _phone().post(f"/hall/b/{token}/", {"player": b4.first, "result": "1-0"})
    assert r.status_code == 409 and not PhoneClaim.objects.exists()


def test_a_link_expires_with_its_round(desk):
    old = _boards()[0]
    for b in _boards():
        desk.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b.first}-{b.second}": "1"})
    desk.post(f"/desk/events/{CODE}/pair/")
    assert rounds_paired(_t()) == 2
    r = _phone().get(_link(old))
    assert r.status_code == 400 and "过期" in r.content.decode()


def test_limits_per_link(desk):
    b = _boards()[0]
    links = [_link(b) for _ in range(11)]  # printed at different times: one board all the same
    phone = _phone()
    codes = [phone.get(link).status_code for link in links]
    assert codes[:10] == [200] * 10 and codes[10] == 429
    assert _phone().get(_link(_boards()[1])).status_code == 200  # another board has its own limit


def test_check_in_then_closing_makes_the_rest_absent_before_pairing(desk):
    for b in _boards():
        desk.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b.first}-{b.second}": "1"})
    link = f"/hall/c/{checkin_token(CODE, 2)}/"
    phone = _phone()
    assert "第 2 轮签到" in phone.get(link).content.decode()
    for n in (1, 2, 3, 4, 5):
        assert phone.post(link, {"number": n}).status_code == 302
    desk.post(f"/desk/hall/{CODE}/check-in/", {"round": 2, "action": "tick", "number": 6})
    desk.post(f"/desk/hall/{CODE}/check-in/", {"round": 2, "action": "close"})
    t = _t()
    absent = sorted(e.number for e in t.entrants if len(e.rounds) >= 2 and e.rounds[1].result == "Z")
    assert absent == [7, 8]
    assert "签到已截止" in phone.get(link).content.decode()
    desk.post(f"/desk/events/{CODE}/pair/")
    t = _t()
    paired = {e.number for e in t.entrants if e.rounds[1].opponent is not None}
    assert paired == {1, 2, 3, 4, 5, 6}
    assert AuditLog.objects.filter(action="hall.close_check_in").get().detail["absent"] == [7, 8]


def test_a_late_entry_after_closing_is_absent_and_reopening_brings_the_absent_back(desk):
    for b in _boards():
        desk.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b.first}-{b.second}": "1"})
    for n in range(1, 7):
        desk.post(f"/desk/hall/{CODE}/check-in/", {"round": 2, "action": "tick", "number": n})
    desk.post(f"/desk/hall/{CODE}/check-in/", {"round": 2, "action": "close"})
    desk.post(f"/desk/events/{CODE}/players/", {"name": "迟到者", "sex": "m", "rating": 1500, "association": "BJ",
                                                "birth": "2010-01-01"})
    t = _t()
    assert [e.number for e in t.entrants if len(e.rounds) >= 2 and e.rounds[1].result == "Z"] == [7, 8, 9]
    desk.post(f"/desk/hall/{CODE}/check-in/", {"round": 2, "action": "reopen"})
    t = _t()
    assert not [e.number for e in t.entrants if len(e.rounds) >= 2]
    assert "截止签到" in desk.get(f"/desk/hall/{CODE}/").content.decode()


def test_the_live_page_shows_only_signed_results(desk, client):
    b = _boards()[0]
    a, c = _phone(), _phone()
    a.post(_link(b), {"player": b.first, "result": "1-0"})
    c.post(_link(b), {"player": b.second, "result": "1-0"})
    live = Client().get(f"/hall/live/{CODE}.json").json()
    assert live["boards"][0]["result"] == "" and live["round"] == 1
    cases.sign(CODE, "arbiter", 1)
    cache.clear()
    live = Client().get(f"/hall/live/{CODE}.json").json()
    assert live["boards"][0]["result"] == "1-0"
    page = Client().get(f"/hall/live/{CODE}/")
    assert page.status_code == 200 and "max-age" in page["Cache-Control"]


def test_the_desk_queue_is_the_events_arbiters_only(desk, staff, login):
    other = login(staff["arbiter2"])
    assert other.get(f"/desk/hall/{CODE}/").status_code == 403
    assert Client().get(f"/desk/hall/{CODE}/").status_code == 302  # to the login page


def test_english_phone_page(desk):
    b = _boards()[0]
    phone = _phone()
    phone.cookies["django_language"] = "en"
    page = phone.get(_link(b), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Round 1, board {b.board}" in page and "I am" in page


def test_the_desks_slips_carry_each_boards_link(desk, tmp_path):
    import shutil
    import subprocess
    from urllib.parse import urlsplit

    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    if not shutil.which("pdftoppm"):
        pytest.skip("needs pdftoppm (poppler-utils)")
    pdf = tmp_path / "slips.pdf"
    pdf.write_bytes(desk.get(f"/desk/events/{CODE}/print/slips.pdf?round=1").content)
    subprocess.run(["pdftoppm", "-r", "200", "-gray", "-png", str(pdf), str(tmp_path / "p")], check=True)
    texts = [r.text for png in sorted(tmp_path.glob("p*.png")) for r in zxingcpp.read_barcodes(Image.open(png))]
    assert len(texts) == len(_boards())
    first = urlsplit(sorted(texts)[0]).path
    assert first.startswith("/hall/b/") and _phone().get(first).status_code == 200
    assert 'id="hall-link"' in desk.get(f"/desk/events/{CODE}/").content.decode()


def test_the_check_in_poster_carries_the_rounds_link(desk, tmp_path):
    import shutil
    import subprocess
    from urllib.parse import urlsplit

    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    if not shutil.which("pdftoppm"):
        pytest.skip("needs pdftoppm (poppler-utils)")
    for b in _boards():
        desk.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b.first}-{b.second}": "1"})
    pdf = tmp_path / "poster.pdf"
    pdf.write_bytes(desk.get(f"/desk/hall/{CODE}/check-in.pdf").content)
    subprocess.run(["pdftoppm", "-r", "72", "-gray", "-png", str(pdf), str(tmp_path / "p")], check=True)
    (text,) = [r.text for png in tmp_path.glob("p*.png") for r in zxingcpp.read_barcodes(Image.open(png))]
    page = _phone().get(urlsplit(text).path)
    assert page.status_code == 200 and "第 2 轮签到" in page.content.decode()
