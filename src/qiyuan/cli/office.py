"""The ``qiyuan office`` command group: the federation's rating office (Django).

This module creates the group and holds the registry and infrastructure
commands (init, backup, restore, player, association, arbiter, audit); the event,
period and list commands live in ``qiyuan.cli.office_data``. Django is set up
lazily inside each command (``ensure_django``) so ``qiyuan --help`` and the
pure commands stay fast.

Errors (bad input, refused actions, an office not initialised) print every
problem and exit with status 2, writing nothing.
"""

from __future__ import annotations

import getpass
import os
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Annotated, Optional

import typer

from qiyuan.cli.lang import N_, _

EXIT_BAD_INPUT = 2

office_app = typer.Typer(
    help=N_("The rating office: registry, imports, rating periods, published lists."),
    no_args_is_help=True,
)
player_app = typer.Typer(
    help=N_("Registered players: add, import, show, search, rename, move, status, identity, merge."), no_args_is_help=True
)
association_app = typer.Typer(help=N_("Associations: list and add."), no_args_is_help=True)
office_app.add_typer(player_app, name="player")
arbiter_app = typer.Typer(help=N_("Arbiters: list and add."), no_args_is_help=True)
office_app.add_typer(association_app, name="association")
office_app.add_typer(arbiter_app, name="arbiter")

ActorOption = Annotated[
    Optional[str],
    typer.Option("--actor", help="Who does this, for the audit log (default: $QIYUAN_ACTOR or the login name)."),
]


def ensure_django() -> None:
    """Configure Django once (settings ``qiyuan.web.settings`` unless set) — lazily, so other commands stay fast."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "qiyuan.web.settings")
    import django
    from django.apps import apps

    if not apps.ready:
        from django.conf import settings

        var_dir = getattr(settings, "VAR_DIR", None)
        if var_dir is not None and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
            Path(var_dir).mkdir(parents=True, exist_ok=True)
        django.setup()


def actor_name(actor: str | None) -> str:
    """The audit log's actor for a command-line user."""
    if actor:
        return actor
    try:
        return os.environ.get("QIYUAN_ACTOR") or getpass.getuser()
    except (KeyError, OSError):
        return "cli"


def _console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def fail(problems, what: str = "refused", *, code: int = EXIT_BAD_INPUT) -> None:
    """Print every problem (``Problem`` or text) in the user's language and exit (2: bad input or a refusal)."""
    from qiyuan.cli.lang import _, print_problems

    headings = {"error": _("error: {count} problem(s); nothing changed:"),
                "refused": _("refused: {count} problem(s); nothing changed:")}
    heading = headings.get(what) or _("{what}: {count} problem(s); nothing changed:").replace("{what}", _(what))
    print_problems(problems, heading.format(count=len(problems)))
    raise typer.Exit(code)


@contextmanager
def office_errors():
    """Turn the office's refusals (any ``QiyuanError``: every problem) and a missing schema into clear
    messages; exit 2 (1 for an internal error)."""
    from django.db import DatabaseError

    from qiyuan.errors import QiyuanError
    from qiyuan.office.db import damaged

    try:
        yield
    except QiyuanError as exc:
        fail(exc.problems, "error" if exc.exit_code != EXIT_BAD_INPUT else "refused", code=exc.exit_code)
    except DatabaseError as exc:
        refusal = damaged(exc)
        if refusal is not None:
            fail(refusal.problems, "error")
        text = str(exc)
        if "no such table" in text or "does not exist" in text:
            from qiyuan.errors import problem

            fail([problem("the office's database is not set up ({detail}): run `qiyuan office init`",
                          detail=text.splitlines()[0])], "error")
        from qiyuan.office.setup import not_set_up, pending_migrations

        pending = pending_migrations()  # a schema half-way (a restore killed mid-migration): not an internal error
        if pending:
            fail([not_set_up(pending)], "error")
        raise


