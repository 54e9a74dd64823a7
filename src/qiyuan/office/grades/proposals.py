"""An office event's grade proposals: its stored facts and final standings under the policy (read only).

The event is found by its code; its standard by name and start date (or the id
the officer gives). The classes, tables and conditions are those of the policy
the standard was recorded under — what was published before the event began —
and the cap is the one in force on the event's last day by the policy in force
now (which holds every dated step). The unrated share is the one the import
measured (the players without a published rating when the event began).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from qiyuan.errors import NotFound, problem
from qiyuan.grading.policy import GrantPolicy
from qiyuan.grading.proposal import GradingEvent, Placing, Proposal, Standard, propose
from qiyuan.office.events.models import Entry, Event
from qiyuan.office.grades.history import grants_by_player, held_on
from qiyuan.office.grades.models import GradingStandard
from qiyuan.office.grades.policies import policy_in_force, version_policy
from qiyuan.office.grades.standards import standard_for
from qiyuan.office.imports.eligibility import rated_players


def find_event(code: str) -> Event:
    """The office event with this code (``NotFound`` otherwise)."""
    event = Event.objects.filter(code=(code or "").strip()).select_related("rating_list", "chief_arbiter").first()
    if event is None:
        raise NotFound([problem("no event {event!r} in the office (`qiyuan office dan events` lists the recent ones)",
                                event=code)])
    return event


@dataclass(frozen=True)
class EventProposal:
    """A proposal with what it was made from: the office event, its standard and the policy applied."""

    event: Event
    standard: GradingStandard | None
    policy: GrantPolicy
    proposal: Proposal
    player_pks: dict[str, int]  # federation ID → player pk, for the grants


def _unrated(event: Event, entries: list[Entry]) -> int:
    """Players without a published rating when the event began: as measured at import, else measured now."""
    facts = (event.eligibility or {}).get("facts") or {}
    if isinstance(facts.get("rated"), int):
        return max(0, len(entries) - facts["rated"])
    players = {e.player_id: e.player for e in entries}
    return len(players) - len(rated_players(event.rating_list, players, event.start_date))


def event_proposal(event: Event, *, standard_id: int | None = None) -> EventProposal:
    """The proposal for ``event`` (see the module's docstring)."""
    standard = standard_for(event, standard_id)
    current = policy_in_force().policy
    policy = current
    if standard is not None:
        policy = dataclasses.replace(version_policy(standard.policy), caps=current.caps)
    entries = list(Entry.objects.filter(event=event).select_related("player"))
    grants = grants_by_player(e.player_id for e in entries)
    placings = []
    for e in entries:
        p = e.player
        mine = grants.get(p.pk, [])
        here = next((g for g in mine if g.event_id == event.pk), None)
        placings.append(Placing(
            player=p.federation_id, name=p.name, rank=e.rank, gender=p.gender or "", status=p.status,
            nationality=p.nationality or "",
            held=held_on(mine, event.end_date, registry_dan=p.dan or "", exclude_event=event.pk),
            granted_here=held_on([here], here.granted_on) if here is not None else None,
        ))
    chief = event.chief_arbiter
    facts = GradingEvent(
        code=event.code, name=event.name, start_date=event.start_date, end_date=event.end_date,
        organiser_level=event.organiser_level, national=event.national, list_code=event.rating_list.code,
        unrated=_unrated(event, entries), chief_arbiter_level=chief.level if chief else "",
        chief_arbiter=chief.name if chief else "",
        standard=Standard(standard.event_class, standard.recorded_on, str(standard.pk)) if standard else None,
        placings=tuple(placings),
    )
    return EventProposal(event, standard, policy, propose(policy, facts),
                         {e.player.federation_id: e.player_id for e in entries})
