"""Issues 23 and 33: players' phones in the hall — each player's own credential (a personal link on his card
and his half of the slips) reports, corrects, confirms or disputes his board's result, signed by the arbiter
(through ``enter_results``, audited, its provenance in the event file); a cookie is never identity; forged,
revoked and other-event credentials refused by name; check-in with one's own credential; the live round page."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from qiyuan.formats.trf import read_trf
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall import cases
from qiyuan.office.hall.models import PhoneClaim
from qiyuan.office.hall.tokens import checkin_token, player_token
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


def _link(number: int) -> str:
    """Player ``number``'s personal link (his credential's current issue)."""
    return f"/hall/e/{CODE}/{cases.player_link_token(CODE, number)}/"


def _phone() -> Client:
    return Client(enforce_csrf_checks=False)


def _claim(b) -> PhoneClaim:
    return PhoneClaim.objects.get(event=CODE, round=b.round, board=b.board)


def test_a_report_and_its_confirmation_come_from_the_two_players_own_credentials(desk):
    b = _boards()[0]
    first, second = _phone(), _phone()
    page = first.get(_link(b.first))
    assert page.status_code == 200 and b.first_name in page.content.decode() and "我是" in page.content.decode()
    assert first.post(_link(b.first), {"result": "1-0"}).status_code == 302
    assert second.post(_link(b.second), {"result": "1-0"}).status_code == 302
    claim = _claim(b)
    assert (claim.state, claim.reported_by, claim.confirmed_by) == (hall.CONFIRMED, b.first, b.second)
    assert [(s["what"], s["who"], s["via"]) for s in claim.steps] == [
        ("reported", b.first, f"p{b.first}.1"), ("confirmed", b.second, f"p{b.second}.1")]
    assert _boards()[0].result == ""  # nothing counts before the arbiter signs
    q = desk.get(f"/desk/hall/{CODE}/").content.decode()
    assert "双方已确认" in q and f"{b.first} 号报告 1-0" in q and f"{b.second} 号确认 1-0" in q
    desk.post(f"/desk/hall/{CODE}/sign/", {"round": 1, "all": "1"})
    assert _boards()[0].result == "1-0"
    sign = AuditLog.objects.filter(action="hall.sign").get()
    assert sign.actor == "arbiter" and sign.detail["phones"] == [
        {"board": b.board, "reported_by": b.first, "confirmed_by": b.second}]
    assert AuditLog.objects.filter(action="event.results").get().detail["phones"]
    # the result's provenance in the event file: who reported, confirmed, signed, through which credential, when
    (record,) = hall.provenances(_t()).values()
    assert (record.round, record.board, record.result) == (1, b.board, "1-0")
    assert [(a.what, a.who, a.via) for a in record.acts] == [
        ("reported", str(b.first), f"p{b.first}.1"), ("confirmed", str(b.second), f"p{b.second}.1"),
        ("signed", "arbiter", "arbiter")]
    assert all(len(a.when) == 16 and a.when.endswith("Z") for a in record.acts)
    assert "裁判已签认" in first.get(_link(b.first)).content.decode()


def test_one_phone_cannot_confirm_its_own_report_as_the_other_player(desk):
    """The issue: report as player 5 in one browser, confirm as player 6 from a second browser (or with no
    cookie) — the board turned 双方已确认 and "sign all" entered it.  Now who taps is the credential's player:
    whatever the form or the cookies say, player 5's credential speaks for player 5 only."""
    b = _boards()[0]
    one, other, bare = _phone(), _phone(), _phone()
    one.post(_link(b.first), {"result": "½-½", "player": b.first})
    other.cookies = one.cookies  # a second browser, the same cookies, the same credential
    other.post(_link(b.first), {"result": "½-½", "player": b.second})
    bare.post(_link(b.first), {"result": "½-½", "player": b.second})  # no cookie at all
    claim = _claim(b)
    assert (claim.state, claim.confirmed_by) == (hall.REPORTED, None) and len(claim.steps) == 1
    desk.post(f"/desk/hall/{CODE}/sign/", {"round": 1, "all": "1"})
    assert _boards()[0].result == "" and not AuditLog.objects.filter(action="event.results").exists()
    assert "双方已确认" not in bare.get(_link(b.first)).content.decode()


