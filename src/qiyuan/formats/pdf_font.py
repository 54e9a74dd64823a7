"""The CJK font every PDF of the project embeds (a subset: only the characters used).

Noto Sans CJK SC, shipped with the package (``qiyuan/data/fonts``, SIL Open
Font License, converted to TrueType outlines by ``scripts/build_cjk_font.py``
because reportlab embeds TrueType only), so a PDF reads the same on any
machine — no viewer font such as STSong-Light is relied on.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT = "QiyuanSansCJK"


@lru_cache(maxsize=1)
def font_name() -> str:
    """Register the shipped CJK font with reportlab (once) and return its name."""
    path = resources.files("qiyuan") / "data" / "fonts" / "NotoSansSC-qiyuan.ttf"
    with resources.as_file(path) as p:
        pdfmetrics.registerFont(TTFont(FONT, str(p)))
    return FONT
