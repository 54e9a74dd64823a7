"""The public portal: every page, its permalinks, filters, and what it must never show."""

from __future__ import annotations

import re

import pytest


def page(client, url: str, status: int = 200) -> str:
    r = client.get(url)
    assert r.status_code == status, (url, r.status_code)
    return r.content.decode() if status == 200 else ""


def assert_no_id_numbers(html: str, players) -> None:
    for p in players:
        assert p.id_number not in html
        assert p.masked_id_number not in html
        assert p.birth_date.isoformat() not in html
    assert not re.search(r"\d{17}[\dX]", html), "an 18-digit ID number on a public page"


def test_home_and_lists_index(client, published):
    html = page(client, "/")
    assert "棋院等级分" in html and "李四" in html and "2025年北京五子棋公开赛" in html
    html = page(client, "/lists/")
    assert "五子棋等级分" in html and "2026-01-01" in html and "2025-07-01" in html


def test_current_list_redirects_to_the_latest_date(client, published):
    r = client.get("/lists/gomoku/")
    assert r.status_code == 302 and r["Location"] == "/lists/gomoku/2026-01-01/"


def test_list_permalink_shows_the_current_edition_with_rank_changes(client, published):
    html = page(client, "/lists/gomoku/2026-01-01/")
    assert "更正版" in html and "结果录入错误" in html
    table = html[html.index('id="list-table"'):]
    assert table.index("李四") < table.index("张三") < table.index("王芳")
    assert "2019" in table and "2020" not in table  # edition 2, not edition 1
    assert "▲1" in table and "▼1" in table  # 李四 up from 2nd, 张三 down from 1st
    assert_no_id_numbers(html, published["players"])


def test_superseded_edition_stays_readable(client, published):
    html = page(client, "/lists/gomoku/2026-01-01/1/")
    assert "2020" in html and "此版已被更正" in html


def test_first_edition_has_no_rank_change(client, published):
    html = page(client, "/lists/gomoku/2025-07-01/")
    table = html[html.index('id="list-table"'):]
    assert "▲" not in table and "▼" not in table


@pytest.mark.parametrize(
    "query, shown, hidden",
    [
        ("gender=F", ["王芳"], ["张三", "李四"]),
        ("age=U16", ["李四", "王芳"], ["张三", "吕小军"]),  # born 2010 or later for a 2026 list
        ("born_from=1980&born_to=1995", ["张三", "吕小军"], ["李四", "王芳"]),
        ("association=SH", ["李四", "吕小军"], ["张三", "王芳"]),
        ("status=inactive", ["吕小军"], ["张三", "李四"]),
        ("status=active", ["张三", "李四", "王芳"], ["吕小军"]),
        ("dan=dan", ["张三", "李四"], ["王芳", "吕小军"]),
        ("dan=2k", ["王芳"], ["张三"]),
        ("q=张三", ["张三"], ["李四"]),
        ("q=zhangsan", ["张三"], ["李四"]),
        ("q=zs", ["张三"], ["李四"]),
        ("q=lvxiaojun", ["吕小军"], ["张三"]),
    ],
)
def test_list_filters(client, published, query, shown, hidden):
    html = page(client, f"/lists/gomoku/2026-01-01/?{query}")
    table = html[html.index('id="list-table"'):]
    for name in shown:
        assert name in table, (query, name)
    for name in hidden:
        assert name not in table, (query, name)


