"""``qiyuan office dan …``: dan and kyu grades (段级位) — the policy, standards, proposals, grants, certificates.

Thin: parse the options, call the grades use cases (``qiyuan.office.grades``),
print. Every refusal lists its problems and exits 2 with nothing written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from qiyuan.cli.lang import N_, _
from qiyuan.cli.office import ActorOption, _console, _date_or_fail, actor_name, ensure_django, fail, office_app, office_errors

dan_app = typer.Typer(help=N_("Dan and kyu grades: policy, grading standards, proposals, grants, certificates."),
                      no_args_is_help=True)
policy_app = typer.Typer(help=N_("The grant policy: show, check, install, example."), no_args_is_help=True)
standard_app = typer.Typer(help=N_("Grading standards of coming events (BJSH §9(3)): record, list."),
                           no_args_is_help=True)
dan_app.add_typer(policy_app, name="policy")
dan_app.add_typer(standard_app, name="standard")
office_app.add_typer(dan_app, name="dan")


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        fail([f"{file}: cannot read it as UTF-8 text ({exc.__class__.__name__}: {exc})"], "error")
    return ""


# ---------------------------------------------------------------------------------------------- policy


@policy_app.command("example")
def policy_example(out: Annotated[Optional[Path], typer.Option("--out", help="Write it to this file")] = None) -> None:
    """Print the example policy shipped with qiyuan (an example to adapt, not an official policy)."""
    from qiyuan.grading.policy import example_text

    text = example_text()
    if out is None:
        typer.echo(text, nl=False)
        return
    if out.exists():
        fail([f"{out} exists already; nothing written"])
    out.write_text(text, encoding="utf-8")
    _console().print(_("example policy written to {file}").format(file=out), markup=False)


@policy_app.command("check")
def policy_check(file: Annotated[Path, typer.Argument(help="A grant policy file (TOML)")]) -> None:
    """Check a policy file: every problem with its line, or a summary of what it grants."""
    from qiyuan.errors import QiyuanError
    from qiyuan.grading.policy import policy_from_toml

    try:
        policy = policy_from_toml(_read_text(file), file=str(file))
    except QiyuanError as exc:
        fail(exc.problems, f"{file}")
    _print_policy(policy, f"{file}: valid")


@policy_app.command("install")
def policy_install(file: Annotated[Path, typer.Argument(help="A grant policy file (TOML)")],
                   actor: ActorOption = None) -> None:
    """Put a policy in force (the previous one stays on record); refused if a recorded grant disagrees."""
    ensure_django()
    from qiyuan.office.grades.policies import install_policy, version_policy

    text = _read_text(file)
    with office_errors():
        version = install_policy(text, file=str(file), actor=actor_name(actor))
    _print_policy(version_policy(version), f"policy {version.name} installed (#{version.pk}), in force from now")


@policy_app.command("show")
def policy_show() -> None:
    """The policy in force: its cap by date, classes and tables, conditions, bodies."""
    ensure_django()
    from qiyuan.office.grades.policies import policy_in_force

    with office_errors():
        in_force = policy_in_force()
    v = in_force.version
    head = (f"in force: {in_force.policy.name} (#{v.pk}, installed {v.installed_at:%Y-%m-%d %H:%M} by "
            f"{v.installed_by})" if v else "no policy installed: the texts alone (cap 六段, no event grants); "
            "`qiyuan office dan policy example` shows an example to adapt")
    _print_policy(in_force.policy, head)


def _print_policy(policy, head: str) -> None:
    from rich.table import Table

    from qiyuan.people.grades import grade_label

    console = _console()
    console.print(head, markup=False)
    if policy.title:
        console.print(f"  {policy.title}" + (f" / {policy.title_en}" if policy.title_en else ""), markup=False)
    if policy.federation:
        console.print(f"  granting body: {policy.federation}" + (f" ({policy.federation_en})"
                                                                 if policy.federation_en else ""), markup=False)
    console.print("  cap (第五条): " + ", ".join(f"{grade_label(c.grade)} from {c.since}" for c in policy.caps),
                  markup=False)
    c = policy.conditions
    console.print(f"  grading events (BJSH §9): ≥ {c.min_players} players, ≤ {float(c.max_unrated_share) * 100:g}% "
                  f"unrated, national arbiter in charge: {'yes' if c.national_arbiter_in_charge else 'no'}, "
                  f"standard before the start: {'yes' if c.standard_before_start else 'no'}", markup=False)
    console.print(f"  only raises: {'yes' if policy.only_raise else 'no (an equal grade is re-granted)'}; above the "
                  f"cap: {policy.above_cap}", markup=False)
    bodies = [f"{b.name}{'' if b.capped else ' (not capped)'}" for b in policy.bodies]
    if policy.member_associations:
        bodies.append("the registered associations")
    console.print("  recognised bodies (BJSH §13(二)): " + (", ".join(bodies) or "none"), markup=False)
    for cls in policy.classes:
        criteria = [f"organisers {'/'.join(cls.organiser_levels)}" if cls.organiser_levels else "",
                    {True: "national", False: "not national", None: ""}[cls.national],
                    f"lists {'/'.join(cls.lists)}" if cls.lists else "",
                    {True: "women's events", False: "mixed events", None: ""}[cls.women_only]]
        table = Table("placing", "grade", title=f"class {cls.name}: {cls.title} ({', '.join(x for x in criteria if x)})")
        for label, rows in (("", cls.open), ("women ", cls.women)):
            for row in rows:
                table.add_row(f"{label}{row.placings}", grade_label(row.grade))
        console.print(table)
    if not policy.classes:
        console.print("  no event class: no event grants a grade", markup=False)


# ---------------------------------------------------------------------------------------------- standards


@standard_app.command("record")
def standard_record(
    event_name: Annotated[str, typer.Argument(help="The event's name, as its report will give it")],
    start: Annotated[str, typer.Option("--start", help="Its first day YYYY-MM-DD (in the future)")],
    event_class: Annotated[str, typer.Option("--class", help="The policy's class of the event (e.g. national)")],
    list_code: Annotated[Optional[str], typer.Option("--list", "-l", help="The rating list it will be rated on")] = None,
    note: Annotated[str, typer.Option("--note", help="Where the standard was published, or a remark")] = "",
    actor: ActorOption = None,
) -> None:
    """Record a coming event's grading standard today, before it starts (BJSH §9(3))."""
    ensure_django()
    from qiyuan.office.grades.standards import record_standard

    start_date = _date_or_fail(start, "--start")
    with office_errors():
        s = record_standard(event_name, start_date, event_class, rating_list=list_code, note=note,
                            actor=actor_name(actor))
    _console().print(_("standard #{id} recorded on {day}: {event} (starts {start}), class {cls}").format(
        id=s.pk, day=s.recorded_on, event=s.event_name, start=s.start_date, cls=s.event_class), markup=False)


