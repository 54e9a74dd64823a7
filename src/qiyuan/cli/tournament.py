"""Commands of the tournament desk: ``pair``, ``standings``, ``report`` and ``event …``.

Stateless and file-driven like bbpPairings: every command reads the event's
TRF-16 file, does one thing, and (for the ``event`` commands) writes the file
back. Bad input: a clear message (file, line, column, what) on stderr, exit
code 2, no file written. Imports stay inside the commands so that ``qiyuan
pair`` starts fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from qiyuan.tournament.eventfile import RoundPairing
    from qiyuan.tournament.model import Tournament

EVENT_HELP = """\
Run an event from its TRF file (赛事文件), round by round.

Commands, in the order of an event: new, add-player, draw (--seed N or
--order 5,2,1,…), then per round: pair, result ("12 1-0" from player 12's
side), show; at any time: standings, crosstable, bracket (knock-out),
withdraw, reinstate, excuse, set-pairing, undo, export. Guide: docs/tournament.md.

Decisions the rules leave open:
 • win 2, draw 1, loss 0; the pairing bye (轮空, TRF U) scores 2 and
   counts 0 in the tie-breaks;
 • an absent player (excuse) scores 0 that round (Z) and is not a bye;
   --points half / full grant 1 / 2;
 • a withdrawn player is not paired again; a late entry is Z in the
   rounds already paired;
 • a game lost by forfeit is a meeting: never paired again; never rated;
 • draw numbers by lot use a seed written into the file (XQD line);
 • who floats: most 轮高, then fewest 轮低, then the larger draw number;
 • a hand-made pairing (set-pairing) must keep the hard rules: everyone
   present paired once, no repeat meeting, no second bye;
 • knock-out: seeded by rating, top seeds get the byes, the upper place
   opens; a drawn match needs a play-off: enter its winner as a win;
 • round robin: Berger tables, the player listed first opens; in an odd
   field one player sits out each round (Z);
 • match (--format match --rounds N): 2 players, N games, player 1 opens
   the odd games; team (--format team --boards K, add-player --team T):
   teams meet by Berger tables, board k against board k, the home team
   opens the odd boards; team match won by more board points (2/1/0).
"""

event_app = typer.Typer(help=EVENT_HELP, no_args_is_help=True, rich_markup_mode=None)


# -- plumbing -------------------------------------------------------------------------------


def _fail(message: str) -> typer.Exit:
    sys.stderr.write(message.rstrip("\n") + "\n")
    return typer.Exit(2)


def _load(path: Path, *, players: bool = False) -> Tournament:
    """Read the event file (notes on its encoding go to stderr); ``players``: refuse a
    file without any ``001`` player line (nothing to pair, rank or report)."""
    from qiyuan.formats.errors import InputError
    from qiyuan.formats.trf import read_trf

    notes: list[str] = []
    try:
        t = read_trf(path, notes=notes)
    except InputError as exc:
        raise _fail(str(exc)) from None
    sys.stderr.write("".join(f"note: {n}\n" for n in notes))
    if players and not t.entrants:
        raise _fail(f"{path}: no player lines (001): not a TRF-16 event file, or no player entered yet")
    return t


def _save(t: Tournament, path: Path) -> None:
    """Write atomically: the old file stays whole if anything fails."""
    import os

    from qiyuan.formats.trf import write_trf

    for e in t.entrants:
        e.points = None  # the writer puts the score the results give
    try:
        text = write_trf(t)
    except ValueError as exc:
        raise _fail(f"{path}: cannot write: {exc}") from None
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise _fail(f"{path}: cannot write: {exc.strerror or exc}") from None


def _event_error(exc: Exception) -> typer.Exit:
    return _fail(f"error: {exc}")


def _edit(event: Path, change) -> None:
    """Read the event file, apply ``change(t) -> message`` (an ``EventError`` is a clear
    refusal: exit 2, file untouched), write the file, print the message."""
    from qiyuan.tournament.eventfile import EventError

    t = _load(event)
    try:
        message = change(t)
    except EventError as exc:
        raise _event_error(exc) from None
    _save(t, event)
    sys.stdout.write(message)


def _pairing_lines(pairing: RoundPairing) -> list[str]:
    return [f"{a} {b}" for a, b in pairing.boards] + [f"{n} 0" for n in pairing.byes]


def _pair_or_fail(t: Tournament, explain: bool, *, write: bool = False) -> RoundPairing:
    """The next round's pairing (written into ``t`` when ``write``); a refusal exits 2."""
    from qiyuan.tournament.eventfile import EventError, next_pairing, pair_next
    from qiyuan.tournament.swiss import PairingError

    try:
        return (pair_next if write else next_pairing)(t, explain=explain)
    except (EventError, PairingError) as exc:
        raise _event_error(exc) from None


