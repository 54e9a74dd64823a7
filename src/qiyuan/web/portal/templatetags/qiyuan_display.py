"""Template filters for what the pages show (``{% load qiyuan_display %}``): points, rating changes, names of
players, associations, events and lists in the page's language, and the labels of stored codes.

``{{ event|event_name }}`` gives HTML (a Chinese name on an English page is marked ``lang="zh-Hans"``);
``{{ event|event_name:"text" }}`` plain text, for a page title."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from qiyuan.web import display, labels
from qiyuan.web.numbers import points_text, signed_delta
from qiyuan.web.portal.editions import correction_reason

register = template.Library()

register.filter("points", points_text)
register.filter("delta", signed_delta)
register.filter("event_format", labels.event_format_label)
register.filter("import_kind", labels.import_kind_label)
register.filter("list_status", labels.list_status_label)
register.filter("registration_status", labels.registration_status_label)
register.filter("sex", labels.sex_label)
register.filter("event_status", labels.event_status_label)
register.filter("method", labels.method_label)
register.filter("note", labels.note_label)
register.filter("person", display.person)
register.filter("entry_person", display.entry_person)


@register.filter
def latin(obj) -> str:
    """A player's Latin name whatever the page's language (shown beside the Chinese name)."""
    return display.person(obj, en=True)


register.filter("free_text", display.free_text)


@register.filter
def edition_reason(reason) -> SafeString:
    """A correction's reason: the words the code wrote in the page's language, then the officer's as typed."""
    ours, typed = correction_reason(str(reason or ""))
    return mark_safe(escape(ours) + display.free_text(typed))
register.filter("lang_attr", display.lang_attr)
register.filter("place", display.place)
register.filter("rule_set_title", labels.rule_set_title)
register.filter("event_action", labels.event_action_label)
register.filter("role", labels.role_label)


@register.filter
def assoc_name(association, mode: str = "html"):
    """The association's English name on English pages (when it has one), else its Chinese name."""
    return display.association_name(association, html=mode != "text")


@register.filter
def event_name(event, mode: str = "html"):
    return display.event_name(event, html=mode != "text")


@register.filter
def list_title(rating_list, mode: str = "html"):
    return display.list_title(rating_list, html=mode != "text")
