"""Event pages (比赛): crosstable, pairings and results per round, standings
with tie-breaks, rating changes, and the eligibility checks the event passed.

``/events/<code>/`` shows an event run at the desk (live, from its TRF) or an
imported one (from its stored entries and games).
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from qiyuan.office.events.models import Event, Game
from qiyuan.office.federation.models import Association
from qiyuan.office.ratings.models import RatingChange
from qiyuan.tournament.model import Entrant, RoundCell, Tournament

from ..editions import current_edition_ids
from ..eventview import build

#: The conditions each rule-set family checks before an event is rated (shown ticked unless failed).
ELIGIBILITY_CLAUSES = {
    "cga-gomoku-2011": [
        ("CGA Art. 4", _("主办单位级别；全国性或国际性赛事")),
        ("CGA Art. 5(一)", _("至少两名认可的裁判员")),
        ("CGA Art. 5(三)", _("积分编排制的轮数")),
        ("CGA Art. 5(四)", _("有等级分棋手的比例")),
        ("CGA Art. 5(八)", _("比赛用时")),
        ("CGA Art. 5(十一)", _("有实际进行的对局")),
    ],
    "bjsh-gomoku-2007": [
        ("BJSH §6", _("经认可的比赛")),
        ("BJSH §7", _("裁判员与比赛用时")),
        ("BJSH §9", _("等级赛的条件")),
    ],
    "cn-go-1995": [("Go §4", _("经批准的比赛"))],
}

#: TRF result codes of player1 and player2 for a stored result.
_CELLS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "0.5-0.5": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"),
          "--": ("-", "-")}

#: TRF colours of player1 and player2 from a stored game's opener (1: player1 opened, 2: player2, None: unknown).
_COLOURS = {1: ("b", "w"), 2: ("w", "b"), None: ("-", "-")}


def index(request):
    from qiyuan.office.events.models import LiveEvent

    live = LiveEvent.objects.order_by("-created_at")[:20]
    page = Paginator(Event.objects.order_by("-end_date", "code"), 50).get_page(request.GET.get("page", "1"))
    return render(request, "portal/events.html", {"live": live, "page": page})


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


def eligibility_view(event: Event) -> dict:
    data = event.eligibility or {}
    family = data.get("family") or event.rating_list.rules_name
    failures = [str(f) if not isinstance(f, dict) else f"{f.get('clause', '')}: {f.get('message', '')}"
                for f in data.get("failures") or []]
    checks = [
        (clause, text, not any(f.startswith(clause) for f in failures))
        for clause, text in ELIGIBILITY_CLAUSES.get(family, [])
    ]
    return {"family": family, "failures": failures, "notes": data.get("notes") or [], "checks": checks}


def _english_associations(t: Tournament) -> None:
    """On English pages, the entrants' associations by their English names (where the registry has one)."""
    if not (get_language() or "").startswith("en"):
        return
    names = dict(Association.objects.exclude(name_en="").values_list("name", "name_en"))
    for e in t.entrants:
        e.federation = names.get(e.federation, e.federation)


def event(request, code: str):
    from qiyuan.office.events.live import load
    from qiyuan.office.events.models import LiveEvent

    live = LiveEvent.objects.filter(code=code).first()
    stored = Event.objects.select_related("rating_list", "chief_arbiter").filter(code=code).first()
    if live is None and stored is None:
        raise Http404("no such event")
    context: dict = {"live": live, "event": stored}
    if live is not None:
        view = build(load(live), live_event=live)
    else:
        go = stored.rating_list.family.startswith("cn-go")
        view = build(tournament_from_records(stored), go=go)
        computed_ok = go or all(
            e.points is None or e.points == r.score for e, r in zip(view.t.entrants, view.cross, strict=True)
        )
        context["reported_scores_agree"] = computed_ok
    _english_associations(view.t)
    context["v"] = view
    if stored is not None:
        changes = (
            RatingChange.objects.filter(event=stored, edition_id__in=current_edition_ids())
            .select_related("player", "edition", "edition__rating_list")
            .order_by("-delta", "player__federation_id")
        )
        context["changes"] = list(changes)
        context["eligibility"] = eligibility_view(stored)
    return render(request, "portal/event.html", context)