def test_list_page_is_cached_per_edition_filter_and_language(client, published, django_assert_max_num_queries):
    from datetime import date

    from django.core.cache import cache

    from qiyuan.office.ratings.models import Edition

    from tests.support.sheets import entries

    from .conftest import write_edition

    cache.clear()
    page(client, "/lists/gomoku/2026-01-01/?gender=F")
    with django_assert_max_num_queries(1):  # a visitor's repeat: one COUNT, then the cache
        html = page(client, "/lists/gomoku/2026-01-01/?gender=F")
    assert "王芳" in html and "csrfmiddlewaretoken" not in html
    client.get("/language/en/?next=/")
    assert "Rating lists" in page(client, "/lists/gomoku/2026-01-01/?gender=F")
    # a new correction of the date is shown at once (the key holds the number of editions)
    rl, (ed1, ed2, ed2b) = published["list"], published["editions"]
    ed3 = Edition.objects.create(rating_list=rl, list_date=date(2026, 1, 1), number=3, published_by="officer",
                                 digest="3" * 64, previous=ed1, is_correction=True, reason="second fix")
    players = {p.pk: p for p in published["players"]}
    write_edition(ed3, [dict(player=players[e["player"]], position=e["position"], rank=e["rank"],
                             rating=e["rating"] + 100, exact="", games=e["games"], status=e["status"], k=e["k"])
                        for e in entries(ed2b)])  # (stored as publication stores an edition)
    assert "2119" in page(client, "/lists/gomoku/2026-01-01/")


def test_unknown_list_edition_and_bad_date_are_404(client, published):
    page(client, "/lists/nolist/", 404)
    page(client, "/lists/gomoku/2026-02-30/", 404)
    page(client, "/lists/gomoku/2024-01-01/", 404)
    page(client, "/lists/gomoku/2026-01-01/9/", 404)


def test_player_page_identity_rating_history_and_calculations(client, published):
    a = published["players"][0]
    html = page(client, f"/players/{a.federation_id}/")
    assert "张三" in html and "1990" in html and "三段" in html  # the grade in the page's language
    assert_no_id_numbers(html, published["players"])
    assert "<svg" in html and "polyline" in html  # the rating history chart, drawn on the server
    calc = html[html.index('id="event-2025-bj-open"'):]
    for text in ("李四", "2000", "+50", "0.57", "+6.45", "15", "11.85", "2012.4"):
        assert text in calc, text
    assert "交手记录" in html and f"/players/{a.federation_id}/vs/" in html


def test_player_search_by_characters_pinyin_and_latin(client, published):
    for q in ("张三", "zhangsan", "Zhang San", "zs"):
        assert "张三" in page(client, f"/players/?q={q}"), q
    assert "没有找到棋手" in page(client, "/players/?q=nobodyatall")


def test_head_to_head(client, published):
    a, b = published["players"][:2]
    html = page(client, f"/players/{a.federation_id}/vs/{b.federation_id}/")
    assert "1 : 0" in html and "2025年北京五子棋公开赛" in html
    page(client, f"/players/{a.federation_id}/vs/{a.federation_id}/", 404)
    page(client, "/players/CN999999/", 404)


def test_event_page_crosstable_rounds_standings_changes_eligibility(client, published):
    html = page(client, "/events/2025-bj-open/")
    assert "2025年北京五子棋公开赛" in html
    assert 'id="crosstable-table"' in html and 'id="round-3"' in html
    assert 'id="standings-table"' in html and "辅分一" in html
    assert 'id="rating-changes"' in html and "11.85" in html
    assert "第五条（一）" in html and "✓" in html
    assert_no_id_numbers(html, published["players"])


def test_event_page_shows_failed_eligibility(client, published):
    html = page(client, "/events/2026-sh-cup/")
    assert "✗" in html and "1 arbiter" in html


def test_events_index_and_rules(client, published):
    html = page(client, "/events/")
    assert "2025年北京五子棋公开赛" in html and "2026年上海杯" in html
    html = page(client, "/rules/")
    assert "cga-gomoku-2011" in html and "附表1" in html and "附表2" in html and "0.68" in html
    page(client, "/rules/cga-gomoku-2011/")
    page(client, "/rules/nosuchrules/", 404)
    page(client, "/events/nosuchevent/", 404)


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "txt", "pdf"])
def test_list_downloads_never_hold_id_numbers(client, published, fmt):
    r = client.get(f"/lists/gomoku/2026-01-01/2/download.{fmt}")
    assert r.status_code == 200
    assert r["Content-Disposition"].endswith(f'.{fmt}"')
    data = b"".join(r) if r.streaming else r.content
    for p in published["players"]:
        assert p.id_number.encode() not in data
    if fmt == "csv":
        assert "李四" in data.decode("utf-8-sig")


