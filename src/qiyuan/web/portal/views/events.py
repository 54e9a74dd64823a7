"""Event pages (比赛): crosstable, pairings and results per round, standings
with tie-breaks, rating changes, and the eligibility checks the event passed.

``/events/<code>/`` shows an event run at the desk (live, from its TRF) and its rated record (imported from the
desk's report) as one event, under either code; an imported event without a desk record is shown from its stored
entries and games. ``/events/`` lists each event once, with filters.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from qiyuan.office.events.models import Event, Game
from qiyuan.office.federation.models import Association, Player
from qiyuan.office import sheets
from qiyuan.office.integrity import is_held
from qiyuan.office.ratings.models import RatingList
from qiyuan.rating.eligibility import eligibility_clauses
from qiyuan.tournament import hall
from qiyuan.tournament.check import verdict_from_record, verdict_lines
from qiyuan.tournament.scoring import score
from qiyuan.tournament.model import Entrant, RoundCell, Tournament

from ...display import display_name, english
from .. import queries
from ..editions import current_edition_ids, data_version, editions_by_id, live_version
from ..eventview import build
from ..http import visitor_page
from ..filters import EVENT_FORMATS, EVENT_STATUSES, EventFilters
from ..rules_text import eligibility_checks

EVENTS_PAGE = 50

#: TRF result codes of player1 and player2 for a stored result.
_CELLS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "0.5-0.5": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"),
          "--": ("-", "-"), "++": ("1", "1"), "0-0": ("0", "0")}

#: TRF colours of player1 and player2 from a stored game's opener (1: player1 opened, 2: player2, None: unknown).
_COLOURS = {1: ("b", "w"), 2: ("w", "b"), None: ("-", "-")}


def index(request):
    """Every event once: the desk's events without a rated record yet, then the rated record of every event
    (filtered by list, format, year, status and name), newest first."""
    lists = {rl.code: rl for rl in RatingList.objects.order_by("code")}
    filters = EventFilters.read(request.GET, set(lists))
    page = Paginator(queries.events_query(filters), EVENTS_PAGE).get_page(filters.page)
    events = list(page.object_list)
    rounds = queries.event_rounds(events)
    players = queries.event_player_counts(events)
    live_rows = []
    if not filters.pairs() and filters.page == 1:  # the desk's events only on the unfiltered first page
        for live in queries.unrated_live_events():
            t = queries.live_tournament(live)
            live_rows.append({"live": live, "t": t, "rounds": t.rounds_played, "planned": t.rounds_planned})
    rows = [{"e": e, "rounds": rounds[e.pk], "players": players.get(e.pk, 0)} for e in events]
    return render(request, "portal/events.html", {
        "live_rows": live_rows, "rows": rows, "page": page, "filters": filters, "lists": lists.values(),
        "formats": EVENT_FORMATS, "statuses": EVENT_STATUSES, "problems": [p.text(_) for p in filters.problems],
        "base_qs": filters.querystring()})


def tournament_from_records(event: Event) -> Tournament:
    """An imported event in the tournament's plain shape (no ID numbers): each cell's colour from who opened
    (先手 ``b``, 后手 ``w``; ``-`` where the report did not say)."""
    entries = list(event.entries.select_related("player").order_by("number", "rank", "id"))
    t = Tournament(name=event.name, city=event.city, start_date=event.start_date, end_date=event.end_date,
                   time_control=event.time_control, rounds_planned=event.rounds or None)
    number_of: dict[int, int] = {}
    for i, en in enumerate(entries, 1):
        number_of[en.player_id] = i
        p = en.player
        t.entrants.append(Entrant(i, en.name or p.name, sex={"M": "m", "F": "w"}.get(p.gender, ""), title=en.dan,
                                  rating=en.rating, federation=en.association, player_id=p.federation_id,
                                  rank=en.rank, points=en.score))
    games = list(Game.objects.filter(event=event).order_by("round", "id").values_list("round", "player1_id",
                                                                                     "player2_id", "result", "opener"))
    rounds = max((g[0] for g in games), default=0)
    for e in t.entrants:
        e.rounds = [RoundCell(None, "-", "Z") for _r in range(rounds)]
    for rnd, p1, p2, result, opener in games:
        a, b = number_of.get(p1), number_of.get(p2)
        if a is None or b is None:
            continue
        ra, rb = _CELLS[result]
        ca, cb = _COLOURS[opener]
        t.entrants[a - 1].rounds[rnd - 1] = RoundCell(b, ca, ra)
        t.entrants[b - 1].rounds[rnd - 1] = RoundCell(a, cb, rb)
    return t


def event_scores(event: Event) -> dict[str, object]:
    """Each entrant's score (federation ID → points) counted from the stored games under the event's point
    system, as the crosstable counts it (the report gives ranks, not always scores)."""
    t = tournament_from_records(event)
    return {e.player_id: score(e, t.points) for e in t.entrants}


def eligibility_view(event: Event) -> dict:
    """The checks of the list's rule set, each ticked unless it failed; the failures with their reasons.
    (The import's notes are the officer's, shown at the desk, not here.)"""
    data = event.eligibility or {}
    family = data.get("family") or event.rating_list.rules_name
    failures = [str(f) if not isinstance(f, dict) else f"{f.get('clause', '')}: {f.get('message', '')}"
                for f in data.get("failures") or []]
    rules = event.rating_list.rules()
    checks = [(label, text, not any(f.startswith(clause.clause) for f in failures))
              for clause, (label, text) in zip(eligibility_clauses(rules), eligibility_checks(rules), strict=True)]
    return {"family": family, "failures": failures, "checks": checks}


def pairing_check_view(event: Event) -> dict | None:
    """The event checker's verdict stored at import, in the page's language: its status and its lines (None when
    the event was not checked: a history-CSV load, or stored before the checker)."""
    if not event.pairing_check:
        return None
    verdict = verdict_from_record(event.pairing_check)
    return {"status": verdict.status, "lines": verdict_lines(verdict, _)}


def entered_labels() -> dict[str, str]:
    """How a result was entered (``tournament.hall.ENTERED``), in the page's language."""
    return {hall.PHONES: _("双方手机确认、裁判签字"), hall.SETTLED: _("裁判在赛场裁定"), hall.DESK: _("记录台录入"),
            hall.TERMINAL: _("终端录入"), hall.FILE: _("无来源记录，仅来自导入的文件")}


