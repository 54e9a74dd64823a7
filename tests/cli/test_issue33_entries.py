"""Issue 33, item 4: entries as arbiters have them — grades in words and codes alike (初段, 1d, 一级, 1k, 六段), a
document-type column (证件类型) beside 国籍, a report's own entrants fed back unchanged, ``event edit-player`` and
``event remove-player`` (before round 1; after it, withdraw)."""

from __future__ import annotations

import csv
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats.entries import read_entries
from qiyuan.formats.report_xlsx import ReportMeta, report_bytes
from qiyuan.formats.trf import read_trf
from qiyuan.people.grades import GRADE_ZH, parse_grade
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.errors import EventError, EventInputError
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.teams import teams
from qiyuan.cli import lang
from tests.cli.test_tournament_cli import run
from tests.web.test_cli_languages import assert_in_language
from tests.web.test_cli_languages import run as run_in


def zh(*args):
    """One run under a Chinese terminal; every line of it in Chinese."""
    args = [str(a) for a in args]
    result = run_in(args, lang.CHINESE)
    assert_in_language(result.output, lang.CHINESE, args)
    return result


def entry_csv(path, head, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(rows)
    return path


# -- grades in words and codes -----------------------------------------------------------------


def test_grades_in_words_and_codes_both_enter(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    grades = ["初段", "1d", "一级", "1k", "六段", "三级", "九段", "十级", "2段", "5级"]
    rows = [[f"选手{i}", "男", g] for i, g in enumerate(grades, start=1)]
    r = run("event", "add-players", ev_file, entry_csv(tmp_path / "e.csv", ["姓名", "性别", "段级位"], rows))
    assert "10 player(s) entered" in r.stdout
    assert [e.title for e in read_trf(ev_file).entrants] == ["1d", "1d", "1k", "1k", "6d", "3k", "9d", "10k",
                                                             "2d", "5k"]


def test_add_player_takes_a_grade_in_words(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    run("event", "add-player", ev_file, "王伟", "--title", "初段")
    assert read_trf(ev_file).entrants[0].title == "1d"


@given(st.sampled_from(sorted(GRADE_ZH)))
@settings(max_examples=40, deadline=None)
def test_every_grade_in_words_enters_as_its_code(code):
    """Property: the grade the report writes (its words) enters as the code it was written from."""
    e = Entrant(0, "甲", title=GRADE_ZH[code])
    assert ev.entrant_problems(e) == [] and e.title == code == parse_grade(GRADE_ZH[code])


def test_a_grade_that_is_none_is_still_refused_by_its_row(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    r = run("event", "add-players", ev_file, entry_csv(tmp_path / "e.csv", ["姓名", "段级位"], [["甲", "十段"]]),
            ok=False)
    assert r.exit_code == 2 and "line 2" in r.stderr and "十段" in r.stderr


# -- the document-type column ------------------------------------------------------------------------------


def test_a_passport_under_the_id_column_of_a_korean_is_not_checked_as_a_resident_id(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    rows = [["朴永勋", "男", "M12345678", "KOR"]]
    r = run("event", "add-players", ev_file, entry_csv(tmp_path / "e.csv", ["姓名", "性别", "身份证号", "国籍"], rows))
    assert "1 player(s) entered" in r.stdout, r.stderr
    e = read_trf(ev_file).entrants[0]
    assert (e.id_type, e.id_number, e.nationality) == ("passport", "M12345678", "KOR")


@pytest.mark.parametrize("document, kind", [("护照", "passport"), ("passport", "passport"), ("其他证件", "other"),
                                            ("其他", "other"), ("Passport", "passport")])
def test_the_document_type_column_says_what_the_number_is(tmp_path, document, kind):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    rows = [["Ann Lee", "女", document, "E1234567", "USA"]]
    run("event", "add-players", ev_file,
        entry_csv(tmp_path / "e.csv", ["姓名", "性别", "证件类型", "身份证号", "国籍"], rows))
    assert read_trf(ev_file).entrants[0].id_type == kind


def test_a_resident_id_is_still_checked_exactly(tmp_path, resident_id):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    good = resident_id(date(2000, 1, 2), "M")
    bad = good[:-1] + ("0" if good[-1] != "0" else "1")
    rows = [["甲", "男", "居民身份证", good, "CHN"], ["乙", "男", "", bad, ""]]
    r = run("event", "add-players", ev_file,
            entry_csv(tmp_path / "e.csv", ["姓名", "性别", "证件类型", "身份证号", "国籍"], rows), ok=False)
    assert r.exit_code == 2 and "line 3" in r.stderr and "line 2" not in r.stderr


def test_an_unknown_document_type_is_named_by_row_and_column(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    before = ev_file.read_bytes()
    r = run("event", "add-players", ev_file,
            entry_csv(tmp_path / "e.csv", ["姓名", "证件类型", "身份证号"], [["甲", "驾照", "A12345"]]), ok=False)
    assert r.exit_code == 2 and ev_file.read_bytes() == before
    assert "e.csv, line 2, 证件类型: 证件类型 must be 居民身份证, 护照 or 其他证件, found '驾照'" in r.stderr


def test_the_document_type_speaks_chinese(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    r = zh("event", "add-players", ev_file,
           entry_csv(tmp_path / "e.csv", ["姓名", "证件类型", "身份证号"], [["甲", "驾照", "A12345"]]))
    assert "证件类型应为居民身份证、护照或其他证件" in r.stderr and "must be" not in r.stderr


# -- a report's own entrants, fed back --------------------------------------------------------------------------


def test_a_reports_entrant_sheet_fed_back_enters_unchanged(tmp_path, resident_id):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "春季赛", "--rounds", 3)
    run("event", "add-player", ev_file, "赵六", "--sex", "m", "--title", "1d", "--rating", "1810",
        "--association", "北京", "--id-number", resident_id(date(2001, 3, 4), "M"), "--birth", "2001-03-04")
    run("event", "add-player", ev_file, "钱七", "--sex", "w", "--title", "6d", "--association", "上海")
    run("event", "add-player", ev_file, "朴永勋", "--sex", "m", "--title", "1k", "--passport", "M12345678",
        "--nationality", "KOR", "--rating", "1650")
    run("event", "add-player", ev_file, "孙八", "--sex", "m", "--title", "9k", "--rating", "1500",
        "--association", "天津")
    run("event", "pair", ev_file)
    t = read_trf(ev_file)
    boards = [(e.number, e.rounds[0].opponent) for e in t.entrants if e.rounds[0].colour == "b"]
    run("event", "result", ev_file, 1, *[f"{b} 0-1" for b, _w in boards])  # the places turn the order round
    t = read_trf(ev_file)
    xlsx = tmp_path / "report.xlsx"
    xlsx.write_bytes(report_bytes(t, ReportMeta()))
    rows, faults = read_entries(xlsx)
    assert faults == []
    again = tmp_path / "again.trf"
    run("event", "new", again, "--name", "再赛")
    r = run("event", "add-players", again, xlsx)
    assert "4 player(s) entered, numbers 1-4" in r.stdout
    fields = ("number", "name", "sex", "title", "rating", "federation", "id_number", "id_type", "birth",
              "nationality")
    assert [tuple(getattr(e, f) for f in fields) for e in read_trf(again).entrants] == [
        tuple(getattr(e, f) for f in fields) for e in t.entrants]


# -- edit-player -----------------------------------------------------------------------------------------------


def test_edit_player_corrects_what_was_entered_and_keeps_his_games(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x", "--rounds", 3)
    for name in ("王五", "李四", "张三", "赵六"):
        run("event", "add-player", ev_file, name, "--title", "2k")
    run("event", "pair", ev_file)
    rounds_before = [list(e.rounds) for e in read_trf(ev_file).entrants]
    r = run("event", "edit-player", ev_file, 1, "--name", "王伍", "--title", "初段", "--rating", "1720")
    assert "player 1 王伍: changed name, grade, rating" in r.stdout
    t = read_trf(ev_file)
    assert (t.entrants[0].name, t.entrants[0].title, t.entrants[0].rating) == ("王伍", "1d", 1720)
    assert [list(e.rounds) for e in t.entrants] == rounds_before


def test_edit_player_is_checked_like_a_new_entry_and_changes_nothing_when_refused(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    run("event", "add-player", ev_file, "王五", "--association", "北京")
    run("event", "add-player", ev_file, "李四", "--association", "北京")
    before = ev_file.read_bytes()
    bad = run("event", "edit-player", ev_file, 2, "--title", "十段", "--sex", "x", ok=False)
    assert bad.exit_code == 2 and "十段" in bad.stderr and "sex must be m or w" in bad.stderr
    twice = run("event", "edit-player", ev_file, 2, "--name", "王五", ok=False)
    assert twice.exit_code == 2 and "王五 (北京) is already entered as number 1" in twice.stderr
    none = run("event", "edit-player", ev_file, 7, "--name", "甲", ok=False)
    assert "no player 7: draw numbers run 1..2" in none.stderr
    nothing = run("event", "edit-player", ev_file, 1, ok=False)
    assert "nothing to change" in nothing.stderr
    assert ev_file.read_bytes() == before


def test_edit_player_sets_a_passport_in_place_of_a_resident_id(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x")
    run("event", "add-player", ev_file, "Kim", "--nationality", "KOR")
    run("event", "edit-player", ev_file, 1, "--passport", "M1234567")
    e = read_trf(ev_file).entrants[0]
    assert (e.id_type, e.id_number) == ("passport", "M1234567")


def test_edit_player_refuses_a_finished_event():
    t = ev.new_event("x", rounds=1)
    ev.add_player(t, Entrant(0, "甲"))
    t.extra["XQS"] = ["finished"]  # as ev.finish leaves it
    with pytest.raises(EventError) as exc:
        ev.edit_player(t, 1, {"name": "乙"})
    assert "the event is finished" in str(exc.value.problems[0].message)
    assert t.entrants[0].name == "甲"


def test_edit_player_knows_only_an_entrants_fields():
    t = ev.new_event("x")
    ev.add_player(t, Entrant(0, "甲"))
    with pytest.raises(EventError) as exc:
        ev.edit_player(t, 1, {"number": 5})
    assert exc.value.problems[0].params == {"fields": "number"}


def test_edit_player_with_bad_fields_is_an_input_error():
    t = ev.new_event("x")
    ev.add_player(t, Entrant(0, "甲"))
    with pytest.raises(EventInputError):
        ev.edit_player(t, 1, {"title": "x"})
    assert t.entrants[0].title == ""


# -- remove-player ---------------------------------------------------------------------------------------------


def test_remove_player_before_round_1_moves_the_later_players_up(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x", "--rounds", 3)
    for name in ("甲", "乙", "丙", "丁"):
        run("event", "add-player", ev_file, name)
    run("event", "draw", ev_file, "--seed", 7)
    drawn = [e.name for e in read_trf(ev_file).entrants]
    r = run("event", "remove-player", ev_file, 2)
    assert "player 2 removed; players 3-4 are now 2-3" in r.stdout
    t = read_trf(ev_file)
    assert [e.name for e in t.entrants] == [n for k, n in enumerate(drawn) if k != 1]
    assert [e.number for e in t.entrants] == [1, 2, 3]
    assert t.extra["XQD"] == ["given 1 2 3"]


def four_paired(tmp_path):
    """An event of four players with round 1 paired."""
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x", "--rounds", 3)
    for name in ("甲", "乙", "丙", "丁"):
        run("event", "add-player", ev_file, name)
    run("event", "pair", ev_file)
    return ev_file


def test_remove_player_after_round_1_is_paired_says_withdraw(tmp_path):
    ev_file = four_paired(tmp_path)
    before = ev_file.read_bytes()
    r = run("event", "remove-player", ev_file, 2, ok=False)
    assert r.exit_code == 2 and ev_file.read_bytes() == before
    assert "round 1 is paired: player 2 can no longer be removed — withdraw him instead (event withdraw)" in r.stderr


def test_remove_player_from_a_team_takes_him_off_its_boards(tmp_path):
    ev_file = tmp_path / "ev.trf"
    run("event", "new", ev_file, "--name", "x", "--format", "team", "--boards", 2)
    for name, team in (("甲", "北京队"), ("乙", "北京队"), ("丙", "上海队"), ("丁", "上海队"), ("戊", "上海队")):
        run("event", "add-player", ev_file, name, "--team", team, ok=team != "上海队" or name != "戊")
    run("event", "remove-player", ev_file, 1)
    t = read_trf(ev_file)
    assert [(tm.name, tm.members) for tm in teams(t)] == [("北京队", (1,)), ("上海队", (2, 3))]
    assert [e.name for e in t.entrants] == ["乙", "丙", "丁"]


def test_remove_and_edit_player_in_chinese(tmp_path):
    ev_file = four_paired(tmp_path)
    r = zh("event", "remove-player", ev_file, 2)
    assert r.exit_code == 2 and "第 1 轮已编排" in r.stderr and "event withdraw" in r.stderr
    e = zh("event", "edit-player", ev_file, 1, "--name", "甲一", "--title", "初段")
    assert "1 号 甲一：已更改姓名、段级位" in e.stdout
    for args in (["event", "edit-player", "--help"], ["event", "remove-player", "--help"]):
        assert zh(*args).exit_code == 0
