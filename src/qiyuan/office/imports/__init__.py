"""Imports into the office (导入): competition reports, TRF-16, OpenGotha files, history CSV directories.

``import_file`` is the use case: one file, one transaction, every problem at
once. Its steps live in their own modules — ``parse`` (the file → a
``ParsedEvent``), ``match`` (entrants → registry players, the report checks),
``eligibility`` (the rule set's conditions), ``store`` (the plan → rows),
``history`` (a whole history in bulk), ``identity`` (what makes two imports
the same) and ``rejected`` (refused files kept with their reasons).

Concurrency: the duplicate checks and the writes run in one transaction under
the registry's and the list's locks (``office.db.writing``), and the
database holds each file's digest and each event's content key as unique
values, so the same report imported twice at the same moment — under one name
or two — is stored once; the other import gets the ordinary "already imported"
refusal and is kept as a rejected report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

from django.db import IntegrityError

from qiyuan.collector import held
from qiyuan.errors import N_, QiyuanError, problem
from qiyuan.office.bulk import keys_checked_once
from qiyuan.office.db import REGISTRY, rating_list_lock, writing
from qiyuan.office.errors import AlreadyImported, ImportRefused, InternalError, NeedsConfirmation
from qiyuan.office.event_registration import match as match_registration
from qiyuan.office.events.models import Event, ImportBatch
from qiyuan.office.imports.facts import note_overrides
from qiyuan.office.imports.facts import resolve as resolve_facts
from qiyuan.office.imports.history import import_history
from qiyuan.office.imports.identity import event_key, file_digest, probable_duplicates
from qiyuan.office.imports.match import prepare
from qiyuan.office.imports.model import (
    KINDS,
    ImportResult,
    Options,
    ParsedEntrant,
    ParsedEvent,
    PendingCandidate,
    PendingMatch,
    Plan,
)
from qiyuan.office.imports.parse import detect_kind, parse
from qiyuan.office.imports.possible import impossible_facts
from qiyuan.office.imports.rejected import reject
from qiyuan.office.imports.store import store
from qiyuan.office.periods import latest_edition
from qiyuan.rating.calendar import next_publication_date

__all__ = ["AlreadyImported", "ImportRefused", "ImportResult", "KINDS", "NeedsConfirmation", "Options",
           "ParsedEntrant", "ParsedEvent", "PendingCandidate", "PendingMatch", "Plan", "detect_kind",
           "import_file", "prepare"]


@held()
def import_file(path: str | Path, rating_list, actor: str, *, kind: str | None = None, options: Options | None = None,
                progress: Callable[[str, int, int], None] | None = None) -> ImportResult:
    """Import one file into ``rating_list``.

    Raises ``ImportRefused`` (every problem; the file is kept as a ``RejectedReport`` with the reasons),
    ``AlreadyImported`` (the same file or event is stored already — also the loser of a race; kept too),
    ``NeedsConfirmation`` (name matches wait for the officer; not refused, not kept) or, for anything
    unforeseen, ``InternalError`` (kept as a rejected report with the error, so the file is not lost).
    """
    path = Path(path)
    options = options or Options()
    if not path.exists():
        raise ImportRefused([problem("no such file or directory", file=path.name)])
    sha = file_digest(path)
    guessed = kind or _kind_or_unknown(path)
    try:
        return _import(path, sha, rating_list, actor, kind, options, progress)
    except NeedsConfirmation:
        raise
    except ImportRefused as exc:
        if not exc.rejected:
            reject(guessed, path, sha, actor, rating_list, "", exc.problems)
            exc.rejected = True
        raise
    except QiyuanError as exc:  # a reader's or the rules' refusal not yet phrased as an import's
        reject(guessed, path, sha, actor, rating_list, "", exc.problems)
        raise ImportRefused(exc.problems, rejected=True) from None
    except Exception as exc:  # noqa: BLE001 - anything unforeseen: keep the file and its reason, then say so
        reason = problem("internal error while importing ({kind}: {why})", file=path.name, kind=type(exc).__name__,
                         why=str(exc))
        rej = reject(guessed, path, sha, actor, rating_list, "", [reason])
        raise InternalError([problem("{reason}. Nothing was stored; the file is kept as rejected report #{number} "
                                     "(`qiyuan office rejected`). Keep the file and report this.", file=path.name,
                                     reason=replace(reason, file=""), number=rej.pk)]) from exc


def _kind_or_unknown(path: Path) -> str:
    try:
        return detect_kind(path)
    except ImportRefused:
        return "unknown"


def _import(path: Path, sha: str, rating_list, actor: str, kind: str | None, options: Options,
            progress: Callable[[str, int, int], None] | None) -> ImportResult:
    kind = kind or detect_kind(path)
    if kind not in KINDS:
        raise ImportRefused([problem("unknown import kind {kind!r}; one of {known}", file=path.name, kind=kind,
                                     known=", ".join(KINDS))])
    wrong = options.problems()
    if wrong:
        raise ImportRefused(wrong)
    _refuse_if_imported(path, sha)  # early, before the file is read: the common case of a file sent twice
    if kind == "history":
        with keys_checked_once():  # (SQLite: the foreign keys checked by one query per table, before the commit)
            stored = _stored_once(path, sha, None, lambda: import_history(path, rating_list, actor, sha,
                                                                          progress=progress))
        return _late(stored, rating_list)
    step = progress or (lambda *a: None)  # (a report is one event: each step shown as it starts and ends)
    step(N_("reading the file"), 0, 1)
    parsed = parse(kind, path, options)
    key = event_key(parsed)
    step(N_("reading the file"), 1, 1)

    def checked_and_stored() -> ImportResult:
        step(N_("checking the report"), 0, 1)
        readable = not parsed.problems and parsed.start_date is not None and parsed.end_date is not None
        found = match_registration(parsed, rating_list) if readable else None  # the calendar's registration
        settled, wrong, overridden = resolve_facts(parsed, options, found, rating_list.rules(), path.name)
        if not readable:  # an unreadable file's facts are unknown: its own problems say why, nothing follows
            wrong = []
        plan = prepare(parsed, rating_list, settled, source=path.name, eligibility=readable and not wrong)
        impossible = impossible_facts(parsed, kind, path.name, date.today())
        if plan.problems or wrong or impossible:
            raise ImportRefused(impossible + plan.problems + wrong)
        _refuse_probable_duplicate(plan, options, path.name)
        plan.registration = found
        note_overrides(plan, overridden)
        unseen = [] if found is None or options.accept_registration_differences else found.problems(path.name)
        if plan.pending_matches or unseen:
            raise NeedsConfirmation(plan.pending_matches, unseen)
        if found is not None:
            plan.notes.append(found.note)
        step(N_("checking the report"), 1, 1)
        step(N_("storing"), 0, 1)
        stored = store(plan, rating_list, actor, kind=kind, filename=path.name, sha=sha, key=key, options=settled)
        step(N_("storing"), 1, 1)
        return stored

    try:
        result = _stored_once(path, sha, key, checked_and_stored, rating_list=rating_list, parsed=parsed)
    except ImportRefused as exc:
        if not exc.rejected:
            reject(kind, path, sha, actor, rating_list, parsed.name, exc.problems)
            exc.rejected = True
        raise
    return _late(result, rating_list)


def _stored_once(path: Path, sha: str, key: str | None, write: Callable[[], ImportResult], *, rating_list=None,
                 parsed: ParsedEvent | None = None) -> ImportResult:
    """Run ``write`` in one transaction under the registry's and the list's locks, after checking — under the
    same locks — that neither the file nor the event is stored yet; a unique value that another import stored
    at the same moment (the database's last word) becomes the same refusal."""
    locks = [REGISTRY] + ([rating_list_lock(rating_list.code)] if rating_list is not None else [])
    try:
        with writing(*locks):
            _refuse_if_imported(path, sha, key, rating_list, parsed)
            return write()
    except IntegrityError:
        _refuse_if_imported(path, sha, key, rating_list, parsed)  # the other import has committed by now
        raise


def _refuse_if_imported(path: Path, sha: str, key: str | None = None, rating_list=None,
                        parsed: ParsedEvent | None = None) -> None:
    earlier = ImportBatch.objects.filter(sha256=sha).first()
    if earlier is not None:
        raise AlreadyImported([problem("this file was already imported on {when} by {actor} (as {name}); the same "
                                       "report is never imported twice", file=path.name, code="import.again",
                                       when=f"{earlier.imported_at:%Y-%m-%d %H:%M}", actor=earlier.actor,
                                       name=earlier.filename)])
    if key is None:
        return
    same = Event.objects.filter(content_key=key).select_related("import_batch", "rating_list").first()
    if same is not None:
        batch = same.import_batch
        said = dict(file=path.name, code="import.again", name=same.name, start=str(same.start_date),
                    end=str(same.end_date), event=same.code, list=same.rating_list.code)
        raise AlreadyImported([problem(
            "this event ({name}, {start}–{end}: the same players and games) is already stored as {event} in list "
            "{list}, imported from {source} by {actor}; the same report is never imported twice", source=batch.filename,
            actor=batch.actor, **said) if batch else problem(
            "this event ({name}, {start}–{end}: the same players and games) is already stored as {event} in list "
            "{list}; the same report is never imported twice", **said)])
    if parsed is not None and rating_list is not None and Event.objects.filter(
            rating_list=rating_list, name=parsed.name, start_date=parsed.start_date,
            end_date=parsed.end_date).exists():
        raise AlreadyImported([problem("the event {name!r} of {start}–{end} is already stored in list {list} (the same "
                                       "report twice?)", file=path.name, code="import.again", name=parsed.name,
                                       start=str(parsed.start_date), end=str(parsed.end_date), list=rating_list.code)])


def _refuse_probable_duplicate(plan: Plan, options: Options, source: str) -> None:
    """Refuse an event that mostly repeats a stored one (the same pairs of registry players with the same
    results), naming it and the share, unless the officer names that event with a reason (``--duplicate-of CODE
    --reason …``): then the import goes on, noted and audited. ``--confirm-all`` never confirms it."""
    games = [(plan.players[a].pk, plan.players[b].pk, res.value) for _r, a, b, res, _op in plan.parsed.games
             if a in plan.players and b in plan.players and plan.players[a].pk and plan.players[b].pk]
    found = probable_duplicates(games)
    if not found:
        return
    confirmed = [d for d in found if d.code == options.duplicate_of]
    if confirmed and options.duplicate_reason.strip():
        d = confirmed[0]
        plan.notes.append(problem("a probable duplicate of {event} ({same} of its {games} games, {percent} %): imported "
                                  "on the officer's confirmation: {reason}", event=d.code, same=d.same, games=d.games,
                                  percent=d.percent, reason=options.duplicate_reason.strip()))
        plan.duplicate_of = (d.code, options.duplicate_reason.strip())
        found = [x for x in found if x is not d]
        if not found:
            return
    raise ImportRefused([problem(
        "a probable duplicate of event {event} ({name}, {start}): {same} of its {games} games ({percent} %) are "
        "the same pairs of registry players with the same results; if it is another event, import it with "
        "--duplicate-of {event} --reason …", file=source, code="import.duplicate", event=d.code, name=d.name,
        start=str(d.start_date), same=d.same, games=d.games, percent=d.percent) for d in found]
        + ([problem("--duplicate-of needs a reason (--reason …)", file=source, code="import.duplicate")]
           if options.duplicate_of and not options.duplicate_reason.strip() else []))


def _late(result: ImportResult, rating_list) -> ImportResult:
    """The published list dates the imported events belong to (late reports: rate them by a correction)."""
    last = latest_edition(rating_list)
    if last is not None:
        months = rating_list.rules().publication_months
        result.late_for = sorted({next_publication_date(months, e.end_date) for e in result.events
                                  if e.end_date < last.list_date})
    return result