# -- the bbpPairings-like commands ----------------------------------------------------------


def pair(
    event: Path = typer.Argument(..., help="the event's TRF-16 file"),
    output: Path | None = typer.Option(None, "-o", "--output", help="write the file with the round applied"),
    explain: bool = typer.Option(False, "--explain", help="say why each player floated and each pair formed"),
) -> None:
    """Pair the next round: first line the number of lines, then `OPENER OTHER` per board, the bye as `N 0`."""
    import gc

    gc.disable()  # one short run over many small objects: collecting would only cost time
    t = _load(event, players=True)
    pairing = _pair_or_fail(t, explain, write=output is not None)
    lines = _pairing_lines(pairing)
    if output is not None:
        _save(t, output)
    sys.stdout.write(f"{len(lines)}\n" + "".join(f"{x}\n" for x in lines))
    if explain:
        sys.stderr.write("".join(f"{x}\n" for x in pairing.explanation))


def standings(
    event: Path = typer.Argument(..., help="the event's TRF-16 file"),
    csv: bool = typer.Option(False, "--csv", help="comma-separated, with a header line"),
) -> None:
    """Rank, draw number, name, score and the tie-breaks 輔分一…七 (the file's own point system)."""
    t = _load(event, players=True)
    _print_standings(t, csv)


def _print_standings(t: Tournament, as_csv: bool) -> None:
    from qiyuan.tournament.eventfile import event_format

    if event_format(t) == "knockout":
        _print_knockout_places(t, as_csv)
        return
    if event_format(t) in ("match", "team"):
        _print_match_or_teams(t, as_csv)
        return
    from qiyuan.tournament.standings import standings as compute

    rows = compute(t)
    head = ["rank", "number", "name", "score"] + [f"tb{i}" for i in range(1, 8)]
    if as_csv:
        import csv

        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(head)
        for r in rows:
            w.writerow([r.rank, r.number, r.name, _plain(r.score), *map(_plain, r.tiebreaks)])
        return
    from qiyuan.tournament.eventfile import pad, text_width

    width = max([text_width(r.name) for r in rows] + [4])
    out = [f"{'Rk':>4} {'No':>5} {pad('Name', width)} {'Pts':>5} " + " ".join(f"{'TB' + str(i):>7}" for i in range(1, 8))]
    for r in rows:
        out.append(f"{r.rank:>4} {r.number:>5} {pad(r.name, width)} {_plain(r.score):>5} "
                   + " ".join(f"{_plain(tb):>7}" for tb in r.tiebreaks))
    sys.stdout.write("\n".join(out) + "\n")


def _plain(d) -> str:
    """A Decimal without trailing zeros: 49.0 -> 49, 182.00 -> 182, 37.75 stays."""
    return format(d.normalize(), "f")


def _print_match_or_teams(t: Tournament, as_csv: bool) -> None:
    """A match: the two players' scores and games won/drawn/lost; a team event: the teams
    by match points (2/1/0), then board points."""
    from qiyuan.tournament import teams as tm
    from qiyuan.tournament.eventfile import event_format, pad, text_width

    if event_format(t) == "match":
        title = f"match of {t.rounds_planned} games: the higher score wins, equal scores draw"
        head = ["rank", "number", "name", "score", "won", "drawn", "lost"]
        rows = [[r.rank, r.number, r.name, _plain(r.score), r.won, r.drawn, r.lost] for r in tm.match_standings(t)]
    else:
        title = "team event: ranked by match points (won 2, drawn 1, lost 0), then board points"
        head = ["rank", "team", "name", "match_points", "board_points", "won", "drawn", "lost"]
        rows = [[r.rank, r.team.number, r.team.name, r.match_points, _plain(r.board_points), r.won, r.drawn, r.lost]
                for r in tm.team_standings(t)]
    if as_csv:
        import csv

        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)
        return
    width = max([text_width(str(r[2])) for r in rows] + [4])
    shown = ["Rk", "No", "Name"] + [h.replace("_points", "").capitalize() for h in head[3:]]
    out = [title, f"{shown[0]:>4} {shown[1]:>5} {pad(shown[2], width)} " + " ".join(f"{h:>6}" for h in shown[3:])]
    out += [f"{r[0]:>4} {r[1]:>5} {pad(str(r[2]), width)} " + " ".join(f"{x!s:>6}" for x in r[3:]) for r in rows]
    sys.stdout.write("\n".join(out) + "\n")


