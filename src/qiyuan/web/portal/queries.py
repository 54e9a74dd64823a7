"""Read-only queries of the published record (公开数据) shared by the pages, their downloads and the API:
editions and their filtered entries with the changes since the edition they were computed from, a comparison of
two editions, the search, the events with their rounds. Never the ID number or the full birth date."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.paginator import Paginator
from django.db.models import Count, F, IntegerField, Max, OuterRef, Q, Subquery
from django.http import Http404

from qiyuan.formats.list_export import ListDocument, ListRow
from qiyuan.office.events.live import load as load_live
from qiyuan.office.events.models import Event, Game, LiveEvent
from qiyuan.office.federation.models import Association, Player
from qiyuan.office.ratings.models import Edition, EditionEntry, RatingList
from qiyuan.office.registry import search_players
from qiyuan.people.pinyin import latin_name
from qiyuan.tournament.model import Tournament

from .filters import ListFilters

PAGE_SIZE = 100
SEARCH_LIMIT = 500  # players a name search may match on a list page


def search_ids(q: str) -> list[int]:
    """Player ids a list page's name search keeps (``search_players``: Chinese, pinyin, initials, Latin, ID)."""
    return [p.pk for p in search_players(q, limit=SEARCH_LIMIT)]


def association_codes() -> set[str]:
    return set(Association.objects.values_list("code", flat=True))


def parse_day(on: str) -> date:
    try:
        return date.fromisoformat(on)
    except ValueError:
        raise Http404("not a date") from None


def find_edition(list_code: str, on: str, number: int | None) -> Edition:
    """The edition of a permalink (the current one of the date when no number is given)."""
    qs = Edition.objects.select_related("rating_list", "previous").defer("rules_settings").filter(
        rating_list__code=list_code, list_date=parse_day(on))
    ed = qs.filter(number=number).first() if number is not None else qs.order_by("-number").first()
    if ed is None:
        raise Http404("no such edition")
    return ed


def read_filters(params, ed: Edition) -> ListFilters:
    return ListFilters.read(params, ed.list_date.year, association_codes())


def entries(ed: Edition, filters: ListFilters):
    """The edition's entries under the filters, with the rating and rank on the edition it was computed from
    (``prev_rating``, ``prev_rank``; null for a player not on it) and the change (``change``)."""
    qs = EditionEntry.objects.filter(edition=ed).select_related("player", "player__association")
    if ed.previous_id is not None:
        before = EditionEntry.objects.filter(edition_id=ed.previous_id, player_id=OuterRef("player_id"))
        qs = qs.annotate(prev_rating=Subquery(before.values("rating")[:1], output_field=IntegerField()),
                         prev_rank=Subquery(before.values("rank")[:1], output_field=IntegerField()),
                         change=F("rating") - F("prev_rating"))
    qs = filters.apply(qs, search_ids)
    if filters.order in ("-change", "change") and ed.previous_id is not None:
        key = F("change").desc(nulls_last=True) if filters.order == "-change" else F("change").asc(nulls_last=True)
        return qs.order_by(key, "position")
    return qs.order_by("position")


@dataclass
class ListRowView:
    """One row of a list page: the entry, its player and the changes since the previous edition."""

    e: EditionEntry
    p: Player
    rank_change: int | None  # positive: up the list
    rating_change: int | None
    was_listed: bool

    @property
    def change(self) -> int | None:  # the template's name for the rank change
        return self.rank_change


def row_view(e: EditionEntry) -> ListRowView:
    prev_rating = getattr(e, "prev_rating", None)
    prev_rank = getattr(e, "prev_rank", None)
    was_listed = prev_rating is not None or prev_rank is not None
    return ListRowView(
        e, e.player,
        (prev_rank - e.rank) if (prev_rank and e.rank) else None,
        (e.rating - prev_rating) if (prev_rating is not None and e.rating is not None) else None,
        was_listed,
    )


def list_page(ed: Edition, filters: ListFilters, size: int = PAGE_SIZE):
    """The page of rows the filters ask for: (paginator page, rows)."""
    page = Paginator(entries(ed, filters), size).get_page(filters.page)
    return page, [row_view(e) for e in page.object_list]


def list_document(ed: Edition, filters: ListFilters) -> ListDocument:
    """The rows of every page of the filtered list, as the public file (no ID number, birth year only; the
    Latin name as the English pages write it)."""
    rows = []
    for pos, e in enumerate(entries(ed, filters).iterator(chunk_size=5000), start=1):
        v = row_view(e)
        p = e.player
        rows.append(ListRow(
            position=pos, rank=e.rank, federation_id=p.federation_id, name=e.name or p.name,
            name_latin=latin_name(e.name or p.name, p.name_latin), gender=p.gender, birth_year=p.birth_year,
            association=p.association.code if p.association else "", dan=p.dan, rating=e.rating, games=e.games,
            status=e.status, is_new=e.is_new, k=e.k, change=v.rating_change,
        ))
    rl = ed.rating_list
    return ListDocument(list_code=rl.code, title=rl.title, rules_title=rl.rules().title, list_date=ed.list_date,
                        edition=ed.number, is_correction=ed.is_correction, reason=ed.reason, rows=tuple(rows))


