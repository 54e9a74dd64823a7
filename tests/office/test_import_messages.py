"""Issue 18, item 5: every refusal and note of an import written as a template (``problem``) is translated, so the
Chinese desk shows it in Chinese (as the desk's own catalogue check does for its pages)."""

from __future__ import annotations

import re

import pytest

from qiyuan.locale.catalogue import IMPORT_MODULES, python_msgids, read_catalogue

#: the import's modules whose messages are templates: the readers of what enters the office (reports, TRF,
#: OpenGotha, history CSV, registration and entry lists, the list a new office starts from), the office's imports,
#: the registry's list checks and the rules' eligibility conditions (``catalogue.IMPORT_MODULES``)
MODULES = sorted({p for m in IMPORT_MODULES for p in (m.glob("*.py") if m.is_dir() else [m])})
#: an English word in a message (a mixed id — English with Chinese labels — needs its Chinese form too)
_ENGLISH = re.compile(r"\b[a-z]{3,}\b")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_import_template_is_translated(path):
    zh = read_catalogue("zh_Hans")
    missing = [m.text for m in python_msgids(path.read_text(encoding="utf-8"), str(path))
               if (not m.chinese or _ENGLISH.search(m.text)) and not zh.get(m.key)]
    assert not missing, f"untranslated import messages in {path.name}: {missing}"


def test_the_check_finds_an_untranslated_template():
    """The check can fail: a template nobody translated is found."""
    zh = read_catalogue("zh_Hans")
    found = python_msgids('problem("an import message nobody translated {x}", x=1)', "t.py")
    assert [m.text for m in found if not zh.get(m.key)] == ["an import message nobody translated {x}"]
