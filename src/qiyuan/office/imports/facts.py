"""The facts that make an event rateable, never assumed (issue 18: no permissive defaults).

Organiser level, national, international, agreed by the parties, dan event, standards published and the
event format come, in this order, from the event's registration in the calendar when the report matches
one, else from the file (the report's lines, ``report_xlsx.FACT_ROWS``; its 赛制; a TRF's ``XQM``), else from
the officer (``Options``: the command's options, the desk's fields, which start empty). A fact the list's
rules read that none of them gives refuses the import, naming it and the option that states it. Two sources
that disagree — the officer's value against the registration's or the report's, or the report against its
registration — refuse it too, showing the difference, unless the officer confirms his values
(``Options.override_facts``): then his value is used, noted, and the import's audit entry keeps the difference.
"""

from __future__ import annotations

from dataclasses import replace

from qiyuan.errors import N_, Problem, joined, problem
from qiyuan.office.imports.model import FACTS, Options, ParsedEvent, Plan
from qiyuan.rating.eligibility import (
    ELIGIBILITY_BJSH_2007,
    ELIGIBILITY_CGA_2011,
    ELIGIBILITY_GO_1995,
    ELIGIBILITY_NONE,
)
from qiyuan.tournament.systems import rated_format

#: the facts each set of eligibility conditions reads (the rating itself reads national and international —
#: the national team championship's boards, Go's international rule — and the format, whatever the conditions)
READ_BY_CONDITIONS = {
    ELIGIBILITY_CGA_2011: ("organiser_level",),  # CGA Art. 4
    ELIGIBILITY_BJSH_2007: ("organiser_level", "agreed_by_parties", "dan_event"),  # BJSH §6, §9
    ELIGIBILITY_GO_1995: ("organiser_level",),  # Go §4
    ELIGIBILITY_NONE: (),
}
ALWAYS = ("format", "national", "international")

#: how the officer states each fact on the command line (the desk has a field of the same name)
OPTION = {
    "organiser_level": "--organiser-level state|regional|local|other",
    "national": "--national / --not-national",
    "international": "--international / --not-international",
    "agreed_by_parties": "--agreed / --not-agreed",
    "dan_event": "--dan-event / --no-dan-event",
    "standards_published": "--standards-published / --no-standards-published",
    "format": "--format swiss|round_robin|team|match|knockout",
}
#: the registration's fields (``calendar.Registration``) that declare a fact
REGISTERED = ("organiser_level", "national", "international", "agreed_by_parties", "format")


def required(rules, stated: dict) -> list[str]:
    """The facts the list's rules read for this event (``standards_published`` only for a dan event)."""
    out = list(ALWAYS) + [f for f in READ_BY_CONDITIONS.get(rules.eligibility, FACTS) if f not in ALWAYS]
    if rules.eligibility == ELIGIBILITY_BJSH_2007 and stated.get("dan_event"):
        out.append("standards_published")  # BJSH §9(三), read only for a dan event
    return out


