"""Reproducibility (可复核): recompute every published edition from the stored events and prove it identical.

For each edition — corrections and superseded ones included — the period is
computed again from exactly what the edition says it started from (its
previous edition's stored states, the list members who had joined by its
publication, the events it rated, the rule-set settings it used, the names it
published) and compared with the stored sheet, bit for bit: the digest of the
recomputation must equal the digest published, the sheet read back from the
database must give that digest too (nothing was altered after publication),
and every stored number of every rating change — before, after, games, W, We,
K, ΔR, method, which the public pages show beside the explanation — must be
the recomputation's. The public facts the edition was computed from (its
events' dates, flags and status, their games and standings, the members who
joined in it and their grants, who published it) must still give the inputs
digest stored with it.

Verify never stops at a broken edition: whatever is wrong with one (an event
moved out of its period, a game against a player who is not on the list, data
the engine refuses) is listed as a difference of that edition, and the others
are checked all the same. Which members an edition was computed with is
decided by the edition each joined the list in, never by comparing clocks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from qiyuan.collector import held
from qiyuan.errors import N_, Problem, QiyuanError, joined, problem
from qiyuan.formats.canonical_text import WRITERS
from qiyuan.formats.change_texts import stored_numbers
from qiyuan.formats.edition_sheet import FORMAT as SHEET_FORMAT
from qiyuan.formats.edition_sheet import SheetError
from qiyuan.office import sheets
from qiyuan.office.canonical import (
    CHANGE_COLUMNS,
    EventRows,
    digest_in,
    event_rows,
    inputs_digest,
    stored_inputs,
    stored_state,
    writer,
)
from qiyuan.office.events.models import Entry
from qiyuan.office.events.models import Game as GameRow
from qiyuan.office.audit.models import record
from qiyuan.office.merged import aliases_for_edition
from qiyuan.office.engine import state_from_json
from qiyuan.office.periods import (
    ENGINE,
    MemberTable,
    PeriodComputation,
    compute_period,
    members_of,
    rate_periods,
    rules_of_edition,
)
from qiyuan.office.ratings.models import Edition
from qiyuan.office.records import record_problems
from qiyuan.rating.calendar import next_publication_date
from qiyuan.rating.state import PlayerState

MAX_SHOWN = 20
#: how many editions' stored states ``verify_all`` keeps for the editions that start from them
KEPT = 4


class Difference(str):
    """One difference ``verify`` found: its English line (what programs, logs and the tests read) that also carries
    the translatable problem it was written from (``problem``), which the command line shows in the reader's
    language."""

    problem: Problem

    def __new__(cls, found: Problem) -> Difference:
        line = super().__new__(cls, found.text())
        line.problem = found
        return line


#: the stored columns of a rating change as a difference names them: the column's code in English (what programs
#: read), in words in the reader's language (赛前等级分); the rule symbols W, We, K as they are
_COLUMN_NAMES = {"before": problem(N_("before")), "after": problem(N_("after")), "games": problem(N_("games")),
                 "delta": problem(N_("delta")), "method": problem(N_("method")), "W": "W", "We": "We", "K": "K"}


@dataclass
class VerifyReport:
    editions: int = 0
    differences: list[str] = field(default_factory=list)
    #: how many times the chain started from stored states (each list's first edition, and after each break)
    runs: int = 0

    @property
    def ok(self) -> bool:
        return not self.differences


def verify_edition(edition, *, engine: str = ENGINE, members: MemberTable | None = None,
                   stored: dict[int, dict[str, dict | str]] | None = None) -> list[str]:
    """The differences between a published edition and its recomputation with ``engine`` (empty: identical).

    ``members`` (the list's members read once) and ``stored`` (edition pk → the stored states of editions
    already read, this one's added) spare ``verify_all`` reading them again for every edition."""
    return _verify(edition, engine=engine, members=members, stored=stored)[0]


def _verify(edition, *, engine: str, members: MemberTable | None, stored: dict[int, dict[str, dict | str]] | None,
            chained: dict[str, PlayerState] | None = None, computed: PeriodComputation | None = None
            ) -> tuple[list[str], dict[str, PlayerState] | None]:
    """``verify_edition``, started from ``chained`` (the previous edition's stored states as the chain computed
    them) when given, or compared with ``computed`` (the edition as its line's one engine call computed it,
    ``_line_computations``); also returns, when the edition is identical, its stored states as computed (the next
    link of the chain), else None."""
    label = f"{edition.rating_list.code} {edition.label}"
    try:
        w = writer(edition.canonical_version)
    except ValueError:  # a canonical text version this program does not know
        return [Difference(problem(
            "{label}: canonical text version {version} is unknown to this program (known: {known})", label=label,
            version=edition.canonical_version, known=", ".join(map(str, sorted(WRITERS)))))], None
    out: list[str] = []
    # the sheet (the edition as stored): decoded, written in the edition's version and hashed once
    sheet = None
    try:
        sheet = sheets.stored_lines(edition)
    except sheets.MissingSheet:
        out.append(Difference(problem("{label}: its sheet (entries and changes) is missing", label=label)))
    except SheetError as exc:
        out.append(Difference(problem("{label}: its sheet cannot be read ({part}: {reason})", label=label,
                                      part=exc.part, reason=exc.reason)))
    if sheet is None:  # (nothing stored to compare with; the editions that start from it are refused as well)
        return out, None
    entries, changes, events, ordered, states, names, numbers = sheet
    if w.digest_of(ordered, changes.values(), events) != edition.digest:
        out.append(Difference(problem(
            "{label}: the stored sheet no longer gives the published digest (altered after publication)",
            label=label)))
    evs = list(edition.events.order_by("end_date", "start_date", "code"))
    # games and standings read once: inputs digest, strangers, engine
    played = computed.rows if computed is not None else event_rows([e.pk for e in evs])
    if edition.inputs_digest and inputs_digest(stored_inputs(edition.pk, rows=played, published=set(entries))
                                               ) != edition.inputs_digest:
        out.append(Difference(problem(
            "{label}: the public facts it was computed from (its events' dates, flags and status, games, standings, "
            "the members who joined in it and their grades, who published it) changed since publication",
            label=label)))
    aliases = aliases_for_edition(set(entries))
    broken = _outside_period(label, edition, evs) + _strangers(label, edition, evs, aliases, members, played)
    out += broken
    prior = chained
    if stored is not None:
        stored[edition.pk] = states
        if prior is None and edition.previous_id in stored:  # the previous edition's stored states, decoded
            prior = {fid: state_from_json(fid, stored_state(st)) for fid, st in stored[edition.previous_id].items()}
    try:
        comp = computed
        if comp is None:
            rules = rules_of_edition(edition)
            cache = members.cache(rules, edition.list_date, edition, names) if members is not None else None
            comp = compute_period(edition.rating_list, edition.list_date, previous=edition.previous, events=evs,
                                  rules=rules, as_of=edition, names=names, aliases=aliases, engine=engine,
                                  cache=cache, prior=prior, rows=played)
    except Exception as exc:  # whatever the stored data makes the engine refuse is a difference, never a crash
        reason = joined(exc.problems, "; ") if isinstance(exc, QiyuanError) else f"{type(exc).__name__}: {exc}"
        return out + ([] if broken else [Difference(problem(
            "{label}: cannot be recomputed from the stored data ({reason})", label=label, reason=reason))]), None
    out += _changed_columns(label, comp, numbers, w.version)
    if comp.canonical_version != w.version:  # recomputed in the edition's own version of the text
        comp.digest = digest_in(comp, w.version)
    if comp.digest == edition.digest and not out:
        # (equal digests: every stored state's text is the computed state's, so the next edition may start from
        # the computed objects instead of decoding the stored ones)
        return [], comp.states.take(states)
    mine = {e.federation_id: e.line() for e in comp.entries}  # (written again only to name what differs)
    for fid in sorted(set(mine) | set(entries)):
        if mine.get(fid) != entries.get(fid):
            out.append(Difference(problem(
                "{label}: player {player}: published {published}, recomputed {recomputed}", label=label, player=fid,
                published=repr(entries.get(fid)), recomputed=repr(mine.get(fid)))))
    cc = comp.change_cols
    mine_c = {(ev, fid): w.change_line(ev, fid, t) for ev, fid, t in zip(cc.event_id, cc.player_id,
                                                                           comp.change_texts)}
    for key in sorted(set(mine_c) | set(changes)):
        if mine_c.get(key) != changes.get(key):
            out.append(Difference(problem(
                "{label}: change of {player} in {event}: published {published}, recomputed {recomputed}", label=label,
                player=key[1], event=key[0], published=repr(changes.get(key)), recomputed=repr(mine_c.get(key)))))
    if sorted(events) != sorted(e.code for e in comp.events):
        out.append(Difference(problem("{label}: events differ", label=label)))
    if not out:
        out.append(Difference(problem(
            "{label}: digest differs ({published} published, {recomputed} recomputed)", label=label,
            published=edition.digest[:12], recomputed=comp.digest[:12])))
    return out, None


def _lines(editions: list) -> dict[int, list]:
    """The editions (in publication order per list) as lines: each edition that started from the last edition of
    a line, on the next list date, under the same rule settings, continues it. Returns each line of several by the
    pk of its first edition (``verify_all`` computes a line through one engine call)."""
    lines: list[list] = []
    ending: dict[int, list] = {}  # pk of a line's last edition → the line
    for ed in editions:
        line = ending.pop(ed.previous_id, None) if ed.previous_id is not None else None
        if line is not None and (line[-1].rating_list_id != ed.rating_list_id or line[-1].rules_settings !=
                                 ed.rules_settings or ed.list_date != next_publication_date(
                                     rules_of_edition(ed).publication_months, line[-1].list_date)):
            line = None
        if line is None:
            line = []
            lines.append(line)
        line.append(ed)
        ending[ed.pk] = line
    return {line[0].pk: line for line in lines if len(line) > 1}


def _line_after(lines: dict[int, list], edition) -> list[int]:
    """The pks of the editions after ``edition`` in its line."""
    for line in lines.values():
        pks = [e.pk for e in line]
        if edition.pk in pks:
            return pks[pks.index(edition.pk) + 1:]
    return []


def _line_computations(line: list, table: MemberTable, chained: dict[str, PlayerState] | None, engine: str
                       ) -> dict[int, Iterator[PeriodComputation]]:
    """The editions of a line computed through ONE call of the engine (``periods.rate_periods``), each with the
    members who had joined by it, the names it published and the events it rated — what ``compute_period`` gives
    for each from the one before. The line is cut before the first edition this cannot stand for (events outside
    its period, merged records published otherwise than the first's); nothing when it cannot be computed (each
    edition is then computed alone, and whatever is wrong is named there)."""
    first = line[0]
    try:
        rules = rules_of_edition(first)
        prior = chained
        if prior is None:
            prior = {fid: state_from_json(fid, stored_state(st))
                     for fid, st in sheets.states(first.previous).items()} if first.previous is not None else {}
        dates, events, caches, aliases = [], [], [], None
        low = first.previous.list_date if first.previous is not None else None
        for ed in line:
            cols = sheets.entries(ed, "federation_id", "name")
            mine = aliases_for_edition(set(cols["federation_id"]))
            evs = list(ed.events.order_by("end_date", "start_date", "code"))
            if (aliases is not None and mine != aliases) or any(
                    e.end_date >= ed.list_date or (low is not None and e.end_date < low) for e in evs):
                break
            aliases, low = mine, ed.list_date
            dates.append(ed.list_date)
            events.append(evs)
            caches.append(table.cache(rules, ed.list_date, ed, dict(zip(cols["federation_id"], cols["name"]))))
        if len(dates) < 2:
            return {}
        comps = rate_periods(first.rating_list, rules, dates, events, caches, prior, aliases, engine=engine)
    except Exception:  # (computed alone instead: a difference is named there, never here)
        return {}
    return {ed.pk: comps for ed in line[:len(dates)]}


def _take(ahead: dict, edition) -> PeriodComputation | None:
    """The edition's computation from its line's engine call (``_line_computations``), if there is one: the line's
    next (the line's editions are taken in order); None if building it fails (computed alone instead)."""
    comps = ahead.pop(edition.pk, None)
    if comps is None:
        return None
    try:
        comp = next(comps)
    except Exception:  # (computed alone instead: a difference is named there, never here)
        return None
    comp.previous = edition.previous
    return comp


def _outside_period(label: str, edition, events) -> list[str]:
    """The edition's events that no longer end inside its period (previous list date ≤ end < list date)."""
    lo = edition.previous.list_date if edition.previous is not None else None
    return [Difference(problem(
                "{label}: event {event} now ends on {end}, outside the period it was rated in (ending before {date}, "
                "from {start})", label=label, event=e.code, end=e.end_date, date=edition.list_date,
                start=lo)) if lo else
            Difference(problem(
                "{label}: event {event} now ends on {end}, outside the period it was rated in (ending before {date})",
                label=label, event=e.code, end=e.end_date, date=edition.list_date))
            for e in events if e.end_date >= edition.list_date or (lo is not None and e.end_date < lo)]


def _strangers(label: str, edition, events, aliases: dict[str, str], table: MemberTable | None = None,
               played: EventRows | None = None) -> list[str]:
    """Games of the edition's events with a player who is not an entrant of the event, or not on the list as of
    the edition (a merged record: under the ID the edition published for his group; each player named once per
    event). ``table``: the list's members read once, and ``played``: the events' rows (``event_rows``) — the games
    and entries are then checked on them first, and read again to name the strangers only when there are some."""
    event_pks = [e.pk for e in events]
    if table is not None:
        on_list = table.player_pks(edition)
        played = played or event_rows(event_pks)
        entrants = {(ev, p) for ev, p, *_ in played.standings}
        if all((ev, a) in entrants and (ev, b) in entrants and a in on_list and b in on_list
               for _, ev, _, a, b, *_ in played.games):
            return []
    members = {aliases.get(f, f) for f in
               members_of(edition.rating_list, edition).values_list("player__federation_id", flat=True)}
    entrants = set(Entry.objects.filter(event_id__in=event_pks).values_list("event_id", "player_id"))
    out, seen = [], set()
    for ev_pk, ev, rnd, p1, p2, f1, f2 in GameRow.objects.filter(event_id__in=event_pks).order_by(
            "event__code", "round", "id").values_list("event_id", "event__code", "round", "player1_id", "player2_id",
                                                      "player1__federation_id", "player2__federation_id"):
        for pk, fid in ((p1, f1), (p2, f2)):
            if (ev, pk) in seen:
                continue
            if (ev_pk, pk) not in entrants:
                seen.add((ev, pk))
                out.append(Difference(problem(
                    "{label}: event {event} round {round}: player {player} plays but is not an entrant of the event",
                    label=label, event=ev, round=rnd, player=fid)))
            elif aliases.get(fid, fid) not in members:
                seen.add((ev, pk))
                out.append(Difference(problem(
                    "{label}: event {event} round {round}: player {player} is not on the list as of this edition",
                    label=label, event=ev, round=rnd, player=fid)))
    return out


def _changed_columns(label: str, comp, stored: dict[tuple[str, str], tuple], version: int) -> list[str]:
    """Every stored change column that differs from the recomputation (its columns as the edition's version of the
    canonical text writes them, ``formats.change_texts.stored_numbers``), named by event, player and column."""
    out = []
    cc = comp.change_cols
    mine_rows = zip(*stored_numbers(cc, version).values())
    for event, player, mine in zip(cc.event_id, cc.player_id, mine_rows):
        theirs = stored.get((event, player))
        if theirs is None or mine == theirs:
            continue  # (a missing row: reported with the explanations)
        for column, a, b in zip(CHANGE_COLUMNS, mine, theirs):
            if a != b:
                out.append(Difference(problem(
                    "{label}: change of {player} in {event}: stored {field} {stored}, recomputed {recomputed}",
                    label=label, player=player, event=event, field=_COLUMN_NAMES[column], stored=b,
                    recomputed=a)))
    return out


#: the audit log's action for a verify of every list that passed, on the editions' sheets (``ratings.upgrade``)
VERIFIED = "office.verified"


@held()
def verify_all(rating_list=None, *, progress: Callable[[int, int, str], None] | None = None,
               engine: str = ENGINE, actor: str = "") -> VerifyReport:
    """Verify every published edition (of one list, or of all lists) with ``engine`` (``reference``: the slow
    way, for an auditor); ``progress(done, total, edition)``. A verify of every list that passes is noted in the
    audit log (``office.verified``, by ``actor``): what lets an upgraded office drop its old row tables
    (``ratings.upgrade``)."""
    qs = Edition.objects.select_related("rating_list", "previous").order_by("rating_list__code", "list_date", "number")
    if rating_list is not None:
        qs = qs.filter(rating_list=rating_list)
    editions = list(qs)
    report = VerifyReport()
    tables: dict[int, MemberTable] = {}
    stored: dict[int, dict[str, dict | str]] = {}
    chain: dict[int, dict[str, PlayerState]] = {}  # edition pk → its stored states as the chain computed them
    lines = _lines(editions)
    ahead: dict[int, Iterator[PeriodComputation]] = {}  # edition pk → its line's computations (one engine call)
    for i, ed in enumerate(editions, start=1):
        report.editions += 1
        if ed.rating_list_id not in tables:
            tables[ed.rating_list_id] = MemberTable(ed.rating_list)
        for kept in (stored, chain):  # (the last few editions: a correction starts one or two editions back)
            for pk in list(kept)[:-KEPT]:
                del kept[pk]
        report.runs += ed.previous_id not in chain
        line = lines.get(ed.pk)
        if line is not None:  # the first edition of a line of several: all of them through one engine call
            ahead.update(_line_computations(line, tables[ed.rating_list_id], chain.get(ed.previous_id), engine))
        computed = _take(ahead, ed)
        diffs, link = _verify(ed, engine=engine, members=tables[ed.rating_list_id], stored=stored,
                              chained=chain.get(ed.previous_id), computed=computed)
        if diffs and (ed.previous_id in chain or computed is not None):
            # named as the edition alone, from its stored start, finds them; the editions after it in its line are
            # computed from their own stored start too
            for later in _line_after(lines, ed):
                ahead.pop(later, None)
            diffs, link = _verify(ed, engine=engine, members=tables[ed.rating_list_id], stored=stored)
        if link is not None:
            chain[ed.pk] = link
        report.differences.extend(diffs[:MAX_SHOWN])
        if len(diffs) > MAX_SHOWN:
            report.differences.append(Difference(problem("… and {count} more differences in {edition}",
                                                  count=len(diffs) - MAX_SHOWN,
                                                  edition=f"{ed.rating_list.code} {ed.label}")))
        if progress:
            progress(i, len(editions), f"{ed.rating_list.code} {ed.label}")
    report.differences += [Difference(p) for p in record_problems()]  # the audit log, publications, dan grants
    if report.ok and rating_list is None:
        record(actor, VERIFIED, editions=report.editions, format=SHEET_FORMAT, engine=engine)
    return report
