"""What a record is called on a page in the page's language (显示名称): players by their Latin name on English pages,
associations, events and lists by their English name where the registry has one. A Chinese name shown on an
English page (no English name entered yet) is marked ``lang="zh-Hans"``, so readers, search engines and the
language test know it is meant."""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from qiyuan.people.pinyin import HAN as CJK
from qiyuan.people.pinyin import has_han, latin_name, place_latin


def display_name(name: str, name_latin: str = "", *, english: bool) -> str:
    """The name in the page's language: the Chinese name, or on English pages its Latin form where it has one."""
    if not english:
        return name
    return latin_name(name, name_latin) or name


def english() -> bool:
    """Whether the page is in English."""
    return (get_language() or "").startswith("en")


def person(obj, *, en: bool | None = None) -> str:
    """A player's (or an entrant's) name in the page's language: ``name`` and optional ``name_latin``."""
    if obj is None:
        return ""
    name = getattr(obj, "name", "") or ""
    return display_name(name, getattr(obj, "name_latin", "") or "", english=english() if en is None else en)


def entry_person(entry) -> str:
    """The name a list entry was published under (the sheet's ``name`` column), in the page's language."""
    p = entry.player
    return display_name(entry.name or p.name, p.name_latin or "", english=english())


def _local(obj, field: str, en_field: str) -> tuple[str, bool]:
    """(text, is_chinese_on_an_english_page) of a record's name."""
    if obj is None:
        return "", False
    zh = getattr(obj, field, "") or ""
    if not english():
        return zh, False
    en = getattr(obj, en_field, "") or ""
    return (en, False) if en else (zh, bool(zh))


def local_text(obj, field: str = "name", en_field: str = "name_en") -> str:
    """The record's name as plain text (for a page title or an attribute)."""
    return _local(obj, field, en_field)[0]


def local_html(obj, field: str = "name", en_field: str = "name_en") -> SafeString:
    """The record's name as HTML: a Chinese name on an English page inside ``<span lang="zh-Hans">``."""
    text, marked = _local(obj, field, en_field)
    return mark_safe(f'<span lang="zh-Hans">{escape(text)}</span>' if marked else escape(text))


def lang_attr(obj, field: str = "name") -> SafeString:
    """`` lang="zh-Hans"`` for an element (an ``<option>``) showing a record's Chinese name on an English page."""
    en_field = {"name": "name_en", "title": "title_en"}[field]
    return mark_safe(' lang="zh-Hans"' if _local(obj, field, en_field)[1] else "")


def event_name(event, *, html: bool = True):
    return local_html(event) if html else local_text(event)


def list_title(rating_list, *, html: bool = True):
    return local_html(rating_list, "title", "title_en") if html else local_text(rating_list, "title", "title_en")


def association_name(association, *, html: bool = True):
    return local_html(association) if html else local_text(association)


_CJK_RUN = re.compile(CJK.pattern + r"[" + CJK.pattern[1:-1] + r"\u3000-\u303f\uff00-\uffef\d\s]*")


def free_text(value) -> SafeString:
    """Text as somebody typed it (a correction's reason, an organiser, a time control), marked with its language
    when it is not the page's: Chinese on an English page, or a sentence mostly in Latin letters on a Chinese
    page."""
    text = "" if value is None else str(value)
    if not text.strip():
        return mark_safe(escape(text))
    # its language: Chinese unless it has more Latin letters than Chinese characters (a sentence quoting a name)
    chinese = len(CJK.findall(text)) >= sum(1 for c in text if c.isascii() and c.isalpha())
    if english() and chinese:
        return mark_safe(f'<span lang="zh-Hans">{escape(text)}</span>')
    if english() and has_han(text):  # an English sentence quoting a Chinese name: mark the name
        return mark_safe(_CJK_RUN.sub(lambda m: f'<span lang="zh-Hans">{m.group(0)}</span>', escape(text)))
    if not english() and not chinese and any(c.isalpha() and c.isascii() for c in text):
        return mark_safe(f'<span lang="en">{escape(text)}</span>')
    return mark_safe(escape(text))


def place(value) -> SafeString:
    """A city (地点) in the page's language: its pinyin on English pages."""
    text = "" if value is None else str(value)
    if english() and has_han(text):
        latin = place_latin(text)
        if latin:
            return mark_safe(escape(latin))
    return free_text(text)
