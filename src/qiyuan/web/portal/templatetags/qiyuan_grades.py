"""Grades on pages (段级位): a grade's name in the page's language, a player's grade history, an event's proposals.

``{% load qiyuan_grades %}`` then ``{{ p.dan|grade_name }}`` (三段 / 3 dan), ``{{ problem|problem_text }}`` (a
reason or a failed condition in the page's language), ``{% grade_history p %}`` (the
player page's section: grade, date, body, event) and, on the desk, ``{% grade_proposals event %}`` (how many
grants an imported event's standings give, with the link to confirm them). Read only: they call the grades
module's queries, nothing else.
"""

from __future__ import annotations

from django import template
from django.utils.translation import get_language, gettext

from qiyuan.grading.words import for_people, grade_in_words, stored_clause_in_words
from qiyuan.office.grades.history import grade_history as history_rows
from qiyuan.office.grades.proposals import event_proposal

register = template.Library()


def _english() -> bool:
    return (get_language() or "").startswith("en")


@register.filter
def grade_name(code: str | None) -> str:
    """``3d`` → 三段 on a Chinese page, 3 dan on an English one ("" for no grade)."""
    return grade_in_words(code or "", chinese=not _english())


@register.filter
def problem_text(p) -> str:
    """A ``Problem`` (a proposal's reason, a failed condition) in the page's language, its grades in words and
    its clauses as the texts name them (``grading.words``, as the terminal shows it)."""
    return for_people(p, chinese=not _english(), translate=gettext).text(gettext) if p is not None else ""


@register.filter
def clause_text(clause: str | None) -> str:
    """A grant's clause (``national open 3-4``, ``by hand``) in the page's language: the table and clause in words."""
    return stored_clause_in_words(clause or "", chinese=not _english(), translate=gettext)


@register.inclusion_tag("portal/_grade_history.html")
def grade_history(player) -> dict:
    """The player's grade history: each grant with its date, body and event (both languages)."""
    return {"rows": history_rows(player), "english": _english()}


@register.inclusion_tag("desk/_grade_proposals.html")
def grade_proposals(event) -> dict:
    """An imported event's proposals in one line: a grading event or not (and why), grants proposed."""
    prop = event_proposal(event).proposal
    return {"event": event, "proposal": prop, "grants": len(prop.grants)}
