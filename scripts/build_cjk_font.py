"""Build the CJK font the printed sheets embed (src/qiyuan/data/fonts/).

reportlab embeds (and subsets) TrueType fonts only; Debian's Noto Sans CJK
(fonts-noto-cjk, SIL Open Font License 1.1) has PostScript (CFF) outlines.
This script takes its Simplified Chinese face, keeps the characters a
tournament sheet needs (ASCII and Latin-1, pinyin letters, punctuation, the
CJK symbols and full-width forms, every CJK Unified Ideograph of the basic
block U+4E00–U+9FFF, which holds all of GBK's hanzi), converts the outlines to
TrueType quadratics (fontTools' cu2qu, 1 unit of 1000 at most off) and writes
one .ttf.  Run it once when the font must change; the result is committed, so
the product does not depend on the machine's fonts.

    python scripts/build_cjk_font.py [/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, newTable

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FACE = "Noto Sans CJK SC"
OUT = Path(__file__).resolve().parents[1] / "src/qiyuan/data/fonts/NotoSansSC-qiyuan.ttf"

RANGES = [
    (0x0020, 0x007E), (0x00A0, 0x017F),  # ASCII, Latin-1, Latin Extended-A (pinyin ā é ǐ ò ū)
    (0x01CD, 0x01DC), (0x02C6, 0x02DD),  # pinyin ǎ ǐ ǒ ǔ ǖ ǘ ǚ ǜ; spacing accents
    (0x2000, 0x206F), (0x2190, 0x2199), (0x2212, 0x2212), (0x2460, 0x2473), (0x25A0, 0x25CF),
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xFF00, 0xFFEF),  # full-width forms
]


def face(path: Path):
    for font in TTCollection(str(path)).fonts:
        if font["name"].getDebugName(4) == FACE:
            return font
    raise SystemExit(f"{path}: no face named {FACE!r}")


def to_truetype(font) -> None:
    """Replace the CFF outlines by TrueType quadratic ones (glyf/loca)."""
    glyph_set = font.getGlyphSet()
    order = font.getGlyphOrder()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements", "maxPoints",
                 "maxContours", "maxCompositePoints", "maxCompositeContours", "maxComponentDepth"):
        setattr(maxp, attr, 0)
    maxp.maxZones = 1
    font["head"].glyphDataFormat = 0
    font["head"].indexToLocFormat = 1
    post = font["post"]
    post.formatType = 3.0  # no glyph names: smaller
    font.sfntVersion = "\0\1\0\0"


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    font = face(source)
    options = subset.Options()
    options.layout_features = ["kern", "vert", "vrt2"]
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[u for lo, hi in RANGES for u in range(lo, hi + 1)])
    sub.subset(font)
    to_truetype(font)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(OUT))
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e6:.1f} MB, {len(font.getGlyphOrder())} glyphs)")


if __name__ == "__main__":
    main()
