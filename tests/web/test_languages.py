"""Both languages everywhere (issue 10, item 1): the catalogues are complete, and the demo's pages crawled in
简体中文 and in English show no stored code, no untranslated text and no unmarked Chinese on English pages."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from qiyuan.locale import catalogue
from qiyuan.rating.rules import RuleSet
from qiyuan.people.pinyin import latin_name, place_latin

from .language_check import problems


def test_every_portal_and_api_string_is_translated_both_ways():
    report = catalogue.check()
    assert not report.missing["en"], [m.text for m in report.missing["en"]]
    assert not report.missing["zh_Hans"], [m.text for m in report.missing["zh_Hans"]]


def test_no_catalogue_entry_is_left_empty_or_adds_a_placeholder():
    report = catalogue.check()
    assert not report.empty["en"] and not report.empty["zh_Hans"], (report.empty)
    assert not report.broken["en"] and not report.broken["zh_Hans"], report.broken


def test_the_catalogue_check_finds_what_templates_and_code_use():
    ids = catalogue.template_msgids(
        '{% translate "棋手" %} {% blocktranslate with n=x.y %}第 {{ n }} 轮{% endblocktranslate %}'
        '{% blocktranslate count n=k %}{{ n }} 局{% plural %}{{ n }} 局{% endblocktranslate %}')
    assert [m.text for m in ids] == ["棋手", "第 %(n)s 轮", "%(n)s 局"] and ids[2].plural == "%(n)s 局"
    ids = catalogue.python_msgids('_("甲")\ngettext_lazy("乙")\nproblem("bad {x}", x=1)\nfilter_problem("m {y}", "q")\n')
    assert [m.text for m in ids] == ["甲", "乙", "bad {x}", "m {y}"]
    assert catalogue.Msgid("、").chinese and not catalogue.Msgid("bad {x}").chinese
    report = catalogue.check([catalogue.Msgid("一个从未翻译的句子"), catalogue.Msgid("a sentence never translated")])
    assert [m.text for m in report.missing["en"]] == ["一个从未翻译的句子"]
    assert [m.text for m in report.missing["zh_Hans"]] == ["a sentence never translated"]


def test_every_eligibility_clause_of_the_rating_core_reads_in_english():
    """The event and rules pages list the clauses of ``qiyuan.rating.eligibility.CLAUSES`` (Chinese, outside
    Django): each needs its English in the catalogue."""
    from django.utils import translation

    from qiyuan.rating.eligibility import CLAUSES

    with translation.override("en"):
        for clauses in CLAUSES.values():
            for c in clauses:
                assert translation.gettext(c.summary) != c.summary, c


def test_the_rules_page_explains_every_setting_of_a_rule_set():
    """A setting added to RuleSet must be put into words on the rules page (qiyuan.web.portal.rules_text)."""
    from qiyuan.web.portal.rules_text import DESCRIBED

    assert {f.name for f in dataclasses.fields(RuleSet)} == set(DESCRIBED)


@pytest.mark.parametrize("name, latin, expected", [
    ("龚泽远", "", "Gong Zeyuan"), ("欧阳瑶欣", "", "Ouyang Yaoxin"), ("吕安红", "", "Lü Anhong"),
    ("单田芳", "", "Shan Tianfang"), ("曾晨", "", "Zeng Chen"), ("张嘉恩", "", "Zhang Jia'en"),
    ("张三", "Zhang San (Sam)", "Zhang San (Sam)"), ("Müller Hans", "", "Müller Hans"), ("𠀾三", "", ""),
])
def test_latin_names_surname_first_capitalised(name, latin, expected):
    assert latin_name(name, latin) == expected


def test_places_in_pinyin():
    assert [place_latin(c) for c in ("北京", "杭州", "Paris")] == ["Beijing", "Hangzhou", "Paris"]


def test_the_checker_catches_codes_english_and_unmarked_chinese():
    zh = '<body><p>赛制 swiss · 状态 active · 方法 per_game</p><p lang="en">60 min</p><p>Pending review</p></body>'
    found = problems(zh, "zh-hans")
    assert len(found) == 3 and "swiss" in found[0] and "Pending" in found[2]
    en = '<body><p>Rating lists 等级分</p><p lang="zh-Hans">北京五子棋协会</p><p>round_robin</p></body>'
    found = problems(en, "en")
    assert len(found) == 2 and "等级分" in found[0] and "round_robin" in found[1]


def _demo_urls(client) -> list[str]:
    from qiyuan.office.events.models import Event
    from qiyuan.office.ratings.models import RatingList

    from tests.support.sheets import entries

    urls = ["/", "/lists/", "/players/", "/players/?q=zhang", "/players/?q=王", "/events/", "/events/?format=swiss",
            "/events/?status=pending&year=2025", "/events/?format=nonsense&year=abc", "/rules/", "/no-such-page/",
            "/data/"]
    players = []
    for rl in RatingList.objects.order_by("code"):
        eds = rl.current_editions()
        ed, first = eds[-1], eds[0]
        base = f"/lists/{rl.code}/{ed.list_date}/"
        urls += [base, base + "?page=2", base + "?gender=F&status=all", base + "?order=-change",
                 base + "?gender=X&born_from=18&dan=zz", f"{base}{ed.number}/compare/",
                 f"/lists/{rl.code}/{first.list_date}/{first.number}/compare/",
                 f"/lists/{rl.code}/{eds[len(eds) // 2].list_date}/",
                 f"/lists/{rl.code}/{ed.list_date}/{ed.number}/distribution/"]
        rows = entries(ed)  # (in list order)
        players += [e["federation_id"] for e in rows][:3]
        players += [e["federation_id"] for e in rows if e["status"] != "active"][:2]
    for fid in players:
        urls.append(f"/players/{fid}/")
    a, b = players[:2]
    urls += [f"/players/{a}/vs/{b}/", f"/players/{a}/what-if/",
             f"/players/{a}/what-if/?list=CGA&format=swiss&opp={b}&res=1&opp=2100&res=0.5&opp=1900&res=0",
             f"/players/{a}/what-if/?list=CGA&format=round_robin&opp={b}&res=0&opp=2100&res=1",
             f"/players/{a}/what-if/?list=CGA&opp=nobody-at-all&res=7&opp=&res=1"]
    events = Event.objects.order_by("?")
    for fmt in ("swiss", "round_robin"):
        urls += [f"/events/{code}/" for code in events.filter(format=fmt).values_list("code", flat=True)[:3]]
    urls += [f"/events/{code}/" for code in Event.objects.filter(code__startswith="CGA-").values_list("code",
                                                                                                   flat=True)[:3]]
    urls += [f"/events/{code}/" for code in Event.objects.filter(rating_list__code="GO").values_list("code",
                                                                                                  flat=True)[:2]]
    return urls


@pytest.mark.django_db
def test_the_demo_reads_in_chinese_and_in_english_without_codes_or_untranslated_text(client):
    from qiyuan.office.demo import build_demo

    from qiyuan.office.signing_key import init_key

    build_demo(seed=5, bundles=False, verify=False)  # verified in tests/office/test_demo.py
    init_key("tester")  # each list page shows how to check it (核对本期等级分) with the key's fingerprint
    urls = _demo_urls(client)
    bad = {}
    for language in ("zh-hans", "en"):
        client.cookies["django_language"] = language
        for url in urls:
            r = client.get(url)
            assert r.status_code in (200, 404), (url, r.status_code)
            html = r.content.decode()
            assert f'<html lang="{"zh-Hans" if language == "zh-hans" else "en"}">' in html, url
            echoed = set(re.findall(r"[A-Za-z][A-Za-z-]*", url.partition("?")[2]))  # a message may quote input
            found = problems(html, language, allowed_english={w for e in echoed for w in e.split("-")})
            if found:
                bad[(language, url)] = found[:5]
    report = "\n".join(f"{k}: {v}" for k, v in bad.items())
    (Path(__file__).resolve().parents[2] / "test-artifacts").mkdir(exist_ok=True)
    (Path(__file__).resolve().parents[2] / "test-artifacts" / "language-problems.txt").write_text(report)
    assert not bad, report


@pytest.mark.django_db
def test_english_pages_write_names_in_latin_and_codes_as_words(client, published):
    client.cookies["django_language"] = "en"
    a = published["players"][0]
    html = client.get(f"/players/{a.federation_id}/").content.decode()
    assert "<h1>Zhang San " in html and '<span class="muted" lang="zh-Hans">张三</span>' in html
    assert "<dd>registered</dd>" in html and "<dd>M</dd>" in html
    lst = client.get("/lists/gomoku/2026-01-01/").content.decode()
    assert "Li Si" in lst and "Lü Xiaojun" in lst and "李四" not in re.sub(r'<span[^>]*lang="zh-Hans"[^>]*>.*?</span>',
                                                                            "", lst)
    event = client.get("/events/2025-bj-open/").content.decode()
    assert "Swiss system" in event and "Rating used" in event