@contextmanager
def table_progress(verb: str):
    """Progress fed by ``progress(label, done, total[, what])`` callbacks: a Rich bar per label on a terminal,
    plain lines on stderr otherwise (a log, a pipe: a new label, then at most one line per ``PLAIN_EVERY``
    seconds, and its end), so long work is never silent."""
    console = _console(stderr=True)
    if not console.is_terminal:
        yield _plain_progress(verb, console)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bars: dict[str, int] = {}
    with Progress(
        TextColumn(f"{verb} [bold]{{task.description}}"),  # the label is translated where the bar is added
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[what]}"),
        console=console,
        transient=True,
    ) as progress:

        def update(label: str, done: int, total: int, what: str = "") -> None:
            if label not in bars:
                bars[label] = progress.add_task(_(label), total=max(total, 1), what="")
            progress.update(bars[label], completed=done if total else 1, what=what)

        yield update


#: seconds between two plain progress lines of the same label
PLAIN_EVERY = 5.0


def _plain_progress(verb: str, console):
    import time

    last: dict[str, float] = {}

    def update(label: str, done: int, total: int, what: str = "") -> None:
        now = time.monotonic()
        if label in last and done < total and now - last[label] < PLAIN_EVERY:
            return
        last[label] = now
        console.print(f"{verb} {_(label)}: {done}/{total}{f' ({what})' if what else ''}", markup=False)

    return update


# -- init, backup, restore ---------------------------------------------------------------------------


@office_app.command("init")
def init_cmd(actor: ActorOption = None) -> None:
    """Create or upgrade the office's database (migrate) and its start-up data; an office upgraded from before the
    sheets is verified before its old edition tables are dropped."""
    ensure_django()
    from django.db import connection

    from qiyuan.office.setup import init_office

    with office_errors():
        lines = init_office(actor=actor_name(actor))
    console = _console()
    settings = connection.settings_dict
    where = settings["NAME"] if connection.vendor == "sqlite" else f"{settings.get('HOST')}/{settings['NAME']}"
    console.print(_("office ready: {vendor} {where}").format(vendor=connection.vendor, where=where))
    for line in lines:
        console.print(f"  {_(line)}", markup=False)


@office_app.command("backup")
def backup_cmd(
    file: Annotated[Path, typer.Argument(help="Backup file to write (.jsonl.gz compresses).", dir_okay=False)],
    actor: ActorOption = None,
) -> None:
    """Write a consistent copy of the whole office (SQLite or PostgreSQL) to FILE."""
    ensure_django()
    from qiyuan.office.backup import backup_office

    with office_errors(), table_progress(_("backing up")) as progress:
        summary = backup_office(file, actor=actor_name(actor), progress=progress)
    _console().print(_("backup written: {file} ({rows} rows in {tables} tables, {size} bytes)").format(
        file=file, rows=summary.rows, tables=len(summary.counts), size=file.stat().st_size))


@office_app.command("restore")
def restore_cmd(
    file: Annotated[Path, typer.Argument(help="Backup file written by `qiyuan office backup`.", dir_okay=False)],
    replace: Annotated[bool, typer.Option("--replace", help="Empty a non-empty office first (everything in it is lost).")] = False,
    accept_unsigned: Annotated[bool, typer.Option(
        "--accept-unsigned", help="Restore a backup without this office's signature (one made before the office had "
                                  "a signing key); audited.")] = False,
    actor: ActorOption = None,
) -> None:
    """Restore a backup into an empty office, verifying every table's row count, the checksum, the audit log's
    chain and head and — when the office has a signing key — the backup's signature."""
    ensure_django()
    from qiyuan.office.backup import restore_office

    with office_errors(), table_progress(_("restoring")) as progress:
        summary = restore_office(file, actor=actor_name(actor), replace=replace, progress=progress,
                                 accept_unsigned=accept_unsigned)
    console = _console()
    console.print(_("restored {rows} rows in {tables} tables from {file}; counts verified").format(
        rows=summary.rows, tables=len(summary.counts), file=file))
    for label in ("federation.player", "events.event", "events.game", "ratings.editionsheet"):
        if label in summary.counts:
            console.print(f"  {label}: {summary.counts[label]}")


