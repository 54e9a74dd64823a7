"""``qiyuan office import | period | list | verify | history-export | rejected`` and ``qiyuan demo``.

Thin: parse the options, call the office's use cases (``qiyuan.office``),
print. Refusals list every problem and exit 2 with nothing written. Django is
imported inside the commands only (``qiyuan --help`` and the pure commands
stay fast).
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Annotated, Optional

import typer

from qiyuan.cli.lang import CHINESE, N_, _, language, problem_line
from qiyuan.cli.office import (
    ActorOption,
    _console,
    actor_name,
    ensure_django,
    fail,
    office_app,
    office_errors,
    table_progress,
)

period_app = typer.Typer(help=N_("Rating periods: compute and review, publish, correct."), no_args_is_help=True)
list_app = typer.Typer(help=N_("Rating lists: add, show, export an edition."), no_args_is_help=True)
office_app.add_typer(period_app, name="period")
office_app.add_typer(list_app, name="list")

ListOption = Annotated[Optional[str], typer.Option("--list", "-l", help="Rating list code (default: the only one).")]


def date_option(text: str | None) -> date | None:
    """A ``--date`` option as a date (None when not given); a refusal naming it when it is no date."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        from qiyuan.errors import problem

        fail([problem("--date: {value!r} is not a date YYYY-MM-DD", value=text)])
    return None


@contextmanager
def _refusals():
    """Office refusals (every problem, each with the command that does what it asks for) → exit 2."""
    from qiyuan.errors import QiyuanError

    with office_errors():
        try:
            yield
        except QiyuanError as exc:
            if exc.exit_code != 2:
                raise
            fail(_with_commands(exc.problems))


def _with_commands(problems) -> list:
    """The office's neutral refusals, each followed by the command that does what it asks for."""
    from qiyuan.office.periods import NEEDS_CORRECTION

    out = []
    for p in problems:
        out.append(p)
        if p.code == NEEDS_CORRECTION:
            out.append(f"  → qiyuan office period correct --list {p.params['list']} --date {p.params['date']} "
                       f"--reason {_('REASON')}")
    return out


def _rating_list(code: str | None):
    from qiyuan.office.lists import find_list

    return find_list(code)


# ---------------------------------------------------------------------------------------------- import


