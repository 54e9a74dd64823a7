"""Issue 18, item 2 (the report gains the lines for the facts): a 竞赛报告 written by `qiyuan report` with the
facts given carries them on its lines (rows 17–22), and `office import` of it needs no stated facts.

The whole way as an arbiter and an officer go it: an event run with `qiyuan event …`, the report written by
`qiyuan report --organiser-level … --national …`, the report imported with no option stating a fact.
"""

from __future__ import annotations

from datetime import date

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from qiyuan.cli import app

from .test_import_report import office  # noqa: F401 - the fixture: associations, arbiters, the CGA list

pytestmark = pytest.mark.django_db


def run(*args, ok=True):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert not ok or result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


def _event(tmp_path, resident_id):
    """A 5-round Swiss of 10 players run from the terminal, every result entered."""
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "2026年全国五子棋锦标赛", "--rounds", 5, "--start", "2026-05-01",
        "--end", "2026-05-03", "--time-control", "每方60分钟", "--chief", "周裁判", "--arbiter", "吴裁判", "--city", "北京")
    for i in range(1, 11):
        sex = "m" if i % 2 else "w"
        run("event", "add-player", ev, f"选手{'甲乙丙丁戊己庚辛壬癸'[i - 1]}", "--sex", sex,
            "--association", "BJ" if i % 2 else "SH", "--birth", f"2000-01-{i:02d}",
            "--id-number", resident_id(date(2000, 1, i), "M" if i % 2 else "F"))
    run("event", "draw", ev, "--seed", 7)
    from qiyuan.formats.trf import read_trf

    for rnd in range(1, 6):
        run("event", "pair", ev)
        t = read_trf(ev)
        boards = [e.number for e in t.entrants if e.rounds[rnd - 1].colour == "b" and e.rounds[rnd - 1].opponent]
        run("event", "result", ev, rnd, *[f"{a} {'1-0' if (a + rnd) % 3 else '½-½'}" for a in boards])
    return ev


def test_a_report_written_with_its_facts_is_imported_without_stated_facts(office,  # noqa: F811
                                                                           tmp_path, resident_id):
    from qiyuan.formats.report_xlsx import FACT_ROWS, INFO_SHEET
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import ImportRefused, Options, import_file

    ev = _event(tmp_path, resident_id)
    bare = tmp_path / "bare.xlsx"
    run("report", ev, "--xlsx", bare)  # no facts given: the lines are left blank, the office asks for them
    with pytest.raises(ImportRefused) as caught:
        import_file(bare, office, "officer", options=Options(confirm_all=True))
    assert any(p.code == "import.facts_missing" for p in caught.value.problems)

    regional = tmp_path / "regional.xlsx"
    run("report", ev, "--xlsx", regional, "--organiser-level", "regional", "--national", "--not-international")
    with pytest.raises(ImportRefused) as caught:  # the report's 地区级 is used (CGA Art. 4 refuses it), not assumed
        import_file(regional, office, "officer", options=Options(confirm_all=True))
    assert "CGA Art. 4: organiser level is 'regional'" in str(caught.value)

    xlsx = tmp_path / "report.xlsx"
    run("report", ev, "--xlsx", xlsx, "--organiser-level", "state", "--national", "--not-international",
        "--no-dan-event")
    info = load_workbook(xlsx)[INFO_SHEET]
    written = {key: info.cell(row, 2).value for key, (row, _label) in FACT_ROWS.items()}
    assert written == {"organiser_level": "国家级", "national": "是", "international": "否", "agreed_by_parties": None,
                       "dan_event": "否", "standards_published": None}
    import_file(xlsx, office, "officer", options=Options(confirm_all=True))  # no fact stated by the officer
    stored = Event.objects.get(name="2026年全国五子棋锦标赛")
    assert (stored.organiser_level, stored.national, stored.international) == ("state", True, False)


def test_report_refuses_an_unknown_organiser_level_and_writes_nothing(tmp_path, resident_id):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    run("event", "add-player", ev, "甲")
    xlsx = tmp_path / "r.xlsx"
    r = run("report", ev, "--xlsx", xlsx, "--organiser-level", "national", ok=False)
    assert r.exit_code == 2 and "--organiser-level 'national'" in r.stderr and not xlsx.exists()
