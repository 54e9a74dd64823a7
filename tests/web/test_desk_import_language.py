"""Issue 18, item 5: the refusals and notes of an import read in Chinese on the Chinese desk.

Each refusal and note observed on the officer's desk — bad report cells, a bad TRF, a bad OpenGotha file, a bad
history folder, a player found nowhere (a proposal), a name match, a probable duplicate, the notes of an import and
the rejected-reports table — is shown on the Chinese desk (or, for what the desk cannot upload, by the function the
desk shows it with) and checked as the desk crawl checks its pages: no English word, no stored code. A message
nobody translated fails it (the last test shows the check can fail).
"""

from __future__ import annotations

import io
import re
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from openpyxl import load_workbook

from qiyuan.errors import QiyuanError, problem

from .language_check import problems
from .test_desk_languages import ALLOWED
from .test_office_desk import gomoku, report_bytes, six, upload  # noqa: F401 - fixtures

#: what an import's messages show as they are: the files' own names and extensions, and the command-line options a
#: refusal names for the officer who imports from the terminal (typed as they are)
SHOWN_AS_TYPED = ALLOWED | {"report", "garbage", "t", "copy", "hist", "games", "csv", "players", "events", "duplicate",
                            "gomoku", "abc", "Foo", "Tournament", "x",  # a list code, values quoted from the files
                            "of", "reason", "help", "override", "facts", "confirm", "new", "all"}


def _chinese(html: str) -> list[str]:
    # (the fixture's rating list is coded "gomoku", which is also a stored game code: the list's code, in its option
    # and in its events' codes, is not an import's message; nor is a file's SHA-256)
    return [p for p in problems(html, "zh-hans", allowed_english=SHOWN_AS_TYPED)
            if not re.match(r"(code|English) \[('gomoku'(, )?)+\]", p) and not re.search(r"\['[0-9a-f]{64}'\]", p)]


def _listed(html: str, marker: str = 'id="import-problems"') -> str:
    part = html[html.index(marker):]
    return part[:part.index("</ul>")]


def _zh(items) -> list[str]:
    """Problems as the desk shows them (``views.office._located``), in Chinese."""
    from qiyuan.web.desk.views.office import _located

    with translation.override("zh-hans"):
        return [_located(p) for p in items]


def _bad_cells(tmp_path, six) -> bytes:  # noqa: F811
    """A report with a rating ``abc`` in one row and ``7先9`` in another (the afternoon's observation)."""
    wb = load_workbook(io.BytesIO(report_bytes(tmp_path, six)))
    ws = wb["成绩"]
    ws.cell(3, 8).value = "abc"
    ws.cell(4, 9).value = "7先9"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.fixture