# -- associations ----------------------------------------------------------------------------------


@association_app.command("add")
def association_add(
    code: Annotated[str, typer.Argument(help="Short code, e.g. BJ")],
    name: Annotated[str, typer.Argument(help="Chinese name")],
    name_en: Annotated[str, typer.Option("--en", help="English name")] = "",
    parent: Annotated[Optional[str], typer.Option("--parent", help="Code of the parent association")] = None,
    actor: ActorOption = None,
) -> None:
    """Add an association."""
    ensure_django()
    from qiyuan.office.registry import add_association

    with office_errors():
        assoc = add_association(code, name, name_en=name_en, parent=parent, actor=actor_name(actor))
    _console().print(_("association {code} {name} added").format(code=assoc.code, name=assoc.name), markup=False)


@association_app.command("list")
def association_list() -> None:
    """List the associations and how many players each has."""
    ensure_django()
    from django.db.models import Count, Q
    from rich.table import Table

    from qiyuan.office.federation.models import Association

    table = Table(_("code"), _("Chinese name"), _("English name"), _("parent"), _("players"))
    with office_errors():
        rows = Association.objects.select_related("parent").annotate(
            n=Count("players", filter=Q(players__merged_into__isnull=True))
        )
        for a in rows:
            table.add_row(a.code, a.name, a.name_en, a.parent.code if a.parent else "", str(a.n))
    _console().print(table)


# -- arbiters ---------------------------------------------------------------------------------------


@arbiter_app.command("add")
def arbiter_add(
    name: Annotated[str, typer.Argument(metavar=N_("FULL_NAME"), help="Name as the competition reports write it")],
    level: Annotated[str, typer.Option("--level", help="international, national, first, second or third")],
    recognised: Annotated[bool, typer.Option(
        "--recognised/--not-recognised", show_default=False,
        help="Recognised by the CGA Gomoku branch for national events (CGA Art. 5(1))")] = False,
    association: Annotated[Optional[str], typer.Option("--association", "-a", help="Association code")] = None,
    player: Annotated[Optional[str], typer.Option("--player", help="Federation ID, if the arbiter is a registered player")] = None,
    actor: ActorOption = None,
) -> None:
    """Register an arbiter; event reports name arbiters by this name."""
    ensure_django()
    from qiyuan.office.registry import add_arbiter

    with office_errors():
        a = add_arbiter(name, level.strip().lower(), recognised_national=recognised, association=association,
                        player=player, actor=actor_name(actor))
    _console().print((_("arbiter {name} ({level}, recognised) added") if a.recognised_national
                      else _("arbiter {name} ({level}) added")).format(name=a.name, level=_(ARBITER_LEVELS.get(a.level, a.level))),
                     markup=False)


@arbiter_app.command("list")
def arbiter_list() -> None:
    """List the registered arbiters, their grade and recognition."""
    ensure_django()
    from rich.table import Table

    from qiyuan.office.federation.models import Arbiter

    table = Table(_("name"), _("level"), _("recognised (CGA Art. 5)"), _("association"), _("player"))
    with office_errors():
        for a in Arbiter.objects.select_related("association", "player"):
            table.add_row(a.name, _(ARBITER_LEVELS.get(a.level, a.level)), _("yes") if a.recognised_national else "",
                          a.association.code if a.association else "", a.player.federation_id if a.player else "")
    _console().print(table)


# -- players -----------------------------------------------------------------------------------------


def _parse_date(value: str | None, what: str, problems: list[str]) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        from qiyuan.errors import problem

        problems.append(problem("{what} {value!r} is not a date (YYYY-MM-DD)", what=_(what), value=value))
        return None


