"""Read-only queries of the published record (公开数据) shared by the pages, their downloads and the API:
editions and their filtered entries with the changes since the edition they were computed from, a comparison of
two editions, the search, the events with their rounds. Never the ID number or the full birth date."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from types import SimpleNamespace

from django.core.paginator import Paginator
from django.db.models import Count, Max, Q
from django.http import Http404

from qiyuan.formats.list_export import ListDocument
from qiyuan.office.events.live import load as load_live
from qiyuan.office.events.models import Event, Game, LiveEvent
from qiyuan.office import sheets
from qiyuan.office.exports import public_row
from qiyuan.office.federation.models import Association, Player
from qiyuan.office.ratings.models import Edition, RatingList
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


class EntryRows(Sequence):
    """An edition's entries chosen from its sheet (their rows, in the order shown): counted and sliced like a query
    set; only the rows taken are given their players (read in bulk) and their previous rating and rank (from
    ``previous``, or found on the edition it was computed from)."""

    def __init__(self, ed: Edition, rows: list[int], previous: dict[int, tuple[int | None, int | None]] | None = None):
        self.ed, self.rows, self.previous = ed, rows, previous

    def __len__(self) -> int:
        return len(self.rows)

    def count(self) -> int:
        return len(self.rows)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self._entries(self.rows[i])
        return self._entries([self.rows[i]])[0]

    def _entries(self, rows: list[int]) -> list[sheets.SheetEntry]:
        out = sheets.with_players(self.ed, rows)
        previous = self.previous
        if previous is None:
            previous = {}
            if self.ed.previous_id is not None:
                previous = {pk: (e["rating"], e["rank"]) for pk, e in sheets.entries_of(
                    self.ed.previous, [e.player.pk for e in out], "rating", "rank").items()}
        for e in out:
            e.prev_rating, e.prev_rank = previous.get(e.player.pk, (None, None))
        return out

    def iterator(self, chunk_size: int = 5000):
        for i in range(0, len(self.rows), chunk_size):
            yield from self._entries(self.rows[i:i + chunk_size])


def entries(ed: Edition, filters: ListFilters) -> EntryRows:
    """The edition's entries under the filters, read from its sheet, with the rating and rank on the edition it was
    computed from (``prev_rating``, ``prev_rank``; null for a player not on it)."""
    chosen = filters.players(Player.objects.all(), search_ids)
    rows = sheets.entry_rows(ed, statuses=filters.statuses(),
                             players=None if chosen is None else set(chosen.values_list("pk", flat=True)))
    if filters.order in ("-change", "change") and ed.previous_id is not None:
        cols = sheets.entries(ed, "player", "rating")
        before = sheets.entries(ed.previous, "player", "rating", "rank")
        previous = {pk: (r, k) for pk, r, k in zip(before["player"], before["rating"], before["rank"])}
        sign = -1 if filters.order == "-change" else 1

        def change(i: int):  # nulls last; ties in list order (the rows are in it: the sort is stable)
            r, before_r = cols["rating"][i], previous.get(cols["player"][i], (None, None))[0]
            return (1, 0) if r is None or before_r is None else (0, sign * (r - before_r))
        rows.sort(key=change)
        return EntryRows(ed, rows, previous)
    return EntryRows(ed, rows)


@dataclass
class ListRowView:
    """One row of a list page: the entry, its player and the changes since the previous edition."""

    e: sheets.SheetEntry
    p: Player
    rank_change: int | None  # positive: up the list
    rating_change: int | None
    was_listed: bool

    @property
    def change(self) -> int | None:  # the template's name for the rank change
        return self.rank_change


def row_view(e: sheets.SheetEntry) -> ListRowView:
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
        rows.append(public_row(pos, e, row_view(e).rating_change))
    rl = ed.rating_list
    return ListDocument(list_code=rl.code, title=rl.title, rules_title=rl.rules().title, list_date=ed.list_date,
                        edition=ed.number, is_correction=ed.is_correction, reason=ed.reason, rows=tuple(rows))


# ------------------------------------------------------------------------------------------------ comparison


@dataclass
class ComparedRow:
    player: Player
    a: SimpleNamespace | None  # his rating, rank, status and games on ``a``
    b: sheets.SheetEntry | None

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
    page = Paginator(entries(b, replace(filters, order="position")), size).get_page(
        filters.page)
    on_a = {}
    for e in page.object_list:
        row = sheets.entry_of(a, e.player.pk, "rating", "rank", "status", "games", index=True)
        if row is not None:
            on_a[e.player.pk] = SimpleNamespace(**row)
    return page, [ComparedRow(e.player, on_a.get(e.player.pk), e) for e in page.object_list]


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


def current_ratings(player_ids) -> dict[int, list[tuple[RatingList, sheets.PublishedEntry]]]:
    """Per player, his row on the latest current edition of each list he is on (for the search results)."""
    from .editions import current_edition_ids, editions_by_id

    current = current_edition_ids()
    editions = editions_by_id()
    best: dict[tuple[int, int], sheets.PublishedEntry] = {}
    for e in sheets.player_entries([editions[pk] for pk in sorted(current)], list(player_ids)):
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
