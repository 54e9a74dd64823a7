"""Player pages (棋手): identity without the ID number, ratings, history chart,
the individual calculations of every rated event, head-to-head records, and the what-if calculator."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from html import escape  # the hot tables: see calculations.py

from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from qiyuan.office.canonical import change_json
from qiyuan.office.events.models import Event, Game
from qiyuan.office.federation.models import Player
from qiyuan.office import sheets
from qiyuan.office.ratings.models import RatingList
from qiyuan.office.registry import search_players
from qiyuan.office.signing_key import key_exists

from ...display import english, list_title, person
from ...labels import list_status_label
from .. import whatif
from ..calculations import (POINTS, individual_calculations, opposite, per_game_row, period_totals, result_for,
                            result_symbol, table_labels)
from ..chart import ChartPoint, rating_history_svg
from ..editions import current_edition_ids, data_version, editions_by_id
from ..filters import text_query
from ..http import digest, visitor_page
from ..queries import current_ratings, kept_record, merged_duplicates

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
        if result not in POINTS:
            continue
        mine = result if p1 == player.pk else opposite(result)
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
    """A player's page; cached whole for visitors until the office next writes anything (``data_version``)."""
    if not set(request.GET) <= {"calc"}:
        return _player_page(request, federation_id)
    key = f"portal:player:{data_version()}:{federation_id}:{get_language()}:{digest(request.GET.urlencode())}"
    return visitor_page(request, key, lambda: _player_page(request, federation_id))


def _player_page(request, federation_id: str):
    p = _player_or_redirect(federation_id)
    if p.merged_into_id:
        return redirect("portal:player", federation_id=kept_record(p).federation_id)
    duplicates = merged_duplicates(p)
    mine = [p.pk] + [d.pk for d in duplicates]
    published_as = {d.pk: d.federation_id for d in duplicates}
    current = current_edition_ids()
    editions = editions_by_id()
    # found in each current edition's sheet by binary search (the decoded columns are kept per process)
    entries = sheets.player_entries([editions[pk] for pk in sorted(current)], mine)
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
    found = sheets.change_rows([editions[pk] for pk in sorted(current)], players=set(mine))
    events = sheets.change_values(found, "event")
    ends = dict(Event.objects.filter(pk__in=set(events)).values_list("pk", "end_date"))
    order = [found[k] for k in sorted(range(len(found)), key=lambda k: (ends[events[k]], events[k]), reverse=True)]
    show_all = request.GET.get("calc") == "all"
    shown = sheets.change_objects(order if show_all else order[:CALC_EVENTS])
    for c in shown:
        c.published_as = published_as.get(c.player_id, "")
    h2h = head_to_head_summary(p)
    calcs = individual_calculations(p, shown, duplicates)
    mine = [p.pk] + [d.pk for d in duplicates]
    period_totals(calcs, {e.edition.pk: e.rating for e in sheets.player_entries(
        [editions[pk] for pk in sorted({c.edition_id for c in shown})], mine)})
    return render(
        request,
        "portal/player.html",
        {
            "p": p,
            "lists": list(lists.values()),
            "calcs": calcs,
            "duplicates": duplicates,
            "calc_hidden": len(order) - len(shown),
            "h2h": h2h,
            "h2h_html": head_to_head_html(p, h2h, _("详情")),
            "whatif_lists": [item["list"] for item in lists.values()],
            "signed": key_exists(),
            "formats": whatif.FORMATS,
        },
    )


class _Hypothetical:
    """A what-if change in the shape of a stored change (``sheets.SheetChange``: what the calculations table reads)."""

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
            if not calc.rows:  # an averaging method: one row per game, then the event's W, We, K and ΔR
                calc.rows = [per_game_row(line, pseudo.before) for line in whatif.game_lines(w, p)]
                calc.rendered = calc.html(table_labels())
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
        if r in POINTS:
            pa, pb = POINTS[r]
            score[0] += pa
            score[1] += pb
        rows.append({"game": g, "result": result_symbol(r)})
    return render(request, "portal/head_to_head.html", {"a": a, "b": b, "rows": rows, "score": score})
