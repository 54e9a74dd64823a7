"""The grant policy file (段级位授予办法, ``qiyuan.grading.policy``): read, checked — every problem at once, each
with its line and key — and what it says: the cap by date (第五条), the classes and tables, the conditions of a
grading event (BJSH §9), the recognised bodies (BJSH §13(二)). Pure: no database."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from qiyuan.grading.policy import (
    TEXTS_POLICY,
    PolicyError,
    example_text,
    policy_from_toml,
    table_grade,
)
from qiyuan.grading.toml_lines import key_lines, path_text
from qiyuan.people.grades import DAN_GRADES, GRADE_EN, GRADE_ZH, grade_label, is_dan, parse_grade, strength

MINIMAL = '''
name = "mini"
federation = "测试棋协"
[[cap]]
since = "2000-01-01"
grade = "6d"
[[class]]
name = "national"
[class.open]
"1" = "3d"
"2-3" = "2d"
'''


def problems_of(text: str) -> list[str]:
    with pytest.raises(PolicyError) as caught:
        policy_from_toml(text, file="p.toml")
    return [str(p) for p in caught.value.problems]


# -- 第四条: the grades ------------------------------------------------------------------------------


def test_article_4_nine_dan_and_ten_kyu_strongest_first():
    assert DAN_GRADES[0] == "9d" and DAN_GRADES[8] == "1d" and DAN_GRADES[9] == "1k" and DAN_GRADES[-1] == "10k"
    assert [strength(g) for g in DAN_GRADES] == list(range(19, 0, -1))
    assert GRADE_ZH["1d"] == "初段" and GRADE_ZH["9d"] == "九段" and GRADE_ZH["1k"] == "一级" and GRADE_ZH["10k"] == "十级"
    assert GRADE_EN["3d"] == "3 dan" and GRADE_EN["2k"] == "2 kyu"
    assert grade_label("3d") == "3d 三段"
    assert is_dan("1d") and not is_dan("1k")


@pytest.mark.parametrize("text, code", [("3d", "3d"), ("3D", "3d"), ("3段", "3d"), ("三段", "3d"), ("初段", "1d"),
                                        ("一段", "1d"), ("2k", "2k"), ("2级", "2k"), ("二级", "2k"), ("十级", "10k"),
                                        ("二級", "2k"), (" 4 d ", "4d")])
def test_article_4_grades_are_read_in_every_spelling(text, code):
    assert parse_grade(text) == code


@pytest.mark.parametrize("text", ["", "10d", "0d", "11k", "段", "abc", None])
def test_article_4_anything_else_is_not_a_grade(text):
    assert parse_grade(text) is None


def test_strength_refuses_a_non_grade():
    with pytest.raises(ValueError):
        strength("10d")


# -- the example and the minimal policy --------------------------------------------------------------


def test_the_shipped_example_reads_and_says_what_its_comments_say():
    p = policy_from_toml(example_text(), file="example.toml")
    assert p.name == "example" and p.federation == "演示五子棋协会" and p.serial_prefix == "DEMO-"
    assert "示例" in p.title and "example" in p.title_en.lower()
    assert p.cap_on(date(2024, 1, 1)) == "6d"
    assert [c.name for c in p.classes] == ["national", "national-women", "regional"]
    national = p.event_class("national")
    assert table_grade(national.open, 1).grade == "6d" and table_grade(national.open, 24).grade == "1d"
    assert table_grade(national.open, 25) is None and table_grade(national.women, 2).grade == "2d"
    assert p.conditions.min_players == 12 and p.conditions.max_unrated_share == Fraction(1, 5)
    assert {b.name: b.capped for b in p.bodies} == {"中国棋院": True, "RIF": False, "日本连珠社": False}
    assert p.member_associations and p.only_raise and p.above_cap == "grant_cap"


def test_a_minimal_policy_takes_the_texts_defaults():
    p = policy_from_toml(MINIMAL)
    assert p.only_raise and p.above_cap == "grant_cap" and not p.bodies and not p.member_associations
    assert p.conditions.min_players == 12 and p.conditions.national_arbiter_in_charge
    assert p.conditions.standard_before_start and p.conditions.max_unrated_share == Fraction(1, 5)
    assert p.body("测试棋协").capped and p.body("RIF") is None  # the federation is a body of its own, capped


def test_article_5_the_cap_is_dated_and_rises_step_by_step():
    p = policy_from_toml(MINIMAL.replace('grade = "6d"\n', 'grade = "6d"\n[[cap]]\nsince = 2030-01-01\ngrade = "七段"\n'))
    assert p.cap_on(date(1999, 12, 31)) is None  # before the first step nothing can be granted
    assert p.cap_on(date(2000, 1, 1)) == "6d" and p.cap_on(date(2029, 12, 31)) == "6d"
    assert p.cap_on(date(2030, 1, 1)) == "7d"  # a TOML date or a text, 七段 or 7d


def test_article_5_a_cap_that_falls_or_is_a_kyu_grade_is_refused():
    text = MINIMAL.replace('grade = "6d"\n', 'grade = "6d"\n[[cap]]\nsince = "2010-01-01"\ngrade = "5d"\n'
                           '[[cap]]\nsince = "2012-01-01"\ngrade = "1k"\n[[cap]]\nsince = "2010-01-01"\ngrade = "7d"\n')
    found = problems_of(text)
    assert any("falls from 6d to 5d" in p and "Art. 5 only raises it" in p for p in found), found
    assert any("cap[3].grade" in p and "the cap is a dan grade" in p for p in found), found
    assert any("two cap steps take effect on 2010-01-01" in p for p in found), found


def test_texts_policy_is_the_frame_of_the_texts_alone():
    p = TEXTS_POLICY
    assert p.cap_on(date(2007, 12, 1)) == "6d" and not p.classes and not p.federation
    assert p.body("中国棋院").capped and not p.body("RIF").capped and not p.body("日本连珠社").capped
    assert p.member_associations and p.body("") is None


# -- every problem at once, with its line ----------------------------------------------------------------


def test_every_problem_is_listed_at_once_with_file_line_and_key():
    text = '''name = "Bad Name"
federation = ""
serial_prefix = "x y"
above_cap = "maybe"
colour = "red"
nationalities = ["CN"]
[[cap]]
since = "2000-02-30"
grade = "12d"
[conditions]
min_players = 1.5
max_unrated_share = 0.2
national_arbiter_in_charge = "yes"
[[body]]
name = "RIF"
capped = 1
[[body]]
name = "RIF"
[[class]]
name = "national"
organiser_levels = ["state", "county"]
lists = "CGA"
[class.open]
"1" = "5d"
"0" = "4d"
"2-3" = "6d"
"3-5" = "1d"
"x" = "1d"
"6" = "tenth"
[[class]]
name = "national"
[[class]]
name = "empty"
[class.open]
'''
    found = problems_of(text)
    expected = [
        "p.toml, line 1, name: name 'Bad Name'",
        "p.toml, line 2, federation: federation is missing or empty",
        "p.toml, line 3, serial_prefix:",
        "p.toml, line 4, above_cap: above_cap 'maybe'",
        "p.toml, line 5, colour: unknown setting 'colour'",
        "p.toml, line 6, nationalities: nationality 'CN'",
        "p.toml, line 8, cap[1].since: since '2000-02-30' is not a date",
        "p.toml, line 9, cap[1].grade: '12d' is not a grade",
        "p.toml, line 11, conditions.min_players: expected a whole number",
        "p.toml, line 12, conditions.max_unrated_share: expected a share 0–1 written as a text",
        "p.toml, line 13, conditions.national_arbiter_in_charge: expected true or false",
        "p.toml, line 16, body[1].capped: expected true or false",
        "p.toml, line 18, body[2].name: body 'RIF' is listed twice",
        "p.toml, line 21, class[1].organiser_levels: organiser level 'county'",
        "p.toml, line 22, class[1].lists: expected a list of texts",
        "p.toml, line 25, class[1].open.\"0\": '0' is not a placing",
        "p.toml, line 26, class[1].open.\"2-3\": placings 2-3 earn 6d, more than the better placings 1 (5d)",
        "p.toml, line 27, class[1].open.\"3-5\": placings 3-5 overlap placings 2-3",
        "p.toml, line 28, class[1].open.x: 'x' is not a placing",
        "p.toml, line 29, class[1].open.\"6\": 'tenth' is not a grade",
        "p.toml, line 30, class[2]: class 'national' has no standard",
        "p.toml, line 31, class[2].name: two classes are called 'national'",
        "p.toml, line 32, class[3]: class 'empty' has no standard",
    ]
    for fragment in expected:
        assert any(p.startswith(fragment) for p in found), (fragment, found)
    assert len(found) == len(expected), found
    assert found == sorted(found, key=lambda p: int(p.split(", line ")[1].split(",")[0]))  # in the file's order


def test_floats_are_refused_as_inexact():
    found = problems_of(MINIMAL + '[conditions]\nmax_unrated_share = 0.2\n')
    assert any('written as a text ("0.20" or "20%")' in p for p in found), found
    ok = policy_from_toml(MINIMAL + '[conditions]\nmax_unrated_share = "25%"\n')
    assert ok.conditions.max_unrated_share == Fraction(1, 4)


def test_a_missing_cap_and_missing_names_are_problems():
    found = problems_of('[[class]]\nname = "a"\n[class.open]\n"1" = "1d"\n')
    assert any("name: name is missing or empty" in p for p in found)
    assert any("federation is missing" in p for p in found)
    assert any("the cap is missing: add [[cap]]" in p for p in found)


def test_bad_toml_is_one_problem_with_its_line():
    found = problems_of('name = "x"\nfederation = \n')
    assert found == ["p.toml, line 2, column 14: not valid TOML: Invalid value"]


@pytest.mark.parametrize("text", ["", "\x00", "[[cap]]\n[[cap]]\ngrade=[1,2]", "class = 3\nbody = 'x'\ncap = {}",
                                  "[conditions]\nmin_players = -1", "[[class]]\n[class.open]\n\"1\" = 3"])
def test_mangled_policies_are_refused_cleanly(text):
    assert problems_of(text)  # PolicyError, never another exception


def test_key_lines_follow_tables_arrays_and_quoted_keys():
    text = 'a = 1\n[[x]]\nb = 2\n[[x]]\n"c d" = 3\n[x.y]\n\'e\' = """\nz = 9\n"""\nf = 1\n'
    lines = key_lines(text)
    assert lines[("a",)] == 1 and lines[("x", 0)] == 2 and lines[("x", 0, "b")] == 3
    assert lines[("x", 1, "c d")] == 5 and lines[("x", 1, "y")] == 6 and lines[("x", 1, "y", "e")] == 7
    assert ("x", 1, "y", "z") not in lines  # inside a multi-line string
    assert lines[("x", 1, "y", "f")] == 10
    assert path_text(("class", 0, "open", "4-8")) == 'class[1].open."4-8"'


# -- bad input never crashes -----------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

EXAMPLE = example_text()


@st.composite
def mangled(draw):
    """The example policy with a few random edits: characters deleted, inserted or replaced, lines swapped."""
    text = EXAMPLE
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap", "duplicate"]))
        i = draw(st.integers(0, max(0, len(text) - 1)))
        if kind == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:i] + draw(st.text(st.sampled_from('[]="\'.,-#\n0123456789dk段级 \x00\r\tabc{}'),
                                           min_size=1, max_size=8)) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(st.characters()) + text[i + 1:]
        else:
            lines = text.split("\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if kind == "swap":
                lines[a], lines[b] = lines[b], lines[a]
            else:
                lines.insert(b, lines[a])
            text = "\n".join(lines)
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled())
def test_property_a_mangled_policy_is_read_or_refused_cleanly(text):
    try:
        policy = policy_from_toml(text, file="m.toml")
    except PolicyError as exc:
        assert exc.problems and all(p.file == "m.toml" and p.message for p in exc.problems)
        for p in exc.problems:
            str(p)  # every problem prints
    else:
        assert policy.caps and all(isinstance(c.since, date) for c in policy.caps)