def test_a_player_with_no_game_on_the_board_cannot_report_it(desk):
    b3, b4 = _boards()[2], _boards()[3]
    _phone().post(_link(b4.first), {"result": "1-0"})  # his own board only: board 4, never board 3
    assert not PhoneClaim.objects.filter(board=b3.board).exists()
    assert _claim(b4).reported_by == b4.first


def test_forged_revoked_and_other_event_credentials_are_refused_by_name(desk):
    b = _boards()[0]
    token = cases.player_link_token(CODE, b.first)
    forged = token.replace(f"p.{CODE}.{b.first}.", f"p.{CODE}.{b.second}.")  # another player's number, same signature
    r = _phone().post(f"/hall/e/{CODE}/{forged}/", {"result": "1-0"})
    assert r.status_code == 403 and "签名不符" in r.content.decode()
    r = _phone().get(f"/hall/e/{CODE}/{token[:-2]}xx/", HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 403 and "signature does not match" in r.content.decode()
    elsewhere = player_token("other-open", b.first)  # a genuine credential of another event
    r = _phone().post(f"/hall/e/{CODE}/{elsewhere}/", {"result": "1-0"})
    assert r.status_code == 403 and "另一项比赛（other-open）" in r.content.decode()
    assert not PhoneClaim.objects.exists()
    # the arbiter re-issues a lost phone's credential: the old one stops working, by name; the new one works
    desk.post(f"/desk/hall/{CODE}/reissue/", {"number": b.first})
    r = _phone().post(f"/hall/e/{CODE}/{token}/", {"result": "1-0"})
    assert r.status_code == 403 and "已被替换" in r.content.decode()
    assert not PhoneClaim.objects.exists()
    assert _phone().post(_link(b.first), {"result": "1-0"}).status_code == 302
    assert _claim(b).steps[0]["via"] == f"p{b.first}.2"
    entry = AuditLog.objects.filter(action="hall.reissue").get()
    assert entry.actor == "arbiter" and entry.detail == {"event": CODE, "number": b.first, "issue": 2}
    en = _phone().get(f"/hall/e/{CODE}/{token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "was replaced" in en
    second = _link(b.first)
    cases.reissue(CODE, "arbiter", b.first)  # lost again: issue 3, and issue 2 stops working too
    assert _phone().get(second).status_code == 403 and _phone().get(_link(b.first)).status_code == 200
    assert _link(b.first) != second and cases.credential(CODE, _link(b.first).split("/")[-2]).issue == 3


def test_the_queue_shows_corrections_confirmations_and_whose_dispute_in_order(desk):
    b = _boards()[1]
    reporter, confirmer = _link(b.first), _link(b.second)
    _phone().post(reporter, {"result": "1-0"})
    _phone().post(reporter, {"result": "0-1"})  # his own mis-tap, corrected before the confirmation
    assert _claim(b).state == hall.REPORTED  # a correction, not a dispute
    q = desk.get(f"/desk/hall/{CODE}/").content.decode()
    assert "结果有争议" not in q and f"{b.first} 号将自己的报告 1-0 更正为 0-1" in q
    _phone().post(confirmer, {"result": "0-1"})
    _phone().post(reporter, {"result": "½-½"})  # the reporter changes after the confirmation: his dispute
    claim = _claim(b)
    assert (claim.state, claim.disputed_by, claim.disputed_result, claim.result) == (hall.DISPUTED, b.first, "½-½",
                                                                                     "0-1")
    assert [(s["what"], s["who"]) for s in claim.steps] == [
        ("reported", b.first), ("corrected", b.first), ("confirmed", b.second), ("changed", b.first)]
    q = desk.get(f"/desk/hall/{CODE}/").content.decode()
    assert "结果有争议" in q and f"{b.first} 号将 0-1 改为 ½-½（其争议）" in q
    assert f"{b.second} 号将" not in q  # the confirmer is not blamed
    desk.post(f"/desk/hall/{CODE}/settle/", {"round": 1, "board": b.board, "result": "0-1"})
    assert _boards()[1].result == "0-1"
    entry = AuditLog.objects.filter(action="hall.settle").get()
    assert entry.detail["was"] == hall.DISPUTED and entry.actor == "arbiter"
    record = hall.provenances(_t())[(1, b.board)]
    assert [a.what for a in record.acts] == ["reported", "corrected", "confirmed", "changed", "settled"]


def test_the_credential_lasts_the_event_and_follows_the_player_into_the_next_round(desk):
    link = _link(1)
    for b in _boards():
        desk.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b.first}-{b.second}": "1"})
    desk.post(f"/desk/events/{CODE}/pair/")
    assert rounds_paired(_t()) == 2
    typed = hall.provenances(_t())  # results typed at the desk: their provenance too
    assert {a.what + ":" + a.who + ":" + a.via for p in typed.values() for a in p.acts} == {"typed:arbiter:desk"}
    assert len(typed) == len(NAMES) // 2
    page = _phone().get(link)
    mine = next(b for b in _boards() if 1 in (b.first, b.second))
    assert page.status_code == 200 and f"第 2 轮 第 {mine.board} 台" in page.content.decode()
    _phone().post(link, {"result": "1-0"})
    assert _claim(mine).round == 2


def test_check_in_needs_the_players_own_credential_and_the_arbiter_ticks_anyone(desk):
    for b in _boards():
        desk.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b.first}-{b.second}": "1"})
    poster = f"/hall/c/{checkin_token(CODE, 2)}/"
    phone = _phone()
    page = phone.get(poster).content.decode()
    assert "第 2 轮签到" in page and "个人二维码" in page and 'name="number"' not in page
    assert phone.post(poster, {"number": 3}).status_code == 405  # the poster checks nobody in
    for n in (1, 2, 3, 4, 5):
        assert "签到第 2 轮" in phone.get(_link(n)).content.decode()
        assert phone.post(_link(n), {"action": "check_in", "number": 7}).status_code == 302  # himself, not 7
    assert "已签到" in phone.get(_link(1)).content.decode()
    desk.post(f"/desk/hall/{CODE}/check-in/", {"round": 2, "action": "tick", "number": 6})
    desk.post(f"/desk/hall/{CODE}/check-in/", {"round": 2, "action": "close"})
    t = _t()
    absent = sorted(e.number for e in t.entrants if len(e.rounds) >= 2 and e.rounds[1].result == "Z")
    assert absent == [7, 8]
    assert "签到已截止" in phone.get(poster).content.decode()
    desk.post(f"/desk/events/{CODE}/pair/")
    t = _t()
    paired = {e.number for e in t.entrants if e.rounds[1].opponent is not None}
    assert paired == {1, 2, 3, 4, 5, 6}
    assert AuditLog.objects.filter(action="hall.close_check_in").get().detail["absent"] == [7, 8]
    ins = AuditLog.objects.filter(action="hall.check_in").order_by("id")
    assert [(e.detail["number"], e.detail["via"]) for e in ins] == [(n, f"p{n}.1") for n in (1, 2, 3, 4, 5)] + [
        (6, "arbiter")]


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
    _phone().post(_link(b.first), {"result": "1-0"})
    _phone().post(_link(b.second), {"result": "1-0"})
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
    page = phone.get(_link(b.first), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Round 1, board {b.board}" in page and "I am" in page


def test_the_desks_slips_carry_each_players_own_link_on_his_half(desk, tmp_path):
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
    assert len(texts) == 2 * len(_boards())
    paths = {urlsplit(t).path for t in texts}
    assert paths == {_link(n) for n in range(1, len(NAMES) + 1)}
    assert _phone().get(sorted(paths)[0]).status_code == 200
    assert 'id="hall-link"' in desk.get(f"/desk/events/{CODE}/").content.decode()


def test_the_desks_entry_cards_carry_each_players_credential(desk, tmp_path):
    import shutil
    import subprocess
    from urllib.parse import urlsplit

    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    if not shutil.which("pdftoppm"):
        pytest.skip("needs pdftoppm (poppler-utils)")
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(desk.get(f"/desk/hall/{CODE}/cards.pdf").content)
    subprocess.run(["pdftoppm", "-r", "100", "-gray", "-png", str(pdf), str(tmp_path / "c")], check=True)
    texts = [r.text for png in sorted(tmp_path.glob("c*.png")) for r in zxingcpp.read_barcodes(Image.open(png))]
    assert {urlsplit(t).path for t in texts} == {_link(n) for n in range(1, len(NAMES) + 1)}


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


def test_the_hall_key_is_the_same_whichever_mode_printed_the_slips(desk, settings, monkeypatch):
    """The command line (development settings, no QIYUAN_SECRET_KEY) and a production server (its own secret
    key) sign and read credentials with the one office hall key (var/hall.key)."""
    from qiyuan.office.hall.tokens import office_key

    printed = cases.player_link_token(CODE, 1)
    monkeypatch.setenv("QIYUAN_SECRET_KEY", "production-" + "0a1b2c3d4e5f6g7h8i9jAkBlCmDnEoFpGqHrIsJt" * 2)
    settings.SECRET_KEY = "a-real-production-secret-" + "y" * 40
    assert office_key() == (settings.VAR_DIR / "hall.key").read_text().strip()
    assert cases.credential(CODE, printed).number == 1
    assert _phone().get(f"/hall/e/{CODE}/{printed}/").status_code == 200


def test_after_a_reissue_the_queue_prints_that_players_card(desk, tmp_path):
    """Issue 33: after re-issuing a credential the desk had no button for one player's entry card (only the
    address ``cards.pdf?player=N`` worked): the queue page lists the re-issued players, each with his card, and
    prints any one player's card by number."""
    import re
    import shutil
    import subprocess

    page = desk.get(f"/desk/hall/{CODE}/").content.decode()
    form = page.split('id="print-card"')[1].split("</form>")[0]
    assert f'action="/desk/hall/{CODE}/cards.pdf"' in page.split('id="print-card"')[0].rsplit("<form", 1)[1]
    assert 'name="player"' in form and "打印参赛证" in form and 'id="card-3"' not in page
    desk.post(f"/desk/hall/{CODE}/reissue/", {"number": 3})
    page = desk.get(f"/desk/hall/{CODE}/").content.decode()
    (href,) = re.findall(r'id="card-3" href="([^"]+)"', page)
    assert href == f"/desk/hall/{CODE}/cards.pdf?player=3" and "3 号（第 2 次发放）" in page
    one = desk.get(href)
    assert one.status_code == 200 and one["Content-Type"] == "application/pdf"
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=one.content, capture_output=True).stdout
        assert NAMES[2] in text.decode() and NAMES[3] not in text.decode()
    en = desk.get(f"/desk/hall/{CODE}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Print one player's entry card" in en and "No. 3 (issue 2)" in en


def test_the_public_event_page_counts_how_the_running_events_results_came_in(desk, client):
    """Issue 37: both phones and the arbiter's signature for one board, the desk for another — counted on the
    public page from the event's own record, naming nobody."""
    b0, b1 = _boards()[:2]
    _phone().post(_link(b0.first), {"result": "1-0"})
    _phone().post(_link(b0.second), {"result": "1-0"})
    desk.post(f"/desk/hall/{CODE}/sign/", {"round": 1, "all": "1"})
    desk.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b1.first}-{b1.second}": "0"})
    html = client.get(f"/events/{CODE}/").content.decode()
    counts = html[html.index('id="provenance-counts"'):].split("</ul>")[0]
    assert '<li data-entered="phones">双方手机确认、裁判签字 — 1</li>' in counts
    assert '<li data-entered="desk">记录台录入 — 1</li>' in counts and "terminal" not in counts
    assert "arbiter" not in html.split('id="provenance"')[1].split("</ul>")[0]  # (the desk user's name)
