"""Names on the English pages (拉丁字母姓名): the registry's Latin spelling, else the pinyin of the Chinese name
written the way a passport or the FIDE list writes it — surname first, each part capitalised, the given name's
syllables joined: 龚泽远 → ``Gong Zeyuan``, 欧阳瑶欣 → ``Ouyang Yaoxin``, 吕安红 → ``Lü Anhong``.

Pure (no Django): the surname is read as a surname (单 Shan, 曾 Zeng; ``qiyuan.office.federation.pinyin``'s
readings), compound surnames (复姓) stay one word, and a given-name syllable that starts with a, o or e after another
syllable takes the apostrophe of the pinyin orthography (张嘉恩 → ``Zhang Jia'en``). A name with a character pypinyin
cannot read has no Latin form: ``latin_name`` returns ``""`` and the page shows the Chinese name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pypinyin import Style, lazy_pinyin

from qiyuan.office.federation.pinyin import SURNAME_READINGS

#: Chinese characters (汉字), the supplementary planes included (𠀾 is a name character too).
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def has_han(text: str) -> bool:
    return bool(CJK.search(text))

#: Compound surnames (复姓) written as one word (Ouyang, Sima, Zhuge …); those with a special reading are in
#: ``SURNAME_READINGS`` too.
COMPOUND_SURNAMES = frozenset(
    "欧阳 司马 诸葛 上官 东方 皇甫 令狐 慕容 司徒 夏侯 公孙 轩辕 端木 尉迟 长孙 万俟 澹台 单于 宇文 呼延 南宫 西门 "
    "独孤 闻人 公羊 申屠 太史 钟离 宗政 濮阳 淳于 仲孙 赫连 东郭 百里 鲜于 司空 左丘 拓跋 完颜".split()
)


def _syllables(text: str) -> list[str] | None:
    """Toneless pinyin syllables with ü (``lü``), or None when a character has no reading."""
    out = lazy_pinyin(text, style=Style.NORMAL, v_to_u=True, errors="default")
    return None if any(has_han(s) for s in out) else [s for s in out if s.strip()]


def _join(syllables: list[str]) -> str:
    """One capitalised word, with the apostrophe before a later syllable starting with a vowel (Xi'an)."""
    word = ""
    for s in syllables:
        word += ("'" if word and s[:1] in "aoe" else "") + s
    return word[:1].upper() + word[1:]


@lru_cache(maxsize=65536)
def latin_name(name: str, name_latin: str = "") -> str:
    """The name as the English pages write it (``""`` when it has no Latin form)."""
    if name_latin.strip():
        return name_latin.strip()
    name = name.strip()
    if not has_han(name):
        return name
    surname = next((s for s in sorted(SURNAME_READINGS, key=len, reverse=True) if name.startswith(s)), None)
    if surname is None:
        surname = name[:2] if name[:2] in COMPOUND_SURNAMES else name[:1]
    head = list(SURNAME_READINGS[surname]) if surname in SURNAME_READINGS else _syllables(surname)
    rest = _syllables(name[len(surname):])
    if head is None or rest is None:
        return ""
    return " ".join(part for part in (_join(head), _join(rest) if rest else "") if part)


def display_name(name: str, name_latin: str = "", *, english: bool) -> str:
    """The name in the page's language: the Chinese name, or on English pages its Latin form where it has one."""
    if not english:
        return name
    return latin_name(name, name_latin) or name


@lru_cache(maxsize=4096)
def place_latin(text: str) -> str:
    """A place name in pinyin, one word (北京 → ``Beijing``, 杭州 → ``Hangzhou``); ``""`` when it cannot be read."""
    text = text.strip()
    if not has_han(text):
        return text
    syllables = _syllables(text)
    return _join(syllables) if syllables else ""