def _print_knockout_places(t: Tournament, as_csv: bool) -> None:
    """Knock-out standings: place, score of the games, and the round reached (no Swiss tie-breaks)."""
    from qiyuan.tournament.eventfile import knockout_places, knockout_reached, pad, score, text_width

    places, reached = knockout_places(t), knockout_reached(t)
    order = sorted(t.entrants, key=lambda e: (places[e.number], e.number))
    if as_csv:
        import csv

        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(["rank", "number", "name", "score", "reached"])
        w.writerows([places[e.number], e.number, e.name, _plain(score(e, t.points)), reached[e.number]]
                    for e in order)
        return
    width = max([text_width(e.name) for e in t.entrants] + [4])
    out = ["knock-out: ranked by the round reached (losers of a round share a place), no Swiss tie-breaks",
           f"{'Rk':>4} {'No':>5} {pad('Name', width)} {'Pts':>5}  Reached"]
    out += [f"{places[e.number]:>4} {e.number:>5} {pad(e.name, width)} {_plain(score(e, t.points)):>5}  "
            f"{reached[e.number]}" for e in order]
    sys.stdout.write("\n".join(out) + "\n")


def report(
    event: Path = typer.Argument(..., help="the event's TRF-16 file"),
    xlsx: Path = typer.Option(..., "--xlsx", help="the competition report workbook to write (.xlsx)"),
    organizer: str = typer.Option("", help="主办单位"),
    host: str = typer.Option("", help="承办单位"),
    notes: str = typer.Option("", help="说明: anything affecting the validity of results"),
    remark: list[str] = typer.Option([], help='备注 of a player, "7: 原名王五" (repeat for each)'),
) -> None:
    """Write the competition report (竞赛报告, CGA Art. 11): holds ID numbers — for the federation only."""
    import re

    from qiyuan.formats.report_xlsx import ReportMeta, write_report
    from qiyuan.tournament.eventfile import event_format

    remarks, bad = {}, []
    for item in remark:
        m = re.fullmatch(r"\s*(\d+)\s*[:：]\s*(.+)", item)
        if m:
            remarks[int(m[1])] = m[2].strip()
        else:
            bad.append(f"--remark {item!r}: write the draw number, a colon and the text")
    t = _load(event, players=True)
    bad += [f"--remark: no player {n}" for n in remarks if not 1 <= n <= len(t.entrants)]
    if bad:
        raise _fail("error: " + "\n       ".join(bad))
    meta = ReportMeta(format=event_format(t), organizer=organizer, host=host, notes=notes, remarks=remarks)
    tmp = xlsx.with_name(xlsx.name + ".tmp.xlsx")
    try:
        write_report(t, tmp, meta)
        tmp.replace(xlsx)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise _fail(f"{xlsx}: cannot write: {exc.strerror or exc}") from None
    sys.stdout.write(f"wrote {xlsx} ({len(t.entrants)} players, {t.rounds_played} rounds)\n")


# -- qiyuan event … ---------------------------------------------------------------------------


def _date(s: str | None, what: str):
    from datetime import date

    if not s:
        return None
    try:
        return date.fromisoformat(s)
    except ValueError:
        raise _fail(f"error: {what} must be a date like 2026-05-01, found {s!r}") from None


