"""Registration lists (注册名单): every row checked, every problem at once with line and column, nothing stored."""

from __future__ import annotations

from datetime import date

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.formats.errors import InputError
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.federation.models import Club, Player
from qiyuan.formats.registration_csv import parse_date, parse_registration_csv, read_registration_csv
from qiyuan.office.registry import register_many

TODAY = date(2026, 11, 30)
GB_EXAMPLE = "11010519491231002X"  # female, born 1949-12-31


def parse(text: str):
    return parse_registration_csv(text, "reg.csv", today=TODAY)


def where(problem) -> str:
    """A problem as ``file:line [column]: message`` (independent of how Problem prints itself)."""
    column = f" [{problem.column}]" if problem.column else ""
    return f"{problem.file}:{problem.line}{column}: {problem.text()}"


def problems_of(text: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        parse(text)
    return [where(p) for p in caught.value.problems]


def test_chinese_headers_and_spellings():
    rows = parse("姓名,性别,出生日期,证件类型,身份证号,所属棋协,段位\n"
                 "张三,女,1949年12月31日,身份证,11010519491231002x,BJ,2段\n"
                 "Alice Smith,F,2001/2/3,护照,E1234567,SH,3级\n")
    a, b = rows
    assert (a.line, a.name, a.gender, a.birth_date, a.id_number, a.association, a.dan) == (
        2, "张三", "F", date(1949, 12, 31), GB_EXAMPLE, "BJ", "2d")
    assert (b.id_type, b.birth_date, b.dan, b.nationality) == ("passport", date(2001, 2, 3), "3k", "CHN")


def test_birth_date_and_gender_come_from_the_id_when_missing():
    (row,) = parse(f"name,id_number\n王芳,{GB_EXAMPLE}\n")
    assert (row.gender, row.birth_date) == ("F", date(1949, 12, 31))


def test_every_problem_with_line_and_column():
    found = problems_of(
        "name,gender,birth_date,id_number,dan,nationality\n"
        f"李四,男,1950-01-01,{GB_EXAMPLE},10d,CN\n"  # gender and birth date contradict the ID; bad dan and country
        ",X,2030-01-01,,,\n"  # no name, bad gender, future birth
        f"王五,F,,{GB_EXAMPLE},,\n"  # same ID as line 2
        "赵六,,1990-02-30,,,\n"  # not a date, no gender
    )
    expected = [
        "reg.csv:2 [dan]", "reg.csv:2 [id_number]: gender digit", "reg.csv:2 [id_number]: birth date in the ID",
        "reg.csv:2 [nationality]", "reg.csv:3 [birth_date]: 2030-01-01 is in the future", "reg.csv:3 [gender]",
        "reg.csv:3 [name]: name is empty", "reg.csv:4 [id_number]: the same ID number as line 2",
        "reg.csv:5 [birth_date]: '1990-02-30' is not a calendar date", "reg.csv:5 [gender]: gender missing",
    ]
    for fragment in expected:
        assert any(p.startswith(fragment) for p in found), (fragment, found)
    assert len(found) == len(expected), found


def test_a_file_that_is_not_a_registration_list():
    found = problems_of("event,round,white,black\nX,1,a,b\n")
    assert any("the name (姓名) column is missing" in p for p in found)
    assert any("[event]: unknown column" in p for p in found)
    assert problems_of("") == ["reg.csv:1: empty file: a header row is required"]


def test_dates():
    assert parse_date("2008-07-01") == parse_date("2008/7/1") == parse_date("20080701") == date(2008, 7, 1)
    assert parse_date(" ") is None
    with pytest.raises(ValueError):
        parse_date("07/01/2008")


def test_gb18030_files_from_chinese_excel(tmp_path):
    path = tmp_path / "reg.csv"
    path.write_bytes("姓名,性别\n张三,男\n".encode("gb18030"))
    assert read_registration_csv(path, today=TODAY)[0].name == "张三"
    path.write_bytes("\ufeff姓名,性别\n李四,女\n".encode("utf-8"))
    assert read_registration_csv(path, today=TODAY)[0].name == "李四"


@pytest.mark.django_db
def test_register_many_checks_the_registry_first_and_stores_nothing_on_a_problem(make_association, make_player):
    bj = make_association("BJ")
    Club.objects.create(name="棋院俱乐部", association=bj)
    make_player("旧人", gender="F", id_number=GB_EXAMPLE, birth_date=date(1949, 12, 31))
    rows = parse("姓名,性别,身份证号,所属棋协,俱乐部\n"
                 f"张三,女,{GB_EXAMPLE},BJ,\n"
                 "李四,男,,ZZ,\n"
                 "王五,男,,BJ,无名俱乐部\n")
    with pytest.raises(InputError) as caught:
        register_many(rows, source="reg.csv", actor="t", today=TODAY)
    found = [where(p) for p in caught.value.problems]
    assert found == [
        "reg.csv:2 [id_number]: already registered to CN000001 旧人",
        "reg.csv:3 [association]: unknown association 'ZZ'",
        "reg.csv:4 [club]: unknown club '无名俱乐部' in association BJ",
    ]
    assert Player.objects.count() == 1
    ok = parse("姓名,性别,所属棋协,俱乐部\n张三,男,BJ,棋院俱乐部\n李四,女,,\n")
    players = register_many(ok, source="reg.csv", actor="t", today=TODAY)
    assert [p.federation_id for p in players] == ["CN000002", "CN000003"]
    assert players[0].club.name == "棋院俱乐部" and players[1].registered_on == TODAY
    assert AuditLog.objects.filter(action="player.import").get().detail == {"source": "reg.csv", "players": 2}


@pytest.mark.django_db
def test_player_import_command(tmp_path, make_association):
    make_association("BJ")
    good = tmp_path / "good.csv"
    good.write_text(f"姓名,身份证号,所属棋协\n张三,{GB_EXAMPLE},BJ\n李四丰,,BJ\n", encoding="utf-8")
    runner = CliRunner(env={"COLUMNS": "200"})
    bad = tmp_path / "bad.csv"
    bad.write_text("姓名,性别,所属棋协\n张三,男,XX\n李四,Q,BJ\n", encoding="utf-8")
    refused = runner.invoke(app, ["office", "player", "import", str(bad)])
    assert refused.exit_code == 2
    assert "line 3" in refused.output and "'Q' is not M/F" in refused.output and "problem(s)" in refused.output
    assert not Player.objects.exists()
    gender_missing = runner.invoke(app, ["office", "player", "import", str(good)])
    assert gender_missing.exit_code == 2 and "line 3" in gender_missing.output
    assert "gender missing" in gender_missing.output
    good.write_text(f"姓名,身份证号,所属棋协\n张三,{GB_EXAMPLE},BJ\n", encoding="utf-8")
    done = runner.invoke(app, ["office", "player", "import", str(good)])
    assert done.exit_code == 0, done.output
    assert "registered 1 players" in done.output and Player.objects.get().gender == "F"


@pytest.mark.django_db
def test_file_and_registry_problems_are_listed_in_one_pass(tmp_path, make_association, make_player):
    """A bad cell in one row does not hide an unknown association or an ID already registered elsewhere."""
    make_association("BJ")
    make_player("旧人", gender="F", id_number=GB_EXAMPLE, birth_date=date(1949, 12, 31))
    bad = tmp_path / "bad.csv"
    bad.write_text(f"姓名,性别,身份证号,所属棋协,备注\n张三,男,,XX,\n李四,Q,,BJ,\n王芳,女,{GB_EXAMPLE},BJ,\n"
                   f"赵六,男,,YY,\n", encoding="utf-8")
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["office", "player", "import", str(bad)])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    for fragment in ("5 problem(s)", "unknown column", "unknown association 'XX'", "'Q' is not M/F",
                     "already registered to CN000001 旧人", "unknown association 'YY'"):
        assert fragment in out, result.output
    assert out.index("'XX'") < out.index("'Q'") < out.index("CN000001") < out.index("'YY'")  # in line order
    assert Player.objects.count() == 1
