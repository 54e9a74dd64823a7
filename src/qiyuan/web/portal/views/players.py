"""Player pages (棋手): identity without the ID number, ratings, history chart,
the individual calculations of every rated event, head-to-head records, and the what-if calculator."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from qiyuan.office.events.models import Game
from qiyuan.office.federation.models import Player
from qiyuan.office.canonical import change_json
from qiyuan.office.ratings.models import EditionEntry, RatingChange, RatingList
from qiyuan.office.registry import search_players
from qiyuan.rating.model import Result

from ...display import english, event_name, list_title, person
from ...labels import list_status_label
from ...numbers import signed_delta
from .. import whatif
from ..chart import ChartPoint, rating_history_svg
from ..editions import current_edition_ids, editions_by_id
from ..filters import text_query
from ..queries import current_ratings, kept_record, merged_duplicates

#: A result from player1's side → (points for player1, points for player2); None = not played.
_POINTS = {
    Result.WIN.value: (Decimal(1), Decimal(0)),
    Result.LOSS.value: (Decimal(0), Decimal(1)),
    Result.DRAW.value: (Decimal("0.5"), Decimal("0.5")),
}
_FLIP = {"1-0": "0-1", "0-1": "1-0", "0.5-0.5": "0.5-0.5", "+-": "-+", "-+": "+-", "--": "--"}


def result_for(game: Game, player_id: int) -> str:
    """The game's result from ``player_id``'s side (``1-0`` = he won)."""
    return game.result if game.player1_id == player_id else _FLIP[game.result]


def result_symbol(result: str) -> str:
    return {"1-0": "1", "0-1": "0", "0.5-0.5": "½", "+-": "+", "-+": "−", "--": "–"}[result]


#: Rated events whose calculations a player page shows at first (the newest); ``?calc=all`` shows every one.
CALC_EVENTS = 10


SEARCH_RESULTS = 200


def search(request):
    """Players by name (Chinese, pinyin, initials, Latin), former name or federation ID, with their ratings."""
    problems = []
    q = text_query(request.GET, problems)
    found = search_players(q, limit=SEARCH_RESULTS) if q else None
    ratings = current_ratings(p.pk for p in found) if found else {}
    rows = [(p, ratings.get(p.pk, [])) for p in found] if found is not None else None
    return render(request, "portal/players.html", {"q": q, "rows": rows, "problems": [p.text(_) for p in problems],
                                                   "limit": SEARCH_RESULTS})


def _player_or_redirect(federation_id: str):
    player = Player.objects.select_related("association", "club", "merged_into").filter(
        federation_id=federation_id
    ).first()
    if player is None:
        raise Http404("no such player")
    return player


@dataclass
class CalcRow:
    round: int | None
    opponent: Player | None  # None: an opponent given by a rating (what-if) or not found
    opponent_rating: str
    result: str
    D: str
    We: str
    dR: str
    K: str


@dataclass
class EventCalc:
    change: RatingChange
    rows: list[CalcRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    x: dict = field(default_factory=dict)  # Ro, Rc, N, Pd, ru from the explanation

    @property
    def rows_html(self) -> SafeString:
        """The table body, built here rather than in the template: a player page holds
        hundreds of cells and this is the page's hot path (escaped like the template would)."""
        base = reverse("portal:players")
        en = english()
        out = []
        for r in self.rows:
            who = (f'<a href="{base}{escape(r.opponent.federation_id)}/">{escape(person(r.opponent, en=en))}</a>'
                   if r.opponent is not None else escape(_("对手（等级分 %(r)s）") % {"r": r.opponent_rating}))
            out.append(
                f'<tr><td class="num opt">{"" if r.round is None else r.round}</td><td class="name">{who}</td>'
                f'<td class="num">{escape(r.opponent_rating)}</td><td class="c">{escape(r.result)}</td>'
                f'<td class="num">{escape(r.D)}</td><td class="num">{escape(r.We)}</td>'
                f'<td class="num">{escape(r.dR)}</td><td class="num opt">{escape(r.K)}</td></tr>'
            )
        return mark_safe("".join(out))


def _num(value) -> str:
    if value is None or value == "":
        return ""
    d = Decimal(str(value))
    return f"{d.normalize():f}" if d == d.to_integral_value() else f"{d:f}"