# ------------------------------------------------------------------------------------------------ comparison


@dataclass
class ComparedRow:
    player: Player
    a: EditionEntry | None
    b: EditionEntry | None

    @property
    def rating_change(self) -> int | None:
        if self.a is None or self.b is None or self.a.rating is None or self.b.rating is None:
            return None
        return self.b.rating - self.a.rating

    @property
    def rank_change(self) -> int | None:
        if self.a is None or self.b is None or not self.a.rank or not self.b.rank:
            return None
        return self.a.rank - self.b.rank


def compare_editions(a: Edition, b: Edition, filters: ListFilters, size: int = PAGE_SIZE):
    """Two editions of one list side by side (对比): every player on ``b`` under the filters (in ``b``'s order)
    with his row on ``a``. Returns (paginator page, rows)."""
    page = Paginator(filters.apply(EditionEntry.objects.filter(edition=b).select_related(
        "player", "player__association").order_by("position"), search_ids), size).get_page(filters.page)
    ids = [e.player_id for e in page.object_list]
    on_a = {e.player_id: e for e in EditionEntry.objects.filter(edition=a, player_id__in=ids).only(
        "player_id", "rating", "rank", "status", "games")}
    return page, [ComparedRow(e.player, on_a.get(e.player_id), e) for e in page.object_list]


# ------------------------------------------------------------------------------------------------ events


def event_rounds(events) -> dict[int, int]:
    """Rounds of each event: as stored, or — where the import stored 0 — the last round of its games."""
    missing = [e.pk for e in events if not e.rounds]
    counted = dict(Game.objects.filter(event_id__in=missing).values("event_id").annotate(n=Max("round"))
                   .values_list("event_id", "n")) if missing else {}
    return {e.pk: e.rounds or counted.get(e.pk, 0) for e in events}


def events_query(filters):
    return filters.apply(Event.objects.select_related("rating_list").order_by("-end_date", "code"))


def event_player_counts(events) -> dict[int, int]:
    return dict(Event.objects.filter(pk__in=[e.pk for e in events]).annotate(n=Count("entries"))
                .values_list("pk", "n"))


# ------------------------------------------------------------------------------------------------ players


def kept_record(player: Player) -> Player:
    """The record a merged duplicate now lives on (合并后保留的记录), following a chain of merges."""
    seen = 0
    while player.merged_into_id is not None and seen < 10:
        player = player.merged_into
        seen += 1
    return player


def merged_duplicates(player: Player) -> list[Player]:
    """Every record merged into ``player``, directly or through another duplicate: published editions keep
    their rows on the duplicate's ID (they are immutable), so his history is his and theirs."""
    out: list[Player] = []
    todo = [player.pk]
    while todo:
        kids = list(Player.objects.filter(merged_into_id__in=todo).only("federation_id", "name", "name_latin",
                                                                          "merged_into_id"))
        kids = [k for k in kids if k.pk != player.pk and all(k.pk != o.pk for o in out)]
        out += kids
        todo = [k.pk for k in kids]
    return out


def current_ratings(player_ids) -> dict[int, list[tuple[RatingList, EditionEntry]]]:
    """Per player, his row on the latest current edition of each list he is on (for the search results)."""
    from .editions import current_edition_ids, editions_by_id

    current = current_edition_ids()
    editions = editions_by_id()
    best: dict[tuple[int, int], EditionEntry] = {}
    for e in EditionEntry.objects.filter(player_id__in=list(player_ids)).order_by().only(
            "edition_id", "player_id", "rating", "rank", "status"):
        if e.edition_id not in current:
            continue
        e.edition = editions[e.edition_id]
        key = (e.player_id, e.edition.rating_list_id)
        if key not in best or best[key].edition.list_date < e.edition.list_date:
            best[key] = e
    out: dict[int, list] = {}
    for (pid, _rl), e in sorted(best.items(), key=lambda kv: kv[1].edition.rating_list.code):
        out.setdefault(pid, []).append((e.edition.rating_list, e))
    return out



# ------------------------------------------------------------------------------------------------ desk and record
# An event run at the desk (``LiveEvent``, its TRF) and its rated record (``Event``, imported from the report the
# desk wrote, which names the desk event: ``Event.live_event``) are one event, under either code.


def live_tournament(live: LiveEvent) -> Tournament:
    return load_live(live)


def find_event(code: str) -> tuple[LiveEvent | None, Event | None, Tournament | None]:
    """The desk record, the rated record and the desk event's tournament of ``/events/<code>/`` (either code):
    one query for the rated record and its desk event, one more for a desk event not rated yet."""
    stored = (Event.objects.select_related("rating_list", "chief_arbiter", "live_event")
              .filter(Q(code=code) | Q(live_event__code=code)).order_by("-pk").first())
    live = stored.live_event if stored is not None else LiveEvent.objects.filter(code=code).first()
    return live, stored, live_tournament(live) if live is not None else None


def unrated_live_events(limit: int = 20):
    """The desk's events that have no rated record yet (those that have one are listed as it)."""
    return LiveEvent.objects.filter(rated_event__isnull=True).order_by("-created_at")[:limit]
