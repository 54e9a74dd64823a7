"""Pinyin keys of personal names (姓名拼音), for search and sorting.

Pure: no Django. A name written in Chinese characters gets its toneless pinyin
(``"zhang san"``) and its initials (``"zs"``); the first character is read as
a surname (姓氏读音), so 单 is *shan*, 曾 *zeng*, 解 *xie* — the readings
pypinyin's dictionary gives to the common word would be wrong for a person.
ü is written ``v`` as in the input methods (吕 → ``lv``).

``latin_name`` writes a name the way the English pages, the public downloads
and the API do — surname first, each part capitalised, the given name's
syllables joined, ü kept: 龚泽远 → ``Gong Zeyuan``, 吕安红 → ``Lü Anhong``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

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

#: Chinese characters (汉字), the supplementary planes included (𠀾 is a name character too).
HAN = _HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
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


#: the surnames with a reading of their own, longest first (a compound surname before its first character)
SURNAMES_LONGEST_FIRST = tuple(sorted(SURNAME_READINGS, key=len, reverse=True))


@lru_cache(maxsize=65536)  # given names repeat far more than whole names: each is read once an import
def _readings(text: str, umlaut: bool) -> tuple[str, ...]:
    """pypinyin's toneless readings of ``text``, one a character (ü as ``ü`` or ``v``); a character without
    a reading is left as it is. The one call of pypinyin in qiyuan (a test holds every other module to it):
    every other use of a name's pinyin goes through ``name_syllables`` / ``latin_name`` above it, which read
    the surname as a surname."""
    from pypinyin import Style, lazy_pinyin  # loaded on first use: its dictionaries take a while

    return tuple(lazy_pinyin(text, style=Style.NORMAL, v_to_u=umlaut, errors="default"))


def name_syllables(name: str) -> list[str]:
    """The toneless pinyin syllables of a Chinese name, surname read as a surname (the first character, or
    the first two of a compound surname, only)."""
    name = name.strip()
    head: list[str] = []
    for surname in (name[:2], name[:1]):  # (a compound surname before its first character: longest first)
        if surname in SURNAME_READINGS:
            head = list(SURNAME_READINGS[surname])
            name = name[len(surname) :]
            break
    rest = _readings(name, umlaut=False)
    syllables = head + [s for s in (latin_key(part) for part in rest) if s]
    return syllables


@lru_cache(maxsize=65536)  # an import asks for each name's pinyin three times (its keys and its initials)
def name_pinyin(name: str) -> str:
    """The name's pinyin as space-separated lower-case syllables (``"zhang san"``).

    A name without Chinese characters (a foreign player's) is returned as its
    lower-case words.
    """
    if not has_han(name):
        return " ".join(w for w in (latin_key(part) for part in name.split()) if w)
    return " ".join(name_syllables(name))


def sort_key(name: str) -> tuple[str, str]:
    """Sort key of a personal name in pinyin order (拼音顺序): its toneless pinyin with the surname read as a
    surname (曾 zeng, 单 shan, 解 xie …), then the characters. Pairing lists, slips and every list sorted by
    name use it."""
    return name_pinyin(name), name


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


# --- Latin names (拉丁字母姓名) ----------------------------------------------------------

#: Compound surnames (复姓) written as one word (Ouyang, Sima, Zhuge …); those with a special reading are in
#: ``SURNAME_READINGS`` too.
COMPOUND_SURNAMES = frozenset(
    "欧阳 司马 诸葛 上官 东方 皇甫 令狐 慕容 司徒 夏侯 公孙 轩辕 端木 尉迟 长孙 万俟 澹台 单于 宇文 呼延 南宫 西门 "
    "独孤 闻人 公羊 申屠 太史 钟离 宗政 濮阳 淳于 仲孙 赫连 东郭 百里 鲜于 司空 左丘 拓跋 完颜".split()
)


def _display_syllables(text: str) -> list[str] | None:
    """Toneless pinyin syllables with ü (``lü``), or None when a character has no reading."""
    out = _readings(text, umlaut=True)
    return None if any(has_han(s) for s in out) else [s for s in out if s.strip()]


def _word(syllables: list[str]) -> str:
    """One capitalised word, with the apostrophe before a later syllable starting with a, o or e (Xi'an)."""
    word = ""
    for s in syllables:
        word += ("'" if word and s[:1] in "aoe" else "") + s
    return word[:1].upper() + word[1:]


def chinese_surname(name: str) -> str:
    """The surname of a name written in Chinese characters: a compound surname (欧阳, 单于 …) or the first
    character; ``""`` for a name without Chinese characters."""
    name = name.strip()
    if not has_han(name[:1]):
        return ""
    return next((s for s in SURNAMES_LONGEST_FIRST if len(s) == 2 and name.startswith(s)),
                name[:2] if name[:2] in COMPOUND_SURNAMES else name[:1])


def surname_given(name: str) -> tuple[str, str]:
    """A name split into surname and given name: ``高传德`` → (``高``, ``传德``), ``欧阳修`` → (``欧阳``, ``修``);
    a name in Latin letters at its first space (``Nemo André`` → (``Nemo``, ``André``))."""
    name = name.strip()
    surname = chinese_surname(name)
    if surname:
        return surname, name[len(surname):].strip()
    first, _, rest = name.partition(" ")
    return first, rest.strip()


def joined_name(surname: str, given: str) -> str:
    """Surname and given name as one name: written together when both are in Chinese characters (高传德,
    found by a search for 高传德), else with a space (``Nemo André``)."""
    surname, given = surname.strip(), given.strip()
    if has_han(surname) and has_han(given):
        return surname + given
    return f"{surname} {given}".strip()


@lru_cache(maxsize=65536)
def latin_name(name: str, name_latin: str = "") -> str:
    """The name in Latin letters: the registry's Latin spelling, else the pinyin of the Chinese name, surname
    first (read as a surname; a compound surname one word), each part capitalised — ``Gong Zeyuan``,
    ``Ouyang Yaoxin``, ``Zhang Jia'en``. ``""`` when a character has no reading (no Latin form)."""
    if name_latin.strip():
        return name_latin.strip()
    name = name.strip()
    if not has_han(name):
        return name
    surname = next((s for s in SURNAMES_LONGEST_FIRST if name.startswith(s)), None)
    if surname is None:
        surname = name[:2] if name[:2] in COMPOUND_SURNAMES else name[:1]
    head = list(SURNAME_READINGS[surname]) if surname in SURNAME_READINGS else _display_syllables(surname)
    rest = _display_syllables(name[len(surname):])
    if head is None or rest is None:
        return ""
    return " ".join(part for part in (_word(head), _word(rest) if rest else "") if part)


@lru_cache(maxsize=4096)
def place_latin(text: str) -> str:
    """A place name in pinyin, one word (北京 → ``Beijing``, 杭州 → ``Hangzhou``); ``""`` when it cannot be read."""
    text = text.strip()
    if not has_han(text):
        return text
    syllables = _display_syllables(text)
    return _word(syllables) if syllables else ""


@lru_cache(maxsize=4096)
def title_latin(text: str) -> str:
    """A title (an event's name) in pinyin, one capitalised word a syllable, other words kept as written:
    ``2027年围棋公开赛`` → ``2027 Nian Wei Qi Gong Kai Sai`` (never ``2027nianweiqigongkaisai``); ``""`` when a
    character has no reading."""
    words: list[str] = []
    for part in _readings(text.strip(), umlaut=True):
        if has_han(part):
            return ""
        words += [w[:1].upper() + w[1:] if has_han(text) else w for w in part.split()]
    return " ".join(words)
