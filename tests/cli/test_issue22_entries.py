"""Issue 22, item 3: a whole entry list in one command (CSV or xlsx with the 成绩 sheet's
headings), every row checked and every problem named by its row at once, nothing entered
unless all are right; the printed entry list (参赛名单)."""

from __future__ import annotations

import csv
import io
import time

from openpyxl import Workbook

from qiyuan.formats.entries import read_entries
from qiyuan.formats.eventstore import TrfFileStore
from qiyuan.formats.trf import read_trf
from qiyuan.tournament import arbiter as uc
from tests.cli.test_tournament_cli import run

ASSOCIATIONS = ["北京", "上海", "天津", "广东"]


def entry_csv(path, n=64, extra=()):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["姓名", "性别", "段级位", "所属棋协", "等级分"])
        for i in range(n):
            w.writerow([f"选手{i + 1}", "男" if i % 2 else "女", f"{i % 5 + 1}段", ASSOCIATIONS[i % 4], 1500 + 7 * i])
        for row in extra:
            w.writerow(row)
    return path


def test_a_64_player_field_enters_in_one_command(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "全国锦标赛", "--rounds", 9)
    r = run("event", "add-players", ev, entry_csv(tmp_path / "entries.csv"))
    assert "64 player(s) entered, numbers 1-64" in r.stdout
    t = read_trf(ev)
    assert len(t.entrants) == 64
    e = t.entrants[1]
    assert (e.name, e.sex, e.title, e.federation, e.rating) == ("选手2", "m", "2d", "上海", 1507)


def test_the_use_case_takes_64_rows_well_under_two_seconds(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x", "--rounds", 9)
    rows, faults = read_entries(entry_csv(tmp_path / "entries.csv"))
    started = time.perf_counter()
    uc.add_players(TrfFileStore(ev), "arbiter", rows, source="entries.csv", faults=faults)
    assert time.perf_counter() - started < 2.0
    assert len(read_trf(ev).entrants) == 64


def test_every_bad_row_is_named_at_once_and_nothing_is_entered(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    run("event", "add-player", ev, "王伟", "--association", "北京")
    before = ev.read_bytes()
    bad = entry_csv(tmp_path / "bad.csv", n=3, extra=[["张三", "x", "", "", "abc"], ["", "男", "", "", ""],
                                                      ["选手1", "女", "1段", "北京", "1500"],
                                                      ["王伟", "男", "", "北京", ""], ["李四", "女", "12段", "", ""]])
    r = run("event", "add-players", ev, bad, ok=False)
    assert r.exit_code == 2 and ev.read_bytes() == before
    err = r.stderr
    assert "bad.csv, line 5, 等级分: 等级分 must be a whole number 1..9999, found 'abc'" in err
    assert "bad.csv, line 5: sex must be m or w" in err
    assert "line 6: the name is empty" in err
    assert "line 7: 选手1 is listed twice: rows 2 and 7" in err
    assert "line 8: 王伟 (北京) is already entered as number 1" in err
    assert "line 9:" in err and "12段" in err


def test_an_xlsx_report_sheet_is_read_under_its_title_row(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws.title = "成绩"
    ws.append(["2026年锦标赛 成绩表"])
    ws.append(["名次", "签号", "姓名", "性别", "身份证号", "段级位", "所属棋协", "等级分", "第1轮"])
    ws.append([1, 1, "赵六", "男", None, "3段", "北京", 1810, "2先1"])
    ws.append([2, 2, "钱七", "女", None, None, "上海", None, "1后0"])
    buf = io.BytesIO()
    wb.save(buf)
    rows, faults = read_entries(tmp_path / "r.xlsx", buf.getvalue())
    assert faults == [] and [(n, e.name, e.rating) for n, e in rows] == [(3, "赵六", 1810), (4, "钱七", None)]


def test_unreadable_files_get_a_clear_error(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    (tmp_path / "x.csv").write_bytes(b"\xff\xfe\x00garbage\x00")
    r = run("event", "add-players", ev, tmp_path / "x.csv", ok=False)
    assert r.exit_code == 2 and "x.csv" in r.stderr and "Traceback" not in r.stderr
    (tmp_path / "y.xlsx").write_bytes(b"PK\x03\x04broken")
    r = run("event", "add-players", ev, tmp_path / "y.xlsx", ok=False)
    assert r.exit_code == 2 and "not a readable xlsx workbook" in r.stderr
    (tmp_path / "z.csv").write_text("name,sex\nA,m\n", encoding="utf-8")
    assert "no heading 姓名" in run("event", "add-players", ev, tmp_path / "z.csv", ok=False).stderr
    assert "give one source" in run("event", "add-players", ev, ok=False).stderr


def test_the_printed_entry_list(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    run("event", "add-players", ev, entry_csv(tmp_path / "e.csv", n=6))
    run("event", "draw", ev, "--seed", 7)
    run("event", "print", ev, "entries", "-o", tmp_path / "e.pdf")
    data = (tmp_path / "e.pdf").read_bytes()
    assert data.startswith(b"%PDF") and b"/Title" in data