def _date_or_fail(value: str | None, what: str) -> date | None:
    problems: list[str] = []
    day = _parse_date(value, what, problems)
    if problems:
        fail(problems)
    return day


@player_app.command("add")
def player_add(
    name: Annotated[str, typer.Option("--name", help="Name in Chinese characters (or as in the passport)")],
    gender: Annotated[Optional[str], typer.Option("--gender", help="M or F (taken from the resident ID if omitted)")] = None,
    birth: Annotated[Optional[str], typer.Option("--birth", help="Date of birth YYYY-MM-DD")] = None,
    id_number: Annotated[str, typer.Option("--id", help="ID number (resident ID or passport)")] = "",
    id_type: Annotated[str, typer.Option("--id-type", help="resident, passport or other")] = "resident",
    association: Annotated[Optional[str], typer.Option("--association", "-a", help="Association code")] = None,
    club: Annotated[Optional[str], typer.Option("--club", help="Club name")] = None,
    latin: Annotated[str, typer.Option("--latin", help="Name in Latin letters")] = "",
    nationality: Annotated[str, typer.Option("--nationality", help="3-letter code")] = "CHN",
    dan: Annotated[str, typer.Option("--dan", help="9d…1d, 1k…10k")] = "",
    dan_on: Annotated[Optional[str], typer.Option("--dan-granted-on", help="Date the dan was granted")] = None,
    dan_by: Annotated[str, typer.Option("--dan-granted-by", help="Granting body, e.g. the Chinese Qiyuan, RIF")] = "",
    registered_on: Annotated[Optional[str], typer.Option("--registered-on", help="Registration date (default today)")] = None,
    reference_rating: Annotated[Optional[str], typer.Option("--reference-rating", help="Foreign/RIF reference rating")] = None,
    reference_source: Annotated[str, typer.Option("--reference-source", help="Where the reference rating comes from")] = "",
    actor: ActorOption = None,
) -> None:
    """Register a player; every problem (ID check digit, gender, birth date, association…) is listed at once."""
    ensure_django()
    from qiyuan.office.registry import register_player

    problems: list[str] = []
    birth_date = _parse_date(birth, N_("birth date"), problems)
    dan_date = _parse_date(dan_on, N_("dan grant date"), problems)
    reg_date = _parse_date(registered_on, N_("registration date"), problems)
    if problems:
        fail(problems)
    with office_errors():
        player = register_player(
            name=name, gender=gender.upper() if gender else None, birth_date=birth_date, id_type=id_type,
            id_number=id_number, name_latin=latin, nationality=nationality.upper(), association=association,
            club=club, registered_on=reg_date, dan=dan, dan_granted_on=dan_date, dan_granted_by=dan_by,
            reference_rating=reference_rating, reference_rating_source=reference_source, actor=actor_name(actor),
        )
    _console().print(_("registered {id} {name}").format(id=player.federation_id, name=player.display_name),
                     markup=False)


@player_app.command("import")
def player_import(
    file: Annotated[Path, typer.Argument(help="Registration list (CSV, UTF-8 or GB18030) with a header row")],
    actor: ActorOption = None,
) -> None:
    """Register every player of a registration list; all problems listed at once, nothing stored then."""
    ensure_django()
    from qiyuan.errors import InputError
    from qiyuan.office.registry import import_registration_list

    try:
        with office_errors():
            players = import_registration_list(file, actor=actor_name(actor))
    except InputError as exc:
        fail(exc.problems, f"{file}")
    _console().print(_("registered {count} players from {file}").format(count=len(players), file=file)
                     + (f"{_(': ')}{players[0].federation_id} … {players[-1].federation_id}" if players else ""))