@event_app.command("new")
def event_new(
    event: Path = typer.Argument(..., help="the event file to create"),
    name: str = typer.Option(..., help="赛事名称"),
    rounds: int | None = typer.Option(None, help="rounds planned (XXR); round robins: set by the players"),
    fmt: str = typer.Option("swiss", "--format",
                            help="swiss | round_robin | double_round_robin | knockout | match | team"),
    boards: int | None = typer.Option(None, help="team event: boards per team (队员人数)"),
    start: str | None = typer.Option(None, help="first day, 2026-05-01"),
    end: str | None = typer.Option(None, help="last day"),
    city: str = typer.Option("", help="比赛地点"),
    time_control: str = typer.Option("", help="时限规定, e.g. '60 min + 30 s'"),
    chief: str = typer.Option("", help="裁判长"),
    arbiter: list[str] = typer.Option([], help="裁判员 (repeat for each)"),
    force: bool = typer.Option(False, help="overwrite an existing file"),
) -> None:
    """Start an event file."""
    from qiyuan.tournament import eventfile as ev

    if event.exists() and not force:
        raise _fail(f"error: {event} exists (use --force to overwrite)")
    try:
        t = ev.new_event(name, fmt=fmt, rounds=rounds, start=_date(start, "--start"), end=_date(end, "--end"),
                         city=city, time_control=time_control, chief_arbiter=chief, arbiters=arbiter,
                         boards=boards)
    except ev.EventError as exc:
        raise _event_error(exc) from None
    _save(t, event)
    sys.stdout.write(f"created {event}: {name}, {fmt}\n")


@event_app.command("add-player")
def event_add_player(
    event: Path = typer.Argument(...),
    name: str = typer.Argument(..., help="姓名"),
    sex: str = typer.Option("", help="m / w (男/女)"),
    title: str = typer.Option("", help="段级位: 3d, 1k"),
    rating: str = typer.Option("", help="等级分 (1..9999)"),
    association: str = typer.Option("", help="所属棋协"),
    player_id: str = typer.Option("", help="registry id"),
    id_number: str = typer.Option("", help="身份证号 (report only, never public)"),
    birth: str = typer.Option("", help="birth date"),
    team: str = typer.Option("", help="team event: the player's team (队); board order = order of entry"),
) -> None:
    """Enter a player; after round 1 is paired this is a late entry (Z for the rounds missed)."""
    from qiyuan.tournament import eventfile as ev
    from qiyuan.tournament.model import Entrant

    rating_value = int(rating.strip()) if rating.strip().isdigit() else None
    entrant = Entrant(0, name, sex=sex, title=title, rating=rating_value, federation=association,
                      player_id=player_id, id_number=id_number, birth=birth)
    bad = [] if rating_value is not None or not rating.strip() else [
        f"rating must be a whole number 1..9999, found {rating.strip()!r}"]
    bad += ev.entrant_problems(entrant)
    if bad:  # every bad option at once, before the file is read: it stays untouched
        raise _fail("error: nothing saved:\n  " + "\n  ".join(bad))

    def change(t):
        from qiyuan.tournament.teams import TeamError, join_team

        is_team = ev.event_format(t) == "team"
        if is_team != bool(team.strip()):
            raise ev.EventError("a team event needs --team NAME for every player" if is_team
                                else f"--team goes with a team event; this one is {ev.event_format(t)}")
        e = ev.add_player(t, entrant)
        if is_team:
            try:
                joined = join_team(t, team, e.number)
            except TeamError as exc:
                raise ev.EventError(str(exc)) from None
            return f"{e.number} {e.name}: {joined.name}, board {len(joined.members)}\n"
        late = f" (late entry: absent in rounds 1-{len(e.rounds)})" if e.rounds else ""
        return f"{e.number} {e.name}{late}\n"

    _edit(event, change)


@event_app.command("draw")
def event_draw(
    event: Path = typer.Argument(...),
    seed: int | None = typer.Option(None, help="seed of the lot (recorded in the file); default: a fresh one"),
    order: str | None = typer.Option(None, help="the draw as given: current numbers in their new order, 3,1,2,…"),
) -> None:
    """Fix the draw numbers (抽签) before round 1: by lot with a recorded seed, or as given."""
    import secrets

    from qiyuan.tournament import eventfile as ev

    try:
        ids = None if order is None else [int(x) for x in order.replace(" ", "").split(",") if x]
    except ValueError:
        raise _fail(f"error: --order must be numbers separated by commas, found {order!r}") from None
    if ids is None and seed is None:
        seed = secrets.randbelow(10**9)

    def change(t):
        ev.draw_numbers(t, seed=seed, order=ids)
        return f"draw: {t.extra['XQD'][0]}\n" + "".join(f"{e.number:>4} {e.name}\n" for e in t.entrants)

    _edit(event, change)


