"""Matching a parsed event to the registry, and every check before it is stored (a ``Plan``).

Each report row is checked on its own (ID number and its check digit, the
gender digit against the gender column, a missing ID number, an unknown
association, a player entered twice), then matched to a registered player:
by federation ID (TRF), by ID number (身份证号), else by name and association
— such a match waits for the officer's confirmation (``PendingMatch``); a
player found nowhere becomes a new registration. The event's eligibility is
checked last (``imports.eligibility``).
"""

from __future__ import annotations

from collections import Counter

from qiyuan.office.federation.models import Association, Player, mask_id_number
from qiyuan.office.imports.eligibility import check_event
from qiyuan.office.imports.model import Options, ParsedEntrant, ParsedEvent, PendingCandidate, PendingMatch, Plan
from qiyuan.people.idnumber import normalize_id_number, parse_resident_id, validate_document, validate_resident_id


def prepare(ev: ParsedEvent, rating_list, options: Options, *, source: str, eligibility: bool = True) -> Plan:
    """Every check of an event before it is stored: identity, registry matching, duplicates, eligibility
    (``eligibility=False``: not checked, when the facts it needs are not settled — that refusal says why)."""
    plan = Plan(ev, problems=list(ev.problems), notes=list(ev.notes))
    report = source.lower().endswith((".xlsx", ".xlsm"))
    assoc_by_key = {}
    for a in Association.objects.all():
        assoc_by_key[a.code.lower()] = a
        assoc_by_key[a.name.lower()] = a

    # Identity of each row: ID number, gender, association; entered twice.
    ids = Counter(normalize_id_number(e.id_number) for e in ev.entrants if e.id_number)
    names = Counter((e.name, e.association) for e in ev.entrants)
    for e in ev.entrants:
        n = normalize_id_number(e.id_number)
        if n:
            if len(n) == 18 and n[:17].isdigit():
                for msg in validate_resident_id(n, gender=e.gender or None):
                    plan.problems.append(f"{source}: {e.at('id')}: ID number {mask_id_number(n)}: {msg}")
            else:
                for msg in validate_document("other", n):
                    plan.problems.append(f"{source}: {e.at('id')}: {msg}")
            if ids[n] > 1:
                plan.problems.append(f"{source}: {e.at('id')}: entered twice (ID number {mask_id_number(n)} appears {ids[n]} times)")
        elif report:
            plan.problems.append(f"{source}: {e.at('id')}: ID number (身份证号码) missing; CGA Art. 11(一) requires it")
        if not n and names[(e.name, e.association)] > 1:
            plan.problems.append(f"{source}: {e.at('name')}: entered twice (same name and association, no ID number)")
        if e.association and e.association.lower() not in assoc_by_key:
            if report:
                plan.problems.append(f"{source}: {e.at('association')}: unknown association {e.association!r} (not in the registry)")
            else:
                plan.notes.append(f"{e.at('association')}: association {e.association!r} is not in the registry")
        if report and not e.gender:
            plan.problems.append(f"{source}: {e.at('gender')}: gender (性别) missing")
    if ev.start_date is None or ev.end_date is None:
        if not ev.problems:
            plan.problems.append(f"{source}: the event's dates are missing")
        return plan
    if not ev.entrants:
        plan.problems.append(f"{source}: no players")
        return plan

    # Registry matching.
    matched_by: dict[int, int] = {}
    for e in ev.entrants:
        assoc = assoc_by_key.get(e.association.lower()) if e.association else None
        n = normalize_id_number(e.id_number)
        p = None
        if e.federation_id:
            p = Player.objects.filter(federation_id=e.federation_id).first()
            if p is None:
                plan.problems.append(f"{source}: {e.at('name')}: federation ID {e.federation_id} is not in the registry")
                continue
        if p is None and n:
            p = Player.objects.filter(id_number=n).first()
        if p is not None:
            p = _follow_merge(p)
            _registry_notes(plan, e, p, assoc)
        else:
            p, waiting = _name_match(plan, e, assoc, n, options, source)
            if waiting:
                continue
        if p is None:
            p = _new_player(e, assoc, n)
            plan.new_players.append(p)
        if p.pk is not None and p.pk in matched_by:
            plan.problems.append(f"{source}: {e.at('name')}: entered twice (same registry player {p.federation_id} as "
                                 f"No. {matched_by[p.pk]})")
        if p.pk is not None:
            matched_by[p.pk] = e.number
        plan.players[e.number] = p

    # CGA Art. 11 / BJSH §10: the report is due within two weeks of the event's end.
    if options.received_on is not None and (options.received_on - ev.end_date).days > 14:
        plan.notes.append(f"received {options.received_on}, {(options.received_on - ev.end_date).days} days after the "
                          "end: reports are due within two weeks (CGA Art. 11, BJSH §10)")
    # Arbiters and eligibility.
    if eligibility:
        check_event(plan, ev, rating_list, options, source)
    return plan