@office_app.command("import")
def import_cmd(
    file: Annotated[Path, typer.Argument(help="Report (.xlsx), TRF (.trf), OpenGotha (.xml) or a history directory.")],
    kind: Annotated[Optional[str], typer.Option("--kind", help="report, trf, opengotha, h9 or history (default: by name)")] = None,
    list_code: ListOption = None,
    confirm: Annotated[Optional[list[str]], typer.Option(
        "--confirm", help="Confirm a name match: 'NUMBER=CN000123' (draw number or name), 'NUMBER=CN000123!' "
                         "despite a differing ID number, or 'NUMBER=new'.")] = None,
    confirm_all: Annotated[bool, typer.Option("--confirm-all", help="Take every single name+association match.")] = False,
    organiser_level: Annotated[Optional[str], typer.Option(
        "--organiser-level", help="state, regional, local or other (when the registration or report does not say)")] = None,
    national: Annotated[Optional[bool], typer.Option("--national/--not-national", help="A national event")] = None,
    international: Annotated[Optional[bool], typer.Option("--international/--not-international",
                                                          help="An international event")] = None,
    agreed: Annotated[Optional[bool], typer.Option("--agreed/--not-agreed", help="Agreed by the parties (BJSH §6)")] = None,
    dan_event: Annotated[Optional[bool], typer.Option("--dan-event/--no-dan-event",
                                                      help="Awards dan/kyu titles (BJSH §9)")] = None,
    standards_published: Annotated[Optional[bool], typer.Option("--standards-published/--no-standards-published",
                                                                help="Grading standards published (BJSH §9(3))")] = None,
    event_format: Annotated[Optional[str], typer.Option("--format", help="swiss, round_robin, team, match, knockout")] = None,
    override_facts: Annotated[bool, typer.Option(
        "--override-facts", help="Use the facts stated here although the registration or the report says "
                                 "otherwise (the difference is audited)")] = False,
    received: Annotated[Optional[str], typer.Option("--received", help="Date the report arrived (default today)")] = None,
    accept_differences: Annotated[bool, typer.Option(
        "--accept-differences", help="Import although the report differs from its registration in the calendar "
                                     "(the differences are shown first)")] = False,
    duplicate_of: Annotated[Optional[str], typer.Option(
        "--duplicate-of", help="Import although the event mostly repeats this stored event (its code); needs "
                               "--reason")] = None,
    reason: Annotated[Optional[str], typer.Option("--reason", help="Why a probable duplicate is imported")] = None,
    actor: ActorOption = None,
) -> None:
    """Import one file as one transaction: every problem listed, nothing stored on any problem."""
    ensure_django()
    from qiyuan.office.imports import ImportRefused, NeedsConfirmation, Options, import_file

    pairs = {}
    for c in confirm or []:
        if "=" not in c:
            from qiyuan.errors import problem

            fail([problem("--confirm {value!r}: write NUMBER=FEDERATION_ID or NUMBER=new", value=c)])
        k, v = c.split("=", 1)
        pairs[k.strip()] = v.strip()
    opts = Options(organiser_level=organiser_level, national=national, international=international,
                   agreed_by_parties=agreed, dan_event=dan_event, standards_published=standards_published,
                   format=event_format, override_facts=override_facts, confirm=pairs, confirm_all=confirm_all, received_on=date_option(received),
                   accept_registration_differences=accept_differences, duplicate_of=duplicate_of or "",
                   duplicate_reason=reason or "")
    console = _console()
    with _refusals():
        rl = _rating_list(list_code)
        try:
            with table_progress(_("importing")) as progress:
                result = import_file(file, rl, actor_name(actor), kind=kind, options=opts, progress=progress)
        except NeedsConfirmation as exc:
            err = _console(stderr=True)
            if exc.pending_matches:
                err.print("[bold yellow]" + _("{count} player(s) — matches by name and association, proposed new "
                                              "players — need your confirmation; nothing stored:").format(
                    count=len(exc.pending_matches)) + "[/]")
                for m in exc.pending_matches:
                    err.print(f"  {problem_line(m.text)}", markup=False)  # in the terminal's language
            if exc.differences:
                err.print("[bold yellow]" + _("the report differs from its registration in the calendar; nothing "
                                              "stored (import again with --accept-differences once seen):") + "[/]")
                for p in exc.differences:
                    err.print(f"  {problem_line(p)}", markup=False)
            raise typer.Exit(2) from None
        except ImportRefused as exc:
            fail(exc.problems, N_("import refused (the file is kept as a rejected report, with the reasons)")
                 if exc.rejected else N_("import refused"))
    console.print(_("imported {file} into {list}: {events} event(s), {games} game(s), {new} new player(s) "
                    "registered").format(file=file.name, list=rl.code, events=len(result.events), games=result.games,
                                         new=result.new_players))
    for ev in result.events[:5]:
        console.print(f"  {ev.code} {ev.name} {ev.start_date}–{ev.end_date}", markup=False)
    for note in result.notes:
        console.print("  " + _("note: {text}").format(text=problem_line(note)), markup=False)
    for d in result.late_for:
        console.print("[yellow]" + _("late report: its list of {date} is already published; rate it with {command}")
                      .format(date=d, command=f"`qiyuan office period correct --list {rl.code} --date {d} "
                                              f"--reason {_('REASON')}`") + "[/]")


@office_app.command("rejected")
def rejected_cmd(limit: Annotated[int, typer.Option(help="How many, newest first")] = 20) -> None:
    """Reports the office refused, with every reason (they are never silently dropped)."""
    ensure_django()
    from qiyuan.office.events.models import RejectedReport

    console = _console()
    with office_errors():
        for r in RejectedReport.objects.all()[:limit]:
            console.print(_("{at} {file} ({kind}, by {actor}): {count} reason(s)").format(
                at=f"{r.received_at:%Y-%m-%d %H:%M}", file=r.filename, kind=r.kind, actor=r.actor,
                count=len(r.reasons)), markup=False)
            for reason in r.reasons:
                console.print(f"  {_(reason)}", markup=False)


# ---------------------------------------------------------------------------------------------- periods