@event_app.command("pair")
def event_pair(
    event: Path = typer.Argument(...),
    explain: bool = typer.Option(False, "--explain", help="why each player floated, why each pair formed"),
) -> None:
    """Pair the next round and write it into the file."""
    t = _load(event, players=True)
    pairing = _pair_or_fail(t, explain, write=True)
    _save(t, event)
    _print_round(t, pairing.number)
    if explain:
        sys.stdout.write("".join(f"  {x}\n" for x in pairing.explanation))


@event_app.command("set-pairing")
def event_set_pairing(
    event: Path = typer.Argument(...),
    rnd: int = typer.Argument(..., metavar="ROUND"),
    boards: list[str] = typer.Argument(..., help='boards "OPENER OTHER", e.g. "1 5" "7 2"'),
    bye: int | None = typer.Option(None, help="the player who gets the bye (轮空)"),
) -> None:
    """Pair a round by hand (override): checked against the hard rules (法则一)."""
    from qiyuan.tournament import eventfile as ev

    t = _load(event)
    pairs, bad = [], []
    for b in boards:
        parts = b.replace("-", " ").split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            bad.append(f"board {b!r}: write two draw numbers, opener first")
        else:
            pairs.append((int(parts[0]), int(parts[1])))
    if bad:
        raise _fail("error: " + "\n       ".join(bad))
    if ev.event_format(t) == "knockout":
        raise _fail("error: a knock-out's pairings come from its bracket (seeded by rating): use event pair")
    paired = ev.rounds_paired(t)
    if rnd not in (paired, paired + 1):
        raise _fail(f"error: round {rnd} cannot be set: {paired} rounds are paired")
    try:
        if rnd == paired:
            ev.clear_round(t, rnd)
        for e in t.entrants:
            if not ev.is_active(e, rnd) and len(e.rounds) < rnd:
                ev.excuse_fill(e, rnd)
    except ev.EventError as exc:
        raise _event_error(exc) from None
    faults = ev.check_pairing(t, rnd, pairs, bye)
    if faults:
        raise _fail(f"error: round {rnd} by hand breaks the hard rules:\n  " + "\n  ".join(faults))
    ev.set_round(t, rnd, pairs, bye)
    _save(t, event)
    _print_round(t, rnd)


@event_app.command("undo")
def event_undo(event: Path = typer.Argument(...), rnd: int = typer.Argument(..., metavar="ROUND")) -> None:
    """Undo the last round paired (no result entered yet), to pair it again."""
    from qiyuan.tournament import eventfile as ev

    def change(t):
        ev.clear_round(t, rnd)
        return f"round {rnd} undone\n"

    _edit(event, change)


@event_app.command("result")
def event_result(
    event: Path = typer.Argument(...),
    rnd: int = typer.Argument(..., metavar="ROUND"),
    results: list[str] = typer.Argument(..., help='"PLAYER RESULT" from that player\'s side: "12 1-0", "5 ½-½", "7 +-"'),
    force: bool = typer.Option(False, "--force", help="change a result although later rounds were paired on it"),
) -> None:
    """Enter results of a round: 1-0, 0-1, ½-½ (=-=), forfeits +-, -+, -- (both lose).
    A knock-out takes no draw (enter the play-off's winner); a result a later round was
    paired on changes only with --force."""
    from qiyuan.tournament import eventfile as ev

    t = _load(event)
    faults, done = [], []
    for item in results:
        parts = item.split(None, 1)
        if len(parts) != 2 or not parts[0].isdigit():
            faults.append(f"{item!r}: write the player's draw number and the result, e.g. \"12 1-0\"")
            continue
        try:
            done.append(ev.enter_result(t, rnd, int(parts[0]), parts[1], force=force))
        except ev.EventError as exc:
            faults.append(f"{item!r}: {exc}")
    if faults:
        raise _fail("error: nothing saved:\n  " + "\n  ".join(faults))
    _save(t, event)
    if force and rnd < ev.rounds_paired(t):
        sys.stderr.write(f"warning: round {rnd} changed with --force: rounds {rnd + 1}-{ev.rounds_paired(t)} "
                         "were paired on the old scores and stay as they are\n")
    left = ev.unfinished_boards(t, rnd)
    sys.stdout.write(f"round {rnd}: {len(done)} result(s) entered; {len(left)} board(s) still open\n")