def _signed(value) -> str:
    text = _num(value)
    return "+" + text if text and not text.startswith("-") and Decimal(text) != 0 else text


_LINE_FIELDS = ("round", "opponent_id", "opponent_rating", "D", "We", "W", "K", "dR")


def explanation_lines(explanation: dict) -> list[dict]:
    """The per-game lines of a stored explanation (``[round, opponent, rating, D, We, W, K, dR]`` rows)."""
    out = []
    for ln in (explanation or {}).get("lines") or []:
        out.append(dict(zip(_LINE_FIELDS, ln)) if isinstance(ln, (list, tuple)) else dict(ln))
    return out


def individual_calculations(player: Player, changes: list[RatingChange], duplicates: list[Player] = ()) -> list[EventCalc]:
    """Per rated event, the table a person can check by hand: per game the
    opponent, his rating, the result, D, We, ΔR and K (FIDE's "individual
    calculations"). Under the averaging methods We is the event's N × PD(R − Rc),
    so the per-game columns show D and the result only, and the totals line
    carries We and ΔR. A change published under a merged duplicate's ID (``duplicates``) is his too; its
    games were moved to him by the merge."""
    mine = {player.pk} | {d.pk for d in duplicates}
    event_ids = {c.event_id for c in changes}
    games_by_event: dict[int, list[Game]] = defaultdict(list)
    for g in Game.objects.filter(Q(player1_id__in=mine) | Q(player2_id__in=mine), event_id__in=event_ids).order_by(
            "round"):
        games_by_event[g.event_id].append(g)
    fids: set[str] = set()
    pks: set[int] = set()
    for c in changes:
        for ln in explanation_lines(c.explanation):
            ref = str(ln.get("opponent_id", ""))
            (pks.add(int(ref)) if ref.isdigit() else fids.add(ref))
        for g in games_by_event[c.event_id]:
            pks.add(g.player2_id if g.player1_id in mine else g.player1_id)
    light = Player.objects.only("federation_id", "name", "name_latin")
    by_fid = {p.federation_id: p for p in light.filter(federation_id__in=fids)}
    by_pk = light.in_bulk(pks)

    def opponent(ref) -> Player | None:
        ref = str(ref)
        return by_fid.get(ref) or (by_pk.get(int(ref)) if ref.isdigit() else None)

    # Opponents' ratings are needed only for changes stored without per-game lines (averaging methods).
    bare = [c for c in changes if not explanation_lines(c.explanation)]
    wanted = {(c.edition_id, c.event_id) for c in bare}
    opp_before = {
        (event_id, player_id): before
        for edition_id, event_id, player_id, before in RatingChange.objects.filter(  # by the event index
            event_id__in={c.event_id for c in bare}
        )
        .order_by()
        .values_list("edition_id", "event_id", "player_id", "before")
        if (edition_id, event_id) in wanted and player_id not in mine
    } if bare else {}
    if opp_before:  # an opponent rated under a duplicate merged since: his games are now on the kept record
        kept = dict(Player.objects.filter(pk__in={pid for _e, pid in opp_before}, merged_into__isnull=False)
                    .values_list("pk", "merged_into_id"))
        for (event_id, pid), before in list(opp_before.items()):
            if pid in kept:
                opp_before.setdefault((event_id, kept[pid]), before)
    out = []
    for c in changes:
        x = c.explanation or {}
        calc = EventCalc(change=c, notes=list(x.get("notes") or []), x=x)
        lines = explanation_lines(x)
        if lines:
            games = {g.round: g for g in games_by_event[c.event_id]}
            for ln in lines:
                opp = opponent(ln.get("opponent_id"))
                w = Decimal(str(ln.get("W", "0")))
                res = {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}.get(w, _num(w))
                g = games.get(ln.get("round"))
                if g is not None:
                    res = result_symbol(result_for(g, g.player1_id if g.player1_id in mine else g.player2_id))
                calc.rows.append(CalcRow(ln.get("round"), opp, _num(ln.get("opponent_rating")), res,
                                         _signed(ln.get("D")), _num(ln.get("We")), signed_delta(ln.get("dR")),
                                         _num(ln.get("K"))))
        else:
            ro = c.before
            for g in games_by_event[c.event_id]:
                me, opp_pk = (g.player1_id, g.player2_id) if g.player1_id in mine else (g.player2_id, g.player1_id)
                opp_rating = opp_before.get((c.event_id, opp_pk))
                d = ""
                if ro is not None and opp_rating is not None:
                    d = _signed(int((ro - opp_rating).to_integral_value()))
                calc.rows.append(CalcRow(g.round, by_pk.get(opp_pk), _num(opp_rating), result_symbol(result_for(g, me)),
                                         d, "", "", ""))
        out.append(calc)
    return out


