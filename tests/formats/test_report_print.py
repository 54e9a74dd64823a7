"""The competition report prints as the federation files it (issue 9): A4 landscape, one page
wide, title rows and the 名次/签号/姓名 columns on every page; 备注 explains every round without a
played game; games not played are marked as the rule set says (CGA +/−, Beijing–Shanghai *)."""

from __future__ import annotations

import shutil
import subprocess
from datetime import date

import pytest
from openpyxl import load_workbook

from qiyuan.formats.report_xlsx import PLUS_MINUS, STAR, ReportMeta, read_report, write_report
from qiyuan.rating.rules import BUILTIN_RULES
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant


def played_event(players: int = 12, rounds: int = 7):
    """A Swiss event played out: player 4 excused (half point) in round 2, player 5 absent in
    round 3, a forfeit in round 4, a late entry after round 1, player 6 withdrawn after round 5."""
    t = ev.new_event("2026年全国五子棋锦标赛", rounds=rounds, start=date(2026, 7, 1), city="杭州")
    for i in range(players):
        ev.add_player(t, Entrant(0, f"棋手{i + 1}", sex="mw"[i % 2], rating=2300 - 20 * i,
                                 federation="浙江五子棋协会" if i % 3 else "上海"))
    ev.excuse(t, 4, 2, "H")
    ev.excuse(t, 5, 3, "Z")
    for rnd in range(1, rounds + 1):
        if rnd == 2:
            ev.add_player(t, Entrant(0, "迟到者", sex="m", rating=1900))
        if rnd == 6:
            ev.withdraw(t, 6)
        p = ev.pair_next(t)
        items = [(a, "+-" if rnd == 4 and k == 0 else ("1-0", "0-1", "½-½")[(a + rnd) % 3])
                 for k, (a, _b) in enumerate(p.boards)]
        ev.enter_results(t, rnd, items)
    return t


@pytest.fixture(scope="module")
def event():
    return played_event()


def test_cga_11_report_sheets_print_on_a4_landscape_one_page_wide_with_titles_repeated(event, tmp_path):
    path = tmp_path / "r.xlsx"
    write_report(event, path)
    wb = load_workbook(path)
    ws = wb["成绩"]
    ps = ws.page_setup
    assert (ps.paperSize, ps.orientation, ps.fitToWidth, ps.fitToHeight) == (9, "landscape", 1, 0)
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == "$1:$2" and ws.print_title_cols == "$A:$C"
    info = wb["竞赛报告"]
    assert info.page_setup.paperSize == 9 and info.page_setup.fitToWidth == 1 and info.page_setup.fitToHeight == 0


def test_cga_11_3_every_round_without_a_played_game_is_explained_in_remarks(event, tmp_path):
    path = tmp_path / "r.xlsx"
    write_report(event, path)
    ws = load_workbook(path)["成绩"]
    heads = [c.value for c in ws[2]]
    col = {h: i for i, h in enumerate(heads)}
    rows = {r[1]: r for r in ws.iter_rows(min_row=3, values_only=True) if isinstance(r[1], int)}
    assert rows[4][col["第2轮"]] == "请假½" and "第2轮请假（计半分）" in rows[4][col["备注"]]  # not 轮空½
    assert rows[5][col["第3轮"]] == "缺席" and "第3轮缺席" in rows[5][col["备注"]]
    late = rows[13]
    assert late[col["第1轮"]] == "缺席" and late[col["备注"]].startswith("第1轮后报名（第1轮未参赛）")
    assert "第5轮后退赛" in rows[6][col["备注"]]
    forfeits = [r for r in rows.values() if any(str(x or "").endswith(("+", "−")) for x in r[8:15])]
    assert forfeits and all("弃权" in r[col["备注"]] for r in forfeits)
    for r in rows.values():  # a pairing bye is explained too
        if "轮空" in [x for x in r[8:15]]:
            assert "轮空（计胜）" in r[col["备注"]]
    back, _ = read_report(path)
    assert [e.rounds for e in back.entrants] == [e.rounds for e in event.entrants]
    assert back.entrants[12].late_after == 1 and back.entrants[5].withdrawn_after == 5


def test_bjsh_10_3_unplayed_games_marked_with_a_star_from_the_rule_set(event, tmp_path):
    assert BUILTIN_RULES["bjsh-gomoku-2007"].unplayed_mark == STAR
    assert BUILTIN_RULES["cga-gomoku-2011"].unplayed_mark == PLUS_MINUS
    path = tmp_path / "bjsh.xlsx"
    write_report(event, path, ReportMeta(unplayed_mark=BUILTIN_RULES["bjsh-gomoku-2007"].unplayed_mark))
    ws = load_workbook(path)["成绩"]
    cells = [str(c) for r in ws.iter_rows(min_row=3, max_row=15, min_col=9, max_col=15, values_only=True)
             for c in r if c]
    assert any(c.endswith("1*") for c in cells) and any(c.endswith("0*") for c in cells)
    assert "请假½*" in cells and not any(c.endswith(("+", "−")) for c in cells)
    legend = next(r[0] for r in ws.iter_rows(values_only=True) if r[0] and str(r[0]).startswith("胜 1"))
    assert "*" in legend
    back, _ = read_report(path)
    assert [e.rounds for e in back.entrants] == [e.rounds for e in event.entrants]


def test_unknown_or_blank_format_cell_is_named(event, tmp_path):
    from openpyxl import load_workbook as load

    from qiyuan.errors import InputError

    path = tmp_path / "r.xlsx"
    write_report(event, path)
    for bad in ("瑞士", "", "abc"):
        wb = load(path)
        wb["竞赛报告"]["B9"] = bad or None
        wb.save(path)
        with pytest.raises(InputError) as exc:
            read_report(path)
        assert any("Sheet 竞赛报告, cell B9: 赛制" in str(p) for p in exc.value.problems)


@pytest.mark.skipif(not (shutil.which("soffice") and shutil.which("pdfinfo") and shutil.which("pdftotext")),
                    reason="needs LibreOffice and poppler-utils (bash scripts/system-deps.sh)")
def test_report_prints_one_page_wide_with_names_on_every_page(tmp_path):
    """Rendered by LibreOffice: every page is A4 landscape or portrait, the 成绩 sheet is one page
    wide (no page of round columns without the names) and its title row is on every page."""
    t = played_event(players=40, rounds=9)
    path = tmp_path / "report.xlsx"
    write_report(t, path)
    subprocess.run(["soffice", "--headless", "-env:UserInstallation=file://" + str(tmp_path / "lo"),
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(path)], check=True, capture_output=True,
                   timeout=240)
    pdf = tmp_path / "report.pdf"
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "99", str(pdf)], capture_output=True, text=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    sizes = [line for line in info.splitlines() if line.startswith("Page ") and "size:" in line]
    assert sizes and all("595.3" in s and "841.89" in s for s in sizes), sizes  # A4 (either way round)
    assert pages <= 4, pages  # 竞赛报告 on one page, 成绩 one page wide
    texts = [subprocess.run(["pdftotext", "-layout", "-f", str(p), "-l", str(p), str(pdf), "-"], capture_output=True,
                            text=True).stdout for p in range(2, pages + 1)]
    assert all("姓名" in text and "第9轮" in text and "备注" in text for text in texts)
    assert "棋手40" in "".join(texts)
