"""Template filters for what the pages show: points, rating changes, association names and
event formats in the page's language (``{% load qiyuan_display %}``)."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

from qiyuan.web.labels import event_format_label
from qiyuan.web.numbers import points_text, signed_delta

register = template.Library()

register.filter("points", points_text)
register.filter("delta", signed_delta)
register.filter("event_format", event_format_label)


@register.filter
def assoc_name(association) -> str:
    """The association's English name on English pages (when it has one), else its Chinese name."""
    if not association:
        return ""
    if (get_language() or "").startswith("en") and getattr(association, "name_en", ""):
        return association.name_en
    return association.name
