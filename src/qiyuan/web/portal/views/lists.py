"""Rating lists (等级分榜): every list, each list date's editions, filters, downloads.

Permalinks: ``/lists/<list code>/<date>/`` (the date's current edition) and
``/lists/<list code>/<date>/<edition number>/`` (one edition, corrections
included). A published edition never changes, so its rendered table is cached
for good, per filter and language.
"""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from qiyuan.office.federation.models import Association, Player
from qiyuan.office.registry import search_players
from qiyuan.office.ratings.models import Edition, EditionEntry, RatingList
from qiyuan.office.exports import export_edition

from ..editions import edition_version



PAGE_SIZE = 100
SEARCH_LIMIT = 500  # players a name search may match on a list page
#: Age groups: "U16" = under 16 on 1 January of the list's year, i.e. born in
#: the list's year minus 16 or later (FIDE's convention for youth lists).
AGE_GROUPS = (8, 10, 12, 14, 16, 18, 20)
STATUSES = ("active", "inactive", "unrated", "removed")
LISTED = ("active", "inactive")  # shown unless a status is chosen


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
    return redirect(_edition_url(editions[-1]))


def _edition_url(ed: Edition, *, with_number: bool = False) -> str:
    if with_number:
        return reverse("portal:list_edition_n", args=[ed.rating_list.code, ed.list_date.isoformat(), ed.number])
    return reverse("portal:list_edition", args=[ed.rating_list.code, ed.list_date.isoformat()])


def find_edition(list_code: str, on: str, number: int | None) -> Edition:
    """The edition of a permalink (the current one of the date when no number is given)."""
    try:
        day = date.fromisoformat(on)
    except ValueError:
        raise Http404("not a date") from None
    qs = Edition.objects.select_related("rating_list").filter(rating_list__code=list_code, list_date=day)
    ed = qs.filter(number=number).first() if number is not None else qs.order_by("-number").first()
    if ed is None:
        raise Http404("no such edition")
    return ed


def previous_edition(ed: Edition) -> Edition | None:
    """The current edition of the list date before this one (what rank changes compare with)."""
    return (
        Edition.objects.filter(rating_list_id=ed.rating_list_id, list_date__lt=ed.list_date)
        .order_by("-list_date", "-number")
        .first()
    )


class ListFilters:
    """The list page's filters, read from the query string and validated."""

    def __init__(self, params, list_year: int):
        self.gender = params.get("gender", "") if params.get("gender") in ("M", "F") else ""
        age = params.get("age", "")
        self.age = int(age[1:]) if age[:1] == "U" and age[1:].isdigit() and int(age[1:]) in AGE_GROUPS else None
        self.born_from = _year(params.get("born_from"))
        self.born_to = _year(params.get("born_to"))
        self.association = params.get("association", "")[:16]
        self.status = params.get("status", "") if params.get("status") in STATUSES + ("all",) else ""
        self.dan = params.get("dan", "")[:3]
        self.q = params.get("q", "").strip()[:50]
        self.list_year = list_year

    def querystring(self) -> str:
        """The normalised filters as a query string prefix (``a=1&b=2&``, or empty)."""
        pairs = {
            "q": self.q, "gender": self.gender, "age": f"U{self.age}" if self.age else "",
            "born_from": self.born_from or "", "born_to": self.born_to or "", "association": self.association,
            "status": self.status, "dan": self.dan,
        }
        text = urlencode({k: v for k, v in pairs.items() if v})
        return text + "&" if text else ""

    def apply(self, qs):
        if self.gender:
            qs = qs.filter(player__gender=self.gender)
        if self.age:
            qs = qs.filter(player__birth_date__year__gte=self.list_year - self.age)
        if self.born_from:
            qs = qs.filter(player__birth_date__year__gte=self.born_from)
        if self.born_to:
            qs = qs.filter(player__birth_date__year__lte=self.born_to)
        if self.association:
            qs = qs.filter(Q(player__association__code=self.association))
        if self.status and self.status != "all":
            qs = qs.filter(status=self.status)
        elif not self.status:
            qs = qs.filter(status__in=LISTED)
        if self.dan == "dan":
            qs = qs.filter(player__dan__endswith="d")
        elif self.dan == "kyu":
            qs = qs.filter(player__dan__endswith="k")
        elif self.dan:
            qs = qs.filter(player__dan=self.dan)
        if self.q:
            qs = qs.filter(player_id__in=[p.pk for p in search_players(self.q, limit=SEARCH_LIMIT)])
        return qs


