"""The desk calls the arbiter's use cases: new actions (override, reinstate, excuse ranges, keep
apart, categories, finish), printouts, one audit entry per action, refusals translated."""

from __future__ import annotations

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.events.models import LiveEvent

NAMES = ["张一", "李二", "王三", "赵四", "钱五", "孙六"]


@pytest.fixture
def desk(staff, login, make_association):
    make_association("BJ", "北京")
    make_association("SH", "上海")
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": "open-2026", "name": "2026年公开赛", "fmt": "swiss", "rounds": 4,
                                 "start": "2026-05-01"})
    for i, name in enumerate(NAMES):
        c.post("/desk/events/open-2026/players/", {"name": name, "sex": "mw"[i % 2], "rating": 2000 - 10 * i,
                                                   "association": "BJ" if i < 3 else "SH",
                                                   "birth": f"{2012 + i % 3}-01-01"})
    return c


def t():
    return read_trf(LiveEvent.objects.get(code="open-2026").trf_text)


def messages_of(c) -> list[str]:
    return [str(m) for m in c.get("/desk/events/open-2026/").context["messages"]]


def test_each_action_writes_one_audit_entry_and_keeps_the_old_text(desk):
    before = AuditLog.objects.count()
    versions = LiveEvent.objects.get(code="open-2026").versions.count()
    desk.post("/desk/events/open-2026/pair/")
    assert AuditLog.objects.count() == before + 1
    assert AuditLog.objects.filter(action="event.pair").get().detail["round"] == 1
    assert LiveEvent.objects.get(code="open-2026").versions.count() == versions + 1
    desk.post("/desk/events/open-2026/pair/")  # refused: round 1 has no results
    assert AuditLog.objects.count() == before + 1
    assert any("第1轮还有台次没有结果" in m for m in messages_of(desk))


def test_keep_apart_and_categories_at_the_desk(desk):
    desk.post("/desk/events/open-2026/keep-apart/", {"by": "association", "rounds": 1})
    desk.post("/desk/events/open-2026/categories/", {"categories": "women\nU13\nrating -1979"})
    desk.post("/desk/events/open-2026/pair/")
    e = t()
    assert e.extra["XQA"] == ["association 1"] and e.extra["XQP"] == ["women", "U13", "rating -1979"]
    for x in e.entrants:
        assert x.federation != e.entrants[x.rounds[0].opponent - 1].federation
    desk.post("/desk/events/open-2026/categories/", {"categories": "U99"})
    assert any("无法识别的组别" in m for m in messages_of(desk))


def test_override_reinstate_excuse_range_and_finish_at_the_desk(desk):
    desk.post("/desk/events/open-2026/pair/")  # 1-2, 3-4, 5-6
    desk.post("/desk/events/open-2026/override/", {"round": 1, "a": 2, "b": 3})
    assert (t().entrants[0].rounds[0].opponent, t().entrants[1].rounds[0].opponent) == (3, 4)
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-3": "1", "r-2-4": "=", "r-5-6": "0"})
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-3": "x"})  # a clear needs confirming too
    assert t().entrants[0].rounds[0].result == "1" and 'id="confirm-change"' in desk.get(
        "/desk/events/open-2026/").content.decode()
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-3": "x", "change": "1"})  # clear one
    assert t().entrants[0].rounds[0].result == " "
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-3": "1"})
    desk.post("/desk/events/open-2026/excuse/", {"number": 5, "rounds": "2-3", "kind": "H"})
    assert t().entrants[4].rounds[1].result == "H" and t().entrants[4].excused == {3: "H"}
    desk.post("/desk/events/open-2026/withdraw/", {"number": 6})
    desk.post("/desk/events/open-2026/withdraw/", {"number": 6})
    assert any("已于第1轮后退赛" in m for m in messages_of(desk))
    desk.post("/desk/events/open-2026/reinstate/", {"number": 6})
    assert t().entrants[5].withdrawn_after is None
    for rnd in (2, 3, 4):
        desk.post("/desk/events/open-2026/pair/")
        boards = {f"r-{x.number}-{x.rounds[rnd - 1].opponent}": "1" for x in t().entrants
                  if len(x.rounds) >= rnd and x.rounds[rnd - 1].colour == "b"}
        desk.post("/desk/events/open-2026/results/", {"round": rnd, **boards})
    desk.post("/desk/events/open-2026/finish/", {"finished": "1", "confirm": "1"})
    assert LiveEvent.objects.get(code="open-2026").finished
    r = desk.post("/desk/events/open-2026/players/", {"name": "迟到", "sex": "m"})
    assert len(t().entrants) == 6 and "比赛已结束" in r.content.decode()
    desk.post("/desk/events/open-2026/finish/", {"finished": "0"})  # reopening is confirmed (issue 22)
    assert LiveEvent.objects.get(code="open-2026").finished
    desk.post("/desk/events/open-2026/finish/", {"finished": "0", "confirm": "1"})
    assert not LiveEvent.objects.get(code="open-2026").finished