def test_merged_duplicate_redirects_to_the_record_kept(client, published, make_player):
    from qiyuan.office.registry import merge_players

    keep = published["players"][0]
    dup = make_player("张三", "M", "BJ")
    merge_players(keep, dup, "officer")
    r = client.get(f"/players/{dup.federation_id}/")
    assert r.status_code == 302 and r["Location"] == f"/players/{keep.federation_id}/"


def test_kept_record_shows_the_history_published_under_the_duplicate(client, published, make_player):
    """After a merge the published editions keep the duplicate's rows (immutable): the kept record's page
    shows them, and the duplicate's permalinks lead to it."""
    from qiyuan.office.registry import merge_players

    dup = published["players"][0]  # 张三: on the published list, rated at 2025-bj-open
    keep = make_player("张三", "M", "BJ")  # registered again, never published
    merge_players(keep, dup, "officer")
    html = page(client, f"/players/{keep.federation_id}/")
    assert 'id="merged-duplicates"' in html and dup.federation_id in html
    # the list history and the chart, as published under the duplicate's ID
    assert "<svg" in html and "polyline" in html and "2025-07-01" in html and "2026-01-01" in html
    assert f"以 {dup.federation_id} 发布" in html
    assert "2012" in html  # the latest published rating
    # the individual calculations, with the results of the games the merge moved to him
    calc = html[html.index('id="event-2025-bj-open"'):]
    for text in ("李四", "2000", "+50", "0.57", "+6.45", "11.85", "2012.4"):
        assert text in calc, text
    assert ">1<" in calc[:calc.index("</section>")]
    assert "交手记录" in html and f"/players/{keep.federation_id}/vs/" in html
    r = client.get(f"/players/{dup.federation_id}/")
    assert r.status_code == 302 and r["Location"] == f"/players/{keep.federation_id}/"
    b = published["players"][1]
    r = client.get(f"/players/{dup.federation_id}/vs/{b.federation_id}/")
    assert r.status_code == 302 and r["Location"] == f"/players/{keep.federation_id}/vs/{b.federation_id}/"
    assert "1 : 0" in page(client, r["Location"])



def test_calculations_without_lines_find_an_opponent_rated_under_a_merged_duplicate(client, published, make_player):
    """A change stored without per-game lines takes the opponents' ratings from their own changes; an opponent
    merged since is found through his kept record (the games moved to it, his change did not)."""
    from qiyuan.formats.canonical_text import as_json
    from qiyuan.office.registry import merge_players

    from .conftest import resheet

    a, b = published["players"][:2]
    ev = published["event"]
    added = {"player": b.pk, "event": ev.pk, "event_code": ev.code, "federation_id": b.federation_id,
             "before": "2000.0000", "after": "1990.0000", "games": 2, "W": "1.0000", "We": "1.1000", "K": 15,
             "delta": "-1.5000", "method": "average", "explanation": as_json({})}

    def add(cols):
        for name, value in added.items():
            cols[name].append(value)
    for ed in published["editions"][1:]:
        resheet(ed, "changes", add)
    keep = make_player("张三", "M", "BJ")
    merge_players(keep, a, "officer")
    html = page(client, f"/players/{b.federation_id}/")
    calc = html[html.index('id="event-2025-bj-open"'):]
    calc = calc[:calc.index("</section>")]
    row = re.search(r'<tr><td class="num opt">1</td><td class="name"><a href="/players/(\w+)/">[^<]*</a></td>'
                    r'<td class="num">([^<]*)</td><td class="c">([^<]*)</td><td class="num">([^<]*)</td>', calc)
    assert row and row.groups() == (keep.federation_id, "2050", "0", "-50")
