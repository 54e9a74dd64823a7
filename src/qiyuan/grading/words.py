"""A proposal's reason or a failed condition for people (给人读的授段理由): its grades in words (三段 / 3 dan, not
``3d``) and its clauses as the texts name them (京沪细则第九条（四） / BJSH §9(4)) — the terminal and the desk
alike. The stored ``Problem`` keeps the codes (for programs and the audit); this gives a copy to show."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from qiyuan.errors import N_, Problem
from qiyuan.people.grades import GRADE_EN, GRADE_ZH
from qiyuan.rating.eligibility import clause_label

#: the parameters of the grading templates that hold a grade code
GRADE_PARAMS = frozenset({"grade", "earned", "cap", "held"})
#: the clause a grant by the federation's own policy cites
POLICY = N_("the grant policy")


def grade_in_words(code: str, *, chinese: bool) -> str:
    """``5d`` → 五段 / 5 dan; a code it does not know as it is; "" for none."""
    return (GRADE_ZH if chinese else GRADE_EN).get(code, code) if code else ""


def clause_in_words(code: str, *, chinese: bool, translate: Callable[[str], str]) -> str:
    """A clause as the reader's texts name it; ``policy``: the federation's grant policy."""
    return translate(POLICY) if code == "policy" else clause_label(code, chinese=chinese)


def for_people(p: Problem, *, chinese: bool, translate: Callable[[str], str]) -> Problem:
    """``p`` with its grade and clause parameters in words, ready for ``p.text(translate)``."""
    if not p.params:
        return p
    params = {k: (grade_in_words(v, chinese=chinese) if k in GRADE_PARAMS
                  else clause_in_words(v, chinese=chinese, translate=translate) if k.endswith("clause") else v)
              if isinstance(v, str) else v for k, v in p.params.items()}
    return replace(p, params=params)


#: a grant's stored clause (``grading.proposal._clause``): the class, its table, the row, maybe the women's clause
_STORED_CLAUSE = re.compile(r"^(?P<cls>\S+) (?P<table>open|women) (?P<placings>\d+(?:-\d+)?)(?: \((?P<clause>.+)\))?$")
#: a class's tables of placings (``open``: every player; ``women``: a woman among the women, BJSH §9(四))
TABLES = {"open": N_("open"), "women": N_("women")}
#: the clauses a grant records that are not a table's row
STORED_CLAUSES = {"by hand": N_("by hand")}


def stored_clause_in_words(text: str, *, chinese: bool, translate: Callable[[str], str]) -> str:
    """A grant's clause (``national open 3-4``, ``national women 1 (BJSH §9(四))``, ``by hand``) for people: the
    class as the policy names it, the table and the clause in words."""
    m = _STORED_CLAUSE.match(text or "")
    if m is None:
        if text in STORED_CLAUSES:
            return translate(STORED_CLAUSES[text])
        return clause_in_words(text, chinese=chinese, translate=translate) if text else ""
    shown = translate("{cls} {table} {placings}").format(cls=m["cls"], table=translate(TABLES[m["table"]]),
                                                         placings=m["placings"])
    if not m["clause"]:
        return shown
    return shown + translate(" ({clause})").format(clause=clause_in_words(m["clause"], chinese=chinese,
                                                                          translate=translate))