def officer(staff, login, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return login(staff["officer"])


def test_reader_refusals_are_chinese_on_the_chinese_desk(officer, gomoku, six, tmp_path):  # noqa: F811
    found = {}
    for name, data, expect in [("report.xlsx", _bad_cells(tmp_path, six), "应为整数"),
                               ("garbage.trf", b"hello, not a tournament\n", "不是 TRF-16 文件"),
                               ("t.xml", b"<Foo/>", "不是 OpenGotha 的")]:
        r = upload(officer, data, name=name)
        listed = _listed(r.content.decode())
        assert r.status_code == 200 and expect in listed, listed
        if bad := _chinese(r.content.decode()):
            found[name] = bad
    page = officer.get("/desk/office/imports/").content.decode()  # the rejected reports, in the viewer's language
    table = page[page.index("退回的报告"):]
    assert "应为整数" in table and "不是 TRF-16 文件" in table and "uploads" not in table
    if bad := _chinese(page):
        found["rejected"] = bad
    assert not found, "\n".join(x for v in found.values() for x in v)


def test_proposals_name_matches_notes_and_duplicates_are_chinese(officer, gomoku, six, make_player,  # noqa: F811
                                                                 tmp_path):
    from qiyuan.office.events.models import Event, ImportBatch, RejectedReport
    from qiyuan.office.imports import NeedsConfirmation, Options, import_file

    known = make_player("甲一", "M", "BJ")  # no ID number: the report's player 1 matches by name only
    data = report_bytes(tmp_path, six)
    r = upload(officer, data, confirm_all="")
    html = r.content.decode()
    assert r.status_code == 200 and 'id="confirm-form"' in html and known.federation_id in html
    assert not _chinese(html), _chinese(html)
    path = tmp_path / "copy.xlsx"
    path.write_bytes(data)
    with pytest.raises(NeedsConfirmation) as caught:  # what the terminal prints, as the desk shows it
        import_file(path, gomoku, "officer", options=Options(organiser_level="state", national=True,
                                                            international=False, agreed_by_parties=False,
                                                            dan_event=False))
    texts = _zh(m.text for m in caught.value.pending_matches)
    assert any("按姓名和所属棋协可能是" in t for t in texts) and any("建议登记为新棋手" in t for t in texts), texts
    assert not _chinese("<body><p>" + "</p><p>".join(texts) + "</p></body>")

    r = officer.post("/desk/office/imports/", {"confirming": "1", "confirm-1": known.federation_id,
                                               **{f"confirm-{n}": "new" for n in range(2, 7)}})
    assert r.status_code == 302, r.content.decode()[:2000]
    detail = officer.get(r["Location"]).content.decode()  # the import's notes (and the messages shown once)
    assert "不在登记册中：不计为认可裁判" in detail and "登记册中没有：请记入登记册" in detail  # its notes, in Chinese
    assert not _chinese(detail), _chinese(detail)
    batch = ImportBatch.objects.get()
    assert batch.note_data and all(isinstance(n, dict) for n in batch.note_data)

    # the same games under another name and dates: a probable duplicate, refused on the desk in Chinese
    wb = load_workbook(io.BytesIO(data))
    wb["竞赛报告"]["B3"] = "另一个名字的比赛"
    wb["竞赛报告"]["B4"] = (date(2026, 2, 1) + timedelta(days=30)).isoformat()
    wb["竞赛报告"]["C4"] = (date(2026, 2, 1) + timedelta(days=30)).isoformat()
    out = io.BytesIO()
    wb.save(out)
    r = upload(officer, out.getvalue(), name="copy.xlsx")
    listed = _listed(r.content.decode())
    assert "可能与比赛" in listed and Event.objects.count() == 1, listed
    assert not _chinese(r.content.decode()), _chinese(r.content.decode())
    assert RejectedReport.objects.filter(filename="copy.xlsx").get().reason_data


def test_history_refusals_are_chinese_where_the_desk_shows_them(gomoku, tmp_path):  # noqa: F811
    from qiyuan.office.imports import import_file

    d = tmp_path / "hist"
    d.mkdir()
    (d / "players.csv").write_text("id,name,gender,rating,games\np1,甲,M,2100,10\np2,乙,F,abc,10\n", encoding="utf-8")
    (d / "events.csv").write_text("id,name,start_date,end_date,format\nE1,赛,2020-05-01,2020-04-01,swiss\n",
                                  encoding="utf-8")
    (d / "games.csv").write_text("event_id,round,player1,player2,result\nE1,1,p1,p9,1-0\nE1,x,p1,p2,2-0\n",
                                 encoding="utf-8")
    with pytest.raises(QiyuanError) as caught:
        import_file(d, gomoku, "officer")
    texts = _zh(caught.value.problems)
    assert len(texts) >= 4 and all(t.startswith("hist/") and "行" in t for t in texts), texts
    assert any("100 至 3500 之间的等级分" in t for t in texts), texts
    with translation.override("zh-hans"):  # what is wrong (the place names the file's own columns: end_date …)
        wrong = [p.text(translation.gettext) for p in caught.value.problems]
    assert not _chinese("<body><p>" + "</p><p>".join(wrong) + "</p></body>"), wrong


def test_the_check_fails_on_an_untranslated_import_message():
    """A refusal nobody translated is English on the Chinese desk, and the check says so."""
    texts = _zh([problem("a refusal nobody translated: {value!r}", file="report.xlsx", value="x")])
    assert _chinese("<body><p>" + texts[0] + "</p></body>")
