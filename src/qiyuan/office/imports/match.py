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

from qiyuan.errors import Problem, joined, problem
from qiyuan.office.federation.models import Association, Player, mask_id_number
from qiyuan.office.imports.eligibility import check_event
from qiyuan.office.imports.model import Options, ParsedEntrant, ParsedEvent, PendingCandidate, PendingMatch, Plan
from qiyuan.people.idnumber import document_problems, normalize_id_number, parse_resident_id, resident_id_problems


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
                for why in resident_id_problems(n, gender=e.gender or None):
                    plan.problems.append(problem("{at}: ID number {id}: {why}", file=source, at=e.at("id"),
                                                 id=mask_id_number(n), why=why))
            else:
                for why in document_problems("other", n):
                    plan.problems.append(problem("{at}: {why}", file=source, at=e.at("id"), why=why))
            if ids[n] > 1:
                plan.problems.append(problem("{at}: entered twice (ID number {id} appears {n} times)", file=source,
                                             at=e.at("id"), id=mask_id_number(n), n=ids[n]))
        elif report:
            plan.problems.append(problem("{at}: ID number (身份证号码) missing; CGA Art. 11(一) requires it", file=source,
                                         at=e.at("id")))
        if not n and names[(e.name, e.association)] > 1:
            plan.problems.append(problem("{at}: entered twice (same name and association, no ID number)", file=source,
                                         at=e.at("name")))
        if e.association and e.association.lower() not in assoc_by_key:
            if report:
                plan.problems.append(problem("{at}: unknown association {assoc!r} (not in the registry)", file=source,
                                             at=e.at("association"), assoc=e.association))
            else:
                plan.notes.append(problem("{at}: association {assoc!r} is not in the registry", at=e.at("association"),
                                          assoc=e.association))
        if report and not e.gender:
            plan.problems.append(problem("{at}: gender (性别) missing", file=source, at=e.at("gender")))
    if ev.start_date is None or ev.end_date is None:
        if not ev.problems:
            plan.problems.append(problem("the event's dates are missing", file=source))
        return plan
    if not ev.entrants:
        plan.problems.append(problem("no players", file=source))
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
                plan.problems.append(problem("{at}: federation ID {fid} is not in the registry", file=source,
                                             at=e.at("name"), fid=e.federation_id))
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
            plan.problems.append(problem("{at}: entered twice (same registry player {fid} as No. {number})", file=source,
                                         at=e.at("name"), fid=p.federation_id, number=matched_by[p.pk]))
        if p.pk is not None:
            matched_by[p.pk] = e.number
        plan.players[e.number] = p

    # CGA Art. 11 / BJSH §10: the report is due within two weeks of the event's end.
    if options.received_on is not None and (options.received_on - ev.end_date).days > 14:
        plan.notes.append(problem("received {received}, {days} days after the end: reports are due within two weeks "
                                  "(CGA Art. 11, BJSH §10)", received=str(options.received_on),
                                  days=(options.received_on - ev.end_date).days))
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
            plan.problems.append(problem("{at}: --confirm names {fid}, which is not in the registry", file=source,
                                         at=e.at("name"), fid=fid))
            return None, True
        p = _follow_merge(p)
        if _id_conflict(p, n):
            if not override:
                _pending(plan, e, n, [p], source, problem("confirmed as {fid}, but the registry holds another ID "
                                                          "number for that player", fid=p.federation_id))
                return None, True
            plan.notes.append(problem("{at}: the report's ID number {id} differs from the registry's {registry_id} for "
                                      "{fid}; matched by the officer's override (the registry's ID number kept; "
                                      "check which is right)", at=e.at("id"), id=mask_id_number(n),
                                      registry_id=p.masked_id_number, fid=p.federation_id))
        elif n and not p.id_number:
            plan.notes.append(problem("{at}: the report gives ID number {id} for {fid}, whose registry record has none: "
                                      "record it in the registry", at=e.at("id"), id=mask_id_number(n),
                                      fid=p.federation_id))
        return p, False
    cands = _name_candidates(e, assoc)
    if not cands:
        # found nowhere: a proposal to register him (a foreign entrant of an OpenGotha or TRF file, a newcomer of
        # a report), taken only when the officer confirms it — one by one (``N=new``) or all at once
        if options.confirm_all:
            return None, False
        _pending(plan, e, n, [], source, problem("not in the registry"))
        return None, True
    if options.confirm_all and len(cands) == 1 and not _id_conflict(cands[0], n):
        return cands[0], False
    _pending(plan, e, n, cands, source, problem("no ID match"))
    return None, True