def history_html(rating_list, entries, published_as: dict[int, str] | None = None) -> SafeString:
    """The player's row on each list date (see ``EventCalc.rows_html`` for why it is built here); a row
    published under a merged duplicate's ID says so (``published_as``: player pk → federation ID)."""
    base = reverse("portal:lists") + escape(rating_list.code) + "/"
    published_as = published_as or {}
    out = []
    for e in entries:
        day = e.edition.list_date.isoformat()
        under = published_as.get(e.player_id)
        note = (f' <span class="muted small published-as">{escape(_("以 %(id)s 发布") % {"id": under})}</span>'
                if under else "")
        out.append(
            f'<tr><td><a href="{base}{day}/">{day}</a>{note}</td>'
            f'<td class="num">{"" if e.rating is None else e.rating}</td>'
            f'<td class="num">{"" if e.rank is None else e.rank}</td><td class="num">{e.games}</td>'
            f"<td>{escape(list_status_label(e.status))}</td></tr>"
        )
    return mark_safe("".join(out))


def head_to_head_html(player: Player, rows: list[dict], details: str) -> SafeString:
    """The head-to-head table body (see ``EventCalc.rows_html`` for why it is built here)."""
    base = reverse("portal:players")
    me = escape(player.federation_id)
    en = english()
    out = []
    for h in rows:
        fid = escape(h["opponent"].federation_id)
        out.append(
            f'<tr><td class="name"><a href="{base}{fid}/">{escape(person(h["opponent"], en=en))}</a></td>'
            f'<td class="num">{h["games"]}</td>'
            f'<td class="num">{h["wins"]}</td><td class="num">{h["draws"]}</td><td class="num">{h["losses"]}</td>'
            f'<td><a href="{base}{me}/vs/{fid}/">{escape(details)}</a></td></tr>'
        )
    return mark_safe("".join(out))


def head_to_head_summary(player: Player, limit: int = 30) -> list[dict]:
    """Per opponent: games, wins, draws, losses (played games only), most games first."""
    stats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for p1, p2, result in Game.objects.filter(Q(player1=player) | Q(player2=player)).order_by().values_list(
        "player1_id", "player2_id", "result"
    ):
        if result not in _POINTS:
            continue
        mine = result if p1 == player.pk else _FLIP[result]
        opp = p2 if p1 == player.pk else p1
        stats[opp][{"1-0": 0, "0.5-0.5": 1, "0-1": 2}[mine]] += 1
    top = sorted(stats.items(), key=lambda kv: (-sum(kv[1]), kv[0]))[:limit]
    opponents = Player.objects.only("federation_id", "name", "name_latin").in_bulk([pk for pk, _s in top])
    return [
        {"opponent": opponents[pk], "games": sum(s), "wins": s[0], "draws": s[1], "losses": s[2]}
        for pk, s in top
        if pk in opponents
    ]