@player_app.command("show")
def player_show(
    ref: Annotated[str, typer.Argument(help="Federation ID (CN000123) or exact name")],
    show_id: Annotated[bool, typer.Option(
        "--show-id", "--private",
        help="Print the full ID number and date of birth (staff only; never public); otherwise masked, birth year")] = False,
) -> None:
    """Show a player's registry record and history (name and association changes, dan grants)."""
    ensure_django()
    from rich.table import Table

    from qiyuan.office.registry import find_player, player_history
    from qiyuan.office.registry.merge import LINKED_ROW_WORDS, linked_rows

    with office_errors():
        p = find_player(ref)
        history = player_history(p)
        duplicates = list(p.merged_duplicates.values_list("federation_id", "name"))
        linked = linked_rows(p)
    console = _console()
    table = Table(show_header=False, title=f"{p.federation_id} {p.display_name}")
    rows = [
        (N_("name"), p.name), (N_("pinyin"), p.name_pinyin), (N_("Latin"), p.name_latin),
        (N_("gender"), one_language(p.get_gender_display())),
        (N_("born"), (p.birth_date.isoformat() if show_id else str(p.birth_year)) if p.birth_date else ""),
        (N_("ID"), f"{one_language(p.get_id_type_display())} {p.id_number if show_id else p.masked_id_number}".strip()),
        (N_("nationality"), p.nationality),
        (N_("association"), str(p.association) if p.association else ""), (N_("club"), p.club.name if p.club else ""),
        (N_("registered on"), p.registered_on.isoformat() if p.registered_on else ""),
        (N_("status"), one_language(p.get_status_display())), (N_("grade"), grade_words(p.dan)),
        (N_("reference rating"),
         f"{p.reference_rating} ({p.reference_rating_source})" if p.reference_rating is not None else ""),
    ]
    if p.merged_into_id:
        rows.append((N_("merged into"), f"{p.merged_into.federation_id} {p.merged_into.name}"))
    if duplicates:
        rows.append((N_("merged duplicates"), _(", ").join(f"{fid} {n}" for fid, n in duplicates)))
    rows.append((N_("linked rows"), _(", ").join(f"{_(LINKED_ROW_WORDS.get(label, label))} {n}"
                                                for label, n in sorted(linked.items()))))
    for key, value in rows:
        if value:
            table.add_row(_(key), value)
    console.print(table)
    if history:
        hist = Table(_("date"), _("change"), "", title=_("history (CGA Art. 11(4))"))
        for item in history:
            hist.add_row(item.on.isoformat(), _(HISTORY_KINDS.get(item.kind, item.kind)), item.text)
        console.print(hist)


@player_app.command("search")
def player_search(
    query: Annotated[str, typer.Argument(help="Chinese characters, pinyin (zhangsan), initials (zs) or Latin name")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1)] = 20,
    merged: Annotated[bool, typer.Option("--merged", help="Include records merged into another")] = False,
) -> None:
    """Find players by name in characters, pinyin or Latin letters, or by federation ID."""
    ensure_django()
    from rich.table import Table

    from qiyuan.office.registry import search_players

    with office_errors():
        found = search_players(query, limit=limit, include_merged=merged, staff=True)
    if not found:
        _console(stderr=True).print(_("no player matches {query}").format(query=repr(query)), markup=False)
        raise typer.Exit(1)
    table = Table(_("federation ID"), _("name"), _("pinyin"), _("gender"), _("born"), _("association"), _("grade"),
                  _("status"))
    for p in found:
        table.add_row(
            p.federation_id, p.display_name, p.name_pinyin, one_language(p.get_gender_display()) if p.gender else "",
            str(p.birth_year or ""), p.association.code if p.association else "", grade_words(p.dan),
            one_language(p.get_status_display()) + (f" → {p.merged_into.federation_id}" if p.merged_into_id else ""),
        )
    _console().print(table)


