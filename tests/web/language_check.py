"""What a page may show in each language (used by the language tests and the screenshots' checks).

The visible text of a page's ``<body>`` is read element by element, with the language each element declares:

* on a Chinese page no stored code (``swiss``, ``round_robin``, ``per_game``, ``active``, ``True`` …), no
  snake_case word, and no English word outside the known symbols and abbreviations (K, We, Rc, CGA, PDF …),
  except inside elements marked ``lang="en"`` (text somebody typed in English) or ``class="latin"`` (a Latin
  name);
* on an English page no Chinese character outside elements marked ``lang="zh-…"`` (a name with no English form
  entered yet), and no stored code either.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from qiyuan.people.pinyin import HAN as CJK

#: codes the office stores, which a page must show by their label
RAW_CODES = {
    "swiss", "round_robin", "double_round_robin", "knockout", "per_game", "averaging", "go_round_robin",
    "newcomer", "provisional", "not_rated", "active", "inactive", "unrated", "removed", "suspended", "retired",
    "pending", "True", "False", "None", "gomoku", "event_ru", "calendar_years", "repeat",
    "champion_protected", "forfeit_not_rated", "unrated_opponents_not_rated",
}
#: symbols of the formulas and abbreviations a Chinese page uses as they are
SYMBOLS = {
    "K", "We", "W", "D", "N", "M", "Rc", "Ro", "Rn", "Pd", "PD", "Ru", "Ra", "Rar", "Dpa", "dp", "Pa", "H", "L", "p",
    "n", "R", "CGA", "GO", "CSV", "XLSX", "TXT", "PDF", "JSON", "UTC", "OpenGotha", "RIF", "TRF", "English", "b",
    "w", "U8", "U10", "U12", "U14", "U16", "U18", "U20",
}
_WORD = re.compile(r"[0-9]*[A-Za-z_][A-Za-z0-9_]*")
_SKIPPED = {"script", "style", "title", "svg"}
_VOID = {"br", "img", "input", "meta", "link", "hr", "col", "area", "base", "wbr", "source"}


class _Text(HTMLParser):
    """Collects (text, language, is_latin_name) of every text run in the body."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str, bool, bool]] = []  # tag, lang, latin, skipped
        self.runs: list[tuple[str, str, bool]] = []
        self.in_body = False

    def handle_starttag(self, tag, attrs):
        if tag == "body":
            self.in_body = True
        if tag in _VOID:
            return
        a = dict(attrs)
        lang, latin, skipped = (self.stack[-1][1:] if self.stack else ("", False, False))
        self.stack.append((tag, a.get("lang") or lang, latin or "latin" in (a.get("class") or "").split(),
                           skipped or tag in _SKIPPED))

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.in_body or not data.strip():
            return
        lang, latin, skipped = self.stack[-1][1:] if self.stack else ("", False, False)
        if not skipped:
            self.runs.append((data, lang.lower(), latin))


def text_runs(html: str) -> list[tuple[str, str, bool]]:
    parser = _Text()
    parser.feed(html)
    return parser.runs


def problems(html: str, language: str, *, allowed_english: set[str] = frozenset()) -> list[str]:
    """What is wrong with a page in ``language`` (``zh-hans`` or ``en``): each bad word or text run."""
    out = []
    for text, lang, latin in text_runs(html):
        words = _WORD.findall(text)
        # (on an English page "active" is the label of 活跃, so only snake_case and Python's words are codes there)
        codes = [w for w in words if ("_" in w and w.islower()) or w in ("True", "False", "None")
                 or (language != "en" and w in RAW_CODES)]
        if codes and not latin and (language == "en" or not lang.startswith("en")):
            out.append(f"code {codes} in {text.strip()[:80]!r}")
        if language == "en":
            if CJK.search(text) and not lang.startswith("zh"):
                out.append(f"Chinese text not marked: {text.strip()[:80]!r}")
        else:
            if lang.startswith("en") or latin:
                continue
            english = [w for w in words if w not in SYMBOLS and w not in allowed_english
                       and not re.fullmatch(r"(CN|[A-Z]{1,4})\d*|\d+\w*|[a-z]?\d+[a-z]?", w)]
            if english:
                out.append(f"English {english} in {text.strip()[:80]!r}")
    return out