def test_printouts_are_pdf_with_the_cjk_font_embedded(desk):
    desk.post("/desk/events/open-2026/pair/")
    for what in ("pairings", "alphabetical", "slips", "standings", "crosstable"):
        r = desk.get(f"/desk/events/open-2026/print/{what}.pdf?round=1")
        assert r.status_code == 200 and r["Content-Type"] == "application/pdf" and r.content.startswith(b"%PDF")
        assert b"FontFile2" in r.content and b"NotoSansCJK" in r.content, what
    assert desk.get("/desk/events/open-2026/print/bogus.pdf").status_code == 404
    r = desk.get("/desk/events/open-2026/print/pairings.pdf?round=3")
    assert r.status_code == 302 and any("第3轮尚未编排" in m for m in messages_of(desk))


def test_report_marks_unplayed_games_as_the_chosen_rule_set_says_and_names_the_desk_event(desk):
    from io import BytesIO

    from openpyxl import load_workbook

    desk.post("/desk/events/open-2026/pair/")
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-2": "+", "r-3-4": "1", "r-5-6": "0"})
    for rules, mark in (("cga-gomoku-2011", "2先+"), ("bjsh-gomoku-2007", "2先1*")):
        wb = load_workbook(BytesIO(desk.get(f"/desk/events/open-2026/report.xlsx?rules={rules}").content))
        cells = [c for row in wb["成绩"].iter_rows(values_only=True) for c in row]
        assert mark in cells, rules
        assert wb["竞赛报告"]["A16"].value == "赛事代码" and wb["竞赛报告"]["B16"].value == "open-2026"


def test_the_desk_page_in_english_has_the_new_forms_translated(desk):
    desk.get("/language/en/?next=/desk/")
    html = desk.get("/desk/events/open-2026/").content.decode()
    for text in ("Keep apart", "Prize categories", "Reinstate", "Excuse"):
        assert text in html
    desk.post("/desk/events/open-2026/pair/")
    desk.post("/desk/events/open-2026/pair/")
    assert any("round 1 has boards without a result" in m for m in messages_of(desk))


def test_the_printed_round_calls_a_withdrawn_player_withdrawn_and_shows_scores_and_ratings(desk):
    desk.post("/desk/events/open-2026/pair/")
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-2": "1", "r-3-4": "1", "r-5-6": "="})
    desk.post("/desk/events/open-2026/withdraw/", {"number": 2})
    desk.post("/desk/events/open-2026/excuse/", {"number": 4, "kind": "Z"})
    desk.post("/desk/events/open-2026/pair/")
    html = desk.get("/desk/events/open-2026/print/2/").content.decode()
    assert "李二" in html and "退赛" in html and "缺席" in html and "2000" in html


def play_rounds(c, n):
    for rnd in range(1, n + 1):
        c.post("/desk/events/open-2026/pair/")
        boards = {f"r-{x.number}-{x.rounds[rnd - 1].opponent}": "1" for x in t().entrants
                  if len(x.rounds) >= rnd and x.rounds[rnd - 1].colour == "w"}
        c.post("/desk/events/open-2026/results/", {"round": rnd, **boards})