@period_app.command("compute")
def period_compute(
    list_code: ListOption = None,
    on: Annotated[Optional[str], typer.Option("--date", help="List date YYYY-MM-DD (default: the next due)")] = None,
    player: Annotated[Optional[list[str]], typer.Option("--player", help="Show this player's calculation")] = None,
    top: Annotated[int, typer.Option(help="Show the top N of the computed list")] = 10,
) -> None:
    """Compute a period from the stored state and show it for review (nothing is published)."""
    ensure_django()
    from qiyuan.office.periods import compute_period, due_date
    from qiyuan.office.plausibility import audit_period

    console = _console()
    with _refusals():
        rl = _rating_list(list_code)
        rules = rl.rules()
        d = date_option(on) or due_date(rl, rules)
        if d is None:
            from qiyuan.errors import problem

            fail([problem("list {list} has no events", list=rl.code)])
        comp = compute_period(rl, d)
        flags = audit_period(comp)  # the plausibility audit, stored for review and publication
    _print_computation(console, comp, top)
    print_flags(console, flags)
    for fid in player or []:
        _print_player(console, comp, fid)
    console.print(_next_step(rl, rules, d))


def _next_step(rl, rules, d) -> str:
    """What the officer can do with a computed list date: publish it, correct it, or publish the due one first."""
    from qiyuan.office.periods import current_edition, due_date

    if current_edition(rl, d) is not None:
        return _("the list of {date} is already published: to change it, publish a correction with a reason: "
                 "{command}").format(date=d, command=f"qiyuan office period correct --list {rl.code} --date {d} "
                                                      f"--reason {_('REASON')}")
    due = due_date(rl, rules)
    if due != d:
        return _("not publishable yet: the next list of {list} to publish is {date}").format(list=rl.code, date=due)
    return _("review, then publish: {command}").format(command=f"qiyuan office period publish --list {rl.code} "
                                                               f"--date {d}")


def _print_computation(console, comp, top: int) -> None:
    from rich.table import Table

    counts = {}
    for e in comp.entries:
        counts[e.status] = counts.get(e.status, 0) + 1
    new = sum(1 for e in comp.entries if e.is_new)
    console.print(summary_line(comp, counts, new))
    t = Table(_("rank"), _("federation ID"), _("name"), _("rating"), _("games"), "K", _("status"))
    for e in [e for e in comp.entries if e.status == "active"][:top]:
        t.add_row(str(e.rank), e.federation_id, e.name, str(e.rating), str(e.games), str(e.k or ""),
                  _(STATUS_NAMES.get(e.status, e.status)) + (_(", new") if e.is_new else ""))
    console.print(t)


def summary_line(comp, counts: dict[str, int], new: int) -> str:
    """``CGA 2021-01-01 (rules): 2 event(s), 65 change(s); active 40, unrated 3, new 5; digest …`` — the list's
    counts by status, only those it has (none at all: ``no entries``)."""
    parts = [f"{_(STATUS_NAMES.get(k, k))} {v}" for k, v in sorted(counts.items())] + [_("new {count}").format(count=new)]
    entries = _(", ").join(parts) if counts else _("no entries")
    return f"[bold]{comp.rating_list.code} {comp.list_date}[/] " + _(
        "({rules}): {events} event(s), {changes} change(s); {entries}; digest {digest}").format(
        rules=comp.rules.name, events=len(comp.events), changes=len(comp.changes), entries=entries,
        digest=comp.digest[:12])


def print_flags(console, flags) -> None:
    """The plausibility flags of a period: what to check before publishing."""
    from qiyuan.office.plausibility import describe

    if not flags:
        console.print(_("plausibility audit: no flags"))
        return
    blocking = sum(1 for f in flags if f.blocking)
    console.print("[bold]" + _("plausibility audit: {count} flag(s), {blocking} to check before publishing").format(
        count=len(flags), blocking=blocking) + f"[/] (qiyuan office flags check ID --note {_('NOTE')})")
    for f in flags:
        state = (_("checked by {who}: {note}").format(who=f.checked_by, note=f.note) if f.checked_at else
                 _("history folder: shown, not blocking") if f.history else _("to check"))
        console.print(f"  {problem_line(describe(f))} [{state}]", markup=False)


def _print_player(console, comp, fid: str) -> None:
    from rich.table import Table

    changes = comp.explain(fid)
    console.print(f"[bold]{fid}[/]" + _(": {count} event(s) in this period").format(count=len(changes)))
    for c in changes:
        console.print(f"  {c.event_id}" + _(": method {method}, games {games}").format(method=_(c.method), games=c.games)
                      + f", W {c.W}, We {c.We}, K {c.K}, "
                      f"ΔR {c.delta}" + (f", Rc {c.Rc}, N {c.N}, Pd {c.Pd}" if c.Rc is not None else "")
                      + (f", Ru {c.ru}" if c.ru is not None else "")
                      + (_("; rules: {notes}").format(notes=_(", ").join(_(n) for n in c.notes)) if c.notes else ""),
                      markup=False)
        if c.lines:
            t = Table(_("round"), _("opponent"), _("opp. rating"), "D", "We", "W", "K", "ΔR")
            for g in c.lines:
                t.add_row(str(g.round), g.opponent_id, str(g.opponent_rating), str(g.D), str(g.We), str(g.W), str(g.K),
                          str(g.dR))
            console.print(t)


