"""The competition report (竞赛报告, CGA Art. 11 / BJSH §10): cell by cell, and read back."""

from __future__ import annotations

from datetime import date

import pytest
from openpyxl import load_workbook

from qiyuan.formats.errors import InputError
from qiyuan.formats.report_xlsx import ReportMeta, read_report, write_report
from qiyuan.tournament.model import Entrant, RoundCell, Tournament


def C(opp, colour, result):
    return RoundCell(opp, colour, result)


def event() -> Tournament:
    """5 players, 3 rounds, Gomoku points; a bye each round, a forfeit in round 2."""
    t = Tournament(name="2026年上海五子棋公开赛", city="上海", start_date=date(2026, 5, 1), end_date=date(2026, 5, 3),
                   time_control="每方60分钟", chief_arbiter="王裁判", deputy_arbiters=["李一", "赵二"], rounds_planned=3)
    t.entrants = [
        Entrant(1, "张三", "m", "3d", 2300, "上海", id_number="110101199001011234",
                rounds=[C(2, "b", "1"), C(4, "w", "1"), C(5, "b", "1")]),
        Entrant(2, "李四", "w", "1k", 2100, "北京", id_number="31010119920202002X",
                rounds=[C(1, "w", "0"), C(5, "w", "-"), C(3, "b", "0")]),
        Entrant(3, "王五", "m", "", None, "江苏五子棋协会",
                rounds=[C(4, "b", "="), C(None, "-", "U"), C(2, "w", "1")]),
        Entrant(4, "赵六", "w", "2d", 2200, "上海", rounds=[C(3, "w", "="), C(1, "b", "0"), C(None, "-", "U")]),
        Entrant(5, "钱七", "m", "5k", 1900, "浙江", rounds=[C(None, "-", "U"), C(2, "b", "+"), C(1, "w", "0")]),
    ]
    return t


META = ReportMeta(organizer="中国围棋协会五子棋分会", host="上海围棋协会", notes="第2轮2号弃权",
                  report_date=date(2026, 5, 4), remarks={4: "原所属单位：浙江"})


@pytest.fixture
def report(tmp_path):
    path = tmp_path / "report.xlsx"
    write_report(event(), path, META)
    return path


def test_cga_11_1_event_sheet_cell_by_cell(report):
    ws = load_workbook(report)["竞赛报告"]
    assert ws["A1"].value == "竞赛报告"
    assert [(ws[f"A{r}"].value, ws[f"B{r}"].value) for r in range(3, 9)] == [
        ("赛事名称", "2026年上海五子棋公开赛"),
        ("比赛日期", "2026-05-01"),
        ("比赛地点", "上海"),
        ("时限规定", "每方60分钟"),
        ("裁判长", "王裁判"),
        ("裁判员", "李一、赵二"),
    ]
    assert ws["C4"].value == "2026-05-03"
    assert (ws["A9"].value, ws["B9"].value, ws["B10"].value) == ("赛制", "瑞士制", 3)
    assert [ws.cell(11, c).value for c in range(1, 6)] == ["积分（胜/和/负/轮空）", 2, 1, 0, 2]
    assert (ws["B12"].value, ws["B13"].value, ws["B14"].value, ws["B15"].value) == (
        "中国围棋协会五子棋分会", "上海围棋协会", "第2轮2号弃权", "2026-05-04")


def test_cga_11_1_player_columns_and_rank_order(report):
    ws = load_workbook(report)["成绩"]
    assert [c.value for c in ws[2]] == ["名次", "签号", "姓名", "性别", "身份证号", "段级位", "所属棋协", "等级分",
                                       "第1轮", "第2轮", "第3轮", "积分", "备注"]
    rows = [[c.value for c in ws[r]] for r in range(3, 8)]
    assert [r[:2] for r in rows] == [[1, 1], [2, 3], [3, 5], [4, 4], [5, 2]]  # 6, 5, 4, 3, 0 points
    assert rows[0][:8] == [1, 1, "张三", "男", "110101199001011234", "三段", "上海", 2300]
    assert rows[1][2:8] == ["王五", "男", None, None, "江苏五子棋协会", None]
    assert rows[4][2:8] == ["李四", "女", "31010119920202002X", "一级", "北京", 2100]
    assert ws["E3"].number_format == "@"


def test_cga_11_2_result_against_every_opponent(report):
    ws = load_workbook(report)["成绩"]
    assert [ws.cell(3, c).value for c in range(9, 13)] == ["2先1", "4后1", "5先1", 6]
    assert [ws.cell(4, c).value for c in range(9, 13)] == ["4先½", "轮空", "2后1", 5]
    assert [ws.cell(6, c).value for c in range(9, 13)] == ["3后½", "1先0", "轮空", 3]


def test_cga_11_3_unplayed_games_marked_plus_minus_and_explained(report):
    ws = load_workbook(report)["成绩"]
    assert (ws["J5"].value, ws["M5"].value) == ("2先+", "第1轮轮空（计胜）；第2轮对方弃权判胜")
    assert (ws["J7"].value, ws["M7"].value) == ("5后−", "第2轮弃权判负")