def player(request, federation_id: str):
    p = _player_or_redirect(federation_id)
    if p.merged_into_id:
        return redirect("portal:player", federation_id=kept_record(p).federation_id)
    duplicates = merged_duplicates(p)
    mine = [p.pk] + [d.pk for d in duplicates]
    published_as = {d.pk: d.federation_id for d in duplicates}
    current = current_edition_ids()
    editions = editions_by_id()
    entries = [
        e
        for e in EditionEntry.objects.filter(player_id__in=mine).order_by().only(
            "edition_id", "player_id", "rating", "exact", "rank", "games", "k", "status"
        )
        if e.edition_id in current
    ]
    for e in entries:
        e.edition = editions[e.edition_id]  # from the cached editions, no query
    # by list and date; on one date (never both on one list: a merge refuses that) the kept record last
    entries.sort(key=lambda e: (e.edition.rating_list.code, e.edition.list_date, e.player_id == p.pk))
    lists: dict[int, dict] = {}
    for e in entries:
        item = lists.setdefault(e.edition.rating_list_id, {"list": e.edition.rating_list, "history": []})
        item["history"].append(e)
        item["latest"] = e
    for item in lists.values():
        points = [ChartPoint(e.edition.list_date, Decimal(e.rating), e.edition.label) for e in item["history"]
                  if e.rating is not None]
        item["chart"] = rating_history_svg(points, title=_("等级分走势") + " · " + list_title(item["list"], html=False))
        item["history_html"] = history_html(item["list"], item["history"], published_as)
    # Every rated event of his, newest first; the full rows only for those shown.
    order = list(
        RatingChange.objects.filter(player_id__in=mine, edition_id__in=current)
        .order_by("-event__end_date", "-event_id")
        .values_list("pk", flat=True)
    )
    show_all = request.GET.get("calc") == "all"
    shown_ids = order if show_all else order[:CALC_EVENTS]
    shown = list(RatingChange.objects.filter(pk__in=shown_ids).select_related("event").order_by(
        "-event__end_date", "-event_id"))
    for c in shown:
        c.edition = editions[c.edition_id]
        c.published_as = published_as.get(c.player_id, "")
    h2h = head_to_head_summary(p)
    return render(
        request,
        "portal/player.html",
        {
            "p": p,
            "lists": list(lists.values()),
            "calcs": individual_calculations(p, shown, duplicates),
            "duplicates": duplicates,
            "calc_hidden": len(order) - len(shown),
            "h2h": h2h,
            "h2h_html": head_to_head_html(p, h2h, _("详情")),
            "whatif_lists": [item["list"] for item in lists.values()],
            "formats": whatif.FORMATS,
        },
    )


class _Hypothetical:
    """A what-if change in the shape of a stored ``RatingChange`` (what the calculations table reads)."""

    def __init__(self, c, explanation: dict):
        self.before, self.games, self.W, self.We, self.K, self.delta, self.method = (
            c.Ro, c.games, c.W, c.We, c.K, c.delta, c.method)
        self.after = c.Ro + c.delta if c.Ro is not None else None
        self.explanation = explanation
        self.event_id = self.edition_id = self.player_id = None  # nothing stored: no games or editions to read


def what_if(request, federation_id: str):
    """What-if: the entered games rated under the list's official rules (GET form, nothing stored)."""
    p = _player_or_redirect(federation_id)
    if p.merged_into_id:
        return redirect("portal:what_if", federation_id=kept_record(p).federation_id)
    lists = list(RatingList.objects.filter(members__player=p).order_by("code").distinct())
    entered = "opp" in request.GET
    w = whatif.read(request.GET, p, lists) if entered else None
    calc = change = None
    if w is not None and not w.problems:
        change = whatif.compute(w, p)
        if change is not None:
            pseudo = _Hypothetical(change, change_json(change))
            calc = individual_calculations(p, [pseudo])[0]
    rows = list(zip(request.GET.getlist("opp"), request.GET.getlist("res"), strict=False)) if entered else []
    rows += [("", "")] * max(0, 8 - len(rows))
    return render(request, "portal/what_if.html", {
        "p": p, "lists": lists, "w": w, "calc": calc, "change": change, "rows": rows, "formats": whatif.FORMATS,
        "problems": [pr.text(_) for pr in w.problems] if w else [], "chosen_list": request.GET.get("list", ""),
        "chosen_format": request.GET.get("format", "swiss"),
    })


def head_to_head(request, federation_id: str, other_id: str):
    a = _player_or_redirect(federation_id)
    b = _player_or_redirect(other_id)
    if a.merged_into_id or b.merged_into_id:  # games moved to the records kept
        return redirect("portal:head_to_head", federation_id=kept_record(a).federation_id,
                        other_id=kept_record(b).federation_id)
    if a.pk == b.pk:
        raise Http404("the same player")
    games = list(
        Game.objects.filter(Q(player1=a, player2=b) | Q(player1=b, player2=a))
        .select_related("event")
        .order_by("event__end_date", "round")
    )
    rows, score = [], [Decimal(0), Decimal(0)]
    for g in games:
        r = result_for(g, a.pk)
        if r in _POINTS:
            pa, pb = _POINTS[r]
            score[0] += pa
            score[1] += pb
        rows.append({"game": g, "result": result_symbol(r)})
    return render(request, "portal/head_to_head.html", {"a": a, "b": b, "rows": rows, "score": score})
