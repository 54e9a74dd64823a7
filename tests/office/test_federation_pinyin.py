"""Pinyin keys of names (pure: no database): surnames read as surnames, ü as v, initials, Latin spellings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qiyuan.people.pinyin import SURNAME_READINGS, has_han, latin_key, name_initials, name_pinyin, search_key


@pytest.mark.parametrize(
    "name, expected",
    [
        ("张三", "zhang san"),
        ("单雄信", "shan xiong xin"),  # 单 as a surname: shàn, not dān
        ("曾庆红", "zeng qing hong"),  # 曾: zēng, not céng
        ("解晓东", "xie xiao dong"),  # 解: xiè, not jiě
        ("区志远", "ou zhi yuan"),  # 区: ōu, not qū
        ("朴永勋", "piao yong xun"),  # 朴: piáo, not pǔ
        ("尉迟恭", "yu chi gong"),  # two-character surname
        ("欧阳修", "ou yang xiu"),
        ("吕小军", "lv xiao jun"),  # ü typed v
    ],
)
def test_surnames_are_read_as_surnames(name, expected):
    assert name_pinyin(name) == expected


def test_initials():
    assert name_initials("张三丰") == "zsf"
    assert name_initials("尉迟恭") == "ycg"


def test_foreign_names_are_their_lower_case_words():
    assert name_pinyin("José  Müller") == "jose mvller"  # ü is v, as in pinyin input
    assert name_pinyin("Alice Wang") == "alice wang"
    assert latin_key("Lü Xiao-Jun") == "lvxiaojun"
    assert latin_key("Éric") == "eric"


def test_search_key_holds_every_spelling_separated():
    assert search_key("张三", "Zhang San") == "|zhangsan|zs|"  # each spelling once
    assert search_key("李四") == "|lisi|ls|"
    assert search_key("吕小军", "Lü Xiaojun") == "|lvxiaojun|lxj|luxiaojun|"  # lu, as many type it
    assert search_key("吕小军") == "|lvxiaojun|lxj|luxiaojun|"
    assert search_key("Anna Müller") == "|annamvller|am|annamuller|"


def test_has_han():
    assert has_han("张三") and has_han("Alice 王") and not has_han("Alice")


HAN = st.text(alphabet="王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁", min_size=2, max_size=4)


@given(HAN)
def test_every_character_gives_one_syllable_and_one_initial(name):
    syllables = name_pinyin(name).split()
    assert len(syllables) == len(name)
    assert name_initials(name) == "".join(s[0] for s in syllables)
    key = search_key(name)
    assert f"|{''.join(syllables)}|" in key and f"|{name_initials(name)}|" in key


@given(st.sampled_from(["", *SURNAME_READINGS]),
       st.text(alphabet="张三单于曾解长孙安红龚泽远乐行 ", max_size=4))
def test_a_surname_is_found_compound_first_and_a_given_name_read_as_pypinyin_reads_it(surname, rest):
    """Issue 34 (7): the import reads each given name's pinyin once (cached) and finds the surname by looking its
    first two characters up, then its first — the same syllables as matching every surname longest first and
    asking pypinyin afresh."""
    from pypinyin import Style, lazy_pinyin

    from qiyuan.people.pinyin import SURNAMES_LONGEST_FIRST, name_syllables

    name = (surname + rest).strip()
    head, tail = [], name
    for s in SURNAMES_LONGEST_FIRST:
        if name.startswith(s):
            head, tail = list(SURNAME_READINGS[s]), name[len(s):]
            break
    expected = head + [s for s in (latin_key(p) for p in lazy_pinyin(tail, style=Style.NORMAL, errors="default")) if s]
    assert name_syllables(name) == expected
    assert name_syllables(name) == expected  # (the second time from the cache)