def test_cga_11_4_remarks_for_changes(report):
    ws = load_workbook(report)["成绩"]
    assert ws["M6"].value == "第3轮轮空（计胜）；原所属单位：浙江"
    assert ws["M3"].value is None
    assert ws["A9"].value.startswith("胜 1，和 ½，负 0")


def test_read_report_gives_back_the_event(report):
    t, meta = read_report(report)
    want = event()
    assert (t.name, t.city, t.start_date, t.end_date, t.time_control, t.chief_arbiter, t.deputy_arbiters,
            t.rounds_planned, t.points) == (want.name, want.city, want.start_date, want.end_date, want.time_control,
                                           want.chief_arbiter, want.deputy_arbiters, 3, want.points)
    for got, exp in zip(t.entrants, want.entrants, strict=True):
        assert (got.number, got.name, got.sex, got.title, got.rating, got.federation, got.id_number, got.rounds) == (
            exp.number, exp.name, exp.sex, exp.title, exp.rating, exp.federation, exp.id_number, exp.rounds)
    assert [e.rank for e in t.entrants] == [1, 5, 2, 4, 3]
    assert meta == META


def test_withdrawal_is_noted_and_read_back(tmp_path):
    t = event()
    t.entrants[1].withdrawn_after = 3
    write_report(t, tmp_path / "r.xlsx")
    back, meta = read_report(tmp_path / "r.xlsx")
    assert back.entrants[1].withdrawn_after == 3 and 2 not in meta.remarks


def edit(path, sheet, **cells):
    wb = load_workbook(path)
    for ref, value in cells.items():
        wb[sheet][ref] = value
    wb.save(path)


def problems(path):
    with pytest.raises(InputError) as exc:
        read_report(path)
    return [str(p) for p in exc.value.problems]


def test_bad_cells_are_named_all_at_once(report):
    edit(report, "成绩", I3="2x1", B4="abc", D5="男的", H6="2千")
    got = problems(report)
    assert any("Sheet 成绩, cell I3: round 1: cannot read '2x1'" in p for p in got), got
    assert any("Sheet 成绩, cell B4: 签号 (draw number) must be a whole number" in p for p in got), got
    assert any("cell D5: 性别 must be 男 or 女" in p for p in got), got
    assert any("cell H6: 等级分 (rating) must be a whole number" in p for p in got), got


def test_asymmetric_result_and_wrong_score(report):
    edit(report, "成绩", J3="4后0")
    got = problems(report)
    assert any("Sheet 成绩, cell J3: round 2: results 1 '0' and 4 '0' do not agree" in p for p in got), got
    assert any("cell L3: 积分 6 does not match the results, which give 4" in p for p in got), got


def test_unpaired_opponent(report):
    edit(report, "成绩", K3="4先1")
    assert any("cell K3: round 3: player 1 is paired with 4, but player 4's round 3 names nobody" in p
               for p in problems(report))


def test_wrong_template(report, tmp_path):
    edit(report, "成绩", C2="名字")
    assert problems(report) == [f"{report}, Sheet 成绩, cell C2: expected the heading '姓名', found '名字' (wrong template?)"]
    from openpyxl import Workbook

    other = tmp_path / "other.xlsx"
    Workbook().save(other)
    (p,) = problems(other)
    assert "not a qiyuan competition report: sheet 竞赛报告、成绩 missing" in p
    junk = tmp_path / "junk.xlsx"
    junk.write_text("not a workbook")
    assert "not an Excel workbook" in problems(junk)[0]


# -- property: any consistent event goes through the workbook and back -------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def events(draw):
    n = draw(st.integers(2, 9))
    t = Tournament(name="E", rounds_planned=4)
    t.entrants = [Entrant(i, f"选手{i}", sex=draw(st.sampled_from(["m", "w", ""])),
                          title=draw(st.sampled_from(["", "1d", "9d", "3k"])),
                          rating=draw(st.none() | st.integers(1000, 2800)),
                          id_number=draw(st.sampled_from(["", "110101199001011234"])))
                  for i in range(1, n + 1)]
    for _ in range(draw(st.integers(1, 4))):
        order = draw(st.permutations(range(1, n + 1)))
        for a, b in zip(order[::2], order[1::2]):
            res, col = draw(st.sampled_from(["1", "0", "=", "+", "-"])), draw(st.sampled_from("bw"))
            other = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}[res]
            t.entrants[a - 1].rounds.append(RoundCell(b, col, res))
            t.entrants[b - 1].rounds.append(RoundCell(a, "w" if col == "b" else "b", other))
        if n % 2:
            t.entrants[order[-1] - 1].rounds.append(RoundCell(None, "-", draw(st.sampled_from("UHFZ"))))
    return t


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events())
def test_property_report_round_trip(tmp_path, t):
    path = tmp_path / "p.xlsx"
    write_report(t, path, ReportMeta(remarks={1: "备注"}))
    back, meta = read_report(path)
    assert [(e.number, e.name, e.sex, e.title, e.rating, e.id_number, e.rounds) for e in back.entrants] == [
        (e.number, e.name, e.sex, e.title, e.rating, e.id_number, e.rounds) for e in t.entrants]
    assert meta.remarks == {1: "备注"}
