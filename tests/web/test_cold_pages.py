"""Issue 34, "portal list page and player page, first visit after a restart": a page reads only the columns it
needs of the sheets (never an entry's state text, a change's explanation only for the changes it shows), a server
process decodes the current editions' page columns before its first visitor, and the list table's rows — built
without the template language — are byte for byte those the template wrote."""

from __future__ import annotations

from datetime import date

import pytest
from django.template import engines
from django.utils import translation

from qiyuan.office import sheets
from qiyuan.web import warm
from qiyuan.web.portal import queries
from qiyuan.web.portal.views import lists

from .conftest import write_edition

#: the rows of the list table as the template wrote them before they were built in Python (the reference)
TEMPLATE_ROWS = (
    '{% load i18n qiyuan_display qiyuan_grades %}{% get_current_language as LANG %}'
    '{% for r in rows %}<tr>\n'
    '<td class="num">{{ r.e.rank|default_if_none:"" }}</td>\n'
    '<td class="num">{% if r.rank_change is not None %}{% if r.rank_change > 0 %}<span class="up">▲{{ r.rank_change }}'
    '</span>{% elif r.rank_change < 0 %}<span class="down">▼{{ r.rank_change|stringformat:"d"|cut:"-" }}</span>'
    '{% else %}<span class="muted">–</span>{% endif %}{% elif prev and not r.was_listed %}<span class="badge ok">'
    '{% translate "新" %}</span>{% endif %}</td>\n'
    '<td class="opt"><a href="{% url \'portal:player\' r.p.federation_id %}">{{ r.p.federation_id }}</a></td>\n'
    '<td class="name"><a href="{% url \'portal:player\' r.p.federation_id %}">{{ r.e|entry_person }}</a>'
    '{% if r.p.name_latin and LANG != "en" %} <span class="muted small opt latin">{{ r.p.name_latin }}</span>'
    '{% endif %}</td>\n'
    '<td class="opt">{{ r.p.gender|sex }}</td>\n'
    '<td class="num opt">{{ r.p.birth_year|default_if_none:"" }}</td>\n'
    '<td class="opt">{{ r.p.association|assoc_name }}</td>\n'
    '<td class="opt">{{ r.p.dan|grade_name }}</td>\n'
    '<td class="num"><strong>{{ r.e.rating|default_if_none:"" }}</strong></td>\n'
    '<td class="num">{% if r.rating_change is not None %}{% if r.rating_change > 0 %}<span class="up">+'
    '{{ r.rating_change }}</span>{% elif r.rating_change < 0 %}<span class="down">{{ r.rating_change }}</span>'
    '{% else %}<span class="muted">0</span>{% endif %}{% endif %}</td>\n'
    '<td class="num opt">{{ r.e.games }}</td>\n'
    '<td class="num opt">{{ r.e.k|default_if_none:"" }}</td>\n'
    '<td class="opt">{% if r.e.status == "active" %}<span class="badge ok">{{ r.e.status|list_status }}</span>'
    '{% elif r.e.status == "removed" %}<span class="badge bad">{{ r.e.status|list_status }}</span>'
    '{% elif r.e.status == "inactive" %}<span class="badge">{{ r.e.status|list_status }}</span>'
    '{% else %}<span class="badge warn">{{ r.e.status|list_status }}</span>{% endif %}'
    '{% if r.e.is_new %} <span class="badge ok">{% translate "新入榜" %}</span>{% endif %}</td>\n'
    '</tr>{% endfor %}'
)


@pytest.fixture
def awkward(published, make_player, make_association):
    """A third list date whose rows have every form a cell takes: names that need escaping, a Latin name, an
    association with an English name and one without, grades, every status, a newcomer, nulls, ranks and ratings up,
    down and unchanged, a player not on the previous edition."""
    from qiyuan.office.ratings.models import Edition

    make_association("EN", name="英文棋协", name_en="English & Co <assoc>")
    odd = make_player("<b>冯&'\"", "F", "EN", birth_date=date(2001, 2, 3), name_latin="Feng <&>", dan="5d")
    bare = make_player("萧一", "M", None, birth_date=date(1999, 1, 1))
    a, b, c, d = published["players"]
    ed2b = published["editions"][2]
    ed3 = Edition.objects.create(rating_list=published["list"], list_date=date(2026, 7, 1), number=1,
                                 published_by="officer", digest="3" * 64, previous=ed2b)
    rows = [(b, 2019, 1, "active", False, 15), (c, 2100, 2, "active", False, 15), (a, 2012, 3, "active", False, None),
            (odd, 1700, 4, "unrated", True, 40), (bare, None, None, "inactive", True, None),
            (d, 1850, None, "removed", False, 15)]
    write_edition(ed3, [dict(player=p, position=pos, rank=rank, rating=rating, exact="" if rating is None else
                             f"{rating}.00", games=3 * pos, status=status, k=k, is_new=new, name=("<i>旧名" if p is a
                                                                                                 else ""))
                        for pos, (p, rating, rank, status, new, k) in enumerate(rows, 1)])
    return ed3


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("params", [{}, {"status": "all"}, {"order": "-change"}, {"status": "removed"}])
def test_the_list_rows_are_byte_for_byte_what_the_template_wrote(awkward, language, params):
    reference = engines["django"].from_string(TEMPLATE_ROWS)
    with translation.override(language):
        filters = queries.read_filters(params, awkward)
        _page, rows = queries.list_page(awkward, filters)
        assert rows
        want = reference.render({"rows": rows, "prev": awkward.previous})
        assert lists.list_rows_html(rows, awkward.previous is not None) == want
        assert want in lists._render_table(awkward, filters)


