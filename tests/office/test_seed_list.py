"""Issue 18, item 9: an office starts from the federation's last list (起始名册): its first edition, and the first
events are rated against it."""

from __future__ import annotations

from datetime import date

import pytest
from openpyxl import Workbook

from tests.support import sheets

from ._o2_fixtures import make_list

pytestmark = pytest.mark.django_db

LIST = "编号,姓名,等级分,局数,性别\nS001,甲,2100,80,M\nS002,乙,1900,30,F\nS003,丙,1750,12,M\nS004,丁,,0,M\n"


def _games_after(tmp_path):
    """A history folder with one event after the seeded list (players already on it)."""
    d = tmp_path / "after"
    d.mkdir()
    (d / "players.csv").write_text("id,name,gender\nS001,甲,M\nS002,乙,F\nS003,丙,M\nS004,丁,M\n", encoding="utf-8")
    (d / "events.csv").write_text("id,name,start_date,end_date,format\nA1,春季赛,2021-03-01,2021-03-02,swiss\n",
                                  encoding="utf-8")
    (d / "games.csv").write_text("event_id,round,player1,player2,result\nA1,1,S001,S002,0-1\nA1,1,S003,S004,1-0\n"
                                 "A1,2,S001,S003,1-0\nA1,2,S002,S004,1-0\n", encoding="utf-8")
    return d


def test_seeded_list_is_the_first_edition_and_the_first_event_is_rated_against_it(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.imports.seed import seed_list
    from qiyuan.office.periods import publish_due

    src = tmp_path / "last.csv"
    src.write_text(LIST, encoding="utf-8")
    rl = make_list()
    ed = seed_list(src, rl, date(2021, 1, 1), "officer")
    assert (ed.number, ed.list_date, len(ed.digest)) == (1, date(2021, 1, 1), 64)
    rows = {e["federation_id"]: e["rating"] for e in sheets.entries(ed)}
    assert rows["S001"] == 2100 and rows["S002"] == 1900 and rows["S003"] == 1750
    import_file(_games_after(tmp_path), rl, "officer")
    (nxt,) = publish_due(rl, "officer")
    assert nxt.previous_id == ed.pk
    by = {c["federation_id"]: c for c in sheets.changes(nxt)}
    assert by["S001"]["method"] != "newcomer" and by["S001"]["before"] == 2100  # rated from the seeded rating
    assert by["S002"]["delta"] > 0 and by["S001"]["delta"] < 0


def test_seed_from_an_xlsx_export_with_title_rows(tmp_path):
    from qiyuan.office.imports.seed import seed_list

    wb = Workbook()
    ws = wb.active
    ws.append(["中国五子棋等级分 2021-01-01"])
    ws.append(["CGA", "edition 1"])
    ws.append(["序", "名次", "编号", "姓名", "性别", "段级位", "等级分", "局数"])
    ws.append([1, 1, "X1", "甲", "男", "", 2100, 80])
    ws.append([2, 2, "X2", "乙", "女", "", 1980.5, 31])
    wb.save(tmp_path / "list.xlsx")
    ed = seed_list(tmp_path / "list.xlsx", make_list(), date(2021, 1, 1), "officer")
    assert len(sheets.entries(ed)) == 2


def test_a_bad_list_is_refused_with_every_problem_and_kept(tmp_path):
    from qiyuan.office.events.models import RejectedReport
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import ImportRefused
    from qiyuan.office.imports.seed import seed_list

    src = tmp_path / "bad.csv"
    src.write_text("id,name,rating,games\nA1,甲,abc,3\nA1,乙,2000,\n,丙,2000,5\n", encoding="utf-8")
    with pytest.raises(ImportRefused) as exc:
        seed_list(src, make_list(), date(2021, 2, 1), "officer")
    text = "\n".join(exc.value.messages)
    assert "not a publication date" in text and "'abc'" in text and "appears twice" in text
    assert "number of rated games" in text and "federation ID is empty" in text
    assert str(tmp_path) not in text
    assert not Player.objects.exists() and RejectedReport.objects.get().filename == "bad.csv"


def test_a_published_list_is_not_seeded(tmp_path):
    from qiyuan.office.imports import ImportRefused
    from qiyuan.office.imports.seed import seed_list

    src = tmp_path / "last.csv"
    src.write_text(LIST, encoding="utf-8")
    rl = make_list()
    seed_list(src, rl, date(2021, 1, 1), "officer")
    src2 = tmp_path / "again.csv"
    src2.write_text(LIST + "S005,戊,1800,5,M\n", encoding="utf-8")
    with pytest.raises(ImportRefused, match="published already"):
        seed_list(src2, rl, date(2021, 7, 1), "officer")


def test_cli_seed_and_the_summary_line(tmp_path):
    from types import SimpleNamespace

    from qiyuan.cli.office_data import summary_line

    comp = SimpleNamespace(rating_list=SimpleNamespace(code="CGA"), list_date=date(2021, 1, 1),
                           rules=SimpleNamespace(name="cga"), events=[], changes=[], digest="0" * 64)
    assert "; , new" not in summary_line(comp, {}, 0)
    assert summary_line(comp, {}, 0).endswith("no entries; digest 000000000000")
    assert "active 3, unrated 1, new 2;" in summary_line(comp, {"active": 3, "unrated": 1}, 2)
