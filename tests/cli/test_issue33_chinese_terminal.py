"""Issue 33, item 7: the last English of a Chinese terminal — a knock-out's bracket, lot, standings and pairing
notes, the Go pairing heading, a publish note, the cell of every report refusal (工作表 成绩，单元格 H4), a prize
category's standings header — each run under a Chinese locale with every line checked for English."""

from __future__ import annotations

from qiyuan.cli import lang
from qiyuan.errors import problem
from qiyuan.formats.report_xlsx import cell_place
from qiyuan.tournament.explanation import Line
from tests.cli.test_knockout_minimatch import event as knockout_event
from tests.cli.test_tournament_cli import run
from tests.web.test_cli_languages import assert_in_language
from tests.web.test_cli_languages import run as run_in


def zh(*args):
    args = [str(a) for a in args]
    result = run_in(args, lang.CHINESE)
    assert_in_language(result.output, lang.CHINESE, args)
    return result


def tied_knockout(tmp_path):
    """A knock-out of mini-matches whose match 3-6 is tied 1:1 after its two games."""
    ev = knockout_event(tmp_path)
    run("event", "pair", ev)
    run("event", "result", ev, 1, "3 1-0", "4 ½-½")
    run("event", "pair", ev)
    run("event", "result", ev, 2, "3 0-1", "4 1-0")
    return ev


def test_a_knockouts_lot_bracket_and_standings_in_chinese(tmp_path):
    ev = tied_knockout(tmp_path)
    lot = zh("event", "lot", ev, "--seed", 5)
    assert lot.exit_code == 0 and lot.stdout.strip() == "第 3 轮：加赛先行由抽签决定，种子 5"
    pair = zh("event", "pair", ev, "--explain")
    assert pair.exit_code == 0 and "加赛一局（10 min + 5 s）；加赛先行由抽签决定，种子 5" in pair.stdout
    bracket = zh("event", "bracket", ev).stdout
    assert "每场 2 局，先行交替；1:1 时加赛一局（10 min + 5 s），加赛先行抽签决定；第 3 轮：加赛先行由抽签决定，种子 5" \
        in bracket
    assert "第 1 轮" in bracket and "1 P1：轮空" in bracket and "Round" not in bracket
    standings = zh("event", "standings", ev).stdout
    assert "四分之一决赛（仍在赛）" in standings and "第1轮对6号 1:1" in standings
    assert "四分之一决赛" in standings.splitlines()[-1]  # 5 went out in the quarter-final: no "(仍在赛)"


def test_the_english_terminal_and_the_csv_keep_their_words(tmp_path):
    ev = tied_knockout(tmp_path)
    assert run("event", "lot", ev, "--seed", 5).stdout.strip() == "round 3: tie-break openers drawn by lot, seed 5"
    assert "Round 1" in run("event", "bracket", ev).stdout
    csv = run_in(["event", "standings", str(ev), "--csv"], lang.CHINESE).stdout
    assert "quarter-final (still in)" in csv and "R1 v6 1:1" in csv


def test_a_plain_knockouts_pairing_notes_in_chinese(tmp_path):
    ev = tmp_path / "ko.trf"
    run("event", "new", ev, "--name", "淘汰赛", "--format", "knockout")
    for i in range(6):
        run("event", "add-player", ev, f"P{i + 1}", "--rating", 2000 - 10 * i)
    out = zh("event", "pair", ev, "--explain").stdout
    assert "淘汰赛第 1 轮（共 3 轮），按等级分排种子；上半区位置先行" in out and "第 1 场：1 号轮空晋级" in out


def test_the_explanation_lines_of_a_knockout_keep_their_english_text():
    line = Line("knock-out round {round} of {rounds}, mini-matches", round=2, rounds=3) + Line(
        ": game 2, the lower place opens")
    assert line == "knock-out round 2 of 3, mini-matches: game 2, the lower place opens"
    lang.activate(lang.CHINESE)
    try:
        assert line.text(lang._) == "淘汰赛第 2 轮（共 3 轮），每场多局：第 2 局，下半区位置先行"
    finally:
        lang.activate(lang.ENGLISH)


def test_the_go_pairing_heading_in_chinese(tmp_path):
    ev = tmp_path / "go.trf"
    run("event", "new", ev, "--name", "围棋赛", "--format", "go_mcmahon", "--rounds", 3)
    for i, grade in enumerate(["3d", "1d", "2k", "5k"]):
        run("event", "add-player", ev, f"棋手{i + 1}", "--title", grade)
    run("event", "pair", ev)
    out = zh("event", "show", ev, 1).stdout
    assert out.startswith("第1轮") and "黑先" in out and "Round" not in out


def test_a_report_refusals_cell_in_chinese():
    p = problem("等级分 must be a whole number 1..9999, found {value!r}", file="r.xlsx", column=cell_place("成绩", 4, 8),
                value="x")
    lang.activate(lang.CHINESE)
    try:
        assert lang.problem_line(p).startswith("r.xlsx，工作表 成绩，单元格 H4：")
    finally:
        lang.activate(lang.ENGLISH)
    assert lang.problem_line(p).startswith("r.xlsx, Sheet 成绩, cell H4: ")


def test_the_publish_note_in_chinese():
    note = problem("stopped before the list of {list} {date}: that date is still in the future (publish it on or "
                   "after that day)", list="CGA", date="2027-01-01")
    lang.activate(lang.CHINESE)
    try:
        line = lang.problem_line(note)
    finally:
        lang.activate(lang.ENGLISH)
    assert line == "在 CGA 2027-01-01 这一期之前停止：该日期尚未到来（请在当天或之后公布）"


def test_a_categorys_standings_header_in_chinese(tmp_path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x", "--rounds", 3, "--start", "2026-05-01")
    for i in range(4):
        run("event", "add-player", ev, f"选手{i + 1}", "--sex", "w" if i % 2 else "m", "--birth", "2015-01-01")
    done = zh("event", "categories", ev, "women", "U12")
    assert done.stdout.strip() == "奖项组别：女子组、U12组"
    out = zh("event", "standings", ev, "--category", "women").stdout
    assert out.splitlines()[0] == "女子组"


def test_a_printouts_kind_is_named_in_chinese(tmp_path):
    """``event print``'s closing line named the printout by its code (``已写出 … (standings)``): now in words."""
    ev = knockout_event(tmp_path)
    run("event", "pair", ev)
    for what, words in (("standings", "成绩表"), ("pairings", "对阵表"), ("slips", "记分单"), ("crosstable", "交叉表")):
        out = zh("event", "print", ev, what, "-o", tmp_path / f"p{len(words)}{words}.pdf")
        assert out.exit_code == 0 and out.stdout.strip().endswith(f"（{words}）") and what not in out.stdout
