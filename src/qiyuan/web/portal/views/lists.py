"""Rating lists (等级分榜): every list, each list date's editions, filters, downloads, the full history, and a
comparison of two editions.

Permalinks: ``/lists/<list code>/<date>/`` (the date's current edition) and ``/lists/<list code>/<date>/<edition
number>/`` (one edition, corrections included). A published edition never changes, so its rendered table is
cached for good, per filter and language; for visitors the whole page is cached and carries an ETag, and the
downloads of a numbered edition are immutable (cached by browsers and a CDN for a year).
"""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from qiyuan.formats.list_export import HISTORY_COLUMNS, write_list
from qiyuan.grading.words import grade_in_words
from qiyuan.office.exports import history_rows
from qiyuan.office.federation.models import Association, Player
from qiyuan.office.ratings.models import Edition, RatingList

from ...display import association_name, english, entry_person
from ...labels import list_status_label, sex_label
from .. import queries
from ..editions import edition_version, grants_version, listing_version
from ..filters import AGE_GROUPS, STATUSES, ListFilters
from ..http import conditional, digest, immutable_content, visitor_page
from .check import check_context

DOWNLOAD_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "txt": "text/plain; charset=utf-8",
    "pdf": "application/pdf",
}


def index(request):
    lists = []
    for rl in RatingList.objects.order_by("code"):
        editions = rl.current_editions()
        lists.append({"list": rl, "latest": editions[-1] if editions else None, "editions": editions[::-1]})
    return render(request, "portal/lists.html", {"lists": lists})


def current(request, list_code: str):
    rl = get_object_or_404(RatingList, code=list_code)
    editions = rl.current_editions()
    if not editions:
        raise Http404("nothing published yet")
    return redirect(edition_url(editions[-1]))


def edition_url(ed: Edition, *, with_number: bool = False) -> str:
    if with_number:
        return reverse("portal:list_edition_n", args=[ed.rating_list.code, ed.list_date.isoformat(), ed.number])
    return reverse("portal:list_edition", args=[ed.rating_list.code, ed.list_date.isoformat()])


def edition(request, list_code: str, on: str, number: int | None = None):
    """A list edition. For visitors the whole page is cached: an edition never changes, and a new publication
    (which may make another edition current for a date) changes the key. A page whose filters had problems is
    not kept (its message depends on the raw input)."""
    queries.parse_day(on)

    def build():
        ed = queries.find_edition(list_code, on, number)
        filters = queries.read_filters(request.GET, ed)
        response = _edition_page(request, ed, filters)
        response.cacheable = not filters.problems
        return response

    if not set(request.GET) <= ListFilters.PARAMS:
        return build()
    key = (f"portal:listpage:{listing_version()}:{list_code}:{on}:{number}:{get_language()}:"
           f"{digest(request.GET.urlencode())}")
    return visitor_page(request, key, build)


def _edition_page(request, ed: Edition, filters: ListFilters):
    key = (f"portal:list:{ed.pk}:g{grants_version()}:{get_language()}:{filters.page}:"
           f"{digest(filters.querystring())}")
    table = cache.get(key)
    if table is None:
        table = _render_table(ed, filters)
        cache.set(key, table, None)  # an edition never changes; a grant changes the key (its grade column)
    siblings = list(Edition.objects.filter(rating_list_id=ed.rating_list_id, list_date=ed.list_date)
                    .order_by("number").only("number", "list_date"))
    others = Edition.objects.filter(rating_list_id=ed.rating_list_id).exclude(pk=ed.pk).order_by(
        "-list_date", "-number").only("list_date", "number")
    return render(
        request,
        "portal/list_edition.html",
        {
            "ed": ed,
            "table": table,
            "filters": filters,
            "problems": [p.text(_) for p in filters.problems],
            "siblings": siblings,
            "is_latest_number": ed.number == siblings[-1].number,
            "age_groups": AGE_GROUPS,
            "statuses": STATUSES,
            "associations": Association.objects.order_by("code"),
            "dans": [g for g, _label in Player._meta.get_field("dan").choices],
            "formats": tuple(DOWNLOAD_TYPES),
            "others": others[:60],
            "check": check_context(request, ed),
        },
    )


def _render_table(ed: Edition, filters: ListFilters) -> str:
    page, rows = queries.list_page(ed, filters)
    return render_to_string("portal/_list_table.html", {
        "ed": ed, "rows": rows, "rows_html": list_rows_html(rows, ed.previous is not None), "page": page,
        "base_qs": filters.querystring(), "order": filters.order})


def _number(value) -> str:
    """An integer as the templates print it (``localize``: no thousands separator unless the settings say so)."""
    return localize(value) if settings.USE_THOUSAND_SEPARATOR else str(value)


def _blank(value) -> str:
    return "" if value is None else _number(value)


_STATUS_BADGE = {"active": "badge ok", "removed": "badge bad", "inactive": "badge"}


