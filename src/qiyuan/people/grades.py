"""Dan and kyu grades (段级位), strongest first: 9d … 1d, 1k … 10k. Pure data.

The Chinese Gomoku dan/kyu system (第四条): nine dan grades, 九段 highest, then
八段 … 二段, 初段; below them ten kyu grades, 一级 highest, then 二级 … 十级.
A grade is kept as its short code (``3d``, ``2k``); ``strength`` orders them.
"""

from __future__ import annotations

DAN_GRADES: tuple[str, ...] = tuple(f"{n}d" for n in range(9, 0, -1)) + tuple(f"{n}k" for n in range(1, 11))

_ZH_NUMERALS = "一二三四五六七八九十"


def _zh_number(n: int) -> str:
    return _ZH_NUMERALS[n - 1]


#: The grade as the Chinese text writes it (第四条): 九段 … 二段, 初段; 一级 … 十级.
GRADE_ZH: dict[str, str] = {
    **{f"{n}d": ("初段" if n == 1 else f"{_zh_number(n)}段") for n in range(1, 10)},
    **{f"{n}k": f"{_zh_number(n)}级" for n in range(1, 11)},
}

#: The grade in English: ``3 dan``, ``2 kyu``.
GRADE_EN: dict[str, str] = {
    **{f"{n}d": f"{n} dan" for n in range(1, 10)},
    **{f"{n}k": f"{n} kyu" for n in range(1, 11)},
}

#: How grades are written in reports, lists and on the command line: ``2d``, ``2段``, ``二段``, ``初段``,
#: ``3k``, ``3级``, ``三级`` (also the traditional 級).
GRADE_SPELLINGS: dict[str, str] = {
    **{g: g for g in DAN_GRADES},
    **{f"{n}段": f"{n}d" for n in range(1, 10)},
    **{f"{n}级": f"{n}k" for n in range(1, 11)},
    **{f"{n}級": f"{n}k" for n in range(1, 11)},
    **{zh: g for g, zh in GRADE_ZH.items()},
    **{zh.replace("级", "級"): g for g, zh in GRADE_ZH.items() if g.endswith("k")},
    "一段": "1d",
}


def parse_grade(text: str | None) -> str | None:
    """The grade code of ``text`` in any of ``GRADE_SPELLINGS`` (case and spaces ignored), else ``None``."""
    if not text:
        return None
    return GRADE_SPELLINGS.get("".join(str(text).split()).lower())


def strength(grade: str) -> int:
    """How strong a grade is: 10k → 1 … 1k → 10, 1d → 11 … 9d → 19 (``ValueError`` if not a grade)."""
    if grade not in GRADE_ZH:
        raise ValueError(f"{grade!r} is not a grade (9d…1d, 1k…10k)")
    n = int(grade[:-1])
    return 10 + n if grade.endswith("d") else 11 - n


def is_dan(grade: str) -> bool:
    """A dan grade (段位), not a kyu grade (级位)."""
    return grade in GRADE_ZH and grade.endswith("d")


def grade_label(grade: str) -> str:
    """``3d 三段`` — the code and the Chinese name (the command line's way)."""
    return f"{grade} {GRADE_ZH.get(grade, '')}".strip()
