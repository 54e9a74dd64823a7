"""Issue 31 (4): every sort and spelling of a Chinese name goes through ``people.pinyin`` — the surname read as a
surname (曾 Zēng, 单 Shàn, 解 Xiè, 仇 Qiú, 区 Ōu, 查 Zhā, 朴 Piáo, the compound surnames), and only the first
character (or two, for a compound surname) so read; no other module calls pypinyin."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from qiyuan.formats import hall_pdf
from qiyuan.formats.h9 import egf_name
from qiyuan.people.pinyin import latin_name, name_pinyin, sort_key

SRC = Path(__file__).resolve().parents[2] / "src" / "qiyuan"


def test_no_module_but_people_pinyin_imports_pypinyin():
    """The one door: a second caller of pypinyin would read 曾 as céng again."""
    callers = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "pypinyin" or n.startswith("pypinyin.") for n in names):
                callers.append(path.relative_to(SRC).as_posix())
    assert sorted(set(callers)) == ["people/pinyin.py"]


@pytest.mark.parametrize("surname, reading, common_before", [
    ("曾", "zeng", "cao"), ("单", "shan", "sha"), ("解", "xie", "xia"), ("仇", "qiu", "qin"),
    ("区", "ou", "ok"), ("查", "zha", "zh"), ("朴", "piao", "pia"),
])
def test_pairing_list_files_each_surname_under_its_own_reading(surname, reading, common_before):
    """The alphabetical pairing list (hall_pdf.pinyin_key): 曾 among the z…, not among the c… (céng)."""
    name = surname + "小明"
    assert hall_pdf.pinyin_key(name) == sort_key(name)
    assert sort_key(name)[0].split()[0] == reading
    assert sort_key(name) > sort_key(common_before + " zzz")  # a Latin name sorting just before the reading


def test_alphabetical_order_uses_surname_readings():
    names = ["曾庆红", "蔡明", "单雄信", "解晓东", "谢军", "张三", "仇英", "秦朗"]
    assert sorted(names, key=hall_pdf.pinyin_key) == ["蔡明", "秦朗", "仇英", "单雄信", "谢军", "解晓东", "曾庆红",
                                                       "张三"]


def test_only_the_first_character_or_a_compound_surname_is_read_as_a_surname():
    assert name_pinyin("张曾") == "zhang ceng"  # 曾 in the given name keeps its common reading
    assert name_pinyin("单于远") == "chan yu yuan"  # compound surname 单于: chán yú
    assert name_pinyin("欧阳修") == "ou yang xiu"
    assert latin_name("曾庆红") == "Zeng Qinghong" and latin_name("单雄信") == "Shan Xiongxin"
    assert egf_name("解晓东") == "Xie Xiaodong" and egf_name("区志远") == "Ou Zhiyuan"