@event_app.command("withdraw")
def event_withdraw(
    event: Path = typer.Argument(...),
    number: int = typer.Argument(...),
    after: int | None = typer.Option(None, help="last round he played (default: the rounds paired)"),
) -> None:
    """Withdraw a player (退赛): he is not paired again."""
    from qiyuan.tournament import eventfile as ev

    _edit(event, lambda t: f"player {number} withdrawn after round {ev.withdraw(t, number, after)}\n")


@event_app.command("reinstate")
def event_reinstate(event: Path = typer.Argument(...), number: int = typer.Argument(...)) -> None:
    """Undo a withdrawal (also one read from a file whose row simply stopped): paired again from the next round."""
    from qiyuan.tournament import eventfile as ev

    def change(t):
        ev.reinstate(t, number)
        return f"player {number} is paired again from round {ev.rounds_paired(t) + 1}\n"

    _edit(event, change)


@event_app.command("excuse")
def event_excuse(
    event: Path = typer.Argument(...),
    number: int = typer.Argument(...),
    rnd: int = typer.Argument(..., metavar="ROUND"),
    points: str = typer.Option("zero", help="zero (Z, default), half (H: a draw's points), full (F: a win's)"),
) -> None:
    """Excuse a player from the next round (absent, not a bye)."""
    from qiyuan.tournament import eventfile as ev

    kind = {"zero": "Z", "half": "H", "full": "F"}.get(points)
    if kind is None:
        raise _fail(f"error: --points must be zero, half or full, found {points!r}")
    def change(t):
        ev.excuse(t, number, rnd, kind)
        return f"player {number} absent in round {rnd} ({kind})\n"

    _edit(event, change)


@event_app.command("show")
def event_show(event: Path = typer.Argument(...), rnd: int | None = typer.Argument(None, metavar="[ROUND]")) -> None:
    """Print the pairings (and results) of a round; default the last one paired."""
    from qiyuan.tournament.eventfile import rounds_paired

    t = _load(event)
    r = rnd or rounds_paired(t)
    if not 1 <= r <= rounds_paired(t):
        raise _fail(f"error: round {r} is not paired ({rounds_paired(t)} rounds are)")
    _print_round(t, r)


def _print_round(t: Tournament, rnd: int) -> None:
    from qiyuan.tournament.eventfile import round_table

    sys.stdout.write(round_table(t, rnd))


@event_app.command("crosstable")
def event_crosstable(event: Path = typer.Argument(...)) -> None:
    """Print the crosstable: per round opponent, role (b opened / w) and result."""
    from qiyuan.tournament.eventfile import crosstable

    sys.stdout.write(crosstable(_load(event)))


@event_app.command("bracket")
def event_bracket(event: Path = typer.Argument(...)) -> None:
    """Print a knock-out bracket (单淘汰, seeded by rating) with the winners so far."""
    from qiyuan.tournament.eventfile import bracket_text, event_format

    t = _load(event)
    if event_format(t) != "knockout":
        raise _fail(f"error: {event} is a {event_format(t)} event, not a knock-out")
    sys.stdout.write(bracket_text(t))


@event_app.command("standings")
def event_standings(event: Path = typer.Argument(...), csv: bool = typer.Option(False, "--csv")) -> None:
    """Standings with the seven tie-breaks (same as `qiyuan standings`)."""
    _print_standings(_load(event, players=True), csv)


@event_app.command("export")
def event_export(
    event: Path = typer.Argument(...),
    output: Path = typer.Argument(..., help="the TRF copy to write"),
    with_id_numbers: bool = typer.Option(False, help="keep the ID numbers (身份证号): federation copies only"),
) -> None:
    """Write a copy of the event file for others (other pairing programs, the public): without ID numbers."""
    t = _load(event)
    if not with_id_numbers:
        for e in t.entrants:
            e.id_number = ""
    _save(t, output)
    sys.stdout.write(f"wrote {output}{' (with ID numbers)' if with_id_numbers else ' (no ID numbers)'}\n")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the qiyuan app."""
    app.command("pair")(pair)
    app.command("standings")(standings)
    app.command("report")(report)
    app.add_typer(event_app, name="event")
