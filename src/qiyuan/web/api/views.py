"""The read-only JSON API (开放数据接口) under ``/api/v1/``: lists and editions (entries paginated and filtered as
the pages are), players, a player's history, events with their games, rating changes; the OpenAPI 3.1 schema at
``/api/v1/openapi.json``.

Plain Django views returning ``JsonResponse`` (docs/decisions.md: no framework for a read-only API of this size).
Every response is GET/HEAD, open to any origin (CORS), and every error is JSON:
``{"errors": [{"code", "parameter", "message"}]}`` with 400 (a bad parameter), 404 or 405. Messages are English;
``code`` is for programs. A numbered edition's entries and changes never change: they carry an ETag and are
cached for a year.
"""

from __future__ import annotations

import functools
import json
from datetime import date

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone, translation

from qiyuan.errors import NotFound, Problem, problem
from qiyuan.office import bundles, heads, sheets
from qiyuan.office.event_registration import public_calendar
from qiyuan.office.events.models import Event, Game
from qiyuan.office.federation.models import Player
from qiyuan.office.registry import search_players
from qiyuan.office.ratings.models import Edition, RatingList
from qiyuan.office.signing_key import key_info

from ..portal import queries
from ..portal.editions import current_edition_ids, editions_by_id, grants_version
from ..portal.filters import CalendarFilters, EventFilters, ListFilters, page_number, text_query
from ..portal.http import conditional, digest, immutable, immutable_content
from . import dump as dump_files
from . import records
from . import serialize as S
from .schema import openapi

PAGE_SIZE, MAX_PAGE_SIZE = 100, 500
SEARCH_LIMIT = 200


class BadRequest(Exception):
    def __init__(self, problems: list[Problem]):
        self.problems = problems


def _json(data, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})


def _errors(problems: list[Problem], status: int) -> JsonResponse:
    return _json({"errors": [{"code": p.code or "error", "parameter": p.column if isinstance(p.column, str) else None,
                              "message": p.text()} for p in problems]}, status)


def _cors(response: HttpResponse) -> HttpResponse:
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Allow-Methods"] = "GET, HEAD, OPTIONS"
    response["Access-Control-Allow-Headers"] = "If-None-Match"
    response["Access-Control-Expose-Headers"] = "ETag"
    return response