@period_app.command("publish")
def period_publish(
    list_code: ListOption = None,
    on: Annotated[Optional[str], typer.Option("--date", help="The list date (must be the next due one)")] = None,
    all_due: Annotated[bool, typer.Option("--all", help="Publish every due list date up to the last event")] = False,
    accept_flags: Annotated[Optional[str], typer.Option(
        "--accept-flags", metavar="REASON",
        help="publish although plausibility flags of reports are not marked checked (the reason is audited)")] = None,
    actor: ActorOption = None,
) -> None:
    """Publish the next period as an immutable edition (or every due one with --all)."""
    ensure_django()
    from qiyuan.office import sheets
    from qiyuan.office.periods import publish_due, publish_period

    console = _console()
    with _refusals():
        rl = _rating_list(list_code)
        notes: list = []
        if all_due:
            with table_progress(_("publishing")) as progress:
                eds = publish_due(rl, actor_name(actor), notes=notes, accept_flags=accept_flags,
                                  progress=lambda n, t: progress(_("{list} editions").format(list=rl.code), n, t))
        else:
            eds = [publish_period(rl, date_option(on), actor_name(actor), accept_flags=accept_flags)]
    for ed in eds:
        console.print(_("published {list} {date} (edition {number}): {entries} entries, {events} event(s), "
                        "digest {digest}").format(list=rl.code, date=ed.list_date, number=ed.number,
                                                  entries=sheets.size(ed), events=ed.events.count(),
                                                  digest=ed.digest[:12]))
    if not eds and not notes:
        console.print(_("nothing due"))
    for note in notes:
        console.print(_("note: {text}").format(text=problem_line(note)), markup=False)


@period_app.command("correct")
def period_correct(
    on: Annotated[str, typer.Option("--date", help="The published list date to correct")],
    reason: Annotated[str, typer.Option("--reason", help="Why (a late report, a corrected result…)")],
    list_code: ListOption = None,
    actor: ActorOption = None,
) -> None:
    """Publish a correction edition (the old one stays readable), carried through the later lists."""
    ensure_django()
    from qiyuan.office.periods import correct_period

    console = _console()
    with _refusals():
        rl = _rating_list(list_code)
        with table_progress(_("correcting")) as progress:
            eds = correct_period(rl, date_option(on), reason, actor_name(actor),
                                 progress=lambda n, t, what: progress(_("{list} list dates").format(list=rl.code), n, t,
                                                                      what))
    for ed in eds:
        console.print(_("published correction {list} {date} edition {number}: {reason}").format(
            list=rl.code, date=ed.list_date, number=ed.number, reason=correction_reason(ed.reason)), markup=False)


# ---------------------------------------------------------------------------------------------- lists


@list_app.command("add")
def list_add(
    code: Annotated[str, typer.Argument(help="Short code, e.g. BJSH")],
    rules: Annotated[str, typer.Option("--rules", help="Built-in rule set the list starts from")],
    title: Annotated[str, typer.Option("--title", help="The list's title (Chinese)")] = "",
    title_en: Annotated[str, typer.Option("--title-en", help="The list's English title")] = "",
    game: Annotated[str, typer.Option("--game", help="gomoku or go")] = "gomoku",
    overrides: Annotated[Optional[Path], typer.Option("--overrides", help="TOML settings overriding the rule set")] = None,
    actor: ActorOption = None,
) -> None:
    """Add a rating list kept under one rule set."""
    ensure_django()
    from qiyuan.office.lists import add_list

    with _refusals():
        if overrides is not None and not overrides.is_file():
            from qiyuan.errors import problem

            fail([problem("no such file", file=str(overrides), column="--overrides")])
        add_list(code, rules, actor=actor_name(actor), title=title, title_en=title_en, game=game,
                 overrides=overrides.read_bytes() if overrides else b"",
                 overrides_source=overrides.name if overrides else "overrides")
    _console().print(_("list {code} added ({rules})").format(code=code, rules=rules))