@standard_app.command("list")
def standard_list(limit: Annotated[int, typer.Option("--limit", "-n", min=1)] = 50) -> None:
    """The recorded grading standards, the newest events first."""
    ensure_django()
    from rich.table import Table

    from qiyuan.office.grades.models import GradingStandard

    table = Table("#", _("event"), _("starts"), _("class"), _("list"), _("recorded"), _("by"))
    with office_errors():
        for s in GradingStandard.objects.select_related("rating_list").order_by("-start_date", "-id")[:limit]:
            table.add_row(str(s.pk), s.event_name, str(s.start_date), s.event_class,
                          s.rating_list.code if s.rating_list else "", str(s.recorded_on), s.recorded_by)
    _console().print(table)


# ---------------------------------------------------------------------------------------------- proposals


@dan_app.command("propose")
def propose_cmd(
    event: Annotated[str, typer.Argument(help="The event's code in the office (e.g. CGA-20240813-1a2b3c4d)")],
    standard: Annotated[Optional[int], typer.Option("--standard", help="The standard's number, if its name differs")] = None,
) -> None:
    """Who earns what at EVENT under the policy, by which clause — and why the others do not (nothing written)."""
    ensure_django()
    from qiyuan.office.grades.proposals import event_proposal, find_event

    with office_errors():
        ep = event_proposal(find_event(event), standard_id=standard)
    _print_proposal(ep)


