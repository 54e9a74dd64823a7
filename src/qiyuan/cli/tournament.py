"""Commands of the tournament desk: ``pair``, ``standings``, ``report`` and ``event …``.

Stateless and file-driven like bbpPairings: every command reads the event's TRF-16
file, and the ``event`` commands that change it call the arbiter's use cases
(``qiyuan.tournament.arbiter``) on the file store (``qiyuan.formats.eventstore``:
an exclusive lock, then an atomic write) — the same functions the desk calls.
A command only turns its arguments into the use case's input and its outcome into
lines.  A refusal (``qiyuan.errors.QiyuanError``) prints every problem on stderr
and exits 2, the file untouched.  Imports stay inside the commands so that
``qiyuan pair`` starts fast.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from qiyuan.cli import go as go_cli
from qiyuan.cli.event_file import (
    _actor, _fail, _load, _notes_text, _run, _store, event_app, refusals, say,
)
from qiyuan.cli.lang import CHINESE, N_, _, language
from qiyuan.collector import held

if TYPE_CHECKING:
    from qiyuan.tournament.eventfile import RoundPairing
    from qiyuan.tournament.model import Tournament

def _pairing_lines(pairing: RoundPairing) -> list[str]:
    return [f"{a} {b}" for a, b in pairing.boards] + [f"{n} 0" for n in pairing.byes]


def _print_round(t: Tournament, rnd: int) -> None:
    from qiyuan.tournament import go  # --- go: a Go event's round in Go's words (黑/白, 让子, 贴目)
    from qiyuan.tournament.sheets import round_table

    if go.is_go(t):
        from qiyuan.tournament.go_sheets import go_round_table

        sys.stdout.write(go_round_table(t, rnd, "zh" if language() == CHINESE else "en"))
        return
    sys.stdout.write(round_table(t, rnd, _))


def parse_rounds(text: str) -> list[int]:
    """``4``, ``4-6``, ``4,6,7`` or ``4-5,7``: the rounds named."""
    from qiyuan.errors import InputError, problem

    rounds: list[int] = []
    for part in text.replace(" ", "").split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m or (m[2] and int(m[2]) < int(m[1])):
            raise InputError(problem("rounds must be like 4, 4-6 or 4,6; found {text!r}", text=text))
        rounds += range(int(m[1]), int(m[2] or m[1]) + 1)
    return rounds


# -- the bbpPairings-like commands ----------------------------------------------------------


@refusals
def pair(
    event: Path = typer.Argument(..., help="the event's TRF-16 file"),
    output: Path | None = typer.Option(None, "-o", "--output", help="write the file with the round applied"),
    explain: bool = typer.Option(False, "--explain", help="say why each player floated and each pair formed"),
) -> None:
    """Pair the next round: first line the number of lines, then `OPENER OTHER` per board, the bye as `N 0`."""
    from qiyuan.tournament import eventfile as ev

    with held():  # one short run over many small objects: collecting would only cost time
        t = _load(event, players=True)
        pairing = (ev.pair_next if output is not None else ev.next_pairing)(t, explain=explain)
    lines = _pairing_lines(pairing)
    if output is not None:
        _store(output, overwrite=True).create(t, _actor())
    sys.stdout.write(f"{len(lines)}\n" + "".join(f"{x}\n" for x in lines))
    sys.stderr.write(_notes_text(pairing.notes))
    if explain:
        sys.stderr.write("".join(f"{say(x)}\n" for x in pairing.explanation))


@refusals
def standings(
    event: Path = typer.Argument(..., help="the event's TRF-16 file, an OpenGotha file or an EGD results file (.h9)"),
    csv: bool = typer.Option(False, "--csv", help="comma-separated, with a header line"),
    after: int | None = typer.Option(None, "--after", help="as the standings stood after round N"),
    category: str | None = typer.Option(None, "--category", help="a prize category: women, U12, 'rating 1800-1999'"),
    wide: bool = typer.Option(False, "--wide", help="one line per player however wide (default: 80 columns)"),
) -> None:
    """Rank, draw number, name, score and the seven tie-breaks (the file's own point system);
    a Go event, an OpenGotha or an .h9 file: its placement criteria (MMS, SOS, …)."""
    if go_cli.is_opengotha(event) or event.suffix.lower() == ".h9" or go_cli.is_go_event(event):
        go_cli.print_go_standings(go_cli.load_event(event), csv, after)
        return
    _print_standings(_load(event, players=True), csv, after, category, wide)


def _print_standings(t: Tournament, as_csv: bool, after: int | None = None, category: str | None = None,
                     wide: bool = False) -> None:
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament.systems import system_of
    from qiyuan.tournament.sheets import as_of, rounds_with_cells

    if after is not None:
        if not 0 <= after <= rounds_with_cells(t):
            raise InputError(problem("--after {after}: the event has rounds 1..{last}", after=after,
                                     last=rounds_with_cells(t)))
        t = as_of(t, after)
    ranking = system_of(t).ranking
    if ranking == "bracket":
        _print_knockout_places(t, as_csv)
        return
    if ranking in ("match", "teams"):
        _print_match_or_teams(t, as_csv)
        return
    from qiyuan.tournament import categories as cat
    from qiyuan.tournament.sheets import (TERMINAL_WIDTH, WITHDRAWN_MARK, pad, plain, rpad, shown_names, text_width,
                                          withdrawn_note, wrap)
    from qiyuan.tournament.standings import ROUND_ROBIN_TIEBREAKS, ROUND_ROBIN_TIEBREAKS_EN, tiebreak_names
    from qiyuan.tournament.standings import standings as compute

    rows = compute(t)
    places = [(r.rank, r) for r in rows]
    title = _("standings after round {round}").format(round=after) if after is not None else ""
    if category is not None:
        c = cat.parse(category)
        places = cat.ranked(t, c, rows)
        title = (title + _(", ") if title else "") + _("category {key}").format(key=_category_name(c))
    n_tb = len(tiebreak_names(t))
    by = {e.number: e for e in t.entrants}
    gone = {n: e.withdrawn_after for n, e in by.items() if e.withdrawn_after is not None}
    head = ["rank", "number", "name", "score"] + [f"tb{i}" for i in range(1, n_tb + 1)] + ["withdrawn_after",
                                                                                      "place_decided_by"]
    if as_csv:
        import csv

        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(head)
        for place, r in places:
            w.writerow([place, r.number, r.name, plain(r.score), *map(plain, r.tiebreaks), gone.get(r.number, ""),
                        r.decision.line() if r.decision else ""])
        return

    names = shown_names(t)  # players of the same name told apart
    mark = _(WITHDRAWN_MARK)

    def name_of(r) -> str:
        return names[r.number] + (" " + mark if r.number in gone else "")

    chinese = language() == CHINESE
    # the Chinese terminal heads the tie-breaks as the texts do (辅分一…七; a round robin's 直胜, 胜局, 索分)
    tb_heads = list(tiebreak_names(t)) if chinese else [f"TB{i}" for i in range(1, n_tb + 1)]
    width = max([text_width(name_of(r)) for _, r in places] + [text_width(_("Name")), 4])
    no_width = max([len(str(r.number)) for _, r in places] + [text_width(_("No"))])
    pts_width = max([len(plain(r.score)) for _, r in places] + [text_width(_("Pts"))])
    tb_width = max([len(plain(x)) for _, r in places for x in r.tiebreaks] + [text_width(h) for h in tb_heads]
                   + [1 if not wide else 7])
    if not wide:  # 80 columns: each column as wide as its widest value, a long name wraps onto the next line
        width = min(width, max(8, TERMINAL_WIDTH - (4 + 1 + no_width + 1 + 1 + pts_width + (tb_width + 1) * n_tb)))
    out = [title] if title else []
    if n_tb == len(ROUND_ROBIN_TIEBREAKS_EN):
        out.append(_("round robin: ranked by {first}, then {second}, then {third}; then a lot").format(
            first=ROUND_ROBIN_TIEBREAKS[0], second=ROUND_ROBIN_TIEBREAKS[1], third=ROUND_ROBIN_TIEBREAKS[2])
            if chinese else
            "round robin: TB1 " + ", TB2 ".join(ROUND_ROBIN_TIEBREAKS_EN[:2]) + ", TB3 "
            + ROUND_ROBIN_TIEBREAKS_EN[2] + "; then a lot")
    out.append(f"{rpad(_('Rk'), 4)} {rpad(_('No'), no_width)} {pad(_('Name'), width)} {rpad(_('Pts'), pts_width)} "
               + " ".join(rpad(h, tb_width) for h in tb_heads))
    for place, r in places:
        first, *rest = [name_of(r)] if wide else wrap(name_of(r), width)
        out.append(f"{place:>3}{'*' if r.decision else ' '} {r.number:>{no_width}} {pad(first, width)} "
                   f"{plain(r.score):>{pts_width}} " + " ".join(f"{plain(tb):>{tb_width}}" for tb in r.tiebreaks))
        out += [" " * (4 + 1 + no_width) + f" {piece}" for piece in rest]
    out += withdrawn_note(t, names, _, wide=wide)
    out += _decision_lines(rows)
    sys.stdout.write("\n".join(out) + "\n")


def _decision_lines(rows) -> list[str]:
    """One footnote per tied group decided: its places, its players in order, and how."""
    seen, out = set(), []
    for r in rows:
        d = r.decision
        if d is None or d in seen:
            continue
        seen.add(d)
        places = [x.rank for x in rows if x.decision == d]
        how = d.how_zh() if language() == CHINESE else d.how_en()
        out.append(_("* places {first}-{last} {how}: ").format(first=min(places), last=max(places), how=how)
                   + _(", ").join(f"{x.number} {x.name}" for x in sorted(
                       (x for x in rows if x.decision == d), key=lambda x: x.rank)))
    return out


def _print_match_or_teams(t: Tournament, as_csv: bool) -> None:
    """A match: the two players' scores and games won/drawn/lost; a team event: the teams
    by match points (2/1/0), then board points."""
    from qiyuan.tournament import teams as tm
    from qiyuan.tournament.sheets import pad, plain, rpad, text_width
    from qiyuan.tournament.systems import system_of

    if system_of(t).ranking == "match":
        title = _("match of {games} games: the higher score wins, equal scores draw").format(games=t.rounds_planned)
        head = ["rank", "number", "name", "score", "won", "drawn", "lost"]
        rows = [[r.rank, r.number, r.name, plain(r.score), r.won, r.drawn, r.lost] for r in tm.match_standings(t)]
    else:
        title = _("team event: ranked by match points (won 2, drawn 1, lost 0), then board points")
        head = ["rank", "team", "name", "match_points", "board_points", "won", "drawn", "lost"]
        rows = [[r.rank, r.team.number, r.team.name, r.match_points, plain(r.board_points), r.won, r.drawn, r.lost]
                for r in tm.team_standings(t)]
    if as_csv:
        import csv

        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)
        return
    width = max([text_width(str(r[2])) for r in rows] + [4])
    shown = [_("Rk"), _("No"), _("Name")] + [_(COLUMN_NAMES[h]) for h in head[3:]]
    out = [title, f"{rpad(shown[0], 4)} {rpad(shown[1], 5)} {pad(shown[2], width)} " + " ".join(rpad(h, 6)
                                                                                   for h in shown[3:])]
    out += [f"{r[0]:>4} {r[1]:>5} {pad(str(r[2]), width)} " + " ".join(f"{x!s:>6}" for x in r[3:]) for r in rows]
    sys.stdout.write("\n".join(out) + "\n")


def _print_knockout_places(t: Tournament, as_csv: bool) -> None:
    """Knock-out standings: place, score of the games, and the round reached (no Swiss tie-breaks)."""
    from qiyuan.tournament.knockout import knockout_places, knockout_reached, played_matches
    from qiyuan.tournament.scoring import score
    from qiyuan.tournament.sheets import pad, plain, rpad, text_width

    places, reached = knockout_places(t), knockout_reached(t, str if as_csv else _)  # the CSV keeps its words
    matches = played_matches(t)  # mini-matches: each match's score from the player's side

    def played(n: int) -> str:
        chinese = language() == CHINESE and not as_csv  # the report's own words for a match (第1轮对5号 1:1 胜)
        return ("；" if chinese else "; ").join(m.text_zh() if chinese else m.text() for m in matches.get(n, []))

    order = sorted(t.entrants, key=lambda e: (places[e.number], e.number))
    if as_csv:
        import csv

        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(["rank", "number", "name", "score", "reached"] + (["matches"] if matches else []))
        w.writerows([places[e.number], e.number, e.name, plain(score(e, t.points)), reached[e.number]]
                    + ([played(e.number)] if matches else []) for e in order)
        return
    width = max([text_width(e.name) for e in t.entrants] + [4])
    reach = max([text_width(reached[e.number]) for e in t.entrants] + [text_width(_("Reached"))])
    out = [_("knock-out: ranked by the round reached (losers of a round share a place), no Swiss tie-breaks"),
           f"{rpad(_('Rk'), 4)} {rpad(_('No'), 5)} {pad(_('Name'), width)} {rpad(_('Pts'), 5)}  {pad(_('Reached'), reach)}"
           + (f"  {_('Matches')}" if matches else "")]
    out += [(f"{places[e.number]:>4} {e.number:>5} {pad(e.name, width)} {plain(score(e, t.points)):>5}  "
             f"{pad(reached[e.number], reach)}" + (f"  {played(e.number)}" if matches else "")).rstrip()
            for e in order]
    sys.stdout.write("\n".join(out) + "\n")


@refusals
def report(
    event: Path = typer.Argument(..., help="the event's TRF-16 file"),
    xlsx: Path = typer.Option(..., "--xlsx", help="the competition report workbook to write (.xlsx)"),
    organizer: str = typer.Option("", help="the organiser"),
    host: str = typer.Option("", help="the host"),
    notes: str = typer.Option("", help="notes: anything affecting the validity of results"),
    remark: list[str] = typer.Option([], help='a remark on a player, "7: TEXT" (repeat for each)'),
    rules: str = typer.Option("cga-gomoku-2011", help="the rating rules the report goes to: they say how "
                                                      "games not played are marked (cga: + / −, bjsh: *)"),
    organiser_level: str | None = typer.Option(None, "--organiser-level",
                                               help="the organiser's level: state, regional, local or other"),
    national: bool | None = typer.Option(None, "--national/--not-national", help="a national event"),
    international: bool | None = typer.Option(None, "--international/--not-international", help="an international event"),
    agreed: bool | None = typer.Option(None, "--agreed/--not-agreed", help="agreed by the bodies concerned (BJSH §6)"),
    dan_event: bool | None = typer.Option(None, "--dan-event/--no-dan-event", help="a grading event (it grants dan and kyu grades)"),
    standards_published: bool | None = typer.Option(None, "--standards-published/--no-standards-published",
                                                    help="the grading standards were published before the event (BJSH §9.3)"),
) -> None:
    """Write the competition report (CGA Art. 11): holds ID numbers — for the federation only. The facts given
    (organiser level, national, …) are written on the report's lines, so the office's import takes them from the
    report; a fact not given is left blank."""
    from qiyuan.errors import InputError, problem
    from qiyuan.formats.report_xlsx import LEVELS_ZH, ReportMeta, report_bytes
    from qiyuan.rating.rules import RulesError, load_rules
    from qiyuan.tournament.eventfile import event_format

    remarks, bad = {}, []
    for item in remark:
        m = re.fullmatch(r"\s*(\d+)\s*[:：]\s*(.+)", item)
        if m:
            remarks[int(m[1])] = m[2].strip()
        else:
            bad.append(problem("--remark {item!r}: write the draw number, a colon and the text", item=item))
    try:
        rule_set = load_rules(rules)
    except RulesError as exc:
        bad.append(problem("--rules: {why}", why=str(exc)))
        rule_set = None
    if organiser_level is not None and organiser_level not in LEVELS_ZH:
        bad.append(problem("--organiser-level {value!r} is not one of {known}", value=organiser_level,
                           known=", ".join(LEVELS_ZH)))
    t = _load(event, players=True)
    bad += [problem("--remark: no player {number}", number=n) for n in remarks if not 1 <= n <= len(t.entrants)]
    if bad:
        raise InputError(bad)
    facts = {k: v for k, v in (("organiser_level", organiser_level), ("national", national),
                               ("international", international), ("agreed_by_parties", agreed),
                               ("dan_event", dan_event), ("standards_published", standards_published))
             if v is not None}
    meta = ReportMeta(format=event_format(t), organizer=organizer, host=host, notes=notes, remarks=remarks,
                      unplayed_mark=rule_set.unplayed_mark, facts=facts)
    from qiyuan.formats.eventstore import write_atomically

    write_atomically(xlsx, report_bytes(t, meta), label=str(xlsx))
    sys.stdout.write(_("wrote {file} ({players} players, {rounds} rounds)").format(
        file=xlsx, players=len(t.entrants), rounds=t.rounds_played) + "\n")


# -- qiyuan event … ---------------------------------------------------------------------------


def _date(s: str | None, what: str):
    from datetime import date

    from qiyuan.errors import InputError, problem

    if not s:
        return None
    try:
        return date.fromisoformat(s)
    except ValueError:
        raise InputError(problem("{what} must be a date like 2026-05-01, found {value!r}", what=what,
                                 value=s)) from None


@event_app.command("new")
@refusals
def event_new(
    event: Path = typer.Argument(..., help="the event file to create"),
    name: str = typer.Option("", help="the event's name"),
    rounds: int | None = typer.Option(None, help="rounds planned (XXR); round robins: set by the players"),
    fmt: str = typer.Option("swiss", "--format",
                            help="swiss | round_robin | double_round_robin | knockout | match | team | "
                                 "go_mcmahon | go_swiss (Go: see event go-settings)"),
    boards: int | None = typer.Option(None, help="team event: boards per team"),
    start: str | None = typer.Option(None, help="first day, 2026-05-01"),
    end: str | None = typer.Option(None, help="last day"),
    city: str = typer.Option("", help="where the event is played"),
    time_control: str = typer.Option("", help="the time control, e.g. '60 min + 30 s'"),
    chief: str = typer.Option("", help="the chief arbiter"),
    arbiter: list[str] = typer.Option([], help="an arbiter (repeat for each)"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing file"),
    mini_matches: str | None = typer.Option(
        None, "--mini-matches",
        help="knock-out: each match 2 games (openers alternate), then at 1:1 one tie-break game whose opener "
             "is drawn by lot (event lot), played at this time control, e.g. '10 min + 5 s'"),
    registration: str = typer.Option("", "--registration", metavar="CODE",
                                     help="start from an approved calendar registration (R2026-001): its name, "
                                          "dates, city, format, rounds, time control, arbiters and entry list "
                                          "(the options given here win)"),
) -> None:
    """Start an event file (from scratch, or from an approved registration with --registration CODE)."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc

    if registration.strip():
        _new_from_registration(event, registration.strip(), force=force, name=name, rounds=rounds,
                               fmt=fmt if fmt != "swiss" else None, start=start, end=end, city=city,
                               time_control=time_control, chief=chief, arbiter=arbiter, boards=boards,
                               mini_matches=mini_matches)
        return
    if not name.strip():
        raise InputError(problem("give the event's --name (or --registration CODE)"))
    dates = {"start": _date(start, "--start"), "end": _date(end, "--end")}
    uc.new_event(_store(event, overwrite=force), _actor(), name, fmt=fmt, rounds=rounds, city=city,
                 time_control=time_control, chief_arbiter=chief, arbiters=arbiter, boards=boards,
                 tiebreak_time_control=mini_matches, **dates)
    if language() == CHINESE:
        from qiyuan.formats.report_xlsx import FORMATS

        fmt = FORMATS.get(fmt, fmt)
    mini = _(" (mini-matches, tie-break game {time})").format(time=mini_matches) if mini_matches is not None else ""
    sys.stdout.write(_("created {file}: {name}, {format}").format(file=event, name=name, format=fmt) + mini + "\n")


def _new_from_registration(event: Path, code: str, *, force: bool, name: str, rounds: int | None, fmt: str | None,
                           start: str | None, end: str | None, city: str, time_control: str, chief: str,
                           arbiter: list[str], boards: int | None, mini_matches: str | None) -> None:
    """``event new --registration CODE``: the registered details and entry list (``event_registration.event_start``,
    the desk's start too), every entrant checked before the file is written — nothing written on a refusal."""
    from dataclasses import replace
    from datetime import date

    from qiyuan.cli.office import ensure_django

    ensure_django()
    from qiyuan.office.event_registration import event_start
    from qiyuan.tournament import arbiter as uc
    from qiyuan.tournament import eventfile as ev

    reg, rows, registered_format = event_start(code)
    fields = dict(fmt=fmt or registered_format, rounds=rounds or reg.rounds, city=city or reg.city,
                  time_control=time_control or reg.time_control, chief_arbiter=chief or reg.chief_arbiter,
                  arbiters=list(arbiter) or list(reg.arbiters), boards=boards, tiebreak_time_control=mini_matches,
                  start=_date(start, "--start") or reg.start, end=_date(end, "--end") or reg.end)
    title = name.strip() or reg.name
    if fields["fmt"] in ev.ROUND_ROBINS:
        fields["rounds"] = rounds  # a round robin's rounds are set by its players
    if rows:  # checked on the event as it will be, before anything is written
        ev.add_players(ev.new_event(title, **fields), [(r, replace(e)) for r, e in rows], today=date.today(),
                       file=code)
    uc.new_event(_store(event, overwrite=force), _actor(), title, **fields)
    added = _run(event, uc.add_players, rows, source=code, today=date.today()) if rows else []
    shown = fields["fmt"]
    if language() == CHINESE:
        from qiyuan.formats.report_xlsx import FORMATS

        shown = FORMATS.get(shown, shown)
    sys.stdout.write(_("created {file}: {name}, {format}").format(file=event, name=title, format=shown) + "\n")
    sys.stdout.write((_("{count} player(s) entered from {code}").format(count=len(added), code=code) if added else
                      _("{code} has no entry list yet: enter the players with add-players").format(code=code)) + "\n")


@event_app.command("add-player")
@refusals
def event_add_player(
    event: Path = typer.Argument(...),
    name: str = typer.Argument(..., metavar=N_("FULL_NAME"), help="the player's name"),
    sex: str = typer.Option("", help="m (man) / w (woman)"),
    title: str = typer.Option("", help="the grade: 3d, 1k or in words"),
    rating: str = typer.Option("", help="the rating (1..9999)"),
    association: str = typer.Option("", help="the player's association"),
    club: str = typer.Option("", help="the player's club (for keep-apart)"),
    family: str = typer.Option("", help="a family's label, the same for its members (for keep-apart)"),
    player_id: str = typer.Option("", help="registry id"),
    id_number: str = typer.Option("", help="the resident ID number (report only, never public): checked like the registry's"),
    passport: str = typer.Option("", help="a foreign entrant's passport number (5-20 letters and digits; "
                                          "report only, never public), instead of --id-number"),
    birth: str = typer.Option("", help="birth date, 2012-05-01 (written 2012/05/01, as TRF-16 has it)"),
    team: str = typer.Option("", help="team event: the player's team; board order = order of entry"),
    nationality: str = typer.Option("", help="nationality: a 3-letter country code (KOR, JPN); a foreign entrant "
                                             "needs no --association"),
) -> None:
    """Enter a player; after round 1 is paired this is a late entry (Z for the rounds missed)."""
    from datetime import date

    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc
    from qiyuan.tournament.eventfile import entrant_problems
    from qiyuan.tournament.model import Entrant

    rating_value = int(rating.strip()) if rating.strip().isdigit() else None
    entrant = Entrant(0, name, sex=sex, title=title, rating=rating_value, federation=association, club=club,
                      family=family, player_id=player_id, id_number=passport or id_number, birth=birth,
                      id_type="passport" if passport else "resident", nationality=nationality)
    bad = [] if rating_value is not None or not rating.strip() else [
        problem("rating must be a whole number 1..9999, found {value!r}", value=rating.strip())]
    if passport and id_number:
        bad.append(problem("give --id-number (a resident ID) or --passport, not both"))
    if bad:  # with the entrant's own faults, before the file is read
        raise InputError(bad + entrant_problems(entrant, today=date.today()))
    added = _run(event, uc.add_player, entrant, team=team, today=date.today())
    if added.team:
        sys.stdout.write(_("{number} {name}: {team}, board {board}").format(
            number=added.number, name=added.name, team=added.team, board=added.board) + "\n")
    else:
        late = _(" (late entry: absent in {rounds})").format(rounds=_rounds_text(added.late_rounds)) \
            if added.late_rounds else ""
        sys.stdout.write(f"{added.number} {added.name}{late}\n")


@event_app.command("edit-player")
@refusals
def event_edit_player(
    event: Path = typer.Argument(...),
    number: int = typer.Argument(..., help="the player's draw number"),
    name: str | None = typer.Option(None, help="the name, corrected"),
    sex: str | None = typer.Option(None, help="m (man) / w (woman)"),
    title: str | None = typer.Option(None, help="the grade: 3d, 1k or in words ('' for none)"),
    rating: str | None = typer.Option(None, help="the rating (1..9999; '' for none)"),
    association: str | None = typer.Option(None, help="the player's association"),
    club: str | None = typer.Option(None, help="the player's club (for keep-apart)"),
    family: str | None = typer.Option(None, help="a family's label (for keep-apart)"),
    player_id: str | None = typer.Option(None, help="registry id"),
    id_number: str | None = typer.Option(None, help="the resident ID number (report only, never public)"),
    passport: str | None = typer.Option(None, help="a foreign entrant's passport number, instead of --id-number"),
    birth: str | None = typer.Option(None, help="birth date, 2012-05-01"),
    nationality: str | None = typer.Option(None, help="nationality: a 3-letter country code (KOR, JPN)"),
) -> None:
    """Correct an entrant's details (only the options given change): checked like a new entry; his
    number, games and results stay."""
    from datetime import date

    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc

    changes: dict[str, object] = {k: v for k, v in (
        ("name", name), ("sex", sex), ("title", title), ("federation", association), ("club", club),
        ("family", family), ("player_id", player_id), ("birth", birth), ("nationality", nationality))
        if v is not None}
    if passport is not None and id_number is not None:
        raise InputError(problem("give --id-number (a resident ID) or --passport, not both"))
    if passport is not None:
        changes.update(id_number=passport, id_type="passport")
    elif id_number is not None:
        changes.update(id_number=id_number, id_type="resident")
    if rating is not None:
        if rating.strip() and not rating.strip().isdigit():
            raise InputError(problem("rating must be a whole number 1..9999, found {value!r}", value=rating.strip()))
        changes["rating"] = int(rating) if rating.strip() else None
    e = _run(event, uc.edit_player, number, changes, today=date.today())
    sys.stdout.write(_("player {number} {name}: changed {fields}").format(
        number=e.number, name=e.name, fields=_(", ").join(_(ENTRANT_FIELDS[k]) for k in changes
                                                          if k in ENTRANT_FIELDS)) + "\n")


@event_app.command("remove-player")
@refusals
def event_remove_player(event: Path = typer.Argument(...),
                        number: int = typer.Argument(..., help="the player's draw number")) -> None:
    """Take an entrant out before round 1 is paired (the players after him move up one number); once it
    is paired he has a place in the rounds: withdraw him instead."""
    from qiyuan.tournament import arbiter as uc

    renumber = _run(event, uc.remove_player, number)
    moved = [(a, b) for a, b in sorted(renumber.items()) if a != b]
    sys.stdout.write(_("player {number} removed").format(number=number)
                     + (_("; players {first}-{last} are now {new_first}-{new_last}").format(
                         first=moved[0][0], last=moved[-1][0], new_first=moved[0][1], new_last=moved[-1][1])
                        if moved else "") + "\n")


@event_app.command("add-players")
@refusals
def event_add_players(
    event: Path = typer.Argument(...),
    file: Path | None = typer.Argument(None, metavar="[FILE]",
                                       help="CSV or xlsx with the result sheet's headings: name (required), sex, ID "
                                            "number, grade, association, rating (in Chinese, as the sheet has them)"),
    registry: str = typer.Option("", "--registry", help="registered players by federation ID: CN000001,CN000002,…"),
    registration: str = typer.Option("", "--registration", help="an approved calendar registration's entry list "
                                                                  "(qiyuan office calendar entries CODE FILE)"),
) -> None:
    """Enter a whole entry list in one command: from a file, the registry or an approved registration's entry
    list.  Every row is checked; every problem is named by its row, all at once, and nothing is entered unless
    every row is right."""
    from datetime import date

    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc

    given = [x for x in (file is not None, bool(registry.strip()), bool(registration.strip())) if x]
    if len(given) != 1:
        raise InputError(problem("give one source: FILE, --registry IDS or --registration CODE"))
    if file is not None:
        from qiyuan.formats.entries import read_entries

        (rows, faults), source = read_entries(file), str(file)
    elif registration.strip():
        from qiyuan.cli.office import ensure_django

        ensure_django()
        from qiyuan.office.event_registration import registration_entrants

        rows, faults, source = registration_entrants(registration.strip()), [], registration.strip()
    else:
        from qiyuan.cli.office import ensure_django

        ensure_django()
        from qiyuan.office.events.entries import registry_entrants

        rows, faults, source = registry_entrants(registry.replace("，", ",").split(",")), [], "registry"
    added = _run(event, uc.add_players, rows, source=source, today=date.today(), faults=faults)
    late = added[0].late_rounds if added else 0
    sys.stdout.write(_("{count} player(s) entered, numbers {first}-{last}").format(
        count=len(added), first=added[0].number, last=added[-1].number)
        + (_(" (late entries: absent in {rounds})").format(rounds=_rounds_text(late)) if late else "") + "\n")


def _draw_how(how: str) -> str:
    """The file's record of the draw (``lot seed 7``, ``given 3 1 2``, ``rating …``) as people read it."""
    if language() != CHINESE:  # the English terminal shows the file's own words (scripts read them)
        return how
    kind, _sep, rest = how.partition(" ")
    if kind == "lot" and rest.startswith("seed "):
        return _("by lot, seed {seed}").format(seed=rest.removeprefix("seed "))
    if kind == "given":
        return _("as given: {order}").format(order=rest)
    return how


def _rounds_text(n: int) -> str:
    """``round 1`` / ``rounds 1-3``: the rounds a late entry missed."""
    return _("round 1") if n == 1 else _("rounds 1-{last}").format(last=n)


@event_app.command("draw")
@refusals
def event_draw(
    event: Path = typer.Argument(...),
    seed: int | None = typer.Option(None, help="seed of the lot (recorded in the file); default: a fresh one"),
    order: str | None = typer.Option(None, help="the draw as given: current numbers in their new order, 3,1,2,…"),
    by_rating: bool = typer.Option(False, "--by-rating", help="by rating, highest first (then by name)"),
) -> None:
    """Fix the draw numbers before round 1: by lot with a recorded seed, as given, or by rating."""
    import secrets

    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc

    try:
        ids = None if order is None else [int(x) for x in order.replace(" ", "").split(",") if x]
    except ValueError:
        raise InputError(problem("--order must be numbers separated by commas, found {order!r}",
                                 order=order)) from None
    if ids is None and seed is None and not by_rating:
        seed = secrets.randbelow(10**9)
    drawn = _run(event, uc.draw_numbers, seed=seed, order=ids, by_rating=by_rating)
    sys.stdout.write(_("draw: {how}").format(how=_draw_how(drawn.how)) + "\n" + "".join(f"{n:>4} {name}\n" for n, name in drawn.order))


@event_app.command("lot")
@refusals
def event_lot(
    event: Path = typer.Argument(...),
    seed: int | None = typer.Option(None, help="draw by qiyuan with this seed (recorded in the file)"),
    openers: str | None = typer.Option(None, help="the openers as drawn in the hall, one per tied match in "
                                                  "bracket order: 7,12"),
) -> None:
    """Knock-out of mini-matches: draw the openers of the coming tie-break games, by qiyuan with
    a recorded seed or as drawn in the hall; then pair the round."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc

    try:
        ids = None if openers is None else [int(x) for x in openers.replace(" ", "").replace("，", ",").split(",") if x]
    except ValueError:
        raise InputError(problem("--openers must be numbers separated by commas, found {openers!r}",
                                 openers=openers)) from None
    lot = _run(event, uc.draw_tiebreak_lot, seed=seed, openers=ids)
    sys.stdout.write(_("round {round}: {lot}").format(round=lot.round, lot=lot.text(_)) + "\n")


@event_app.command("pair")
@refusals
def event_pair(
    event: Path = typer.Argument(...),
    explain: bool = typer.Option(False, "--explain", help="why each player floated, why each pair formed"),
) -> None:
    """Pair the next round and write it into the file."""
    from qiyuan.tournament import arbiter as uc

    from datetime import date

    pairing = _run(event, uc.pair, explain=explain, on=date.today())  # the sheets print the round's day
    _print_round(_load(event), pairing.number)
    sys.stderr.write(_notes_text(pairing.notes))
    if explain:
        sys.stdout.write("".join(f"  {say(x)}\n" for x in pairing.explanation))


@event_app.command("set-pairing")
@refusals
def event_set_pairing(
    event: Path = typer.Argument(...),
    rnd: int = typer.Argument(..., metavar="ROUND"),
    boards: list[str] = typer.Argument(..., help='boards "OPENER OTHER", e.g. "1 5" "7 2"'),
    bye: int | None = typer.Option(None, help="the player who gets the bye"),
) -> None:
    """Pair a round by hand (the next round, or the last one while it has no result): checked
    against the hard rules (pairing rule 1)."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc
    from qiyuan.tournament.syntax import parse_boards

    pairs, given_bye, bad = parse_boards(boards, numbered=False)
    if given_bye is not None and bye is not None:
        bad.append(problem("the bye is given twice (--bye {bye} and \"{given} 0\")", bye=bye, given=given_bye))
    if bad:
        raise InputError(bad)
    bye = bye if bye is not None else given_bye
    done = _run(event, uc.set_pairing, rnd, pairs, bye)
    _print_round(_load(event), done.round)


@event_app.command("override")
@refusals
def event_override(
    event: Path = typer.Argument(...),
    rnd: int = typer.Argument(..., metavar="ROUND"),
    a: int = typer.Argument(..., metavar="PLAYER"),
    b: int = typer.Argument(..., metavar="OTHER"),
) -> None:
    """Override one board of the last round paired: PLAYER and OTHER change places (each takes the
    other's opponent, or the bye); two players of one board change who opens.  Checked against
    the hard rules; the boards touched must have no result."""
    from qiyuan.tournament import arbiter as uc

    done = _run(event, uc.override_board, rnd, a, b)
    _print_round(_load(event), done.round)


@event_app.command("undo")
@refusals
def event_undo(event: Path = typer.Argument(...), rnd: int = typer.Argument(..., metavar="ROUND")) -> None:
    """Undo the last round paired (no result entered yet: clear them first with "N " --change), to pair it again."""
    from qiyuan.tournament import arbiter as uc

    sys.stdout.write(_("round {round} undone").format(round=_run(event, uc.undo_round, rnd)) + "\n")


@event_app.command("result")
@refusals
def event_result(
    event: Path = typer.Argument(...),
    rnd: int = typer.Argument(..., metavar="ROUND"),
    results: list[str] = typer.Argument(..., help='"PLAYER RESULT" from that player\'s side: "12 1-0", "5 ½-½", '
                                                  '"7 +-"; "12 " (no result) clears it'),
    change: bool = typer.Option(False, "--change", help="confirm replacing or clearing a result already entered"),
    force: bool = typer.Option(False, "--force", help="change a result although later rounds were paired on it"),
) -> None:
    """Enter results of a round: 1-0, 0-1, ½-½ (=-=), forfeits +-, -+, -- (both lose); a blank
    result clears one entered by mistake.  All are checked first: if any is refused, none is
    saved and the file stays as it was.  A result typed over a different one (or a clear)
    needs --change; a knock-out takes no draw (enter the play-off's winner); a result a later
    round was paired on changes only with --force."""
    from qiyuan.errors import InputError, Problem
    from qiyuan.tournament import arbiter as uc
    from qiyuan.tournament.syntax import parse_result_item

    parsed = [parse_result_item(x) for x in results]
    bad = [p for p in parsed if isinstance(p, Problem)]
    items = [p for p in parsed if not isinstance(p, Problem)]
    if bad:  # with what the items that do read would be refused for (nothing is saved either way)
        from qiyuan.tournament.errors import EventError
        from qiyuan.tournament.eventfile import enter_results

        try:
            if items:
                enter_results(_load(event), rnd, items, force=force, change=change)
        except EventError as exc:
            bad += exc.problems
        raise InputError(bad)
    from datetime import UTC, datetime

    from qiyuan.tournament.hall import stamp

    done = _run(event, uc.enter_results, rnd, items, force=force, change=change,
                typed_by=(_actor() or "cli", "cli", stamp(datetime.now(UTC))))
    if done.forced_over:
        sys.stderr.write(_("warning: round {round} changed with --force: rounds {first}-{last} were paired on the "
                           "old scores and stay as they are").format(
            round=rnd, first=done.forced_over[0], last=done.forced_over[-1]) + "\n")
    sys.stdout.write(_("round {round}: {entered}; {open} board(s) still open").format(
        round=rnd, entered=_entered_text(done.entered), open=len(done.open_boards)) + "\n")


def _entered_text(entered) -> str:
    """What a result command did, board by board counted: entered, changed, cleared, already so."""
    from qiyuan.tournament.syntax import result_text

    new = sum(e.before == " " and e.result != " " for e in entered)
    parts = [_("{count} result(s) entered").format(count=new)] if new or not entered else []
    parts += [_("board {number}-{opponent} changed from {before} to {after}").format(
        number=e.number, opponent=e.opponent, before=result_text(e.before, e.before_other),
        after=result_text(e.result, e.other)) for e in entered if e.changed and e.result != " "]
    parts += [_("board {number}-{opponent} cleared (was {before})").format(
        number=e.number, opponent=e.opponent, before=result_text(e.before, e.before_other))
              for e in entered if e.changed and e.result == " "]
    same = [e for e in entered if e.unchanged]
    if same:
        boards = _(", ").join(_("board {number}-{opponent}").format(number=e.number, opponent=e.opponent)
                              for e in same)
        parts.append((_("{boards} had no result: nothing cleared") if all(e.result == " " for e in same)
                      else _("{boards} already read so: unchanged")).format(boards=boards))
    return _("; ").join(parts)


@event_app.command("withdraw")
@refusals
def event_withdraw(
    event: Path = typer.Argument(...),
    number: int = typer.Argument(...),
    after: int | None = typer.Option(None, help="last round he plays (default: the rounds paired)"),
) -> None:
    """Withdraw a player: he is not paired after that round."""
    from qiyuan.tournament import arbiter as uc

    sys.stdout.write(_("player {number} withdrawn after round {round}").format(
        number=number, round=_run(event, uc.withdraw, number, after)) + "\n")


@event_app.command("reinstate")
@refusals
def event_reinstate(event: Path = typer.Argument(...), number: int = typer.Argument(...)) -> None:
    """Undo a withdrawal (also one read from a file whose row simply stopped): paired again from the next round."""
    from qiyuan.tournament import arbiter as uc

    sys.stdout.write(_("player {number} is paired again from round {round}").format(
        number=number, round=_run(event, uc.reinstate, number)) + "\n")


@event_app.command("excuse")
@refusals
def event_excuse(
    event: Path = typer.Argument(...),
    number: int = typer.Argument(...),
    rounds: str = typer.Argument(..., metavar="ROUNDS", help="rounds not yet paired: 4, 4-6 or 4,6"),
    points: str = typer.Option("zero", help="zero (Z, default), half (H: a draw's points), full (F: a win's)"),
) -> None:
    """Excuse a player from any rounds not yet paired (absent, not a bye)."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc

    kind = {"zero": "Z", "half": "H", "full": "F"}.get(points)
    if kind is None:
        raise InputError(problem("--points must be zero, half or full, found {points!r}", points=points))
    done = _run(event, uc.excuse, number, parse_rounds(rounds), kind)
    sys.stdout.write(_("player {number} absent in round(s) {rounds} ({kind})").format(
        number=number, rounds=_(", ").join(map(str, done)), kind=kind) + "\n")


@event_app.command("keep-apart")
@refusals
def event_keep_apart(
    event: Path = typer.Argument(...),
    by: str = typer.Option(..., "--by", help="association | club | family"),
    rounds: int = typer.Option(..., "--rounds", help="the first K rounds (0 turns it off)"),
) -> None:
    """Keep players of the same association, club or family from meeting in the first rounds
    (Swiss only; relaxed for a round only when no pairing exists, and the pairing says so)."""
    from qiyuan.tournament import arbiter as uc

    rules = _run(event, uc.keep_apart, by, rounds)
    shown = _(", ").join(_("{by}: rounds 1-{last}").format(by=_(KEEP_APART_NAMES.get(k, k)), last=n)
                         for k, n in sorted(rules.items())) or _("none")
    sys.stdout.write(_("keep apart: {rules}").format(rules=shown) + "\n")


@event_app.command("categories")
@refusals
def event_categories(
    event: Path = typer.Argument(...),
    category: list[str] = typer.Argument(None, help="women, U8 … U18, 'rating 1800-1999', 'rating -1799'; "
                                                    "none removes them"),
) -> None:
    """Name the event's prize categories, ranked in `standings --category` and in the report."""
    from qiyuan.tournament import arbiter as uc

    done = _run(event, uc.set_categories, list(category or []))
    sys.stdout.write(_("categories: {names}").format(names=_(", ").join(_category_name(c) for c in done) or _("none"))
                     + "\n")


def _category_name(c) -> str:
    """A prize category as the terminal names it: the printouts' word in Chinese (女子组, U12组), the key in English."""
    return c.label() if language() == CHINESE else c.key


@event_app.command("tie")
@refusals
def event_tie(
    event: Path = typer.Argument(...),
    players: str = typer.Argument(..., metavar="PLAYERS", help="the tied group's draw numbers: 7,3"),
    playoff: str | None = typer.Option(None, "--playoff",
                                       help="the order the play-off gave, winner first: 7,3"),
    lot: str | None = typer.Option(None, "--lot", help="the order a lot drawn in the hall gave: 3,7"),
    seed: int | None = typer.Option(None, "--seed", help="a lot drawn by qiyuan with this seed (recorded)"),
) -> None:
    """Decide a tie of the final standings (Swiss rules, 5: a play-off or a lot) for one group
    sharing a place; the standings, report, crosstable and dan proposals follow it, and the
    printouts say how the place was decided."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc

    def numbers(text: str, what: str) -> list[int]:
        parts = [x for x in text.replace("，", ",").replace(" ", ",").split(",") if x]
        if not parts or not all(x.isdigit() for x in parts):
            raise InputError(problem("{what} must be draw numbers separated by commas, found {text!r}", what=what,
                                     text=text))
        return [int(x) for x in parts]

    if sum(x is not None for x in (playoff, lot, seed)) != 1:
        raise InputError(problem("give one of --playoff ORDER, --lot ORDER (drawn in the hall) or --seed N"))
    group = numbers(players, "PLAYERS")
    if playoff is not None:
        made = _run(event, uc.decide_tie, group, "playoff", order=numbers(playoff, "--playoff"))
    else:
        made = _run(event, uc.decide_tie, group, "lot", order=numbers(lot, "--lot") if lot else None, seed=seed)
    sys.stdout.write(_("players {group} {how}: {order}").format(
        group=_(", ").join(map(str, sorted(group))), how=made.how_zh() if language() == CHINESE else made.how_en(),
        order=_(", ").join(map(str, made.order))) + "\n")


@event_app.command("finish")
@refusals
def event_finish(event: Path = typer.Argument(...)) -> None:
    """Declare the event finished: every board has its result; no change (late entry, result) until reopened."""
    from qiyuan.tournament import arbiter as uc

    _run(event, uc.finish)
    sys.stdout.write(_("{file}: finished").format(file=event) + "\n")


@event_app.command("reopen")
@refusals
def event_reopen(event: Path = typer.Argument(...)) -> None:
    """Reopen a finished event (to correct it)."""
    from qiyuan.tournament import arbiter as uc

    _run(event, uc.reopen)
    sys.stdout.write(_("{file}: reopened").format(file=event) + "\n")


@event_app.command("show")
@refusals
def event_show(event: Path = typer.Argument(...), rnd: int | None = typer.Argument(None, metavar="[ROUND]")) -> None:
    """Print the pairings (score, rating, opener, result) of a round and who is not paired; default the last one."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament.state import rounds_paired

    t = _load(event)
    r = rnd or rounds_paired(t)
    if not 1 <= r <= rounds_paired(t):
        raise InputError(problem("round {round} is not paired ({paired} rounds are)", round=r,
                                 paired=rounds_paired(t)))
    _print_round(t, r)


@event_app.command("crosstable")
@refusals
def event_crosstable(event: Path = typer.Argument(...),
                     wide: bool = typer.Option(False, "--wide", help="every round on one line however wide "
                                                                     "(default: 80 columns, later rounds below)")) -> None:
    """Print the crosstable: per round opponent, role (b opened / w) and result; a round robin's square grid
    (each player's result against each opponent) first."""
    from qiyuan.tournament.sheets import crosstable, round_robin_grid
    from qiyuan.tournament.standings import standings
    from qiyuan.tournament.systems import system_of

    t = _load(event)
    system = system_of(t)
    if t.entrants and system.round_robin:
        sys.stdout.write(round_robin_grid(t, _, wide=wide) + "\n")
    sys.stdout.write(crosstable(t, _, wide=wide))
    if t.entrants and system.places is None:  # ranked by the standings: their play-offs and lots
        sys.stdout.write("".join(f"{x}\n" for x in _decision_lines(standings(t))))


@event_app.command("bracket")
@refusals
def event_bracket(event: Path = typer.Argument(...)) -> None:
    """Print a knock-out bracket (seeded by rating) with the winners so far."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament.eventfile import event_format
    from qiyuan.tournament.knockout import bracket_text
    from qiyuan.tournament.systems import system_of

    t = _load(event)
    if not system_of(t).bracket:
        raise InputError(problem("{event} is a {format} event, not a knock-out", event=str(event),
                                 format=event_format(t)))
    sys.stdout.write(bracket_text(t, _))


@event_app.command("standings")
@refusals
def event_standings(
    event: Path = typer.Argument(...),
    csv: bool = typer.Option(False, "--csv"),
    after: int | None = typer.Option(None, "--after", help="as the standings stood after round N"),
    category: str | None = typer.Option(None, "--category", help="a prize category: women, U12, 'rating 1800-1999'"),
    wide: bool = typer.Option(False, "--wide", help="one line per player however wide (default: 80 columns)"),
) -> None:
    """Standings with the seven tie-breaks (same as `qiyuan standings`)."""
    _print_standings(_load(event, players=True), csv, after, category, wide)


#: a printout's kind in the reader's words (``event print``'s WHAT)
PRINTED = {"entries": N_("the entry list"), "schedule": N_("the schedule"), "pairings": N_("the pairing list"),
           "slips": N_("the result slips"), "standings": N_("the standings sheet"), "crosstable": N_("the crosstable"),
           "bracket": N_("the bracket"), "cards": N_("the entry cards")}


@event_app.command("print")
@refusals
def event_print(
    event: Path = typer.Argument(...),
    what: str = typer.Argument(..., metavar="WHAT",
                               help="entries | schedule | pairings | slips | standings | crosstable | bracket | cards"),
    out: Path = typer.Option(..., "-o", "--out", help="the PDF to write"),
    rnd: int | None = typer.Option(None, "--round", help="pairings, slips: the round (default the last paired)"),
    after: int | None = typer.Option(None, "--after", help="standings: after round N (default: now)"),
    alphabetical: bool = typer.Option(False, "--alphabetical", help="pairings: by name (pinyin) for the notice "
                                                                    "board, besides the list by board"),
    hall_url: str = typer.Option("", "--hall-url", metavar="URL",
                                 help="slips, cards: each player's own QR code links to `qiyuan serve --hall` at URL, "
                                      "where his phone reports and confirms his results and checks him in"),
    player: list[int] = typer.Option([], "--player", help="cards: only this player's card (repeat for more)"),
) -> None:
    """Print for the hall (A4 PDF, its CJK font embedded): the pairing list of a round by board
    (and alphabetically by pinyin), result slips to cut and sign (with --hall-url, each player's
    own QR code on his half), the players' entry cards with their personal QR codes (cards, with
    --hall-url), the standings after a round with the tie-breaks and prize categories, the
    crosstable (wall chart); a Go event's in Go's words."""
    from qiyuan.formats import go_hall_pdf  # --- go: hall_pdf's printouts, a Go event's in Go's words
    from qiyuan.formats.eventstore import write_atomically

    t = _load(event, players=True)
    links = _hall_links(event, hall_url) if hall_url else None
    if what == "cards" and player and links is not None:
        from qiyuan.formats.hall_qr import player_cards

        data = player_cards(t, links, player)
    else:
        data = go_hall_pdf.document(t, what, round_no=rnd, after=after, alphabetical=alphabetical, links=links)
    write_atomically(out, data, label=str(out))
    sys.stdout.write(_("wrote {file} ({what})").format(file=out, what=_(PRINTED.get(what, what))) + "\n")


@event_app.command("reissue")
@refusals
def event_reissue(
    event: Path = typer.Argument(...),
    number: int = typer.Argument(..., metavar="PLAYER"),
    hall_url: str = typer.Option(..., "--hall-url", metavar="URL", help="the address of `qiyuan serve --hall`"),
    out: Path = typer.Option(..., "-o", "--out", help="the PDF of his new card to write"),
) -> None:
    """Re-issue a player's hall credential (a lost phone, a card others saw): his old QR code stops working at
    once, recorded in the audit log; his new card is written to --out."""
    import os

    from qiyuan.formats.eventstore import write_atomically
    from qiyuan.formats.hall_qr import player_cards

    t = _load(event, players=True)
    os.environ["QIYUAN_HALL_FILE"] = str(event.resolve())
    links = _hall_links(event, hall_url)
    from qiyuan.office.hall.cases import file_code, reissue

    reissue(file_code(event), _actor(), number)
    write_atomically(out, player_cards(t, links, [number]), label=str(out))
    sys.stdout.write(_("player {number}'s hall credential re-issued (the old one no longer works); wrote {file}")
                     .format(number=number, file=out) + "\n")


def _hall_links(event: Path, url: str):
    """Each player's personal link to the hall server (``qiyuan serve --hall EVENT``): his credential, signed
    with the office's hall key (its current issue)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise _fail(_("--hall-url must be an http(s) address such as http://192.168.1.10:8000, not {url}").format(
            url=repr(url)))
    from qiyuan.cli.office import ensure_django

    ensure_django()
    from django.core.management import call_command

    from qiyuan.office.hall.cases import file_code, player_link_token

    call_command("migrate", interactive=False, verbosity=0)  # as `serve` does: the credentials' issues are kept there

    code, base = file_code(event), url.rstrip("/")
    return lambda number: f"{base}/hall/e/{code}/{player_link_token(code, number)}/"


