"""``qiyuan office calendar add | amend | list | show | approve | refuse | withdraw | entries``: the event calendar
(赛事注册).

Thin: the options become ``Details`` (as typed: dates and numbers are read by
the use case, so every problem is reported at once), the office's use cases
(``qiyuan.office.event_registration``) check, store and audit, and the result
is printed. Bad input and refusals print every problem and exit 2, writing
nothing. Django is imported inside the commands only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from qiyuan.cli.office import ActorOption, _console, actor_name, ensure_django, fail, office_app, office_errors

calendar_app = typer.Typer(
    help="The event calendar (赛事注册): register upcoming events, checked before they are played; approve, refuse.",
    no_args_is_help=True,
)
office_app.add_typer(calendar_app, name="calendar")

# -- the options of a registration (add: required ones checked by the use case; amend: only those given) ------

Name = Annotated[Optional[str], typer.Option("--name", help="The event's name (赛事名称)")]
NameEn = Annotated[Optional[str], typer.Option("--en", help="English name")]
Start = Annotated[Optional[str], typer.Option("--start", help="First day, YYYY-MM-DD")]
End = Annotated[Optional[str], typer.Option("--end", help="Last day, YYYY-MM-DD (default: the first day)")]
City = Annotated[Optional[str], typer.Option("--city", help="City (举办城市)")]
Inside = Annotated[Optional[bool], typer.Option(
    "--inside-regions/--outside-regions",
    help="Inside the rule set's home regions (BJSH §3: 北京、上海); default: from the city")]
Rounds = Annotated[Optional[str], typer.Option("--rounds", help="Planned rounds (轮数)")]
Players = Annotated[Optional[str], typer.Option("--players", help="Expected number of players")]
TimeCtl = Annotated[Optional[str], typer.Option("--time-control", help='用时, e.g. "每方60分钟", "45 min + 30 s"')]
Chief = Annotated[Optional[str], typer.Option("--chief", help="Chief arbiter (裁判长), by name in the registry")]
Arbiters = Annotated[Optional[list[str]], typer.Option("--arbiter", help="An arbiter (裁判员); repeat for each")]
Format = Annotated[Optional[str], typer.Option("--format", help="swiss, round_robin, team, match or knockout")]
Organiser = Annotated[Optional[str], typer.Option("--organiser", help="Organiser (主办单位)")]
Level = Annotated[Optional[str], typer.Option("--organiser-level", help="state, regional, local or other")]
Assoc = Annotated[Optional[str], typer.Option("--association", help="Code of the association organising or "
                                                                    "approving it")]
National = Annotated[Optional[bool], typer.Option("--national/--not-national", help="A national event (全国性)")]
International = Annotated[Optional[bool], typer.Option("--international/--not-international",
                                                       help="An international event")]
Agreed = Annotated[Optional[bool], typer.Option("--agreed/--not-agreed",
                                                help="Agreed by the parties (协商主体; BJSH §3(三), §6)")]
Rules = Annotated[Optional[str], typer.Option("--rules", help="Rules of play: national or rif")]
RifOk = Annotated[Optional[bool], typer.Option("--rif-approved/--rif-not-approved",
                                               help="RIF rules approved by the region's organisation (BJSH §7(三))")]
Grades = Annotated[Optional[bool], typer.Option("--grants-grades/--no-grades",
                                                help="Grants dan/kyu titles (等级赛, BJSH §8–9)")]
Standard = Annotated[Optional[str], typer.Option("--standard-published",
                                                 help="Day its title standard was published, YYYY-MM-DD (BJSH §9(三))")]


def _given(**options) -> dict:
    """The options given on the command line, by ``Details`` field."""
    return {k: v for k, v in options.items() if v is not None}


def _print_assessment(console, reg) -> None:
    from qiyuan.office.event_registration import findings

    a = reg.assessment
    style = "green" if a.get("rateable") else "red"
    console.print(f"  [{style}]{a.get('verdict', '')}[/]")
    for f in findings(a, "failures"):
        console.print(f"  ✗ {f}", markup=False)
    for f in findings(a, "clashes"):
        console.print(f"  ! {f}", markup=False)
    for f in findings(a, "notes"):
        console.print(f"  note: {f}", markup=False)
    if not a.get("approvable", True) and reg.status == "registered":
        console.print(f"  approval needs these fixed (`qiyuan office calendar amend {reg.code} …`) or an override "
                      f"with its reason (`qiyuan office calendar approve {reg.code} --override REASON`)",
                      markup=False)


def _headline(reg) -> str:
    where = reg.city + ("" if reg.inside_regions is None else
                        " (inside the regions)" if reg.inside_regions else " (outside the regions)")
    days = f"{reg.start_date} (one day)" if reg.start_date == reg.end_date else f"{reg.start_date} – {reg.end_date}"
    return f"{reg.code} {reg.name}: {days}, {where}, list {reg.rating_list.code}, {reg.status}"


@calendar_app.command("add")
def add_cmd(
    name: Annotated[str, typer.Argument(help="The event's name (赛事名称)")],
    list_code: Annotated[Optional[str], typer.Option("--list", "-l", help="Rating list it is to be rated on")] = None,
    start: Start = None, end: End = None, city: City = None, inside: Inside = None, rounds: Rounds = None,
    players: Players = None, time_control: TimeCtl = None, chief: Chief = None, arbiter: Arbiters = None,
    event_format: Format = None, organiser: Organiser = None, level: Level = None, association: Assoc = None,
    national: National = None, international: International = None, agreed: Agreed = None, rules: Rules = None,
    rif_approved: RifOk = None, grants_grades: Grades = None, standard: Standard = None, name_en: NameEn = None,
    actor: ActorOption = None,
) -> None:
    """Register an upcoming event and check it: every condition the rules can check before it is played, each
    named by its clause; recorded even with problems (amend it), approved only without them or by override."""
    ensure_django()
    from qiyuan.office.event_registration import Details, register_event

    fields = _given(name=name, list_code=list_code, start_date=start, end_date=end or start, city=city,
                    inside_regions=inside, rounds=rounds, expected_players=players, time_control=time_control,
                    chief_arbiter=chief, arbiters=tuple(arbiter) if arbiter else None, format=event_format,
                    organiser=organiser, organiser_level=level, association=association, national=national,
                    international=international, agreed_by_parties=agreed, rules_of_play=rules,
                    rif_approved=rif_approved, grants_grades=grants_grades, standard_published_on=standard,
                    name_en=name_en)
    with office_errors():
        reg = register_event(Details(**fields), actor=actor_name(actor))
    console = _console()
    console.print(f"registered {_headline(reg)}", markup=False)
    _print_assessment(console, reg)


@calendar_app.command("amend")
def amend_cmd(
    code: Annotated[str, typer.Argument(help="Registration code, e.g. R2027-001")],
    name: Name = None, start: Start = None, end: End = None, city: City = None, inside: Inside = None,
    rounds: Rounds = None, players: Players = None, time_control: TimeCtl = None, chief: Chief = None,
    arbiter: Arbiters = None,
    no_arbiters: Annotated[bool, typer.Option("--no-arbiters", help="No arbiters besides the chief")] = False,
    event_format: Format = None, organiser: Organiser = None, level: Level = None, association: Assoc = None,
    national: National = None, international: International = None, agreed: Agreed = None, rules: Rules = None,
    rif_approved: RifOk = None, grants_grades: Grades = None, standard: Standard = None, name_en: NameEn = None,
    actor: ActorOption = None,
) -> None:
    """Change what was registered (only the options given) and check it again; an approved event that changes
    goes back to the officer."""
    ensure_django()
    from qiyuan.office.event_registration import amend_registration

    changes = _given(name=name, start_date=start, end_date=end, city=city, inside_regions=inside, rounds=rounds,
                     expected_players=players, time_control=time_control, chief_arbiter=chief,
                     arbiters=() if no_arbiters else tuple(arbiter) if arbiter else None, format=event_format,
                     organiser=organiser, organiser_level=level, association=association, national=national,
                     international=international, agreed_by_parties=agreed, rules_of_play=rules,
                     rif_approved=rif_approved, grants_grades=grants_grades, standard_published_on=standard,
                     name_en=name_en)
    with office_errors():
        reg = amend_registration(code, changes, actor=actor_name(actor))
    console = _console()
    console.print(f"amended {_headline(reg)}", markup=False)
    _print_assessment(console, reg)


@calendar_app.command("list")
def list_cmd(
    status: Annotated[Optional[str], typer.Option(
        "--status", help="registered, approved, refused or withdrawn (default: all)")] = None,
    list_code: Annotated[Optional[str], typer.Option("--list", "-l", help="One rating list only")] = None,
) -> None:
    """The registered events, by start date, with their status and check."""
    ensure_django()
    from rich.table import Table

    from qiyuan.office.calendar.models import Registration
    from qiyuan.office.event_registration import registrations

    if status is not None and status not in Registration.Status.values:
        fail([f"--status {status!r} is not one of {', '.join(Registration.Status.values)}"])
    with office_errors():
        rows = list(registrations(status=status, list_code=list_code))
    t = Table("代码", "日期", "名称", "城市", "榜单", "状态", "检查", title=f"{len(rows)} registered event(s)")
    for r in rows:
        a = r.assessment
        mark = "rateable" if a.get("rateable") else f"{len(a.get('failures', []))} problem(s)"
        if a.get("clashes"):
            mark += f", {len(a['clashes'])} clash(es)"
        t.add_row(r.code, f"{r.start_date} – {r.end_date}", r.name, r.city, r.rating_list.code, r.status, mark)
    _console().print(t)


@calendar_app.command("show")
def show_cmd(codes: Annotated[list[str], typer.Argument(help="Registration code(s), e.g. R2027-001")]) -> None:
    """Everything registered for an event, its check, the officer's decision and its result once imported."""
    ensure_django()
    from qiyuan.office.event_registration import find_registration

    with office_errors():
        found = [find_registration(code) for code in codes]
    console = _console()
    for r in found:
        _show(console, r)