def _print_proposal(ep) -> None:

    from qiyuan.people.grades import grade_label

    console = _console()
    prop, ev = ep.proposal, ep.event
    cls = prop.event_class
    console.print(f"[bold]{ev.code}[/] {ev.name} {ev.start_date}–{ev.end_date} ({ev.rating_list.code})")
    std = ep.standard
    console.print(f"  standard: #{std.pk} class {std.event_class}, recorded {std.recorded_on}" if std else
                  "  standard: none recorded", markup=False)
    console.print(f"  policy {prop.policy}; grant date {prop.grant_on}; cap in force (第五条): "
                  f"{grade_label(prop.cap) if prop.cap else 'none'}", markup=False)
    if prop.failures:
        console.print(f"[bold red]not a grading event (等级赛): it grants nothing[/] — {len(prop.failures)} "
                      "condition(s) failed:")
        for f in prop.failures:
            console.print(f"  {f}", markup=False)
        return
    # one block per placing, readable at 80 columns: the ID and the name never cut, the clause
    # and the reason on their own indented lines, wrapped at the terminal's width
    from rich.padding import Padding
    from rich.text import Text

    from qiyuan.tournament.sheets import pad, text_width

    console.print(f"class {cls.name}: {cls.title}", markup=False)
    width = max([text_width(line.placing.name) for line in prop.lines] + [4])
    console.print(f"  {'place':>5} {'women':>5}  {'id':<10} {pad('name', width)}  holds  earns  outcome", markup=False)
    for line in prop.lines:
        p = line.placing
        outcome = line.outcome.value.replace("_", " ") + (f" {line.grade}" if line.grade else "")
        console.print(f"  {str(p.rank or ''):>5} {str(line.women_rank or ''):>5}  {p.player:<10} "
                      f"{pad(p.name, width)}  {(p.held.grade if p.held else '-'):<5}  {(line.earned or '-'):<5}  "
                      f"{outcome}", markup=False, overflow="fold")
        console.print(Padding(Text(f"{line.clause}: {line.reason}" if line.clause else str(line.reason)),
                              (0, 0, 0, 9)))
    n = len(prop.grants)
    console.print(f"{n} grant(s) proposed" + (f"; confirm them with\n  qiyuan office dan grant {ev.code} --all\n"
                                              "(or some of them with --player ID)" if n else ""), markup=False)


@dan_app.command("events")
def events_cmd(limit: Annotated[int, typer.Option("--limit", "-n", min=1)] = 20) -> None:
    """The most recent events in the office, with their grading standard and grants."""
    ensure_django()
    from django.db.models import Count
    from rich.table import Table

    from qiyuan.office.events.models import Event
    from qiyuan.office.grades.standards import standard_for

    table = Table(title=_("events (the code is what {command} takes)").format(
        command=f"`qiyuan office dan propose {_('CODE')}`"))
    table.add_column(_("event"), no_wrap=True)  # never cut: the command needs it whole
    table.add_column(_("name of the event"), overflow="fold", ratio=1)
    for head in (N_("ends"), N_("list"), N_("standard"), N_("grants")):
        table.add_column(_(head), no_wrap=True)
    with office_errors():
        for e in (Event.objects.select_related("rating_list").annotate(n=Count("dan_grants"))
                  .order_by("-end_date", "-id")[:limit]):
            s = standard_for(e)
            table.add_row(e.code, e.name, str(e.end_date), e.rating_list.code,
                          f"#{s.pk} {s.event_class}" if s else "", str(e.n or ""))
    _console().print(table)


# ---------------------------------------------------------------------------------------------- grants