@list_app.command("seed")
def list_seed(
    file: Annotated[Path, typer.Argument(help="The federation's last published list: .csv or .xlsx with federation_id, "
                                              "name, rating and games (or their Chinese headings)")],
    on: Annotated[str, typer.Option("--date", help="Its list date YYYY-MM-DD (a publication date of the list's rules)")],
    list_code: ListOption = None,
    actor: ActorOption = None,
) -> None:
    """Start a list from an existing published list: its first edition, so the first report is rated against it."""
    ensure_django()
    from qiyuan.office import sheets
    from qiyuan.office.imports import ImportRefused
    from qiyuan.office.imports.seed import seed_list

    list_date = date_option(on)
    with _refusals():
        rl = _rating_list(list_code)
        try:
            ed = seed_list(file, rl, list_date, actor_name(actor))
        except ImportRefused as exc:
            fail(exc.problems, N_("seed refused (the file is kept as a rejected report, with the reasons)"))
    rated = sheets.size(ed, rated=True)
    _console().print(_("list {list} seeded from {file}: edition {date} #{number}, {players} player(s), {rated} with "
                       "a rating; digest {digest}").format(list=rl.code, file=file.name, date=ed.list_date,
                                                           number=ed.number, players=sheets.size(ed), rated=rated,
                                                           digest=ed.digest[:12]))


@list_app.command("show")
def list_show(list_code: ListOption = None) -> None:
    """Lists and their editions."""
    ensure_django()
    from qiyuan.office.ratings.models import RatingList

    console = _console()
    with office_errors():
        lists = [RatingList.objects.get(code=list_code)] if list_code else list(RatingList.objects.all())
        for rl in lists:
            title = rl.title if language() == CHINESE or not rl.title_en else rl.title_en
            console.print(f"[bold]{rl.code}[/] {title} — {rl.rules_name}" + _("; {count} event(s)").format(
                count=rl.events.count()))
            for ed in rl.editions.order_by("list_date", "number"):
                tag = _(" correction: {reason}").format(reason=correction_reason(ed.reason)) if ed.is_correction else ""
                console.print(f"  {ed.list_date} #{ed.number} " + _("by {who}").format(who=ed.published_by)
                              + f" {ed.published_at:%Y-%m-%d}{tag}", markup=False)


@list_app.command("export")
def list_export(
    fmt: Annotated[str, typer.Option("--format", help="csv, xlsx, txt or pdf")],
    out: Annotated[Path, typer.Option("--out", help="File to write")],
    list_code: ListOption = None,
    edition: Annotated[Optional[int], typer.Option("--edition", help="Edition number (with --date: of that date)")] = None,
    on: Annotated[Optional[str], typer.Option("--date", help="List date (default: the latest)")] = None,
) -> None:
    """Export an edition for the public (no ID numbers; birth year only)."""
    ensure_django()
    from qiyuan.formats.list_export import FORMATS
    from qiyuan.office.exports import export_edition, find_edition

    if fmt not in FORMATS:
        from qiyuan.errors import problem

        fail([problem("--format: one of {names}", names=", ".join(FORMATS))])
    with _refusals():
        rl = _rating_list(list_code)
        ed = find_edition(rl, edition, date_option(on))
        n = export_edition(ed, fmt, out)
    _console().print(_("wrote {file}: {list} {date} edition {number}, {count} players").format(
        file=out, list=rl.code, date=ed.list_date, number=ed.number, count=n))


@office_app.command("history-export")
def history_export(
    out: Annotated[Path, typer.Option("--out", help="CSV file to write")],
    list_code: ListOption = None,
) -> None:
    """The full history: one row per player per event, rating before and after (EGD manner)."""
    ensure_django()
    from qiyuan.office.exports import export_history

    with _refusals():
        rl = _rating_list(list_code) if list_code else None
        n = export_history(out, rl)
    _console().print(_("wrote {file}: {count} rows").format(file=out, count=n))