def _show(console, r) -> None:
    arbiters = "、".join(r.arbiter_names) or "—"
    console.print(_headline(r), markup=False)
    tc = f"{r.time_minutes} min" + (f" + {r.time_increment} s" if r.time_increment else "")
    rows = [("organiser", f"{r.organiser or '—'} ({r.organiser_level}"
                          + (f", {r.association.code}" if r.association else "") + ")"),
            ("scope", ", ".join(w for w, on in (("national", r.national), ("international", r.international),
                                                ("agreed by the parties", r.agreed_by_parties)) if on) or "—"),
            ("format", f"{r.format}, {r.rounds} rounds, {r.expected_players} players expected"),
            ("time control", f"{r.time_control} ({tc})"),
            ("rules of play", r.rules_of_play + (" (approved)" if r.rules_of_play == "rif" and r.rif_approved else "")),
            ("chief arbiter", r.chief_arbiter.name), ("arbiters", arbiters),
            ("grants grades", ("yes, standard published " + (str(r.standard_published_on)
                                                             if r.standard_published_on else "—"))
             if r.grants_grades else "no"),
            ("applied", f"{r.applied_on} by {r.registered_by}")]
    if r.decided_at:
        rows.append(("decided", f"{r.status} {r.decided_at:%Y-%m-%d %H:%M} by {r.decided_by}"
                                + (" (override)" if r.overridden else "") + (f": {r.reason}" if r.reason else "")))
    if r.event_id:
        rows.append(("result", f"{r.event.code} ({r.event.status})"))
    for label, value in rows:
        console.print(f"  {label}: {value}", markup=False)
    _print_assessment(console, r)