def _year(value) -> int | None:
    return int(value) if value and value.isdigit() and 1900 <= int(value) <= 2200 else None


#: Query parameters a list page understands (pages asking only these are cached whole).
LIST_PARAMS = frozenset({"q", "gender", "age", "born_from", "born_to", "association", "status", "dan", "page"})


def edition(request, list_code: str, on: str, number: int | None = None):
    """A list edition. For visitors (not signed in) the whole page is cached: it carries no
    token and no name, and an edition never changes; a new publication (which may make
    another edition current for a date) changes the key."""
    page_no = request.GET.get("page", "1")
    page_no = int(page_no) if page_no.isdigit() else 1
    whole_key = None
    if not request.user.is_authenticated and set(request.GET) <= LIST_PARAMS:
        try:
            year = date.fromisoformat(on).year
        except ValueError:
            raise Http404("not a date") from None
        qs = ListFilters(request.GET, year).querystring()
        whole_key = f"portal:listpage:{edition_version()}:{list_code}:{on}:{number}:{get_language()}:{page_no}:{qs}"
        html = cache.get(whole_key)
        if html is not None:
            return HttpResponse(html)
    response = _edition_page(request, list_code, on, number, page_no)
    if whole_key is not None and response.status_code == 200:
        cache.set(whole_key, response.content.decode(), None)
    return response


def _edition_page(request, list_code: str, on: str, number: int | None, page_no: int):
    ed = find_edition(list_code, on, number)
    filters = ListFilters(request.GET, ed.list_date.year)
    key = f"portal:list:{ed.pk}:{get_language()}:{page_no}:{filters.querystring()}"
    table = cache.get(key)
    if table is None:
        table = _render_table(ed, filters, page_no)
        cache.set(key, table, None)  # an edition never changes
    siblings = Edition.objects.filter(rating_list_id=ed.rating_list_id, list_date=ed.list_date).order_by("number")
    return render(
        request,
        "portal/list_edition.html",
        {
            "ed": ed,
            "table": table,
            "filters": filters,
            "siblings": siblings,
            "is_latest_number": ed.number == siblings.last().number,
            "age_groups": AGE_GROUPS,
            "statuses": STATUSES,
            "associations": Association.objects.order_by("code"),
            "dans": [g for g, _label in Player._meta.get_field("dan").choices],
            "formats": ("csv", "xlsx", "txt", "pdf"),
        },
    )


def _render_table(ed: Edition, filters: ListFilters, page_no: int) -> str:
    qs = filters.apply(
        EditionEntry.objects.filter(edition=ed).select_related("player", "player__association").order_by("position")
    )
    page = Paginator(qs, PAGE_SIZE).get_page(page_no)
    prev = previous_edition(ed)
    prev_rank = {}
    if prev is not None:
        ids = [e.player_id for e in page.object_list]
        prev_rank = dict(
            EditionEntry.objects.filter(edition=prev, player_id__in=ids).values_list("player_id", "rank")
        )
    rows = []
    for e in page.object_list:
        before = prev_rank.get(e.player_id)
        change = (before - e.rank) if (before and e.rank) else None
        rows.append({"e": e, "p": e.player, "change": change, "was_listed": e.player_id in prev_rank})
    base_qs = filters.querystring()
    return render_to_string(
        "portal/_list_table.html", {"ed": ed, "rows": rows, "page": page, "prev": prev, "base_qs": base_qs}
    )


DOWNLOAD_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "txt": "text/plain; charset=utf-8",
    "pdf": "application/pdf",
}


def edition_file(ed: Edition, fmt: str) -> bytes:
    """The bytes of the public file of an edition (the office's export: no ID numbers, birth year only)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"list.{fmt}"
        export_edition(ed, fmt, path)
        return path.read_bytes()


def download(request, list_code: str, on: str, number: int, fmt: str):
    """The edition as a public file (ID numbers never included: the public export)."""
    if fmt not in DOWNLOAD_TYPES:
        raise Http404("unknown format")
    ed = find_edition(list_code, on, number)
    key = f"portal:download:{ed.pk}:{fmt}"
    data = cache.get(key)
    if data is None:
        data = edition_file(ed, fmt)
        cache.set(key, data, None)
    response = HttpResponse(data, content_type=DOWNLOAD_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{ed.rating_list.code}-{ed.list_date.isoformat()}-{ed.number}.{fmt}"'
    return response
