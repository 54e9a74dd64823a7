"""``qiyuan office dan …``: dan and kyu grades (段级位) — the policy, standards, proposals, grants, certificates.

Thin: parse the options, call the grades use cases (``qiyuan.office.grades``),
print. Every refusal lists its problems and exits 2 with nothing written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from qiyuan.cli.lang import CHINESE, ENGLISH, N_, _, file_error, language, problem_line
from qiyuan.cli.office import (ActorOption, _console, _date_or_fail, actor_name, ensure_django, fail, grade_words, office_app,
                               office_errors)
from qiyuan.errors import Problem, problem
from qiyuan.grading.words import TABLES, clause_in_words, for_people, stored_clause_in_words

dan_app = typer.Typer(help=N_("Dan and kyu grades: policy, grading standards, proposals, grants, certificates."),
                      no_args_is_help=True)
policy_app = typer.Typer(help=N_("The grant policy: show, check, install, example."), no_args_is_help=True)
standard_app = typer.Typer(help=N_("Grading standards of coming events (BJSH §9(3)): record, list."),
                           no_args_is_help=True)
dan_app.add_typer(policy_app, name="policy")
dan_app.add_typer(standard_app, name="standard")
office_app.add_typer(dan_app, name="dan")



def by_hand() -> str:
    """How a grant by hand is typed (the options' names as they are, the values named in the run's language)."""
    return "`qiyuan office dan grant {} {} --on {} --by {}`".format(*map(_, (N_("PLAYER"), N_("GRADE"), N_("DATE"),
                                                                           N_("BODY"))))


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        fail([problem("cannot read it as UTF-8 text: {why}", file=str(file), why=file_error(exc))], "error")
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
        fail([problem("it exists already; nothing written", file=str(out))])
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
    _print_policy(policy, _("{file}: valid").format(file=file))


@policy_app.command("install")
def policy_install(file: Annotated[Path, typer.Argument(help="A grant policy file (TOML)")],
                   actor: ActorOption = None) -> None:
    """Put a policy in force (the previous one stays on record); refused if a recorded grant disagrees."""
    ensure_django()
    from qiyuan.office.grades.policies import install_policy, version_policy

    text = _read_text(file)
    with office_errors():
        version = install_policy(text, file=str(file), actor=actor_name(actor))
    _print_policy(version_policy(version), _("policy {name} installed (#{id}), in force from now").format(
        name=version.name, id=version.pk))


@policy_app.command("show")
def policy_show() -> None:
    """The policy in force: its cap by date, classes and tables, conditions, bodies."""
    ensure_django()
    from qiyuan.office.grades.policies import policy_in_force

    with office_errors():
        in_force = policy_in_force()
    v = in_force.version
    head = (_("in force: {name} (#{id}, installed {when} by {who})").format(
        name=in_force.policy.name, id=v.pk, when=f"{v.installed_at:%Y-%m-%d %H:%M}", who=v.installed_by) if v else
        _("no policy installed: the texts alone (highest dan granted: {cap}; no event grants); {command} shows an example to adapt")
        .format(cap=_grade("6d"), command="`qiyuan office dan policy example`"))
    _print_policy(in_force.policy, head)


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _in_language(chinese: str, english: str) -> str:
    """A text the policy gives in both languages (``title`` / ``title_en``): the run's one (the Chinese when the
    English is missing)."""
    return english if language() == ENGLISH and english else chinese


def _print_policy(policy, head: str) -> None:
    from rich.table import Table

    from qiyuan.cli.calendar import LEVEL_NAMES

    console = _console()
    console.print(head, markup=False)
    if policy.title:
        console.print("  " + _in_language(policy.title, policy.title_en), markup=False)
    if policy.federation:
        console.print("  " + _("granting body: {body}").format(
            body=_in_language(policy.federation, policy.federation_en)), markup=False)
    console.print("  " + _("highest dan granted (Art. 5): {steps}").format(steps=_(", ").join(
        _("{grade} from {day}").format(grade=_grade(c.grade), day=c.since) for c in policy.caps) or "—"),
        markup=False)
    c = policy.conditions
    console.print("  " + _("grading events ({clause}): at least {players} players, at most {share}% unrated, national "
                           "arbiter in charge: {arbiter}, standard before the start: {standard}").format(
        clause=_clause("BJSH §9"), players=c.min_players, share=f"{float(c.max_unrated_share) * 100:g}", arbiter=_yes_no(c.national_arbiter_in_charge),
        standard=_yes_no(c.standard_before_start)), markup=False)
    console.print("  " + _("only raises: {only_raise}; above the cap: {above_cap}").format(
        only_raise=_("yes") if policy.only_raise else _("no (an equal grade is re-granted)"),
        above_cap=_(ABOVE_CAP.get(policy.above_cap, policy.above_cap))), markup=False)
    bodies = [_in_language(b.name, b.name_en) + ("" if b.capped else _(" (not capped)")) for b in policy.bodies]
    if policy.member_associations:
        bodies.append(_("the registered associations"))
    console.print("  " + _("recognised bodies ({clause}): {bodies}").format(clause=_clause("BJSH §13(二)"), bodies=_(", ").join(bodies) or _("none")),
                  markup=False)
    for cls in policy.classes:
        levels = "/".join(_(LEVEL_NAMES.get(lvl, lvl)) for lvl in cls.organiser_levels)
        criteria = [_("organisers: {levels}").format(levels=levels) if levels else "",
                    {True: _("national events"), False: _("events not national"), None: ""}[cls.national],
                    _("lists: {lists}").format(lists="/".join(cls.lists)) if cls.lists else "",
                    {True: _("women's events"), False: _("mixed events"), None: ""}[cls.women_only]]
        table = Table(_("placing"), _("grade"), title=_("class {name}: {title} ({criteria})").format(
            name=cls.name, title=_in_language(cls.title, cls.title_en), criteria=_(", ").join(x for x in criteria if x)))
        for label, rows in (("open", cls.open), ("women", cls.women)):
            for row in rows:
                table.add_row(_("{table} {placings}").format(table=_(TABLES[label]), placings=row.placings), _grade(row.grade))
        console.print(table)
    if not policy.classes:
        console.print("  " + _("no event class: no event grants a grade"), markup=False)


#: the policy's ``above_cap`` choices in words
ABOVE_CAP = {"grant_cap": N_("the cap is granted"), "none": N_("nothing is granted")}


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


#: what a proposal line says (``grading.proposal.Outcome``), in words
OUTCOMES = {"grant": N_("grant {grade}"), "granted": N_("granted {grade}"), "holds": N_("holds a grade as high"),
            "above_cap": N_("above the cap"), "no_grade": N_("no grade"), "not_eligible": N_("not eligible")}
#: the parameters of a proposal's reasons that are grades (shown in words)
def _clause(code: str) -> str:
    """A clause as the reader's texts name it (BJSH §9(四) → 京沪细则第九条（四）); ``policy``: the grant policy."""
    return clause_in_words(code, chinese=language() == CHINESE, translate=_)