@calendar_app.command("approve")
def approve_cmd(
    code: Annotated[str, typer.Argument(help="Registration code, e.g. R2027-001")],
    override: Annotated[Optional[str], typer.Option(
        "--override", help="Approve despite the problems the check finds, for this reason (audited)")] = None,
    actor: ActorOption = None,
) -> None:
    """Approve a registered event (checked again first); with problems only by --override REASON."""
    ensure_django()
    from qiyuan.office.event_registration import approve_registration

    with office_errors():
        reg = approve_registration(code, actor=actor_name(actor), override_reason=override or "")
    console = _console()
    console.print(f"approved {_headline(reg)}" + (f" — overriding: {reg.reason}" if reg.overridden else ""),
                  markup=False)
    _print_assessment(console, reg)


@calendar_app.command("refuse")
def refuse_cmd(
    code: Annotated[str, typer.Argument(help="Registration code, e.g. R2027-001")],
    reason: Annotated[str, typer.Option("--reason", help="Why (the organiser is told)")] = "",
    actor: ActorOption = None,
) -> None:
    """Refuse a registered event, with the reason."""
    ensure_django()
    from qiyuan.office.event_registration import refuse_registration

    with office_errors():
        reg = refuse_registration(code, reason, actor=actor_name(actor))
    _console().print(f"refused {_headline(reg)}: {reg.reason}", markup=False)


@calendar_app.command("withdraw")
def withdraw_cmd(
    code: Annotated[str, typer.Argument(help="Registration code, e.g. R2027-001")],
    reason: Annotated[str, typer.Option("--reason", help="Why (optional)")] = "",
    actor: ActorOption = None,
) -> None:
    """The organiser withdraws a registered event."""
    ensure_django()
    from qiyuan.office.event_registration import withdraw_registration

    with office_errors():
        reg = withdraw_registration(code, actor=actor_name(actor), reason=reason)
    _console().print(f"withdrawn {_headline(reg)}", markup=False)


@calendar_app.command("entries")
def entries_cmd(
    code: Annotated[str, typer.Argument(help="Registration code, e.g. R2027-001")],
    file: Annotated[Path, typer.Argument(help="The entry list (报名表): CSV or xlsx with the headings of the "
                                              "report's 成绩 sheet (姓名 required; 性别, 身份证号, 段级位, 所属棋协, 等级分)")],
    actor: ActorOption = None,
) -> None:
    """Record a registration's entry list (it replaces the one recorded): every row checked, every problem at
    once; once approved, `qiyuan event add-players EVENT --registration CODE` enters it."""
    ensure_django()
    from qiyuan.cli.lang import _
    from qiyuan.formats.entries import read_entries
    from qiyuan.office.event_registration import set_entries

    with office_errors():
        rows, faults = read_entries(file)
        reg = set_entries(code, rows, actor=actor_name(actor), source=str(file), faults=faults)
    _console().print(_("{code}: entry list of {count} player(s) recorded").format(code=reg.code, count=len(rows)),
                     markup=False)


def register(app: typer.Typer) -> None:
    """Nothing to add at the top: ``calendar`` is a group of ``qiyuan office`` (added on import)."""
