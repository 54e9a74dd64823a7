"""Translated labels of the calendar's codes (赛事日历): a registration's status and rules of play, and its
findings in the page's language. The desk and the portal show these, never the raw code."""

from __future__ import annotations

from django.utils.translation import get_language, gettext, gettext_lazy

from qiyuan.people.pinyin import place_latin
from qiyuan.rating.eligibility import clause_label

#: 注册状态
REGISTRATION_STATUS = {
    "registered": gettext_lazy("待审批"),
    "approved": gettext_lazy("已批准"),
    "refused": gettext_lazy("未批准"),
    "withdrawn": gettext_lazy("已撤回"),
}

#: 竞赛规则
RULES_OF_PLAY = {
    "national": gettext_lazy("国家体育总局审定的竞赛规则"),
    "rif": gettext_lazy("RIF 竞赛规则（五子棋国际竞赛规则）"),
}


def city_label(city: str) -> str:
    """A city in the page's language: in pinyin on English pages, spelt as every place is (北京 → Beijing,
    西安 → Xi'an; ``people.pinyin.place_latin``)."""
    if not (get_language() or "").startswith("en") or city.isascii():
        return city
    return place_latin(city) or city


def time_control_label(minutes: int, increment: int = 0) -> str:
    """用时 in the page's language: ``60 分钟 + 30 秒`` / ``60 min + 30 s``."""
    text = gettext("%(m)d 分钟") % {"m": minutes}
    return text + (" + " + gettext("%(s)d 秒") % {"s": increment} if increment else "")


def status_label(code: str) -> str:
    return str(REGISTRATION_STATUS.get(code, code))


def translated(findings) -> list[dict]:
    """Findings (``qiyuan.calendar.checks.Finding``) as ``{"clause", "text", "lang"}`` in the page's language;
    ``lang`` is ``en`` where a message has no translation yet (the page marks it as English)."""
    out = []
    english_page = (get_language() or "").startswith("en")
    for f in findings:
        text = f.text(gettext)
        english = gettext(f.message) == f.message and not english_page
        out.append({"clause": clause_label(f.clause, chinese=not english_page), "text": text,
                    "lang": "en" if english else ""})
    return out