@dan_app.command("grant")
def grant_cmd(
    target: Annotated[str, typer.Argument(help="An event code (confirm its proposals) or a player (grant by hand)")],
    grade: Annotated[Optional[str], typer.Argument(help="By hand: the grade (3d, 2k, … or in words)")] = None,
    confirm_all: Annotated[bool, typer.Option("--all", help="Confirm every proposal of the event")] = False,
    players: Annotated[Optional[list[str]], typer.Option("--player", help="Confirm this player's proposal")] = None,
    standard: Annotated[Optional[int], typer.Option("--standard", help="The event's standard, if its name differs")] = None,
    on: Annotated[Optional[str], typer.Option("--on", help="By hand: the grant's date YYYY-MM-DD")] = None,
    by: Annotated[Optional[str], typer.Option("--by", help="By hand: the granting body (the Chinese Qiyuan, RIF, …)")] = None,
    event: Annotated[Optional[str], typer.Option("--event", help="By hand: the event it was earned at")] = None,
    demote: Annotated[bool, typer.Option("--demote", help="By hand: a lower grade (a demotion; needs --reason)")] = False,
    reason: Annotated[str, typer.Option("--reason", help="Why (a demotion)")] = "",
    actor: ActorOption = None,
) -> None:
    """Confirm an event's proposals (`grant EVENT --all` / `--player ID`), or grant one grade by hand
    (`grant PLAYER GRADE --on DATE --by BODY [--event CODE]`)."""
    ensure_django()
    from qiyuan.office.grades.grants import confirm_proposals, grant_grade
    from qiyuan.office.grades.proposals import find_event
    from qiyuan.office.registry import find_player

    console = _console()
    if grade is None:
        wrong = [name for name, given in (("--on", on), ("--by", by), ("--event", event), ("--demote", demote or None),
                                          ("--reason", reason or None)) if given is not None]
        if wrong:
            fail([f"{', '.join(wrong)}: only for a grant by hand (`grant PLAYER GRADE --on DATE --by BODY`)"])
        if not confirm_all and not players:
            fail([f"say which proposals of {target} to confirm: --all, or --player ID (repeatable)"])
        if confirm_all and players:
            fail(["--all and --player together: give one of them"])
        with office_errors():
            grants = confirm_proposals(find_event(target), players=None if confirm_all else players,
                                       standard_id=standard, actor=actor_name(actor))
        for g in grants:
            console.print(_("granted {player} {grade} on {day} ({clause}), certificate {serial}").format(
                player=f"{g.player.federation_id} {g.player.name}", grade=_grade(g.grade), day=g.granted_on,
                clause=g.clause, serial=g.serial or "—"), markup=False)
        console.print(_("{count} grant(s) recorded").format(count=len(grants)), markup=False)
        return
    if confirm_all or players or standard is not None:
        fail(["--all, --player and --standard confirm an event's proposals; a grant by hand is "
              "`grant PLAYER GRADE --on DATE --by BODY`"])
    missing = [name for name, given in (("--on", on), ("--by", by)) if not given]
    if missing:
        fail([f"a grant by hand needs {' and '.join(missing)}"])
    day = _date_or_fail(on, "--on")
    with office_errors():
        player = find_player(target)
        ev = find_event(event) if event else None
        g = grant_grade(player, grade, granted_on=day, granted_by=by or "", event=ev, demote=demote, reason=reason,
                        actor=actor_name(actor))
    console.print(_("granted {player} {grade} on {day} by {body}").format(
        player=f"{player.federation_id} {player.name}", grade=_grade(g.grade), day=g.granted_on, body=g.granted_by)
        + (_(" at {event}").format(event=ev.code) if ev else "")
        + (_(", certificate {serial}").format(serial=g.serial) if g.serial else ""), markup=False)


@dan_app.command("history")
def history_cmd(player: Annotated[str, typer.Argument(help="Federation ID or exact name")]) -> None:
    """A player's grade history: grade, date, body, event, certificate."""
    ensure_django()
    from rich.table import Table

    from qiyuan.office.grades.history import grade_history
    from qiyuan.cli.office import grade_words
    from qiyuan.office.registry import find_player

    with office_errors():
        p = find_player(player)
        rows = grade_history(p)
    table = Table(_("date"), _("grade"), _("granting body"), _("event"), _("clause"), _("certificate"),
                  title=f"{p.federation_id} {p.name}")
    for r in rows:
        table.add_row(str(r.granted_on), _grade(r.grade), r.body, f"{r.event_code} {r.event_name}".strip(),
                      r.clause + (_(" demotion: {reason}").format(reason=r.demotion_reason) if r.demotion_reason
                                  else ""), r.serial)
    console = _console()
    console.print(table)
    if not rows:
        console.print(_("no grant recorded") + (_("; registry grade {grade} (undated)").format(grade=grade_words(p.dan))
                                                if p.dan else ""), markup=False)


@dan_app.command("certificate")
def certificate_cmd(
    serial: Annotated[str, typer.Argument(help="The grant's certificate number (see `dan history`)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The PDF file to write", dir_okay=False)],
) -> None:
    """Write the certificate of one grant (dan or kyu) as an A4 PDF."""
    ensure_django()
    from qiyuan.office.grades.certificates import certificate_pdf

    if out.exists():
        fail([f"{out} exists already; nothing written"])
    with office_errors():
        data = certificate_pdf(serial)
    out.write_bytes(data)
    _console().print(_("certificate {serial} written to {file} ({size} bytes)").format(
        serial=serial, file=out, size=len(data)), markup=False)


def _grade(code: str) -> str:
    """A grade as the terminal shows it: in words in Chinese (三段), the label otherwise (as before)."""
    from qiyuan.cli.lang import CHINESE, language
    from qiyuan.cli.office import grade_words
    from qiyuan.people.grades import grade_label

    return grade_words(code) if language() == CHINESE else grade_label(code)


def register(app: typer.Typer) -> None:
    """Nothing to add at the top: ``qiyuan office dan`` joined the ``office`` group on import."""