def test_finishing_early_says_what_is_about_to_happen_and_needs_the_confirmation(desk):
    """Issue 10: finish was accepted after 3 of 4 rounds in one click; now a plain POST is refused, and the
    confirmation page says how many rounds are played of those planned."""
    play_rounds(desk, 3)
    page = desk.get("/desk/events/open-2026/finish/").content.decode()
    assert "计划 4 轮，已赛完 3 轮。" in page and "提前结束：4 轮中只赛了 3 轮。" in page
    assert 'name="confirm"' in page and "我确认：在 4 轮中赛完 3 轮后结束比赛。" in page
    r = desk.post("/desk/events/open-2026/finish/", {"finished": "1"})  # no confirmation
    assert r.status_code == 200 and not LiveEvent.objects.get(code="open-2026").finished
    assert "结束比赛前请确认：勾选下面的确认框。" in r.content.decode()
    assert not AuditLog.objects.filter(action="event.finish").exists()
    r = desk.post("/desk/events/open-2026/finish/", {"finished": "1", "confirm": "1"})
    assert r.status_code == 302 and LiveEvent.objects.get(code="open-2026").finished
    assert AuditLog.objects.filter(action="event.finish").count() == 1
    # the event page links to the confirmation, it does not finish in one click
    desk.post("/desk/events/open-2026/finish/", {"finished": "0", "confirm": "1"})
    assert 'href="/desk/events/open-2026/finish/" id="finish-form"' in desk.get("/desk/events/open-2026/").content.decode()


def test_finish_refused_by_the_use_case_stays_on_the_confirmation_in_chinese(desk):
    desk.post("/desk/events/open-2026/pair/")  # round 1 without results
    page = desk.get("/desk/events/open-2026/finish/").content.decode()
    assert "第 1 轮还有 3 台没有结果" in page
    r = desk.post("/desk/events/open-2026/finish/", {"finished": "1", "confirm": "1"})
    html = r.content.decode()
    assert r.status_code == 200 and not LiveEvent.objects.get(code="open-2026").finished
    assert "第1轮还有台次没有结果" in html and "without a result" not in html


def test_new_player_form_keeps_its_values_and_says_what_is_wrong_in_chinese(desk, resident_id):
    """Issue 10: the form was emptied after an error, which was English; the association is the registry's."""
    from datetime import date

    page = desk.get("/desk/events/open-2026/").content.decode()
    assert '<select name="association"' in page and '<option value="BJ">北京 (BJ)</option>' in page
    good = resident_id(date(2012, 1, 1), "M")
    bad = good[:-1] + ("1" if good[-1] != "1" else "2")
    r = desk.post("/desk/events/open-2026/players/", {"name": "新人", "sex": "w", "rating": "1850", "association": "SH",
                                                      "birth": "2012-01-01", "id_number": bad, "club": "棋社"})
    html = r.content.decode()
    assert r.status_code == 200 and len(t().entrants) == 6
    assert 'value="新人"' in html and 'value="1850"' in html and 'value="棋社"' in html
    assert '<option value="SH" selected>' in html and '<option value="w" selected>' in html
    assert "身份证号：校验码错误" in html and "check digit" not in html and "gender digit" not in html
    # not an association of the registry: refused by the form, in Chinese
    r = desk.post("/desk/events/open-2026/players/", {"name": "新人", "sex": "m", "association": "浙江"})
    assert r.status_code == 200 and "选择一个有效的选项" in r.content.decode() and len(t().entrants) == 6
    r = desk.post("/desk/events/open-2026/players/", {"name": "新人", "sex": "m", "association": "SH"})
    assert r.status_code == 302 and t().entrants[-1].federation == "上海"