def _name_match(plan: Plan, e: ParsedEntrant, assoc, n: str, options: Options, source: str):
    """A report player no ID number found, matched by name and association only with the officer's
    confirmation; a candidate whose registry ID number differs from the report's only with an explicit
    override (``NUMBER=CN000123!``), noted. Returns (player or None for a new one, still waiting)."""
    key = _confirm_key(options, e)
    if key == "new":
        return None, False
    if key:
        fid, override = key.rstrip("!").strip(), key.endswith("!")
        p = Player.objects.filter(federation_id=fid).first()
        if p is None:
            plan.problems.append(f"{source}: {e.at('name')}: --confirm names {fid}, which is not in the registry")
            return None, True
        p = _follow_merge(p)
        if _id_conflict(p, n):
            if not override:
                _pending(plan, e, n, [p], source, f"confirmed as {p.federation_id}, but the registry holds another "
                         "ID number for that player")
                return None, True
            plan.notes.append(f"{e.at('id')}: the report's ID number {mask_id_number(n)} differs from the registry's "
                              f"{p.masked_id_number} for {p.federation_id}; matched by the officer's override "
                              "(the registry's ID number kept; check which is right)")
        elif n and not p.id_number:
            plan.notes.append(f"{e.at('id')}: the report gives ID number {mask_id_number(n)} for {p.federation_id}, whose "
                              "registry record has none: record it in the registry")
        return p, False
    cands = _name_candidates(e, assoc)
    if not cands:
        # found nowhere: a proposal to register him (a foreign entrant of an OpenGotha or TRF file, a newcomer of
        # a report), taken only when the officer confirms it — one by one (``N=new``) or all at once
        if options.confirm_all:
            return None, False
        _pending(plan, e, n, [], source, "not in the registry")
        return None, True
    if options.confirm_all and len(cands) == 1 and not _id_conflict(cands[0], n):
        return cands[0], False
    _pending(plan, e, n, cands, source, "no ID match")
    return None, True


def _id_conflict(p, n: str) -> bool:
    return bool(n and p.id_number and p.id_number != n)


def _pending(plan: Plan, e: ParsedEntrant, n: str, cands: list, source: str, why: str) -> None:
    """A match waiting for the officer: as text (``plan.pending``) and as data (``plan.pending_matches``)."""
    found = tuple(PendingCandidate(c.federation_id, c.name, c.association.code if c.association else "",
                                   c.birth_year, c.masked_id_number if c.id_number else "", _id_conflict(c, n))
                  for c in cands)
    which = ", ".join(f"{c.federation_id} {c.name} ({c.association or '—'}, born {c.birth_year or '?'}"
                      + (f"; registry ID {c.id_masked} differs from the report's {mask_id_number(n)}" if c.id_conflict else "")
                      + ")" for c in found)
    override = any(c.id_conflict for c in found)
    if not found:
        text = (f"{source}: {e.at('name')}: {why}: proposed as a new player ({e.association or '—'}"
                + (f", ID {mask_id_number(n)}" if n else "") + f") — register him with --confirm '{e.number}=new' "
                "(or every proposal and single match at once: --confirm-all)")
    else:
        text = (f"{source}: {e.at('name')}: {why}; by name and association it may be {which} — confirm with "
                f"--confirm '{e.number}=<federation id>'" + (" (with a final ! to override a differing ID number)"
                                                               if override else "") + f" or --confirm '{e.number}=new'")
    plan.pending_matches.append(PendingMatch(e.number, e.name, e.association, mask_id_number(n) if n else "", e.at("name"),
                                             found, text))


def _follow_merge(p):
    seen = 0
    while p.merged_into_id is not None and seen < 10:
        p = p.merged_into
        seen += 1
    return p


def _confirm_key(options: Options, e: ParsedEntrant) -> str:
    for key in (str(e.number), e.name, e.where):
        if key in options.confirm:
            return options.confirm[key]
    return ""


def _name_candidates(e: ParsedEntrant, assoc) -> list:
    qs = Player.objects.registered()
    if e.name_latin:
        qs = qs.filter(name_latin__iexact=e.name_latin) | qs.filter(name__iexact=e.name)
    else:
        qs = qs.filter(name=e.name)
    if assoc is not None:
        qs = qs.filter(association=assoc)
    return list(qs.select_related("association")[:5])


def _registry_notes(plan: Plan, e: ParsedEntrant, p, assoc) -> None:
    """CGA Art. 11(四): a change of name or association must be explained in the remarks."""
    if e.name and e.name != p.name and e.name != p.name_latin:
        old = list(p.name_changes.values_list("old_name", flat=True)) if hasattr(p, "name_changes") else []
        known = " (a recorded name change)" if e.name in old else ""
        said = "" if e.remark else "; the remark column does not explain it (Art. 11(四))"
        plan.notes.append(f"{e.at('name')}: name differs from the registry's {p.name} ({p.federation_id}){known}{said}")
    if assoc is not None and p.association_id is not None and assoc.pk != p.association_id:
        said = "" if e.remark else "; the remark column does not explain it (Art. 11(四))"
        plan.notes.append(f"{e.at('association')}: association {assoc.code} differs from the registry's for {p.federation_id}{said}")


def _new_player(e: ParsedEntrant, assoc, id_number: str):
    """A new registry player from the report: the birth date, document and nationality the report gives (its
    棋手资料 sheet, the TRF's columns), else what a resident ID number (身份证号) holds."""
    birth = None
    id_type = Player.IdType.RESIDENT
    if e.id_type in (Player.IdType.PASSPORT, Player.IdType.OTHER) and id_number:
        id_type = e.id_type
    elif id_number and len(id_number) == 18 and id_number[:17].isdigit():
        try:
            birth = parse_resident_id(id_number).birth_date
        except ValueError:
            birth = None
    elif id_number:
        id_type = Player.IdType.OTHER
    nationality = e.nationality or ("CHN" if birth else "")
    return Player(name=e.name, name_latin=e.name_latin, gender=e.gender, birth_date=birth or e.birth_date,
                  id_type=id_type, id_number=id_number, association=assoc, dan=e.dan, nationality=nationality)