@player_app.command("rename")
def player_rename(
    ref: Annotated[str, typer.Argument(help="Federation ID or exact name")],
    new_name: Annotated[str, typer.Argument(help="The new name")],
    on: Annotated[Optional[str], typer.Option("--on", help="Date of the change (default today)")] = None,
    reason: Annotated[str, typer.Option("--reason")] = "",
    actor: ActorOption = None,
) -> None:
    """Change a player's name; the old name is kept as history."""
    ensure_django()
    from qiyuan.office.registry import find_player, rename_player

    day = _date_or_fail(on, N_("date"))
    with office_errors():
        p = find_player(ref)
        change = rename_player(p, new_name, actor=actor_name(actor), changed_on=day, reason=reason)
    _console().print(f"{p.federation_id}: {change.old_name} → {change.new_name}", markup=False)


@player_app.command("move")
def player_move(
    ref: Annotated[str, typer.Argument(help="Federation ID or exact name")],
    association: Annotated[str, typer.Argument(help="Code of the new association")],
    on: Annotated[Optional[str], typer.Option("--on", help="Date of the change (default today)")] = None,
    club: Annotated[Optional[str], typer.Option("--club")] = None,
    reason: Annotated[str, typer.Option("--reason")] = "",
    actor: ActorOption = None,
) -> None:
    """Move a player to another association; the old one is kept as history."""
    ensure_django()
    from qiyuan.office.registry import change_association, find_player

    day = _date_or_fail(on, N_("date"))
    with office_errors():
        p = find_player(ref)
        change = change_association(p, association, actor=actor_name(actor), changed_on=day, reason=reason, club=club)
    old = change.old.code if change.old else "—"
    _console().print(f"{p.federation_id}: {old} → {association}", markup=False)


@player_app.command("status")
def player_status(
    ref: Annotated[str, typer.Argument(help="Federation ID or exact name")],
    status: Annotated[str, typer.Argument(help="active, suspended or retired")],
    reason: Annotated[str, typer.Option("--reason")] = "",
    actor: ActorOption = None,
) -> None:
    """Change a player's registration status."""
    ensure_django()
    from qiyuan.office.registry import find_player, set_status

    with office_errors():
        p = set_status(find_player(ref), status, actor=actor_name(actor), reason=reason)
    _console().print(f"{p.federation_id} {p.name}{_(': ')}{one_language(p.get_status_display())}", markup=False)


@player_app.command("identity")
def player_identity(
    ref: Annotated[str, typer.Argument(help="Federation ID or exact name")],
    birth: Annotated[Optional[str], typer.Option("--birth", help="Date of birth YYYY-MM-DD")] = None,
    gender: Annotated[Optional[str], typer.Option("--gender", help="M or F")] = None,
    id_number: Annotated[Optional[str], typer.Option("--id", help="ID number")] = None,
    id_type: Annotated[Optional[str], typer.Option("--id-type", help="resident, passport or other")] = None,
    actor: ActorOption = None,
) -> None:
    """Correct a player's birth date, gender or identity document (the ID is checked against the record)."""
    ensure_django()
    from qiyuan.office.registry import find_player, update_identity

    day = _date_or_fail(birth, N_("birth date"))
    with office_errors():
        p = update_identity(find_player(ref), actor=actor_name(actor), birth_date=day,
                            gender=gender.upper() if gender else None, id_type=id_type, id_number=id_number)
    _console().print(_("{id} {name}: identity updated").format(id=p.federation_id, name=p.name), markup=False)


