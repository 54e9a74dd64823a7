"""Provisional ΔR of a running desk event (临时等级分变化): each player's change so far, as if the event ended
now — computed exactly as the portal's what-if computes one (``qiyuan.web.portal.whatif``), by the engine the
office publishes with, so the two agree for the same games (tests/web/test_desk_provisional.py).

The players start from their states on the chosen list's latest published edition; an entrant not in the registry
counts as the what-if counts an opponent given by a rating (rated, active, at the rating typed at the desk), or
as an unrated newcomer when no rating was typed. The games are read from the event as the office's import reads
a TRF file (``qiyuan.office.imports.parse.from_tournament``): only games played are rated. The event is dated
as the what-if dates its event (the day before the next list date) and ranked by the standings so far (the
champion rule looks at the leader). Nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from qiyuan.office.federation.models import Player
from qiyuan.office.imports.parse import from_tournament
from qiyuan.rating import results as R
from qiyuan.rating.calendar import next_publication_date
from qiyuan.rating.model import Event, EventFormat, Game, Standing
from qiyuan.rating.state import PlayerState
from qiyuan.tournament.eventfile import event_format
from qiyuan.tournament.model import Entrant, Tournament
from qiyuan.tournament.standings import standings

from ..portal.whatif import rate_all, rated_state, states_on

EVENT_ID = "desk-provisional"
UNREGISTERED = "entrant#"  # engine ids of entrants not in the registry


@dataclass
class Row:
    entrant: Entrant
    registered: bool
    change: R.EventChange | None  # None: no game rated for him yet


def engine_format(t: Tournament) -> EventFormat:
    """The desk's format as the rating rules name it (a double round robin is a round robin)."""
    fmt = event_format(t)
    if fmt in {f.value for f in EventFormat}:
        return EventFormat(fmt)
    return EventFormat.ROUND_ROBIN if fmt.endswith("round_robin") else EventFormat.SWISS


def provisional(t: Tournament, rating_list) -> tuple[object, list[Row]] | None:
    """(the edition it starts from, one row per entrant by draw number); None when the list has no edition."""
    edition = rating_list.editions.order_by("-list_date", "-number").first()
    if edition is None:
        return None
    rules = rating_list.rules()
    list_date = next_publication_date(rules.publication_months, edition.list_date)
    day = list_date - timedelta(days=1)
    fids = [e.player_id for e in t.entrants if e.player_id]
    registered = {p.federation_id: p for p in Player.objects.registered().filter(federation_id__in=fids)}
    ids = {e.number: e.player_id if e.player_id in registered else f"{UNREGISTERED}{e.number}" for e in t.entrants}
    states = states_on(rating_list, edition, list(registered.values())) if registered else {}
    for e in t.entrants:
        if ids[e.number] not in states:
            states[ids[e.number]] = (rated_state(ids[e.number], e.rating, edition.list_date) if e.rating
                                     else PlayerState(player_id=ids[e.number]))
    fmt = engine_format(t)
    parsed = from_tournament(t, fmt.value, "trf")
    games = [Game(EVENT_ID, rnd, ids[a], ids[b], result) for rnd, a, b, result, _opener in parsed.games]
    ranks = [Standing(EVENT_ID, ids[row.number], row.rank) for row in standings(t)] if games else []
    event = Event(id=EVENT_ID, name=t.name or EVENT_ID, start_date=day, end_date=day, format=fmt)
    changes = rate_all(rules, states, event, games, ranks, list_date) if games else {}
    return edition, [Row(e, e.player_id in registered, changes.get(ids[e.number])) for e in t.entrants]