def test_the_first_edition_has_no_newcomer_mark_and_an_empty_filter_says_so(client, published):
    ed1 = published["editions"][0]
    filters = queries.read_filters({}, ed1)
    _page, rows = queries.list_page(ed1, filters)
    assert lists.list_rows_html(rows, False) == engines["django"].from_string(TEMPLATE_ROWS).render(
        {"rows": rows, "prev": None})
    html = client.get("/lists/gomoku/2025-07-01/?status=removed").content.decode()
    assert '<tr><td colspan="13" class="muted">没有符合条件的棋手。</td></tr>' in html


@pytest.fixture
def reads(monkeypatch):
    """Every read of sheet columns: (part, edition pks, columns)."""
    log = []
    real = sheets._read_many

    def spy(editions, part, names):
        log.append((part, tuple(ed.pk for ed in editions), tuple(names)))
        return real(editions, part, names)
    monkeypatch.setattr(sheets, "_read_many", spy)
    sheets.forget()
    return log


def test_a_list_page_reads_only_the_columns_it_shows(client, published, reads):
    """The list page and the API's list page: their rows' columns and the previous edition's ratings and ranks —
    not the entries' state texts, not the changes."""
    assert client.get("/lists/gomoku/2026-01-01/").status_code == 200
    assert client.get("/api/v1/lists/gomoku/editions/2026-01-01/2/entries").status_code == 200
    assert reads and all(part == "entries" and "state" not in names for part, _pks, names in reads)
    assert {"player", "status", "rating", "rank"} <= {n for _p, _e, names in reads for n in names}


def test_a_player_page_reads_explanations_only_of_the_changes_it_shows(client, published, reads):
    a = published["players"][0]
    assert client.get(f"/players/{a.federation_id}/").status_code == 200
    assert not any("state" in names for _p, _e, names in reads)
    explained = [pks for part, pks, names in reads if "explanation" in names]
    ed2b = published["editions"][2]
    assert explained == [(ed2b.pk,)]  # his one rated event, published on the current edition of 2026-01-01
    # the columns kept for later visitors: keys and numbers, never a long text
    assert not {(part, name) for _pk, part, name in sheets.decoded_columns()} & {
        ("entries", "state"), ("changes", "explanation")}


def test_a_player_page_reads_every_edition_in_one_pass(client, published, reads):
    a = published["players"][0]
    client.get(f"/players/{a.federation_id}/")
    entries_reads = [pks for part, pks, _names in reads if part == "entries"]
    assert len(entries_reads[0]) == 2  # the current editions of both list dates together


def test_a_server_process_decodes_the_page_columns_before_its_first_visitor(client, published, reads):
    """``warm_sheets`` (each worker, before its first request): afterwards a list page, the API's and a player page
    read nothing more of the sheets (the newest editions' explanations are kept too; never a state text)."""
    warm.warm_sheets()
    assert reads and not any("state" in names for _p, _e, names in reads)
    before = len(reads)
    assert client.get("/lists/gomoku/2026-01-01/").status_code == 200
    assert client.get("/api/v1/lists/gomoku/editions/2026-01-01/2/entries").status_code == 200
    for p in published["players"]:
        assert client.get(f"/players/{p.federation_id}/").status_code == 200
    assert reads[before:] == []


def test_a_player_page_reads_the_explanations_of_editions_not_kept_at_the_start(client, published, reads,
                                                                                monkeypatch):
    monkeypatch.setattr(warm, "EXPLAINED_EDITIONS", 0)
    warm.warm_sheets()
    before = len(reads)
    assert client.get(f"/players/{published['players'][0].federation_id}/").status_code == 200
    assert [(part, "explanation" in names) for part, _pks, names in reads[before:]] == [("changes", True)]


def test_warming_a_server_compiles_every_template_and_survives_an_unreadable_sheet(published, monkeypatch):
    names = warm.warm()
    assert "portal/_list_table.html" in names and "portal/player.html" in names

    def broken(*args, **kwargs):
        raise sheets.MissingSheet("edition 1 has no sheet")
    monkeypatch.setattr(sheets, "_read_many", broken)
    sheets.forget()
    warm.warm_sheets()  # (nothing kept, nothing raised: the pages will say what is wrong)
    assert not sheets.decoded_columns()


def test_a_player_is_found_alike_by_a_pass_over_the_keys_and_by_binary_search(published, awkward):
    """One search on an edition goes over its keys (no sort for one player); many, or a kept index, search the
    sorted keys: the same row either way, None for a player not on it."""
    from qiyuan.office.ratings.models import Edition

    pks = sorted({p.pk for p in published["players"]} | {awkward.pk * 1000, -1})
    for ed in Edition.objects.all():
        sheets.forget()
        by_pass = {pk: sheets.row_of(ed, pk) for pk in pks}
        assert not any(name == "#by-player" for (_pk, _d, _part, name) in sheets._cache)
        by_search = {pk: sheets.row_of(ed, pk, index=True) for pk in pks}
        assert by_pass == by_search and any(row is not None for row in by_pass.values())
        assert {pk: sheets.row_of(ed, pk) for pk in pks} == by_search  # (now the kept sorted keys)
        players = sheets.entries(ed, "player")["player"]
        assert all(row is None or players[row] == pk for pk, row in by_pass.items())
