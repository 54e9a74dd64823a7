"""Issue 24: the desk's proposals page reads like the terminal — a reason's grades in words (应授六段, not 6d) and a
grant's clause with its table and clause in words, in the page's language (``grading.words``, one place for both)."""

from __future__ import annotations

from datetime import date

from django.utils import translation

from qiyuan.errors import problem
from qiyuan.web.portal.templatetags.qiyuan_grades import clause_text, problem_text

REASON = problem("earns {earned}; holds {held} already ({body}, {day})", earned="6d", held="3d", body="演示五子棋协会",
                 day=date(2024, 5, 1))


def test_a_reason_shows_its_grades_in_words_in_both_languages():
    with translation.override("zh-hans"):
        chinese = problem_text(REASON)
    with translation.override("en"):
        english = problem_text(REASON)
    assert "六段" in chinese and "三段" in chinese and "6d" not in chinese and "3d" not in chinese
    assert "6 dan" in english and "3 dan" in english and "6d" not in english


def test_a_grants_clause_in_words_in_both_languages():
    with translation.override("zh-hans"):
        chinese = clause_text("national women 1 (BJSH §9(四))")
        by_hand = clause_text("by hand")
    with translation.override("en"):
        english = clause_text("national women 1 (BJSH §9(四))")
    assert "京沪细则第九条（四）" in chinese and "women" not in chinese and by_hand != "by hand"
    assert "BJSH §9(4)" in english and "women" in english
