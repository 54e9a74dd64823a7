"""The API's composite records, built in one place for the endpoints and the dump (``dump.py``): a list with its
editions, an edition, an entry with its changes, an event with its entrants, games and rating changes, an
edition's rating distribution."""

from __future__ import annotations

from django.urls import reverse

from qiyuan.office.events.models import Event, Game
from qiyuan.office import sheets
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import Edition, RatingList

from ..portal import queries
from ..portal.distribution import distribution
from ..portal.editions import current_edition_ids, editions_by_id
from ..portal.views.events import event_scores
from . import serialize as S


def rating_list_detail(rl: RatingList) -> dict:
    eds = list(rl.editions.select_related("rating_list").order_by("-list_date", "-number"))
    top: dict = {}
    for ed in eds:
        top.setdefault(ed.list_date, ed.number)
    data = S.rating_list(rl, eds[0] if eds else None)
    data["editions"] = [{**S.edition_ref(ed), "is_correction": ed.is_correction,
                         "superseded": ed.number != top[ed.list_date]} for ed in eds]
    data["history_csv"] = reverse("portal:list_history", args=[rl.code])
    return data


def superseded(ed: Edition) -> bool:
    return Edition.objects.filter(rating_list_id=ed.rating_list_id, list_date=ed.list_date,
                                  number__gt=ed.number).exists()


def edition_record(ed: Edition) -> dict:
    return S.edition(ed, superseded=superseded(ed), entries=sheets.size(ed))


def entry(e: sheets.SheetEntry) -> dict:
    v = queries.row_view(e)
    return S.entry(e, v.rank_change, v.rating_change)


def event_record(e: Event, *, with_games: bool = True, with_changes: bool = True) -> dict:
    """An event: its facts, entrants (as reported; a score the report left out counted from the games, as the
    crosstable counts it), games round by round, and the rating changes published."""
    entries = list(e.entries.select_related("player").order_by("rank", "number", "id"))
    data = S.event(e, queries.event_rounds([e])[e.pk], len(entries))
    scores = event_scores(e)
    data["entrants"] = [{"number": en.number, "rank": en.rank,
                         "score": S.dec(en.score if en.score is not None else scores.get(en.player.federation_id)),
                         "rating": en.rating, "name_reported": en.name or en.player.name,
                         "player": S.player_ref(en.player)}
                        for en in entries]
    if with_games:
        fids = dict(Player.objects.filter(pk__in={x for g in Game.objects.filter(event=e).values_list(
            "player1_id", "player2_id") for x in g}).values_list("pk", "federation_id"))
        data["games"] = [{"round": rnd, "player1": fids[p1], "player2": fids[p2], "result": result,
                          "opener": {1: fids[p1], 2: fids[p2]}.get(opener)}
                         for rnd, p1, p2, result, opener in Game.objects.filter(event=e).order_by("round", "id")
                         .values_list("round", "player1_id", "player2_id", "result", "opener")]
    if with_changes:
        editions = editions_by_id()
        changes = sorted(sheets.change_objects(sheets.change_rows(
            [editions[pk] for pk in sorted(current_edition_ids())], events={e.pk})),
            key=lambda c: c.player.federation_id)
        data["rating_changes"] = [S.change(c, with_event=False) for c in changes]
    return data


def edition_distribution(ed: Edition):
    """The distribution of the ratings the edition lists (its active players: the ranked ones)."""
    cols = sheets.entries(ed, "status", "rating")
    return distribution([r for s, r in zip(cols["status"], cols["rating"]) if s == "active" and r is not None])


def distribution_record(ed: Edition) -> dict:
    d = edition_distribution(ed)
    return {"edition": S.edition_ref(ed), "list": ed.rating_list.code, "count": d.count, "width": 100,
            "lowest": d.lowest, "highest": d.highest,
            "bins": [{"from": b.low, "to": b.high, "count": b.count} for b in d.bins],
            "percentiles": {f"p{p}": v for p, v in d.percentiles.items()}}
