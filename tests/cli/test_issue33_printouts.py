"""Issue 33, item 6: the printouts as the hall needs them — standings and crosstable fit an 80-column terminal
(later rounds in a second block, long names wrapped, a withdrawn player's short mark explained below; ``--wide``
keeps one line per player), players of the same name told apart on every sheet, round dates on the sheets."""

from __future__ import annotations

import random
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.cli import lang
from qiyuan.formats.eventstore import TrfFileStore
from qiyuan.formats.trf import read_trf
from qiyuan.tournament import arbiter as uc
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.sheets import crosstable, pairing_sheet, shown_names, text_width, wrap
from tests.cli.test_tournament_cli import run
from tests.web.test_cli_languages import run as run_in

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
GIVEN = ["伟", "芳", "娜", "秀英", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛", "明"]


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """70 entrants (two of them 王伟, of different associations), 9 rounds played, one withdrawal after round 4."""
    path = tmp_path_factory.mktemp("hall") / "ev.trf"
    run("event", "new", path, "--name", "全国锦标赛", "--rounds", 9)
    store, rng = TrfFileStore(path), random.Random(33)
    rows = [(i + 2, Entrant(0, f"{SURNAMES[i % 20]}{GIVEN[i % 17]}{'' if i % 3 else '某'}", sex="m",
                            rating=1500 + 9 * i, federation=["北京", "上海", "天津", "广东"][i % 4]))
            for i in range(68)]
    rows += [(70, Entrant(0, "王伟", federation="北京")), (71, Entrant(0, "王伟", federation="上海"))]
    uc.add_players(store, "arbiter", rows)
    for rnd in range(1, 10):
        pairing = uc.pair(store, "arbiter")
        uc.enter_results(store, "arbiter", rnd, [(a, rng.choice(["1-0", "0-1", "½-½"])) for a, _b in pairing.boards])
        if rnd == 4:
            uc.withdraw(store, "arbiter", 7)
    return path


def widest(text: str) -> int:
    return max(text_width(line) for line in text.splitlines())


@pytest.mark.parametrize("language", [lang.ENGLISH, lang.CHINESE])
def test_standings_and_crosstable_fit_80_columns_after_a_withdrawal(hall, language):
    standings = run_in(["event", "standings", str(hall)], language).stdout
    cross = run_in(["event", "crosstable", str(hall)], language).stdout
    assert widest(standings) <= 80 and widest(cross) <= 80
    mark = {lang.ENGLISH: "(wd)", lang.CHINESE: "(退)"}[language]
    assert mark in standings and mark in cross
    assert standings.splitlines()[-1].startswith(mark)  # who withdrew, when: below the table
    assert cross.count(("R9" if language == lang.ENGLISH else "第9轮")) == 1
    wide = run_in(["event", "crosstable", str(hall), "--wide"], language).stdout
    assert len([x for x in wide.splitlines() if x.strip()]) == 70 + 1 + 1  # one line per player, the note
    if language == lang.CHINESE:  # 第9轮 heads wider columns: the later rounds follow in a second block
        assert "" in cross.splitlines() and cross.count("第1轮") == 1 and widest(wide) > 80
        assert cross.count("王伟（北京）") == 2  # each block names the players again


def test_the_same_name_is_told_apart_on_every_sheet(hall):
    t = read_trf(hall)
    names = shown_names(t)
    assert names[69] == "王伟（北京）" and names[70] == "王伟（上海）"
    standings = run("event", "standings", hall).stdout
    assert "王伟（北京）" in standings and "王伟（上海）" in standings
    assert "王伟（北京）" in crosstable(t) and "王伟（上海）" in crosstable(t)
    seats = [s.name for b in pairing_sheet(t, 9).boards for s in (b.opener, b.other)]
    assert "王伟（北京）" in seats and "王伟（上海）" in seats


def test_same_names_fall_back_to_birth_year_then_number():
    from qiyuan.tournament.model import Tournament

    t = Tournament(entrants=[Entrant(1, "李娜", federation="北京", birth="2010/01/01"),
                             Entrant(2, "李娜", federation="北京", birth="2011/05/05"), Entrant(3, "张三")])
    assert shown_names(t) == {1: "李娜（2010）", 2: "李娜（2011）", 3: "张三"}
    t.entrants[1].birth = "2010/03/03"
    assert shown_names(t)[1] == "李娜（1号）"


@given(st.text(alphabet="王伟Ab ,-李娜", min_size=1, max_size=40), st.integers(min_value=4, max_value=20))
@settings(max_examples=200, deadline=None)
def test_wrapping_keeps_every_character_and_every_piece_fits(text, width):
    pieces = wrap(text, width)
    assert all(text_width(p) <= width for p in pieces)
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")


def test_round_dates_on_the_sheets(tmp_path):
    from qiyuan.formats import hall_pdf

    path = tmp_path / "ev.trf"
    run("event", "new", path, "--name", "x", "--rounds", 3, "--start", "2026-05-01", "--end", "2026-05-03",
        "--city", "上海")
    for i in range(4):
        run("event", "add-player", path, f"P{i + 1}")
    store = TrfFileStore(path)
    uc.pair(store, "arbiter", on=date(2026, 5, 2))  # the day it is played, as the file records it (TRF 132)
    t = read_trf(path)
    assert t.round_dates == ["26/05/02"] and hall_pdf.round_date(t, 1) == date(2026, 5, 2)
    assert hall_pdf.event_line(t, 1) == "上海 · 第 1 轮 2026-05-02"
    assert hall_pdf.event_line(t) == "上海 · 2026-05-01 至 2026-05-03"
    uc.undo_round(store, "arbiter")
    uc.pair(store, "arbiter", on=date(2026, 6, 1))  # not one of the event's days: not recorded
    assert hall_pdf.round_date(read_trf(path), 1) == date(2026, 5, 2) or read_trf(path).round_dates == ["26/05/02"]
    one_day = tmp_path / "one.trf"
    run("event", "new", one_day, "--name", "x", "--start", "2026-05-01", "--end", "2026-05-01")
    assert hall_pdf.round_date(read_trf(one_day), 4) == date(2026, 5, 1)  # a one-day event: every round that day
    pdf = hall_pdf.document(t, "pairings", round_no=1)
    assert pdf.startswith(b"%PDF")


# -- the PDF sheets: a knock-out by the round reached, a team event by match then board points, a round-robin grid --


def pdf_text(data: bytes, tmp_path) -> str:
    import subprocess

    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_a_knockouts_printed_standings_are_by_the_round_reached(tmp_path):
    from qiyuan.formats import hall_pdf

    path = tmp_path / "ko.trf"
    run("event", "new", path, "--name", "淘汰赛", "--format", "knockout")
    for i in range(4):
        run("event", "add-player", path, f"选手{i + 1}", "--rating", 2000 - 10 * i)
    run("event", "pair", path)
    run("event", "result", path, 1, "1 1-0", "2 0-1")
    text = pdf_text(hall_pdf.document(read_trf(path), "standings"), tmp_path)
    assert "止步" in text and "半决赛" in text and "决赛（仍在赛）" in text and "辅分一" not in text


def test_a_team_events_printed_standings_by_match_then_board_points_with_the_team_table(tmp_path):
    from qiyuan.formats import hall_pdf

    path = team_event(tmp_path)
    t = read_trf(path)
    openers = [e.number for e in t.entrants if e.rounds[0].colour == "b"]
    run("event", "result", path, 1, *[f"{n} 1-0" for n in openers])
    text = pdf_text(hall_pdf.document(read_trf(path), "standings"), tmp_path)
    assert "团体名次：场分（胜 2、和 1、负 0），同场分比局分" in text and "团体交叉表" in text
    assert "场分" in text and "局分" in text and "北京队" in text


def test_a_round_robins_crosstable_has_its_square_grid(tmp_path):
    from qiyuan.formats import hall_pdf

    path = tmp_path / "rr.trf"
    run("event", "new", path, "--name", "循环赛", "--format", "round_robin")
    for i in range(4):
        run("event", "add-player", path, f"选手{i + 1}")
    run("event", "pair", path)
    t = read_trf(path)
    run("event", "result", path, 1, *[f"{e.number} 1-0" for e in t.entrants if e.rounds[0].colour == "b"])
    text = pdf_text(hall_pdf.document(read_trf(path), "crosstable"), tmp_path)
    assert "循环赛成绩表" in text and "×" in text


def team_event(tmp_path):
    path = tmp_path / "team.trf"
    run("event", "new", path, "--name", "团体赛", "--format", "team", "--boards", 2, "--rounds", 3)
    for team in ("北京队", "上海队", "天津队", "广东队"):
        for k in (1, 2):
            run("event", "add-player", path, f"{team[:2]}{k}", "--team", team)
    run("event", "pair", path)
    return path


def test_a_team_events_pairings_are_grouped_by_match_in_the_terminal_and_on_paper(tmp_path):
    from qiyuan.formats import hall_pdf

    path = team_event(tmp_path)
    out = run_in(["event", "show", str(path), "1"], lang.CHINESE).stdout
    headings = [line for line in out.splitlines() if " – " in line]
    assert len(headings) == 2 and all(line.endswith("队") for line in headings)
    t = read_trf(path)
    from qiyuan.tournament.sheets import team_match_rows

    matches = team_match_rows(t, pairing_sheet(t, 1))
    assert [len(m.boards) for m in matches] == [2, 2]
    for m in matches:  # the home team opens board 1, the away team board 2
        assert m.boards[0].opener.name.startswith(m.home[:2]) and m.boards[1].opener.name.startswith(m.away[:2])
    text = pdf_text(hall_pdf.document(t, "pairings", round_no=1), tmp_path)
    assert f"{matches[0].home} – {matches[0].away}" in text and f"{matches[1].home} – {matches[1].away}" in text


def test_a_team_events_terminal_standings_name_match_and_board_points_as_the_report(tmp_path):
    path = team_event(tmp_path)
    out = run_in(["event", "standings", str(path)], lang.CHINESE).stdout
    assert "场分" in out and "局分" in out and "台分" not in out


@pytest.mark.parametrize("language", [lang.ENGLISH, lang.CHINESE])
def test_a_round_robins_terminal_crosstable_opens_with_its_square_grid(tmp_path, language):
    path = tmp_path / "rr.trf"
    run("event", "new", path, "--name", "循环赛", "--format", "double_round_robin")
    for i in range(4):
        run("event", "add-player", path, f"选手{i + 1}")
    for rnd in range(1, 7):  # every game of the double round robin: each cell holds both results
        run("event", "pair", path)
        t = read_trf(path)
        run("event", "result", path, rnd, *[f"{e.number} 1-0" for e in t.entrants if e.rounds[rnd - 1].colour == "b"])
    out = run_in(["event", "crosstable", str(path)], language).stdout
    grid = out.split("\n\n")[0].splitlines()
    assert len(grid) == 1 + 4 and widest(out) <= 80
    cells = {int(line.split()[0]): line.split()[2:6] for line in grid[1:]}
    for a in range(1, 5):
        assert cells[a][a - 1] == "x"
        for b in range(1, 5):  # a's result against b mirrors b's against a
            if a != b:
                assert len(cells[a][b - 1]) == 2 and cells[b][a - 1] == cells[a][b - 1].translate(str.maketrans("10", "01"))