@player_app.command("merge")
def player_merge(
    keep: Annotated[str, typer.Argument(help="Federation ID of the record to keep")],
    duplicate: Annotated[str, typer.Argument(help="Federation ID of the duplicate record")],
    force: Annotated[bool, typer.Option("--force", help="Merge although gender, birth date or ID number differ")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would move, change nothing")] = False,
    actor: ActorOption = None,
) -> None:
    """Merge a duplicate record into another: its games, entries, ratings and history move, nothing is lost."""
    ensure_django()
    from qiyuan.office.registry import find_player, merge_players
    from qiyuan.office.registry.merge import LINKED_ROW_WORDS

    with office_errors():
        result = merge_players(find_player(keep), find_player(duplicate), actor_name(actor), force=force,
                               dry_run=dry_run)
    console = _console()
    console.print((_("would merge {duplicate} into {keep}") if dry_run else _("merged {duplicate} into {keep}")).format(
        duplicate=f"{result.duplicate.federation_id} {result.duplicate.name}",
        keep=f"{result.keep.federation_id} {result.keep.name}"), markup=False)
    for label, n in sorted(result.moved.items()):
        console.print("  " + _("moved {count} × {what}").format(count=n, what=_(LINKED_ROW_WORDS.get(label, label))),
                      markup=False)
    if result.filled:
        console.print("  " + _("filled from the duplicate: {fields}").format(
            fields=_(", ").join(_(f) for f in result.filled)), markup=False)


# -- audit log -------------------------------------------------------------------------------------


@office_app.command("audit")
def audit_cmd(
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="How many entries")] = 30,
    action: Annotated[Optional[str], typer.Option("--action", help="Only actions starting with this, e.g. player.")] = None,
    actor: Annotated[Optional[str], typer.Option("--actor", help="Only this actor")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line (for scripts)")] = False,
) -> None:
    """The audit log: who did what, most recent first — one line per entry, its details
    as ``key=value`` below it (wrapped to the terminal's width)."""
    ensure_django()
    import json

    from qiyuan.office.audit.models import AuditLog

    with office_errors():
        entries = AuditLog.objects.all()
        if action:
            entries = entries.filter(action__startswith=action)
        if actor:
            entries = entries.filter(actor=actor)
        entries = list(entries[:limit])
    if as_json:
        for e in entries:
            typer.echo(json.dumps({"at": e.at.isoformat(), "actor": e.actor, "action": e.action,
                                   "object_type": e.object_type, "object_id": e.object_id, "detail": e.detail},
                                  ensure_ascii=False, default=str))
        return
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    console = Console(highlight=False)  # wraps by display width (CJK characters take two columns)
    for e in entries:
        head = Text.assemble((e.at.strftime("%Y-%m-%d %H:%M:%S"), "dim"), "  ", (e.actor, "bold"), "  ",
                             (e.action, "cyan"), f"  {e.object_type}#{e.object_id}" if e.object_type else "")
        console.print(head)
        if e.detail:
            console.print(Padding(Text(_audit_detail(e.detail)), (0, 0, 0, 4)))


def _audit_detail(detail: dict) -> str:
    """``key=value`` pairs of an audit entry's details; lists and mappings as compact JSON."""
    import json

    def value(v) -> str:
        return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str, separators=(",", ":"))

    return "  ".join(f"{k}={value(v)}" for k, v in detail.items())


#: the kinds of a player's history as people read them
HISTORY_KINDS = {"name": N_("name"), "association": N_("association"), "dan": N_("grade")}
#: arbiters' grades as people read them (the option takes the code)
ARBITER_LEVELS = {"international": N_("international"), "national": N_("national"), "first": N_("first class"),
                  "second": N_("second class"), "third": N_("third class")}


def one_language(label) -> str:
    """A registry choice's bilingual label (``男 male``, ``注册 active``) in the run's language."""
    from qiyuan.cli.lang import CHINESE, language

    chinese, _sep, english = str(label).partition(" ")
    return (chinese if language() == CHINESE else english) or str(label)


def grade_words(code: str) -> str:
    """A dan/kyu code of the registry (``5d``, ``2k``) in words in the run's language (五段, 2 级 / 5 dan)."""
    from qiyuan.cli.lang import CHINESE, language
    from qiyuan.grading.words import grade_in_words

    return grade_in_words(code, chinese=language() == CHINESE)


def register(app: typer.Typer) -> None:
    """Add ``qiyuan office …`` to the ``qiyuan`` app."""
    app.add_typer(office_app, name="office")