def provenance_view(event: Event) -> dict:
    """Where the event's rated results came from (issue 37): how many were entered each way (zeros left out), and
    the SHA-256 of the file they were imported in — counts and roles only, never a person."""
    counts = dict(Game.objects.filter(event=event).values_list("entered").annotate(n=Count("id")))
    labels = entered_labels()
    batch = event.import_batch
    return {"counts": [(key, labels[key], counts[key]) for key in hall.ENTERED if counts.get(key)],
            "sha256": batch.sha256 if batch else ""}


def live_provenance_view(t: Tournament) -> dict:
    """``provenance_view`` of a desk event still running: its results counted from the event's record (``XRP``)."""
    labels = entered_labels()
    return {"counts": [(key, labels[key], n) for key, n in hall.entered_counts(t).items() if n], "sha256": ""}


def _names_for_the_page(t: Tournament) -> None:
    """Associations by their names, never their codes (a report may give ``ZJ``); on English pages players by
    their Latin names, associations by their English names (where the registry has one)."""
    by_code = {code: (name, name_en) for code, name, name_en in Association.objects.values_list(
        "code", "name", "name_en")}
    for e in t.entrants:
        if e.federation in by_code:
            name, name_en = by_code[e.federation]
            e.federation = (name_en or name) if english() else name
    if not english():
        return
    latin = dict(Player.objects.filter(federation_id__in=[e.player_id for e in t.entrants if e.player_id])
                 .values_list("federation_id", "name_latin"))
    assoc = dict(Association.objects.exclude(name_en="").values_list("name", "name_en"))
    for e in t.entrants:
        e.name = display_name(e.name, latin.get(e.player_id, "") or "", english=True)
        e.federation = assoc.get(e.federation, e.federation)
    t.chief_arbiter = display_name(t.chief_arbiter or "", english=True)
    t.deputy_arbiters = [display_name(a, english=True) for a in t.deputy_arbiters]


def ratings_used(stored: Event) -> tuple[list, dict[str, object]]:
    """The event's rating changes on the current editions, and by federation ID the rating each player's
    calculation started from (Ro: the crosstable's rating column)."""
    editions = editions_by_id()
    changes = sheets.change_objects(sheets.change_rows(
        [editions[pk] for pk in sorted(current_edition_ids())], events={stored.pk}))
    changes.sort(key=lambda c: (-c.delta, c.player.federation_id))
    return changes, {c.player.federation_id: c.before for c in changes}


def event(request, code: str):
    """An event's page; cached whole for visitors (with its ETag and lifetime, as list pages are) until the office
    next writes anything (``data_version``) or a desk event changes (``live_version``)."""
    if request.GET:
        return _event(request, code)
    key = f"portal:event:{data_version()}:{live_version()}:{code}:{get_language()}"
    return visitor_page(request, key, lambda: _event(request, code))


def _event(request, code: str):
    live, stored, t = queries.find_event(code)
    if live is None and stored is None:
        raise Http404("no such event")
    context: dict = {"live": live, "event": stored}
    if live is not None:
        _names_for_the_page(t)
        view = build(t, live_event=live)
        if stored is None:  # (while it runs: from the desk event's own record)
            context["provenance"] = live_provenance_view(t)
    else:
        go = stored.rating_list.game == RatingList.Game.GO
        t = tournament_from_records(stored)
        _names_for_the_page(t)
        view = build(t, go=go)
        computed_ok = go or all(
            e.points is None or e.points == r.score for e, r in zip(view.t.entrants, view.cross, strict=True)
        )
        context["reported_scores_agree"] = computed_ok
    used: dict[str, object] = {}
    if stored is not None:
        context["changes"], used = ratings_used(stored)
        context["eligibility"] = eligibility_view(stored)
        context["pairing_check"] = pairing_check_view(stored)
        context["provenance"] = provenance_view(stored)
        context["rounds"] = queries.event_rounds([stored])[stored.pk]
        context["held"] = is_held(stored)  # held for review by the office (issue 37): said, naming nobody
    if used:  # the crosstable's rating column: the rating each player's calculation started from
        view.rating_label = _("计算用等级分")
        for row in view.cross:
            row.rating_shown = used.get(row.entrant.player_id)
    context["v"] = view
    return render(request, "portal/event.html", context)
