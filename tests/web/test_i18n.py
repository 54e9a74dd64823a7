"""Languages: zh-Hans by default, English on request; the committed .mo files match their .po sources."""

from __future__ import annotations

import gettext
import io

import pytest

from qiyuan.locale import msgfmt

from .conftest import REPO

LOCALE = REPO / "src" / "qiyuan" / "locale"


def test_committed_mo_files_match_their_po_sources():
    pos = sorted(LOCALE.rglob("*.po"))
    assert pos, "no translation catalogue"
    for po in pos:
        expected = msgfmt.parse_po(po.read_text(encoding="utf-8"), str(po))
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"{mo} missing: run python -m qiyuan.locale.msgfmt"
        got = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))._catalog
        assert {k: v for k, v in got.items() if k} == _as_gnu_catalog(expected), (
            f"{mo} is stale: run python -m qiyuan.locale.msgfmt"
        )


def _as_gnu_catalog(catalog: dict[str, str]) -> dict:
    """``parse_po``'s keys as Python's ``gettext`` keeps them: a plural entry as one key per form."""
    out: dict = {}
    for key, value in catalog.items():
        if not key:
            continue
        if "\x00" in key:
            for n, form in enumerate(value.split("\x00")):
                out[(key.split("\x00")[0], n)] = form
        else:
            out[key] = value
    return out


def test_every_chinese_translation_names_the_options_its_english_names():
    """Issue 33: a Chinese refusal left out the option it needs (``--change``, ``--force``): every translation
    keeps each command-line option its English id names, so the reader learns what overrides a refusal."""
    import re

    option = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
    po = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
    catalogue = msgfmt.parse_po(po.read_text(encoding="utf-8"), str(po))
    missing = {k: sorted(set(option.findall(k)) - set(option.findall(v))) for k, v in catalogue.items() if v}
    assert not {k: v for k, v in missing.items() if v}


def test_msgfmt_reads_contexts_continuations_and_skips_fuzzy():
    po = (
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\nmsgid "旧"\nmsgstr "old"\n\n'
        'msgid "棋手"\nmsgstr "Players"\n\n'
        'msgctxt "menu"\nmsgid "比赛"\nmsgstr ""\n"Events"\n'
    )
    t = gettext.GNUTranslations(io.BytesIO(msgfmt.mo_bytes(msgfmt.parse_po(po))))
    assert t.gettext("棋手") == "Players"
    assert t.gettext("旧") == "旧"
    assert t.pgettext("menu", "比赛") == "Events"


def test_msgfmt_reports_file_and_line_of_a_bad_string():
    with pytest.raises(msgfmt.PoError, match=r"x.po, line 2: expected a quoted string"):
        msgfmt.parse_po('msgid "a"\nmsgstr b\n', "x.po")


@pytest.mark.django_db
def test_portal_speaks_chinese_by_default_and_english_on_request(client):
    r = client.get("/rules/")
    assert r.status_code == 200
    text = r.content.decode()
    assert '<html lang="zh-Hans">' in text and "等级分规则" in text
    r = client.get("/language/en/?next=/rules/")
    assert r.status_code == 302 and r["Location"] == "/rules/"
    text = client.get("/rules/").content.decode()
    assert '<html lang="en">' in text and "Rating rules" in text and "等级分规则" not in text


@pytest.mark.django_db
def test_language_switch_refuses_unknown_languages_and_foreign_redirects(client):
    assert client.get("/language/fr/").status_code == 404
    r = client.get("/language/en/?next=https://evil.example/")
    assert r.status_code == 302 and r["Location"] == "/"
    r = client.get("/language/zh-hans/?next=/lists/")
    assert r["Location"] == "/lists/" and r.cookies["django_language"].value == "zh-hans"
