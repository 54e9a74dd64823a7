"""The rating officer's desk: upload a report (type and size checked), confirm matches, compute, publish, correct."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from qiyuan.formats.report_xlsx import ReportMeta, write_report
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant


def report_bytes(tmp_path, entrants, name="2026年区五子棋赛", start=date(2026, 2, 1), result: str = "1-0") -> bytes:
    """A competition report workbook of a 5-round Swiss event (as the arbiter's desk writes it)."""
    t = ev.new_event(name, fmt="swiss", rounds=5, start=start, end=start, city="北京", time_control="60 min",
                     chief_arbiter="裁判甲", arbiters=["裁判乙"])
    for e in entrants:
        ev.add_player(t, e)
    n = len(t.entrants)
    for rnd in range(1, 6):
        boards = [((i + rnd) % n + 1, (n - 1 - i + rnd) % n + 1) for i in range(n // 2)]
        ev.set_round(t, rnd, boards, None)
        for a, _b in boards:
            ev.enter_result(t, rnd, a, result)
    path = tmp_path / "report.xlsx"
    write_report(t, path, ReportMeta(format="swiss", organizer="北京市五子棋协会"))
    return path.read_bytes()


@pytest.fixture
def gomoku(db):
    from qiyuan.office.federation.models import Arbiter
    from qiyuan.office.ratings.models import RatingList

    Arbiter.objects.create(name="裁判甲", level="national", recognised_national=True)
    return RatingList.objects.create(code="gomoku", title="京沪五子棋等级分", rules_name="bjsh-gomoku-2007")


@pytest.fixture
def six(resident_id, make_association):
    make_association("BJ", "北京")
    out = []
    for i, (name, sex) in enumerate([("甲一", "m"), ("乙二", "w"), ("丙三", "m"), ("丁四", "w"), ("戊五", "m"),
                                     ("己六", "w")]):
        born = date(1990 + i, 1, 1 + i)
        out.append(Entrant(0, name, sex=sex, federation="BJ", rating=None, title="",
                           id_number=resident_id(born, "M" if sex == "m" else "F"), birth=born.isoformat()))
    return out


def upload(client, data: bytes, name="report.xlsx", **fields):
    post = {"file": SimpleUploadedFile(name, data), "rating_list": "gomoku", "organiser_level": "state",
            "national": "yes", "international": "no", "agreed_by_parties": "no", "dan_event": "no",
            "confirm_all": "on", **fields}
    return client.post("/desk/office/imports/", post)


def test_officer_imports_a_report_once(staff, login, gomoku, six, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    assert c.get("/desk/office/imports/").status_code == 200
    data = report_bytes(tmp_path, six)
    r = upload(c, data)
    assert r.status_code == 302, r.content.decode()[:3000]
    detail = c.get(r["Location"]).content.decode()
    assert "2026年区五子棋赛" in detail
    from qiyuan.office.events.models import Event, ImportBatch

    assert Event.objects.count() == 1 and ImportBatch.objects.count() == 1
    r = upload(c, data)
    assert r.status_code == 200 and "这个文件已于" in r.content.decode()  # already imported, in the page's language


def test_ineligible_report_is_refused_with_every_reason(staff, login, gomoku, six, tmp_path, settings):
    from qiyuan.office.events.models import Event, RejectedReport

    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    t_bytes = report_bytes(tmp_path, six, name="2026年俱乐部赛")
    r = upload(c, t_bytes, organiser_level="other")
    html = r.content.decode()
    assert r.status_code == 200 and 'id="import-problems"' in html and "BJSH §6" in html
    assert Event.objects.count() == 0 and RejectedReport.objects.count() == 1
    assert "BJSH §6" in c.get("/desk/office/imports/").content.decode()


def test_the_events_facts_start_empty_and_are_never_assumed(staff, login, gomoku, six, tmp_path, settings):
    """Issue 18 item 2: the desk's fields start empty; a report that does not declare the facts, uploaded without
    them, is refused naming what is missing (in the page's language) — it was imported as state-level national."""
    from qiyuan.office.events.models import Event

    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    page = c.get("/desk/office/imports/").content.decode()
    assert 'value="yes" selected' not in page and 'value="state" selected' not in page
    r = c.post("/desk/office/imports/", {"file": SimpleUploadedFile("report.xlsx", report_bytes(tmp_path, six)),
                                         "rating_list": "gomoku"})
    html = r.content.decode()
    problems = html[html.index('id="import-problems"'):]
    problems = problems[:problems.index("</ul>")]
    assert r.status_code == 200 and "不能假定" in problems and "主办单位级别" in problems  # Chinese on the Chinese desk
    assert "cannot be assumed" not in problems and Event.objects.count() == 0
    # the desk points to its own fields; the same refusal on the command line names the options that state them
    assert "上方表单的同名栏目" in problems and "--organiser-level" not in problems and "选项" not in problems
    from qiyuan.cli import lang
    from qiyuan.office.events.models import RejectedReport

    [refusal] = [p for p in RejectedReport.objects.get().reason_problems() if p.code == "import.facts_missing"]
    lang.activate(lang.CHINESE)
    try:
        assert "请用选项注明：--" in lang.problem_line(refusal) and "--organiser-level" in lang.problem_line(refusal)
    finally:
        lang.activate(lang.ENGLISH)
    assert "state it: --" in lang.problem_line(refusal) and "--organiser-level" in lang.problem_line(refusal)


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("virus.exe", b"MZ\x90\x00", "不接受 .exe 文件"),
        ("fake.xlsx", b"this is not a workbook", "文件内容与扩展名 .xlsx 不符"),
        ("bin.trf", b"012 x\x00\x00", "TRF 文件应为文本文件"),
    ],
)
def test_upload_type_is_checked(staff, login, gomoku, name, data, message):
    r = upload(login(staff["officer"]), data, name=name)
    assert r.status_code == 200 and message in r.content.decode()


def test_upload_size_is_limited(staff, login, gomoku, settings):
    settings.QIYUAN_UPLOAD_MAX_BYTES = 1000
    r = upload(login(staff["officer"]), b"PK\x03\x04" + b"0" * 2000)
    assert r.status_code == 200 and "文件过大" in r.content.decode()


def test_name_match_waits_for_the_officers_confirmation(staff, login, gomoku, six, make_player, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    known = make_player("甲一", "M", "BJ")  # registered without an ID number: the report's ID cannot match
    c = login(staff["officer"])
    r = upload(c, report_bytes(tmp_path, six), confirm_all="")
    html = r.content.decode()
    assert r.status_code == 200 and 'id="confirm-form"' in html and known.federation_id in html
    from qiyuan.office.events.models import Event

    assert Event.objects.count() == 0  # never matched silently
    r = c.post("/desk/office/imports/", {"confirming": "1", "confirm-1": known.federation_id,
                                         **{f"confirm-{n}": "new" for n in range(2, 7)}})  # the proposals
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Event.objects.get().entries.filter(player=known).exists()


def test_id_conflict_candidate_is_shown_masked_and_taken_only_with_the_override_box(
        staff, login, gomoku, six, make_player, resident_id, tmp_path, settings):
    from qiyuan.office.events.models import Event
    from qiyuan.office.federation.models import mask_id_number

    settings.VAR_DIR = tmp_path
    other_id = resident_id(date(1970, 6, 6), "M")
    known = make_player("甲一", "M", "BJ", birth_date=date(1970, 6, 6), id_number=other_id)
    c = login(staff["officer"])
    html = upload(c, report_bytes(tmp_path, six)).content.decode()
    match = html[html.index('id="match-1"'):html.index("</fieldset>", html.index('id="match-1"'))]
    assert known.federation_id in match and "1970" in match
    assert "⚠ 身份证号不符" in match and f'name="override-1-{known.federation_id}"' in match
    assert known.masked_id_number in match  # the registry's ID, masked
    assert mask_id_number(six[0].id_number) in match  # the report's ID, masked
    for p in six:
        assert p.id_number not in html
    assert other_id not in html
    # Chosen without the box: refused with the reason, nothing imported, still waiting.
    r = c.post("/desk/office/imports/", {"confirming": "1", "confirm-1": known.federation_id})
    html = r.content.decode()
    assert r.status_code == 200 and "须勾选“仍然匹配”" in html and 'id="match-1"' in html
    assert Event.objects.count() == 0
    # A "!" typed in the free-text lines is not an override either.
    r = c.post("/desk/office/imports/", {"confirming": "1", "confirm_more": f"1={known.federation_id}!"})
    assert r.status_code == 200 and Event.objects.count() == 0
    # With the box ticked: the officer's override (sent as ID!).
    r = c.post("/desk/office/imports/", {"confirming": "1", "confirm-1": known.federation_id,
                                         f"override-1-{known.federation_id}": "1"})
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Event.objects.get().entries.filter(player=known).exists()


def test_confirmations_send_the_override_only_for_a_ticked_conflicting_candidate():
    from qiyuan.web.desk.views.office import confirmations

    post = {"confirm-1": "CN000123", "override-1-CN000123": "1", "confirm-2": "CN000200", "confirm-3": "CN000300",
            "override-3-CN000300": "1", "confirm-4": "new", "confirm-5": "", "confirm_more": "6=CN000600!\n7 = new"}
    conflicts = {"1": ["CN000123"], "2": ["CN000200"], "3": []}
    confirm, problems = confirmations(post, conflicts)
    assert confirm == {"1": "CN000123!", "3": "CN000300", "4": "new", "6": "CN000600", "7": "new"}
    assert len(problems) == 1 and "CN000200" in problems[0]


def test_compute_review_publish_and_refuse_an_empty_correction(staff, login, gomoku, six, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    assert upload(c, report_bytes(tmp_path, six)).status_code == 302
    html = c.get("/desk/office/periods/").content.decode()
    assert "2026年区五子棋赛" in html
    r = c.post("/desk/office/periods/", {"list": "gomoku", "action": "compute"})
    assert r.status_code == 200 and 'id="review"' in r.content.decode()
    digest = re.search(r'name="digest" value="([0-9a-f]+)"', r.content.decode()).group(1)
    r = c.post("/desk/office/periods/", {"list": "gomoku", "action": "publish", "confirm": "1", "digest": digest})
    assert r.status_code == 302
    from qiyuan.office.ratings.models import Edition

    ed = Edition.objects.get()
    r = c.post("/desk/office/periods/", {"list": "gomoku", "action": "correct", "date": ed.list_date.isoformat(),
                                         "reason": "复核"}, follow=True)
    assert "nothing to correct" in r.content.decode()
    assert Edition.objects.count() == 1
    # the public list shows the new edition
    r = c.get(f"/lists/gomoku/{ed.list_date.isoformat()}/?status=all")
    assert r.status_code == 200 and "京沪五子棋等级分" in r.content.decode()


def test_the_facts_refusals_name_the_desks_fields_there_and_the_options_on_the_command_line():
    """The facts' refusals and note keep the command line's wording (its options); the desk shows each with a
    template of its own that points to its form, in both languages — never an option."""
    from qiyuan.cli import lang
    from qiyuan.errors import problem
    from qiyuan.office.imports.facts import AT_THE_DESK, at_the_desk

    zh = lang._load(lang.CHINESE)
    for cli, desk in AT_THE_DESK.items():
        assert ("--" in cli and "--" in zh.gettext(cli)) or "{options}" in zh.gettext(cli)
        assert "--" not in desk and "--" not in zh.gettext(desk) and zh.gettext(desk) != desk
        assert at_the_desk(problem(cli, file="r.xlsx", fact="x")) == problem(desk, file="r.xlsx", fact="x")
    other = problem("no such file", file="r.xlsx")
    assert at_the_desk(other) is other