@event_app.command("export")
@refusals
def event_export(
    event: Path = typer.Argument(...),
    output: Path = typer.Argument(..., help="the TRF copy to write"),
    with_id_numbers: bool = typer.Option(False, "--with-id-numbers", help="keep the ID numbers: federation copies only"),
    trf26: bool = typer.Option(False, "--trf26", help="write FIDE's TRF26 (qiyuan's Gomoku/Go profile) instead of "
                                                       "TRF-16"),
) -> None:
    """Write a copy of the event file for others (other pairing programs, the public): without ID numbers."""
    t = _load(event)
    _store(output).write_copy(t, id_numbers=with_id_numbers, trf26=trf26)
    sys.stdout.write((_("wrote {file} (with ID numbers)") if with_id_numbers else _("wrote {file} (no ID numbers)"))
                     .format(file=output) + "\n")


#: an entrant's fields as ``event edit-player`` names them when it says what changed
ENTRANT_FIELDS = {"name": N_("name"), "sex": N_("sex"), "title": N_("grade"), "rating": N_("rating"),
                  "federation": N_("association"), "club": N_("club"), "family": N_("family"),
                  "player_id": N_("registry id"), "id_number": N_("ID number"), "birth": N_("birth date"),
                  "nationality": N_("nationality")}
#: the keep-apart groupings as people read them (the option takes the code)
KEEP_APART_NAMES = {"association": N_("association"), "club": N_("club"), "family": N_("family")}
#: the column names of a match's and a team event's standings (the CSV's header) as the terminal shows them
COLUMN_NAMES = {"score": N_("Score"), "won": N_("Won"), "drawn": N_("Drawn"), "lost": N_("Lost"),
                "match_points": N_("Match pts"), "board_points": N_("Board pts")}  # the report's 场分, 局分


def register(app: typer.Typer) -> None:
    """Add this module's commands to the qiyuan app."""
    app.command("pair")(pair)
    app.command("standings")(standings)
    app.command("report")(report)
    app.add_typer(event_app, name="event")