def _for_people(p):
    """A proposal's reason or failed condition for people (``grading.words``: grades in words, clauses as the
    texts name them — as the desk shows it), in the run's language."""
    if not isinstance(p, Problem):
        return problem_line(p)
    return problem_line(for_people(p, chinese=language() == CHINESE, translate=_))


def clause_words(text: str) -> str:
    """A grant's stored clause in the run's language (``grading.words.stored_clause_in_words``)."""
    return stored_clause_in_words(text, chinese=language() == CHINESE, translate=_)


def _print_proposal(ep) -> None:
    console = _console()
    prop, ev = ep.proposal, ep.event
    cls = prop.event_class
    console.print(f"[bold]{ev.code}[/] {ev.name} {ev.start_date}–{ev.end_date} ({ev.rating_list.code})")
    std = ep.standard
    console.print("  " + (_("standard: #{id}, class {cls}, recorded {day}").format(
        id=std.pk, cls=std.event_class, day=std.recorded_on) if std else _("standard: none recorded")), markup=False)
    console.print("  " + _("policy {policy}; grant date {day}; cap that day (Art. 5): {cap}").format(
        policy=prop.policy, day=prop.grant_on, cap=_grade(prop.cap) if prop.cap else _("none")), markup=False)
    if prop.failures:
        console.print("[bold red]" + _("not a grading event: it grants nothing — {n} condition(s) failed:").format(n=len(prop.failures)) + "[/]")
        for f in prop.failures:
            console.print(f"  {_for_people(f)}", markup=False)
        return
    # one block per placing, readable at 80 columns: the ID and the name never cut, the clause
    # and the reason on their own indented lines, wrapped at the terminal's width
    from rich.padding import Padding
    from rich.text import Text

    from qiyuan.tournament.sheets import pad, rpad, text_width

    console.print(_("class {name}: {title}").format(name=cls.name, title=_in_language(cls.title, cls.title_en)),
                  markup=False)
    heads = [_(h) for h in (N_("place"), N_("women"), N_("federation ID"), N_("name"), N_("holds"), N_("earns"), N_("outcome"))]
    grades = [_grade(g) for line in prop.lines for g in (line.placing.held.grade if line.placing.held else "",
                                                          line.earned or "")]
    width = max([text_width(line.placing.name) for line in prop.lines] + [text_width(heads[3])])
    gw = max([text_width(g) for g in grades] + [text_width(heads[4]), text_width(heads[5])])
    rw = max(text_width(heads[0]), text_width(heads[1]), 5)
    iw = max([text_width(heads[2])] + [text_width(line.placing.player) for line in prop.lines])
    console.print(f"  {rpad(heads[0], rw)} {rpad(heads[1], rw)}  {pad(heads[2], iw)} "
                  f"{pad(heads[3], width)}  {pad(heads[4], gw)}  {pad(heads[5], gw)}  {heads[6]}", markup=False)
    for line in prop.lines:
        p = line.placing
        outcome = _(OUTCOMES[line.outcome.value]).format(grade=_grade(line.grade) if line.grade else "").strip()
        console.print(f"  {rpad(str(p.rank or ''), rw)} {rpad(str(line.women_rank or ''), rw)}  "
                      f"{pad(p.player, iw)} {pad(p.name, width)}  {pad(_grade(p.held.grade) if p.held else '-', gw)}  "
                      f"{pad(_grade(line.earned) if line.earned else '-', gw)}  {outcome}", markup=False,
                      overflow="fold")
        clause = clause_words(line.clause)
        reason = _for_people(line.reason)
        console.print(Padding(Text(_("{where}: {what}").format(where=clause, what=reason) if clause else reason),
                              (0, 0, 0, 9)))
    n = len(prop.grants)
    console.print(_("{n} grant(s) proposed").format(n=n) + (
        _("; confirm them with\n  {command}\n(or some of them with {option})").format(
            command=f"qiyuan office dan grant {ev.code} --all", option="--player " + _("federation ID")) if n else ""), markup=False)


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
            fail([problem("{options}: only for a grant by hand ({usage})", options=", ".join(wrong), usage=by_hand())])
        if not confirm_all and not players:
            fail([problem("say which proposals of {event} to confirm: {all}, or {player} (repeatable)", event=target,
                          all="--all", player="--player " + _("federation ID"))])
        if confirm_all and players:
            fail([problem("{all} and {player} together: give one of them", all="--all", player="--player")])
        with office_errors():
            grants = confirm_proposals(find_event(target), players=None if confirm_all else players,
                                       standard_id=standard, actor=actor_name(actor))
        for g in grants:
            console.print(_("granted {player} {grade} on {day} ({clause}), certificate {serial}").format(
                player=f"{g.player.federation_id} {g.player.name}", grade=_grade(g.grade), day=g.granted_on,
                clause=clause_words(g.clause), serial=g.serial or "—"), markup=False)
        console.print(_("{count} grant(s) recorded").format(count=len(grants)), markup=False)
        return
    if confirm_all or players or standard is not None:
        fail([problem("{all}, {player} and {standard} confirm an event's proposals; a grant by hand is {usage}",
                      all="--all", player="--player", standard="--standard", usage=by_hand())])
    missing = [name for name, given in (("--on", on), ("--by", by)) if not given]
    if missing:
        fail([problem("a grant by hand needs {options}", options=_(", ").join(missing))])
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
    from qiyuan.office.registry import find_player

    with office_errors():
        p = find_player(player)
        rows = grade_history(p)
    table = Table(_("date"), _("grade"), _("granting body"), _("event"), _("clause"), _("certificate"),
                  title=f"{p.federation_id} {p.name}")
    for r in rows:
        table.add_row(str(r.granted_on), _grade(r.grade), r.body, f"{r.event_code} {r.event_name}".strip(),
                      clause_words(r.clause) + (_(" demotion: {reason}").format(reason=r.demotion_reason) if r.demotion_reason
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
        fail([problem("it exists already; nothing written", file=str(out))])
    with office_errors():
        data = certificate_pdf(serial)
    out.write_bytes(data)
    _console().print(_("certificate {serial} written to {file} ({size} bytes)").format(
        serial=serial, file=out, size=len(data)), markup=False)


def _grade(code: str) -> str:
    """A grade as people read it, in words in the run's language (三段 / 3 dan); a code it does not know as it is."""
    return grade_words(code) or code


def register(app: typer.Typer) -> None:
    """Nothing to add at the top: ``qiyuan office dan`` joined the ``office`` group on import."""
