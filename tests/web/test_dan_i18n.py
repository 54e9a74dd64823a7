"""Both languages for the grades: every message template the grades code can show on a page has its Chinese
(zh_Hans catalogue), every Chinese string of the grades pages has its English (en catalogue)."""

from __future__ import annotations

import ast
import re

from qiyuan.locale.msgfmt import parse_po

from .conftest import REPO

SRC = REPO / "src" / "qiyuan"
LOCALE = SRC / "locale"
#: the grades code whose problems reach a page (the policy file's own problems are the command line's: a policy is
#: installed there; of policy.py only the class criteria reach a page, behind their clause)
CODE = [SRC / "grading" / "proposal.py", SRC / "grading" / "grant.py", *sorted((SRC / "office" / "grades").glob("*.py"))]
TEMPLATES = [SRC / "web" / "templates" / "desk" / name for name in ("grades.html", "grade_event.html",
                                                                    "_grade_proposals.html")] + [
    SRC / "web" / "templates" / "portal" / "_grade_history.html"]


def _catalogue(lang: str) -> dict[str, str]:
    return parse_po((LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))


def _templates_in_code(paths=CODE, within: str | None = None) -> set[str]:
    found = set()
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if within is not None:
            tree = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == within)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("problem", "_failure"):
                arg = node.args[0] if node.func.id == "problem" else node.args[1]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(("{clause}: " if node.func.id == "_failure" else "") + arg.value)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp):  # message = (A if … else B)
                for branch in (node.value.body, node.value.orelse):
                    if isinstance(branch, ast.Constant) and "{" in str(branch.value):
                        found.add(branch.value)
    return found


def test_every_grades_problem_template_has_its_chinese():
    zh = _catalogue("zh_Hans")
    missing = sorted(t for t in _templates_in_code() if not zh.get(t))
    assert not missing, missing
    criteria = _templates_in_code([SRC / "grading" / "policy.py"], within="mismatches")
    assert len(criteria) == 6
    missing = sorted(t for t in criteria if not zh.get("{clause}: " + t))  # shown behind the clause that failed
    assert not missing, missing


def test_every_translation_keeps_the_placeholders_of_its_template():
    for msgid, msgstr in _catalogue("zh_Hans").items():
        if msgid and msgstr:
            assert sorted(re.findall(r"{[^}]*}", msgid)) == sorted(re.findall(r"{[^}]*}", msgstr)), msgid


def test_every_chinese_string_of_the_grades_pages_has_its_english():
    en = _catalogue("en")
    ids = set()
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        ids |= set(re.findall(r'{%\s*translate\s+"([^"]+)"', text))
        for m in re.finditer(r"{%\s*blocktranslate[^%]*%}(.*?){%\s*endblocktranslate\s*%}", text, re.S):
            ids.add(re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", m.group(1)))
    view = (SRC / "web" / "desk" / "views" / "grades.py").read_text(encoding="utf-8")
    ids |= set(re.findall(r'_\("([^"]+)"\)', view))
    missing = sorted(i for i in ids if not en.get(i))
    assert not missing, missing