def _id_conflict(p, n: str) -> bool:
    return bool(n and p.id_number and p.id_number != n)


def _pending(plan: Plan, e: ParsedEntrant, n: str, cands: list, source: str, why: Problem) -> None:
    """A match waiting for the officer: as text (``plan.pending``) and as data (``plan.pending_matches``)."""
    found = tuple(PendingCandidate(c.federation_id, c.name, c.association.code if c.association else "",
                                   c.birth_year, c.masked_id_number if c.id_number else "", _id_conflict(c, n))
                  for c in cands)
    which = [problem("{fid} {name} ({association}, born {born}; registry ID {registry_id} differs from the report's "
                     "{id})", fid=c.federation_id, name=c.name, association=c.association or "—",
                     born=c.birth_year or "?", registry_id=c.id_masked, id=mask_id_number(n)) if c.id_conflict else
             problem("{fid} {name} ({association}, born {born})", fid=c.federation_id, name=c.name,
                     association=c.association or "—", born=c.birth_year or "?") for c in found]
    override = any(c.id_conflict for c in found)
    if not found:
        text = problem("{at}: {why}: proposed as a new player ({association}, ID {id}) — register the player with --confirm "
                       "'{number}=new' (or every proposal and single match at once: --confirm-all)", file=source,
                       at=e.at("name"), why=why, association=e.association or "—", id=mask_id_number(n),
                       number=e.number) if n else \
            problem("{at}: {why}: proposed as a new player ({association}) — register the player with --confirm "
                    "'{number}=new' (or every proposal and single match at once: --confirm-all)", file=source,
                    at=e.at("name"), why=why, association=e.association or "—", number=e.number)
    else:
        candidates = joined(which)
        text = problem("{at}: {why}; by name and association it may be {candidates} — confirm with --confirm "
                       "'{number}=<federation id>' (with a final ! to override a differing ID number) or --confirm "
                       "'{number}=new'", file=source, at=e.at("name"), why=why, candidates=candidates,
                       number=e.number) if override else \
            problem("{at}: {why}; by name and association it may be {candidates} — confirm with --confirm "
                    "'{number}=<federation id>' or --confirm '{number}=new'", file=source, at=e.at("name"), why=why,
                    candidates=candidates, number=e.number)
    plan.pending_matches.append(PendingMatch(e.number, e.name, e.association, mask_id_number(n) if n else "", e.at("name"),
                                             found, text))


def _follow_merge(p):
    seen = 0
    while p.merged_into_id is not None and seen < 10:
        p = p.merged_into
        seen += 1
    return p


def _confirm_key(options: Options, e: ParsedEntrant) -> str:
    for key in (str(e.number), e.name, str(e.where)):
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
        known = problem(" (a recorded name change)") if e.name in old else ""
        plan.notes.append(problem("{at}: name differs from the registry's {name} ({fid}){known}{said}", at=e.at("name"),
                                  name=p.name, fid=p.federation_id, known=known, said=_unexplained(e)))
    if assoc is not None and p.association_id is not None and assoc.pk != p.association_id:
        plan.notes.append(problem("{at}: association {assoc} differs from the registry's for {fid}{said}",
                                  at=e.at("association"), assoc=assoc.code, fid=p.federation_id, said=_unexplained(e)))


def _unexplained(e: ParsedEntrant) -> Problem | str:
    """A change of name or association the remark column does not explain (CGA Art. 11(四)); "" when it does."""
    return "" if e.remark else problem("; the remark column does not explain it (Art. 11(四))")



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