def test_event_details_refused_by_the_use_case_keep_what_was_typed(desk):
    """The event starts on 2026-05-01; an end before it, the start left blank, passes the form and is refused by
    the use case: the form comes back as typed, the reason in Chinese, nothing stored."""
    before = LiveEvent.objects.get(code="open-2026").trf_text
    r = desk.post("/desk/events/open-2026/details/", {"name": "2026年公开赛", "end": "2026-04-01", "city": "杭州"})
    html = r.content.decode()
    assert r.status_code == 200 and LiveEvent.objects.get(code="open-2026").trf_text == before
    assert 'value="杭州"' in html and 'value="2026-04-01"' in html
    assert "比赛结束日期（2026-04-01）早于开始日期（2026-05-01）" in html and "before it starts" not in html


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_desks_results_refusals_name_the_desks_own_controls_not_the_command_lines(desk, language):
    """Issue 33 (5): on the desk a refusal named ``--change`` and ``--force``, options of the command line the
    desk page does not have.  Now it names the desk's own control: the confirm box under the results (which the
    refusal brings up), the undo button for a round later rounds were paired on, x and the box to clear results
    before an undo — in the reader's language; the command line keeps naming its options."""
    zh = language == "zh-hans"

    def refusals() -> str:
        return " ".join(str(m) for m in desk.get("/desk/events/open-2026/", HTTP_ACCEPT_LANGUAGE=language)
                        .context["messages"])

    desk.post("/desk/events/open-2026/pair/")
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-2": "1", "r-3-4": "1", "r-5-6": "1"})
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-2": "0"}, HTTP_ACCEPT_LANGUAGE=language)
    text = refusals()
    assert ("请勾选结果表下方的“确认修改已录入的结果”，再保存" if zh else
            'tick "Confirm changing results already entered" under the results and save again') in text
    page = desk.get("/desk/events/open-2026/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'id="confirm-change"' in page and ("确认修改已录入的结果" if zh else "Confirm changing results already entered") \
        in page
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-2": "x"}, HTTP_ACCEPT_LANGUAGE=language)
    assert ("要清除，请勾选" if zh else "to clear it, tick") in refusals()
    desk.post("/desk/events/open-2026/undo/", HTTP_ACCEPT_LANGUAGE=language)
    assert ("请先清除：在结果表中这些台次输入 x" if zh else "clear them first: type x in their boxes") in refusals()
    desk.post("/desk/events/open-2026/pair/")
    desk.post("/desk/events/open-2026/results/", {"round": 1, "r-1-2": "0", "change": "1"},
              HTTP_ACCEPT_LANGUAGE=language)
    text = refusals()
    assert ("请先在工作台撤销其后各轮的编排（比赛页上方的“撤销第 N 轮编排”）" if zh else
            'undo the rounds paired after it first ("Undo the pairing of round N"') in text
    for option in ("--change", "--force", "qiyuan event"):
        assert option not in text and option not in page
    assert t().entrants[0].rounds[0].result == "1"


def test_the_command_line_keeps_naming_its_options():
    from qiyuan.tournament import eventfile as ev
    from qiyuan.tournament.errors import EventError
    from qiyuan.tournament.model import Entrant, RoundCell, Tournament

    t = Tournament(name="x", entrants=[Entrant(number=n, name=f"p{n}") for n in (1, 2, 3, 4)])
    for rnd, pairs in ((1, ((1, 2), (3, 4))), (2, ((1, 3), (2, 4)))):
        for a, b in pairs:
            t.entrants[a - 1].rounds.append(RoundCell(b, "b", "1"))
            t.entrants[b - 1].rounds.append(RoundCell(a, "w", "0"))
    with pytest.raises(EventError) as exc:
        ev.enter_results(t, 1, [(1, "0-1")], change=True)
    assert "use --force to change it anyway" in exc.value.problems[0].text()
    with pytest.raises(EventError) as exc:
        ev.enter_results(t, 2, [(1, "0-1")])
    assert "confirm the change (--change)" in exc.value.problems[0].text()
    with pytest.raises(EventError) as exc:
        ev.clear_round(t, 2)
    assert '"N " --change' in exc.value.problems[0].text()
