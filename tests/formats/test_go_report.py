"""Issue 21: a Go event's competition report (竞赛报告) writes its round cells in Go's words — ``12黑1``,
``7白0`` — with the legend saying so, and they read back to the same colours."""

from __future__ import annotations

from openpyxl import load_workbook

from qiyuan.formats.report_xlsx import ReportMeta, read_report, report_bytes
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant


def _go_event():
    t = ev.new_event("2026 北京围棋公开赛", fmt="go_mcmahon", rounds=3)
    for i, grade in enumerate(["5d", "3d", "1d", "2k", "4k", "6k"]):
        ev.add_player(t, Entrant(0, f"棋手{i + 1}", title=grade))
    for rnd in (1, 2):
        ev.pair_next(t)
        ev.enter_results(t, rnd, [(e.number, "1-0") for e in t.entrants
                                  if e.rounds[rnd - 1].opponent and e.rounds[rnd - 1].colour == "b"])
    return t


def test_a_go_report_says_black_and_white_and_reads_back(tmp_path):
    t = _go_event()
    path = tmp_path / "report.xlsx"
    path.write_bytes(report_bytes(t, ReportMeta(format="go_mcmahon")))
    ws = load_workbook(path)["成绩表"] if "成绩表" in load_workbook(path).sheetnames else load_workbook(path).worksheets[1]
    cells = [c.value for row in ws.iter_rows(min_row=3) for c in row if isinstance(c.value, str)]
    assert any("黑" in c for c in cells) and any("白" in c for c in cells)
    assert not any(c and c[0].isdigit() and ("先" in c or "后" in c) for c in cells)
    assert any("黑 = 执黑" in c for c in cells)
    back, _meta = read_report(path)
    colours = {(e.number, r): c.colour for e in back.entrants for r, c in enumerate(e.rounds, 1) if c.opponent}
    assert colours == {(e.number, r): c.colour for e in t.entrants for r, c in enumerate(e.rounds, 1) if c.opponent}