def _show(fact: str, value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


#: each fact and each of its values in words, for the messages (shown in the reader's language)
FACT_WORDS = {
    "organiser_level": problem("organiser level"), "national": problem("national event"),
    "international": problem("international event"), "agreed_by_parties": problem("agreed by the parties"),
    "dan_event": problem("dan event"), "standards_published": problem("standards published before the event"),
    "format": problem("event format"),
}
VALUE_WORDS = {
    "yes": problem("yes"), "no": problem("no"), "state": problem("state level"), "regional": problem("regional level"),
    "local": problem("local organisation"), "other": problem("another body"), "swiss": problem("Swiss system"),
    "round_robin": problem("round robin"), "double_round_robin": problem("double round robin"),
    "team": problem("team event"), "match": problem("match"), "knockout": problem("knock-out"),
}


def _words(fact: str, value) -> Problem | str:
    shown = _show(fact, value)
    return VALUE_WORDS.get(shown, shown)



#: the facts' refusals and note as the command line says them (its options); ``AT_THE_DESK`` as the desk says them
FACTS_MISSING = N_("the event's {facts} cannot be assumed: neither a registration in the calendar nor the file says "
                   "it; state it: {options}")
REPORT_DIFFERS = N_("{fact}: the report says {declared}, its registration {ref} says {registered}; state the right "
                    "one ({option}) with --override-facts")
OFFICER_DIFFERS = N_("{fact}: you state {stated}, {whose} says {theirs}; to use yours, import again with "
                     "--override-facts (the difference is kept in the audit log)")
OVERRIDDEN = N_("{fact}: the officer's {his} used instead of {theirs} (--override-facts)")


def resolve(parsed: ParsedEvent, options: Options, registration, rules, source: str
            ) -> tuple[Options, list[Problem], dict]:
    """The options with every fact settled (and ``parsed.format`` set), the refusals (missing facts,
    unconfirmed contradictions) and the overridden facts (fact → [the other source's value, the officer's])."""
    reg = registration.registration if registration is not None else None
    problems: list[Problem] = []
    settled: dict = {}
    overridden: dict = {}
    for fact in (*FACTS, "format"):
        registered = getattr(reg, fact) if reg is not None and fact in REGISTERED else None
        declared = (parsed.format or None) if fact == "format" else parsed.declared.get(fact)
        stated = getattr(options, fact)
        if fact == "format" and stated is not None:
            stated = rated_format(stated)
        if registered is not None and declared is not None and registered != declared and stated is None:
            problems.append(problem(
                REPORT_DIFFERS, file=source, code="import.facts", fact=FACT_WORDS[fact],
                declared=_words(fact, declared), ref=reg.code, registered=_words(fact, registered),
                option=OPTION[fact]))
            continue
        theirs = registered if registered is not None else declared
        if stated is not None and theirs is not None and stated != theirs:
            whose = problem("its registration {ref}", ref=reg.code) if registered is not None else problem("the report")
            if not options.override_facts:
                problems.append(problem(
                    OFFICER_DIFFERS, file=source, code="import.facts",
                    fact=FACT_WORDS[fact], stated=_words(fact, stated), whose=whose, theirs=_words(fact, theirs)))
                continue
            overridden[fact] = [_show(fact, theirs), _show(fact, stated)]
        settled[fact] = stated if stated is not None else theirs
    missing = [f for f in required(rules, settled) if settled.get(f) is None]
    if missing and not problems:
        problems.append(problem(
            FACTS_MISSING, file=source, code="import.facts_missing", facts=joined(FACT_WORDS[f] for f in missing),
            options="; ".join(OPTION[f] for f in missing)))
    fmt = settled.pop("format", None)
    if fmt is not None:
        parsed.format = rated_format(fmt)
    # facts the rules do not read and nobody gave: stored as "no" (they decide nothing for this list)
    values = {f: settled.get(f) if settled.get(f) is not None else (None if f == "organiser_level" else False)
              for f in FACTS}
    return replace(options, format=parsed.format or None, **values), problems, overridden


#: the refusals and notes above as the desk says them: its form has a field for each fact and a box that makes the
#: officer's facts win, where the command line has options (the wording of the command line is the template kept)
AT_THE_DESK = {
    FACTS_MISSING: N_(
        "the event's {facts} cannot be assumed: neither a registration in the calendar nor the file says it; choose "
        "it in the form's fields of the same name above, then import again"),
    REPORT_DIFFERS: N_(
        "{fact}: the report says {declared}, its registration {ref} says {registered}; choose the right one in the "
        "form above and tick that the facts entered above take precedence"),
    OFFICER_DIFFERS: N_(
        "{fact}: you state {stated}, {whose} says {theirs}; to use yours, tick that the facts entered above take "
        "precedence and import again (the difference is kept in the audit log)"),
    OVERRIDDEN: N_(
        "{fact}: the officer's {his} used instead of {theirs} (the facts entered in the form took precedence)"),
}


def at_the_desk(p: Problem) -> Problem:
    """A refusal or note of the facts as the desk says it (its fields, not the command line's options); any other
    problem as it is."""
    desk = AT_THE_DESK.get(p.message) if isinstance(p, Problem) else None
    return replace(p, message=desk) if desk else p


def note_overrides(plan: Plan, overridden: dict) -> None:
    plan.overridden = overridden
    for fact, (theirs, his) in overridden.items():
        plan.notes.append(problem(OVERRIDDEN, fact=FACT_WORDS.get(fact, fact), his=VALUE_WORDS.get(his, his),
                                  theirs=VALUE_WORDS.get(theirs, theirs)))
