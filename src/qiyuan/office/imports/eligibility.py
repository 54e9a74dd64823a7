"""Is the event rateable? The eligibility rules of the list's rule set on the facts an import knows.

The facts come from the file (format, players, rounds played, time control,
arbiters by name — looked up in the registry for their level and the CGA
recognition) and from the officer's options (organiser level, national,
international, agreed, dan event, standards published); the rated share of
the field from the list's edition in force when the event began. Every
failed condition is a problem naming its clause (CGA Art. 4–5, BJSH §6–7, §9,
Go §4).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TypeVar

from qiyuan.errors import problem
from qiyuan.office.engine import MemberFacts, engine_player
from qiyuan.office.federation.models import Arbiter, Player
from qiyuan.office.grades.history import grade_on
from qiyuan.office.imports.model import Options, ParsedEvent, Plan
from qiyuan.office import sheets
from qiyuan.office.ratings.models import ListMember
from qiyuan.rating.eligibility import ArbiterFacts, EventFacts, OrganiserLevel, check_eligibility, parse_time_control
from qiyuan.rating.model import EventFormat
from qiyuan.rating.state import starting_rating

K = TypeVar("K")


def check_event(plan: Plan, ev: ParsedEvent, rating_list, options: Options, source: str) -> None:
    facts_arbiters = []
    for i, name in enumerate([ev.chief_arbiter, *ev.arbiters]):
        if not name:
            continue
        a = Arbiter.objects.filter(name=name).first()
        if a is None:
            plan.notes.append(problem("arbiter {name!r} is not in the registry: not counted as recognised or national",
                                      name=name))
            facts_arbiters.append(ArbiterFacts(name))
        else:
            if i == 0:
                plan.chief = a
            else:
                plan.arbiters.append(a)
            facts_arbiters.append(ArbiterFacts(a.name, a.level, a.recognised_national))
    rated = _rated_entrants(rating_list, plan, ev.start_date)
    played = sum(1 for g in ev.games if g[3].played)
    genders = {n: (p.gender or "") for n, p in plan.players.items()}
    women_only = bool(genders) and all(g == "F" for g in genders.values())
    tc = parse_time_control(ev.time_control)
    facts = EventFacts(
        format=EventFormat(ev.format), players=len(ev.entrants),
        rounds=len({g[0] for g in ev.games if g[3].played}), rated_players=len(rated),
        # a level the list's rules do not read may be unstated (``imports.facts``): it decides nothing here
        organiser_level=OrganiserLevel(options.organiser_level or OrganiserLevel.OTHER.value),
        national=options.national,
        international=options.international, agreed_by_parties=options.agreed_by_parties,
        arbiters=tuple(facts_arbiters), time_control=tc,
        rated_men=sum(1 for n in rated if genders.get(n) == "M"),
        rated_women=sum(1 for n in rated if genders.get(n) == "F"), women_only=women_only,
        played_games=played, unplayed_games=len(ev.games) - played, dan_event=options.dan_event,
        standards_published=options.standards_published,
    )
    result = check_eligibility(rating_list.rules(), facts)
    plan.eligibility = {"family": rating_list.family, "eligible": result.eligible,
                        "failures": [str(f) for f in result.failures], "notes": [str(n) for n in result.notes],
                        # the same failures as templates with their values, for a page in the reader's language
                        "failure_data": [problem("{clause}: {why}", clause=f.clause, why=f.problem()).as_json()
                                         for f in result.failures],
                        "facts": {"players": facts.players, "rounds": facts.rounds, "rated": facts.rated_players,
                                  "time_control": str(tc) if tc else None, "arbiters": [a.name for a in facts_arbiters]}}
    plan.notes.extend(result.notes)
    for f in result.failures:
        plan.problems.append(problem("not eligible: {clause}: {why}", file=source, clause=f.clause, why=f.problem()))


def _rated_entrants(rating_list, plan: Plan, on: date) -> set[int]:
    """Draw numbers of the entrants holding a published rating on ``rating_list`` when the event began."""
    return rated_players(rating_list, plan.players, on)


def rated_players(rating_list, players: Mapping[K, Player], on: date) -> set[K]:
    """The keys of ``players`` (e.g. draw numbers) holding a published rating on ``rating_list`` on ``on``
    (before the list's first edition: a rating the rule set starts them from, by the grade held that day)."""
    pks = {n: p.pk for n, p in players.items() if p.pk is not None}
    ed = rating_list.editions.filter(list_date__lte=on).order_by("-list_date", "-number").first()
    if ed is not None:
        # a record kept by a merge holds the rating its duplicate published (``services.identity``)
        dup_of = dict(Player.objects.filter(merged_into_id__in=pks.values()).values_list("pk", "merged_into_id"))
        rated_pks = sheets.on_edition(ed, [*pks.values(), *dup_of], rated=True, but_status="removed")
        rated_pks |= {dup_of[pk] for pk in rated_pks if pk in dup_of}
        return {n for n, pk in pks.items() if pk in rated_pks}
    rules = rating_list.rules()
    members = {m.player_id: m for m in ListMember.objects.filter(rating_list=rating_list, player_id__in=pks.values())}
    out = set()
    for n, p in players.items():
        m = members.get(p.pk)
        if p.pk is None:  # a new registration: the grade the report gives
            dan, body = p.dan or "", ""
        else:
            held = grade_on(p, on)
            dan, body = (held.grade, held.body) if held else ("", "")
        facts = MemberFacts(p.gender or "", dan, m.rating if m else None, m.games if m else 0,
                            m.k_latched if m else False, p.registered_on, p.reference_rating, body)
        if starting_rating(rules, engine_player(p.federation_id or "new", facts)) is not None:
            out.add(n)
    return out
