"""Pinyin keys of personal names (姓名拼音), for search and sorting.

Pure: no Django. A name written in Chinese characters gets its toneless pinyin
(``"zhang san"``) and its initials (``"zs"``); the first character is read as
a surname (姓氏读音), so 单 is *shan*, 曾 *zeng*, 解 *xie* — the readings
pypinyin's dictionary gives to the common word would be wrong for a person.
ü is written ``v`` as in the input methods (吕 → ``lv``).
"""

from __future__ import annotations

import re
import unicodedata

#: Surnames whose reading differs from the character's most common reading
#: (多音字姓氏). Two-character surnames first: they are matched before one.
SURNAME_READINGS: dict[str, tuple[str, ...]] = {
    "万俟": ("mo", "qi"),
    "尉迟": ("yu", "chi"),
    "长孙": ("zhang", "sun"),
    "澹台": ("tan", "tai"),
    "单于": ("chan", "yu"),
    "单": ("shan",),
    "曾": ("zeng",),
    "区": ("ou",),
    "解": ("xie",),
    "朴": ("piao",),
    "仇": ("qiu",),
    "查": ("zha",),
    "盖": ("ge",),
    "乐": ("yue",),
    "缪": ("miao",),
    "翟": ("zhai",),
    "覃": ("qin",),
    "召": ("shao",),
    "秘": ("bi",),
    "种": ("chong",),
    "尉": ("yu",),
    "繁": ("po",),
    "员": ("yun",),
    "折": ("she",),
    "甄": ("zhen",),
    "句": ("gou",),
    "过": ("guo",),
    "宓": ("fu",),
    "隗": ("wei",),
    "沈": ("shen",),
    "柏": ("bai",),
    "薄": ("bo",),
    "叶": ("ye",),
    "贾": ("jia",),
    "蕃": ("pi",),
    "阚": ("kan",),
}

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


def has_han(text: str) -> bool:
    """Whether ``text`` contains a Chinese character (汉字)."""
    return bool(_HAN.search(text))


def latin_key(text: str, umlaut: str = "v") -> str:
    """Lower-case ASCII letters and digits only: ``"Lü Xiao-Jun"`` → ``"lvxiaojun"``.

    Accents are dropped (é → e); ü becomes ``v``, the pinyin input convention
    (``umlaut="u"`` gives the plain-letter spelling instead: Müller → muller).
    """
    text = text.lower().replace("ü", umlaut).replace("u:", umlaut)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _NOT_ALNUM.sub("", text)


def name_syllables(name: str) -> list[str]:
    """The toneless pinyin syllables of a Chinese name, surname read as a surname."""
    from pypinyin import Style, lazy_pinyin

    name = name.strip()
    head: list[str] = []
    for surname in sorted(SURNAME_READINGS, key=len, reverse=True):
        if name.startswith(surname):
            head = list(SURNAME_READINGS[surname])
            name = name[len(surname) :]
            break
    rest = lazy_pinyin(name, style=Style.NORMAL, v_to_u=False, errors="default")
    syllables = head + [s for s in (latin_key(part) for part in rest) if s]
    return syllables


def name_pinyin(name: str) -> str:
    """The name's pinyin as space-separated lower-case syllables (``"zhang san"``).

    A name without Chinese characters (a foreign player's) is returned as its
    lower-case words.
    """
    if not has_han(name):
        return " ".join(w for w in (latin_key(part) for part in name.split()) if w)
    return " ".join(name_syllables(name))


def name_initials(name: str) -> str:
    """The initials of the name's pinyin syllables (``"zs"`` for 张三)."""
    return "".join(s[0] for s in name_pinyin(name).split() if s)


def search_key(name: str, name_latin: str = "") -> str:
    """One lower-case string holding every searchable spelling of a name.

    Compact pinyin, initials and the Latin spelling, separated by ``|`` so a
    query cannot match across two spellings.
    """
    compact = latin_key(name_pinyin(name))
    parts = [compact, name_initials(name)]
    if has_han(name) and "v" in compact:
        parts.append(compact.replace("v", "u"))  # 吕 found as lu too (only ü syllables hold a v)
    for spelling in (name, name_latin):
        if spelling and not has_han(spelling) and "ü" in spelling.lower():
            parts.append(latin_key(spelling, umlaut="u"))  # Müller is found as muller too
    if name_latin:
        parts.append(latin_key(name_latin))
    return "|" + "|".join(dict.fromkeys(p for p in parts if p)) + "|"