def list_rows_html(rows: list[queries.ListRowView], has_previous: bool) -> SafeString:
    """The rows of a list page's table — built here, not by the template language, whose cost per cell was most of a
    list page's first visit (as ``calculations.EventCalc.rows_html`` and the player page's tables are)."""
    esc = conditional_escape
    new, first = esc(_("新")), esc(_("新入榜"))
    latin_beside = get_language() != "en"
    chinese = not english()
    out = []
    for r in rows:
        e, p = r.e, r.p
        rank_change = r.rank_change
        if rank_change is not None:
            moved = (f'<span class="up">▲{_number(rank_change)}</span>' if rank_change > 0 else
                     f'<span class="down">▼{abs(rank_change)}</span>' if rank_change < 0 else '<span class="muted">–</span>')
        else:
            moved = f'<span class="badge ok">{new}</span>' if has_previous and not r.was_listed else ""
        change = r.rating_change
        changed = "" if change is None else (
            f'<span class="up">+{_number(change)}</span>' if change > 0 else
            f'<span class="down">{_number(change)}</span>' if change < 0 else '<span class="muted">0</span>')
        url = esc(reverse("portal:player", args=[p.federation_id]))
        latin = (f' <span class="muted small opt latin">{esc(p.name_latin)}</span>'
                 if p.name_latin and latin_beside else "")
        status = esc(list_status_label(e.status))
        badge = _STATUS_BADGE.get(e.status, "badge warn")
        out.append(
            f'<tr>\n<td class="num">{_blank(e.rank)}</td>\n<td class="num">{moved}</td>\n'
            f'<td class="opt"><a href="{url}">{esc(p.federation_id)}</a></td>\n'
            f'<td class="name"><a href="{url}">{esc(entry_person(e))}</a>{latin}</td>\n'
            f'<td class="opt">{esc(sex_label(p.gender))}</td>\n<td class="num opt">{_blank(p.birth_year)}</td>\n'
            f'<td class="opt">{esc(association_name(p.association))}</td>\n'
            f'<td class="opt">{esc(grade_in_words(p.dan or "", chinese=chinese))}</td>\n'
            f'<td class="num"><strong>{_blank(e.rating)}</strong></td>\n<td class="num">{changed}</td>\n'
            f'<td class="num opt">{_number(e.games)}</td>\n<td class="num opt">{_blank(e.k)}</td>\n'
            f'<td class="opt"><span class="{badge}">{status}</span>'
            f'{f""" <span class="badge ok">{first}</span>""" if e.is_new else ""}</td>\n</tr>')
    return mark_safe("".join(out))


def edition_file(ed: Edition, filters: ListFilters, fmt: str) -> bytes:
    """The bytes of the public file of an edition under the filters (no ID numbers, birth year only)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"list.{fmt}"
        write_list(queries.list_document(ed, filters), fmt, path)
        return path.read_bytes()


def download(request, list_code: str, on: str, number: int, fmt: str):
    """The edition as a public file, holding the rows the page shows under the same filters (every page)."""
    if fmt not in DOWNLOAD_TYPES:
        raise Http404("unknown format")
    ed = queries.find_edition(list_code, on, number)
    filters = queries.read_filters(request.GET, ed)
    if filters.problems:
        return HttpResponse("\n".join(p.text(_) for p in filters.problems) + "\n", status=400,
                            content_type="text/plain; charset=utf-8")
    qs = filters.querystring()
    grants = grants_version()  # the grade column is the player's grade now
    etag = f'"{ed.digest[:32]}-{fmt}-{digest(qs)}-g{grants}"'
    response = immutable_content(request, etag, f"portal:download:{ed.pk}:g{grants}:{fmt}:{digest(qs)}",
                                 lambda: edition_file(ed, filters, fmt), DOWNLOAD_TYPES[fmt])
    suffix = "-filtered" if qs else ""
    response["Content-Disposition"] = (f'attachment; filename="{ed.rating_list.code}-{ed.list_date.isoformat()}-'
                                       f'{ed.number}{suffix}.{fmt}"')
    return response


def history(request, list_code: str):
    """The list's full history (EGD manner): one row per player per rated event, rating before and after, over
    the current editions. Cached until the next publication."""
    rl = get_object_or_404(RatingList, code=list_code)
    version = edition_version()
    key = f"portal:history:{rl.pk}:{version}"
    etag = f'"history-{rl.pk}-{digest(version)}"'
    early = conditional(request, etag)
    if early is not None:
        return early
    data = cache.get(key)
    if data is None:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(HISTORY_COLUMNS)
        for r in history_rows(rl):
            w.writerow([r.federation_id, r.name, r.event_code, r.event_name, r.end_date.isoformat(),
                        r.list_date.isoformat(), r.edition, r.games, r.W, r.We, r.K, r.before, r.after, r.delta,
                        r.method])
        data = out.getvalue().encode("utf-8")
        cache.set(key, data, None)
    response = HttpResponse(data, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{rl.code}-history.csv"'
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=3600)
    return response


def compare(request, list_code: str, on: str, number: int):
    """Two editions of a list side by side: ``?with=<YYYY-MM-DD>[/<n>]`` (default: the one it was computed from)."""
    b = queries.find_edition(list_code, on, number)
    other = request.GET.get("with", "")
    problems = []
    a = b.previous
    if other:
        day, _sep, n = other.partition("/")
        try:
            a = queries.find_edition(list_code, day, int(n) if n.isdigit() else None)
        except Http404:
            problems.append(_("没有可比较的版本 “%(value)s”：请选择本榜单的一个发布日期。") % {"value": other[:30]})
            a = b.previous
    params = request.GET.copy()
    params.pop("with", None)
    filters = queries.read_filters(params, b)
    problems += [p.text(_) for p in filters.problems]
    page = rows = None
    if a is not None:
        page, rows = queries.compare_editions(a, b, filters)
    others = Edition.objects.filter(rating_list_id=b.rating_list_id).exclude(pk=b.pk).order_by(
        "-list_date", "-number").only("list_date", "number")
    response = render(request, "portal/list_compare.html", {
        "a": a, "b": b, "rows": rows, "page": page, "filters": filters, "problems": problems,
        "others": others[:60], "with": other, "base_qs": filters.querystring() + (f"with={other}&" if other else ""),
    })
    patch_vary_headers(response, ("Cookie",))
    return response