def api_view(view):
    """GET/HEAD only (OPTIONS answered for CORS preflights), CORS headers, errors as JSON."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method == "OPTIONS":
            return _cors(HttpResponse(status=204))
        if request.method not in ("GET", "HEAD"):
            response = _errors([problem("the API is read-only: use GET", code="method_not_allowed")], 405)
            response["Allow"] = "GET, HEAD, OPTIONS"
            return _cors(response)
        with translation.override("en"):  # the API speaks English whatever the browser asks
            try:
                response = view(request, *args, **kwargs)
            except BadRequest as exc:
                response = _errors(exc.problems, 400)
            except Http404 as exc:
                response = _errors([problem("not found: {what}", code="not_found", what=str(exc) or request.path)],
                                   404)
        return _cors(response)

    wrapped.csrf_exempt = True  # read-only: no state to protect, and no cookie is honoured
    return wrapped


def _page(params, problems: list[Problem]) -> tuple[int, int]:
    number = page_number(params, problems)
    raw = params.get("page_size", "")
    size = PAGE_SIZE
    if raw:
        if raw.isdigit() and 1 <= int(raw) <= MAX_PAGE_SIZE:
            size = int(raw)
        else:
            problems.append(problem("page_size must be a whole number from 1 to {max}, not “{value}”",
                                    column="page_size", code="filter.page_size", max=MAX_PAGE_SIZE, value=raw[:20]))
    return number, size


def _paginated(request, qs, number: int, size: int, item) -> dict:
    paginator = Paginator(qs, size)
    if number > max(paginator.num_pages, 1):
        raise BadRequest([problem("page {page} does not exist: there are {pages}", column="page",
                                  code="filter.page", page=number, pages=paginator.num_pages)])
    page = paginator.get_page(number)

    def link(n: int) -> str:
        params = request.GET.copy()
        params["page"] = str(n)
        return request.path + "?" + params.urlencode()

    return {"count": paginator.count, "page": page.number, "page_size": size, "pages": paginator.num_pages,
            "next": link(page.next_page_number()) if page.has_next() else None,
            "previous": link(page.previous_page_number()) if page.has_previous() else None,
            "results": [item(x) for x in page.object_list]}


def _unknown_params(params, allowed: frozenset[str]) -> list[Problem]:
    return [problem("unknown parameter {name}", column=k[:30], code="filter.unknown", name=k[:30])
            for k in params if k not in allowed]


# ------------------------------------------------------------------------------------------------ index, schema


def _no_params(request) -> None:
    """An endpoint that takes no parameter refuses any, as the others refuse an unknown one."""
    problems = _unknown_params(request.GET, frozenset())
    if problems:
        raise BadRequest(problems)


@api_view
def index(request):
    _no_params(request)
    return _json({
        "name": "qiyuan open data", "version": "v1", "schema": reverse("api:openapi"),
        "lists": reverse("api:lists"), "players": reverse("api:players"), "events": reverse("api:events"),
        "calendar": reverse("api:calendar"), "changes": reverse("api:changes"),
        "dump": reverse("api:dump"),
        "docs": request.build_absolute_uri(reverse("portal:open_data")),
    })


@api_view
def schema(request):
    _no_params(request)
    return _json(openapi())


@api_view
def not_found(request, rest: str = ""):
    raise Http404(request.path)


# ------------------------------------------------------------------------------------------------ lists


@api_view
def lists(request):
    _no_params(request)
    out = []
    for rl in RatingList.objects.order_by("code"):
        latest = rl.editions.order_by("-list_date", "-number").first()
        out.append(S.rating_list(rl, latest))
    return _json({"results": out})


@api_view
def rating_list(request, code: str):
    _no_params(request)
    rl = RatingList.objects.filter(code=code).first()
    if rl is None:
        raise Http404(f"list {code}")
    return _json(records.rating_list_detail(rl))


@api_view
def list_chain(request, code: str):
    """The list's editions in publication order as a chain: each edition's digest, the digest of the edition
    it was computed from, the one a correction supersedes, and its bundle's address; with the federation's
    public key and fingerprint (null while the office has no signing key)."""
    _no_params(request)
    rl = RatingList.objects.filter(code=code).first()
    if rl is None:
        raise Http404(f"list {code}")
    try:
        key = key_info()
        key_data = {"url": request.build_absolute_uri(reverse("portal:public_key")), "fingerprint": key.fingerprint}
    except NotFound:
        key_data = None
    editions = []
    for row in bundles.chain(rl):
        editions.append({**row, "bundle": request.build_absolute_uri(reverse(
            "portal:list_bundle", args=[rl.code, row["list_date"], row["number"]])) if key_data else None})
    signed = {}
    if key_data and editions:  # the signed head: how many editions, the newest (qiyuan verify-edition --chain)
        head, sig = heads.current_head(rl)
        signed = {"head": head.decode("utf-8"), "head_signature": sig.decode("ascii").strip(),
                  "witnesses": request.build_absolute_uri(reverse("api:list_witnesses", args=[rl.code]))}
    return _json({"list": rl.code, "public_key": key_data, "editions": editions, **signed})


@api_view
def list_witnesses(request, code: str):
    """The witnesses' countersignatures of the list's heads (``qiyuan office witness add``), newest head
    first: each the head's text, the witness's name and public key, its signature (base64)."""
    _no_params(request)
    rl = RatingList.objects.filter(code=code).first()
    if rl is None:
        raise Http404(f"list {code}")
    return _json({"list": rl.code, "countersignatures": [json.loads(w) for w in heads.witnesses(rl)]})


def _edition(code: str, on: str, number: int | None) -> Edition:
    return queries.find_edition(code, on, number)


@api_view
def edition(request, code: str, on: str, number: int | None = None):
    _no_params(request)
    ed = _edition(code, on, number)
    return _json(records.edition_record(ed))


ENTRY_PARAMS = ListFilters.PARAMS | {"page_size"}


@api_view
def edition_entries(request, code: str, on: str, number: int):
    """The entries of a numbered edition, filtered as the list page filters them (immutable: an answer once
    given is kept under its address and served again with one indexed read: the newest grant, as the entries'
    grade is the player's grade now)."""
    grants = grants_version()
    by_address = f"api:entries-at:{code}:{on}:{number}:g{grants}:{digest(request.GET.urlencode())}"
    known = cache.get(by_address)
    if known is not None:
        body, etag = known
        return immutable(conditional(request, etag) or HttpResponse(body, content_type="application/json"), etag)
    ed = _edition(code, on, number)
    problems = _unknown_params(request.GET, ENTRY_PARAMS)
    filters = queries.read_filters(request.GET, ed)
    page_no, size = _page(request.GET, problems)
    problems += [p for p in filters.problems if p.column != "page"]
    if problems:
        raise BadRequest(problems)
    qs = filters.querystring()
    etag = f'"{ed.digest[:32]}-{digest(f"{qs}{page_no}:{size}")}-g{grants}"'

    def build() -> str:
        data = _paginated(request, queries.entries(ed, filters), page_no, size, records.entry)
        data["edition"] = S.edition_ref(ed)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    response = immutable_content(request, etag, f"api:entries:{ed.pk}:g{grants}:{digest(qs)}:{page_no}:{size}", build,
                                 "application/json")
    if response.status_code == 200:
        cache.set(by_address, (response.content, etag), None)
    return response


CHANGE_PARAMS = frozenset({"page", "page_size", "event", "player"})


@api_view
def edition_changes(request, code: str, on: str, number: int):
    """The rating changes an edition published (per player per event), optionally of one event or player."""
    ed = _edition(code, on, number)
    problems = _unknown_params(request.GET, CHANGE_PARAMS)
    page_no, size = _page(request.GET, problems)
    if problems:
        raise BadRequest(problems)
    qs = sheets.ChangeRows(sheets.edition_change_rows(ed, event_code=request.GET.get("event") or None,
                                                      federation_id=request.GET.get("player") or None))
    data = _paginated(request, qs, page_no, size, S.change)
    data["edition"] = S.edition_ref(ed)
    etag = f'"{ed.digest[:32]}-c-{digest(request.GET.urlencode())}"'
    return immutable(_json(data), etag)


# ------------------------------------------------------------------------------------------------ players


@api_view
def players(request):
    """Players by name (Chinese, pinyin, initials, Latin), former name or federation ID (``q``, required),
    paginated as the other collections are (the best matches first, at most ``SEARCH_LIMIT`` in all)."""
    problems = _unknown_params(request.GET, frozenset({"q", "page", "page_size"}))
    q = text_query(request.GET, problems)
    page_no, size = _page(request.GET, problems)
    if not q:
        problems.append(problem("q is required: a name, pinyin or federation ID", column="q", code="filter.q"))
    if problems:
        raise BadRequest(problems)
    found = search_players(q, limit=SEARCH_LIMIT)
    data = _paginated(request, found, page_no, size, lambda p: p)
    ratings = queries.current_ratings(p.pk for p in data["results"])
    data["results"] = [{**S.player(p), "ratings": [_rating(rl, e) for rl, e in ratings.get(p.pk, [])]}
                       for p in data["results"]]
    data["limit"] = SEARCH_LIMIT
    return _json(data)


def _rating(rl: RatingList, e: sheets.PublishedEntry) -> dict:
    return {"list": rl.code, "list_date": e.edition.list_date.isoformat(), "edition": e.edition.number,
            "rating": e.rating, "rank": e.rank, "status": e.status}


def _player(federation_id: str) -> Player:
    p = Player.objects.select_related("association").filter(federation_id=federation_id).first()
    if p is None:
        raise Http404(f"player {federation_id}")
    return p


@api_view
def player(request, federation_id: str):
    _no_params(request)
    p = _player(federation_id)
    data = S.player(p)
    data["merged_into"] = p.merged_into.federation_id if p.merged_into_id else None
    data["ratings"] = [_rating(rl, e) for rl, e in queries.current_ratings([p.pk]).get(p.pk, [])]
    data["history_url"] = reverse("api:player_history", args=[p.federation_id])
    return _json(data)


@api_view
def player_history(request, federation_id: str):
    """Per list, the player's row on each list date (current editions) and every rating change, oldest first;
    a kept record includes what was published under its merged duplicates' IDs."""
    _no_params(request)
    p = _player(federation_id)
    mine = [p.pk] + [d.pk for d in queries.merged_duplicates(p)]
    current = current_edition_ids()
    editions = editions_by_id()
    rows = sheets.player_entries([editions[pk] for pk in sorted(current)], mine)  # (binary search in each sheet)
    by_list: dict[str, dict] = {}
    for e in sorted(rows, key=lambda e: (e.edition.rating_list.code, e.edition.list_date)):
        ed = e.edition
        item = by_list.setdefault(ed.rating_list.code, {"list": ed.rating_list.code, "ratings": [], "changes": []})
        item["ratings"].append({"list_date": ed.list_date.isoformat(), "edition": ed.number, "rating": e.rating,
                                "exact": e.exact or None, "rank": e.rank, "games": e.games, "k": e.k,
                                "status": e.status})
    changes = sheets.change_objects(sheets.change_rows([editions[pk] for pk in sorted(current)], players=set(mine)))
    for c in sorted(changes, key=lambda c: (c.event.end_date, c.event.code)):
        item = by_list.setdefault(c.edition.rating_list.code, {"list": c.edition.rating_list.code, "ratings": [],
                                                              "changes": []})
        item["changes"].append(S.change(c, with_player=False))
    return _json({"player": S.player_ref(p), "lists": list(by_list.values())})


# ------------------------------------------------------------------------------------------------ events


@api_view
def events(request):
    lists_ = set(RatingList.objects.values_list("code", flat=True))
    problems = _unknown_params(request.GET, EventFilters.PARAMS | {"page_size"})
    filters = EventFilters.read(request.GET, lists_)
    page_no, size = _page(request.GET, problems)
    problems += [p for p in filters.problems if p.column != "page"]
    if problems:
        raise BadRequest(problems)
    qs = queries.events_query(filters)
    paginator_page = Paginator(qs, size)
    if page_no > max(paginator_page.num_pages, 1):
        raise BadRequest([problem("page {page} does not exist: there are {pages}", column="page",
                                  code="filter.page", page=page_no, pages=paginator_page.num_pages)])
    events_ = list(paginator_page.get_page(page_no).object_list)
    rounds = queries.event_rounds(events_)
    counts = queries.event_player_counts(events_)
    by_pk = {e.pk: S.event(e, rounds[e.pk], counts.get(e.pk, 0)) for e in events_}
    return _json(_paginated(request, qs, page_no, size, lambda e: by_pk[e.pk]))


@api_view
def event(request, code: str):
    """An event: its facts, entrants (as reported), games round by round, and the rating changes published."""
    _no_params(request)
    e = Event.objects.select_related("rating_list").filter(code=code).first()
    if e is None:
        raise Http404(f"event {code}")
    return _json(records.event_record(e))


# ------------------------------------------------------------------------------------------------ calendar


@api_view
def calendar(request):
    """The public calendar (赛事日历): approved registrations by start date, filtered as the /calendar/ page."""
    problems = _unknown_params(request.GET, CalendarFilters.PARAMS | {"page", "page_size"})
    filters = CalendarFilters.read(request.GET, set(RatingList.objects.values_list("code", flat=True)))
    page_no, size = _page(request.GET, problems)
    problems += filters.problems
    if problems:
        raise BadRequest(problems)
    today = timezone.localdate()
    qs = public_calendar(**filters.query())
    return _json(_paginated(request, qs, page_no, size, lambda r: S.calendar_entry(r, upcoming=r.end_date >= today)))


# ------------------------------------------------------------------------------------------------ open data


@api_view
def distribution(request, code: str, on: str, number: int):
    """The edition's rating distribution: bins of 100 points and nearest-rank percentiles of its active players."""
    _no_params(request)
    ed = _edition(code, on, number)
    return immutable(_json(records.distribution_record(ed)), f'"{ed.digest[:32]}-dist"')


CHANGES_FEED_PARAMS = frozenset({"since", "list", "page", "page_size"})


@api_view
def changes(request):
    """The changes feed: every rating change published on or after ``since`` (a date, required), by publication,
    optionally of one list — what a mirror fetches to stay current."""
    problems = _unknown_params(request.GET, CHANGES_FEED_PARAMS)
    page_no, size = _page(request.GET, problems)
    raw = request.GET.get("since", "")
    since = None
    try:
        since = date.fromisoformat(raw) if raw else None
    except ValueError:
        pass
    if since is None:
        problems.append(problem("since must be a date YYYY-MM-DD, not “{value}”", column="since",
                                code="filter.since", value=raw[:20]))
    code = request.GET.get("list", "")
    if code and not RatingList.objects.filter(code=code).exists():
        problems.append(problem("unknown list {value}", column="list", code="filter.list", value=code[:30]))
    if problems:
        raise BadRequest(problems)
    editions = Edition.objects.filter(published_at__date__gte=since).select_related("rating_list").order_by(
        "published_at", "id")
    if code:
        editions = editions.filter(rating_list__code=code)
    qs = sheets.ChangeRows([row for ed in editions for row in sheets.edition_change_rows(ed)])
    data = _paginated(request, qs, page_no, size, S.change)
    data["since"] = since.isoformat()
    return _json(data)


@api_view
def dump(request):
    """The whole public record as files, with their SHA-256 digests (rebuilt after each publication)."""
    _no_params(request)
    version, directory = dump_files.current_dump()
    digests = dump_files.manifest(directory)
    files = [{"name": name, "url": reverse("api:dump_file", args=[version, name]), "sha256": digest,
              "bytes": (directory / name).stat().st_size} for name, digest in sorted(digests.items())]
    return _json({"version": version, "files": files,
                  "manifest": reverse("api:dump_file", args=[version, dump_files.MANIFEST]),
                  "formats": request.build_absolute_uri(reverse("portal:open_data"))})


@api_view
def dump_file(request, version: str, name: str):
    """One file of a dump (immutable under its version; an older version answers 404 once replaced)."""
    _no_params(request)
    current, directory = dump_files.current_dump()
    if version != current or name not in (*dump_files.FILES, dump_files.MANIFEST):
        raise Http404(f"dump file {version}/{name}")
    digests = dump_files.manifest(directory)
    etag = f'"{digests.get(name, version)[:32]}"'
    early = conditional(request, etag)
    if early is not None:
        return immutable(early, etag)
    types = {"json": "application/json", "csv": "text/csv; charset=utf-8"}
    response = FileResponse((directory / name).open("rb"),
                            content_type=types.get(name.rsplit(".", 1)[-1], "text/plain; charset=us-ascii"))
    # saved under the name SHA256SUMS lists (``sha256sum -c`` in the download folder checks what a browser saved)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return immutable(response, etag)