@office_app.command("verify")
def verify_cmd(
    list_code: ListOption = None,
    engine: Annotated[str, typer.Option("--engine", help="fast, or reference (the slow way, for an auditor)")] = "fast",
) -> None:
    """Recompute every published edition from the stored events; exit 1 with the differences unless identical."""
    ensure_django()
    from qiyuan.office.setup import require_set_up
    from qiyuan.office.verify import verify_all
    from qiyuan.rating.history import ENGINES

    console = _console()
    with _refusals():
        require_set_up()  # a half-restored office is named as such, never verified (or crashed on) half-way
        rl = _rating_list(list_code) if list_code else None
        if engine not in ENGINES:
            from qiyuan.errors import problem

            fail([problem("--engine: {value!r} is not one of {names}", value=engine, names=", ".join(ENGINES))])
        with table_progress(_("verifying")) as progress:
            report = verify_all(rl, progress=lambda n, t, what: progress(_("editions"), n, t, what), engine=engine)
    if report.ok:
        console.print(_("verified {count} edition(s): every one recomputed identical, bit for bit").format(
            count=report.editions))
        return
    err = _console(stderr=True)
    err.print("[bold red]" + _("{count} difference(s) in {editions} edition(s):").format(
        count=len(report.differences), editions=report.editions) + "[/]")
    for d in report.differences:  # (each in the reader's language)
        err.print(f"  {problem_line(getattr(d, 'problem', d))}", markup=False)
    raise typer.Exit(1)


# ---------------------------------------------------------------------------------------------- demo


def demo_cmd(
    rebuild: Annotated[bool, typer.Option("--rebuild/--keep", show_default=False,
                                                   help="Rebuild the demo office if it exists")] = True,
    seed: Annotated[int, typer.Option(help="Seed of the synthetic history")] = 2011,
) -> None:
    """Build a demo federation on SQLite under ./var, publish its lists and show where to look next."""
    import os

    from qiyuan.errors import problem

    home = Path(os.environ.get("QIYUAN_HOME", Path.cwd())).resolve()
    db = home / "var" / "qiyuan.sqlite3"
    if "DATABASE_URL" in os.environ:
        fail([problem("the demo builds its own SQLite office under ./var; unset DATABASE_URL")])
    console = _console()
    if db.exists() and not rebuild:
        console.print(_("the demo office exists: {path} (run `qiyuan demo` to rebuild it)").format(path=db))
        return
    if db.exists():
        db.unlink()
    ensure_django()
    from qiyuan.office.demo import build_demo

    with _refusals(), table_progress(_("building")) as progress:
        summary = build_demo(seed=seed, progress=progress)
    _print_demo(console, summary, db)


def _print_demo(console, s, db: Path) -> None:
    from rich.table import Table

    console.print("[bold]" + _("demo federation") + "[/] " + _("in {path}").format(path=db))
    console.print("  " + _("{players} players, {events} events, {games} games; {editions} editions published "
                           "({lists}); verified: {verified}").format(
        players=s.players, events=s.events, games=s.games, editions=s.editions, lists=_(", ").join(s.lists),
        verified=_("identical") if s.verified else _("DIFFERENCES")))
    for code, top in s.tops.items():
        t = Table(_("rank"), _("federation ID"), _("name"), _("rating"), _("games"),
                  title=_("{list} {date} top 10").format(list=code, date=s.latest[code]))
        for row in top:
            t.add_row(*(str(x) for x in row))
        console.print(t)

    def step(command: str, why: str = "") -> None:
        console.print(f"  {command:<48} # {_(why)}" if why else f"  {command}", markup=False)

    console.print(_("next:"))
    step("qiyuan office list show", N_("lists and editions"))
    step("qiyuan office list export --list CGA --format pdf --out cga.pdf")
    step("qiyuan office verify", N_("recompute every edition, bit for bit"))
    step("qiyuan office calendar list", N_("the event calendar"))
    step(f"qiyuan office period compute --list CGA --player {s.example_player}")
    if s.grading_events:
        step(f"qiyuan office dan propose {s.grading_events[0]}",
             _("grades earned ({count} granted)").format(count=s.grants))
        step(f"qiyuan office dan propose {s.grading_events[-1]}", N_("not a grading event: why"))
    if s.certificate:
        step(f"qiyuan office dan certificate {s.certificate} --out certificate.pdf")
    step("qiyuan serve", N_("the portal and the desk in a browser"))


#: a list entry's status as people read it (the CSV keeps the code)
STATUS_NAMES = {"active": N_("active"), "inactive": N_("inactive"), "removed": N_("removed"), "unrated": N_("unrated")}


def correction_reason(reason: str) -> str:
    """A correction's stored reason in the run's language (the code's part of a carried-forward one translated)."""
    from django.utils import translation

    from qiyuan.web.portal.editions import correction_reason as split  # the pages' reading of the stored reason

    with translation.override("zh-hans" if language() == CHINESE else "en"):
        code_part, officer_part = split(reason)
    return code_part + officer_part


def register(app: typer.Typer) -> None:
    """Add ``qiyuan demo`` (the ``office`` group's commands are added to ``office_app`` on import)."""
    app.command("demo")(demo_cmd)
