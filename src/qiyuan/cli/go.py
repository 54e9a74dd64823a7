"""Go commands of the tournament desk (``qiyuan event …``): OpenGotha in and out, EGD ``.h9``, Go settings and grades.

``qiyuan event import-opengotha FILE.xml -o EVENT`` makes an event file of an OpenGotha
file (continue it with ``qiyuan event pair``); ``qiyuan event export-h9 EVENT -o FILE.h9``
(EVENT an event file or an OpenGotha file, read directly); ``qiyuan event export-opengotha``;
``qiyuan event go-settings`` (komi, rule set, McMahon bar/floor, handicap, placement criteria,
time control); ``qiyuan event go-player`` (grade, rank, country, EGF PIN; a rank above the
grade needs ``--confirm``). ``qiyuan standings`` reads a Go event or an OpenGotha file with
the event's Go criteria (``print_go_standings``). Thin: every change is a use case of
``qiyuan.tournament.go_arbiter``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from qiyuan.cli.lang import CHINESE, _, language
from qiyuan.cli.event_file import _actor, _notes, _notes_text, _store, event_app, refusals, say

if TYPE_CHECKING:
    from qiyuan.tournament.model import Tournament


def is_opengotha(path: Path) -> bool:
    """Does the file look like OpenGotha's XML (not a TRF-16 file)?"""
    try:
        with open(path, "rb") as f:
            head = f.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"<?xml") or head.startswith(b"<Tournament")


def load_event(path: Path) -> Tournament:
    """An event file, or an OpenGotha or EGD (``.h9``) file read as an event (problems raised as ``InputError``)."""
    from qiyuan.errors import InputError, problem
    from qiyuan.formats.h9 import read_h9
    from qiyuan.formats.opengotha import gotha_event, read_opengotha

    if is_opengotha(path):
        return gotha_event(read_opengotha(path), str(path))
    if path.suffix.lower() == ".h9":
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError([problem("cannot read the file: {why}", file=str(path), why=str(exc))]) from exc
        return read_h9(data, str(path))
    store = _store(path)
    t = store.read()
    _notes(store)
    return t


def _say(notes) -> None:
    sys.stderr.write("".join(_("warning: {text}").format(text=say(n)) + "\n" for n in notes))


@event_app.command("import-opengotha")
@refusals
def import_opengotha(
    source: Path = typer.Argument(..., help="the OpenGotha tournament file (.xml)"),
    output: Path = typer.Option(..., "-o", "--output", help="the event file (TRF-16 with qiyuan's Go lines) to create"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing file"),
) -> None:
    """Make an event file of an OpenGotha file: players, games, handicaps, Go settings; pair on from it."""
    from qiyuan.formats.opengotha import gotha_event, read_opengotha
    from qiyuan.tournament.go_arbiter import start_from_opengotha

    g = read_opengotha(source)
    t = gotha_event(g, str(source))
    start_from_opengotha(_store(output, overwrite=force), _actor(), t)
    sys.stderr.write(_notes_text(g.notes))
    sys.stdout.write(_("created {file}: {name}, {players} players, {rounds} rounds played").format(
        file=output, name=t.name, players=len(t.entrants), rounds=t.rounds_played) + "\n")


@event_app.command("export-h9")
@refusals
def export_h9(
    event: Path = typer.Argument(..., help="a Go event file, or an OpenGotha file (read directly)"),
    output: Path = typer.Option(..., "-o", "--output", help="the .h9 file to write (ISO-8859-1)"),
    pins: bool = typer.Option(False, "--pins", help="add |PIN to the rows of players with an EGF PIN"),
    country: str | None = typer.Option(None, help="the event's country code for PC[] (default: the file's 032)"),
    registry: bool = typer.Option(False, "--registry", help="names of entrants matched to the registry (their "
                                                             "federation ID) in the registry's Latin spelling"),
    title: str = typer.Option("", "--title", help="the event's Latin title for EV[] (default: its name, in pinyin "
                                                  "a syllable a word when written in Chinese)"),
) -> None:
    """EGD results (.h9) as OpenGotha writes them: header, one row a player in the order of the event's
    placement criteria (tied players' places blank), every round's cell (? for a board without result).
    Chinese names in pinyin, surname first (or, with --registry, the registry's Latin name)."""
    from qiyuan.formats.eventstore import write_atomically
    from qiyuan.formats.h9 import write_h9

    t = load_event(event)
    data = write_h9(t, pins=pins, country=country, latin=registry_latin_names(t) if registry else None, title=title)
    write_atomically(output, data, label=str(output))
    sys.stdout.write(_("wrote {file}").format(file=output) + "\n")


def registry_latin_names(t: Tournament) -> dict[int, str]:
    """Draw number -> the registry's Latin name, for entrants whose ID column holds a federation ID."""
    from qiyuan.cli.office import ensure_django

    ensure_django()
    from qiyuan.office.federation.models import Player

    ids = {e.player_id.strip(): e.number for e in t.entrants if e.player_id.strip()}
    found = Player.objects.filter(federation_id__in=list(ids)).values_list("federation_id", "name_latin")
    return {ids[fid]: latin for fid, latin in found if latin}


def registry_grade(federation_id: str) -> str | None:
    """The registry's grade (段级位) of a player, by federation ID; None if unknown or ungraded."""
    if not federation_id:
        return None
    from qiyuan.cli.office import ensure_django

    ensure_django()
    from qiyuan.office.federation.models import Player

    dan = Player.objects.filter(federation_id=federation_id).values_list("dan", flat=True).first()
    return dan or None


@event_app.command("export-opengotha")
@refusals
def export_opengotha(
    event: Path = typer.Argument(..., help="a Go event file"),
    output: Path = typer.Option(..., "-o", "--output", help="the OpenGotha .xml file to write"),
) -> None:
    """The event as an OpenGotha file (players, games with handicaps, parameters)."""
    from qiyuan.formats.eventstore import write_atomically
    from qiyuan.formats.opengotha import write_opengotha

    write_atomically(output, write_opengotha(load_event(event)).encode("utf-8"), label=str(output))
    sys.stdout.write(_("wrote {file}").format(file=output) + "\n")


@event_app.command("go-settings")
@refusals
def go_settings(
    event: Path = typer.Argument(...),
    komi: str | None = typer.Option(None, help="komi, e.g. 7.5"),
    rules: str | None = typer.Option(None, help="chinese (area scoring) or japanese (territory scoring)"),
    bar: str | None = typer.Option(None, help="McMahon bar, e.g. 4d"),
    floor: str | None = typer.Option(None, help="McMahon floor, e.g. 20k"),
    zero: str | None = typer.Option(None, help="the grade scoring 0 (default 30k)"),
    handicap: str | None = typer.Option(None, help="handicap from the mms or the rank difference"),
    correction: int | None = typer.Option(None, help="stones taken off the difference (default 1)"),
    ceiling: int | None = typer.Option(None, help="most stones (0: no handicap games)"),
    no_handicap_from: str | None = typer.Option(None, help="players at or above this grade count as it (e.g. 1d)"),
    criteria: str | None = typer.Option(None, help="placement criteria in order: MMS,SOS,SOSOS (also NBW, "
                                                   "SODOS, CUSS, DC; W forms SOSW…)"),
    time: str | None = typer.Option(None, help="'60 byoyomi 30', '40 canadian 300 15', '45 fischer 15', '90 sd'"),
) -> None:
    """Set the Go event's settings (the desk's card does the same); a change after round 1 is warned and recorded."""
    from qiyuan.tournament.go_arbiter import set_go_settings

    store = _store(event)
    out = set_go_settings(store, _actor(), komi=komi, rules=rules, bar=bar, floor=floor, zero=zero,
                          handicap=handicap, correction=correction, ceiling=ceiling,
                          no_handicap_from=no_handicap_from, criteria=criteria, time=time)
    _notes(store)
    _say(out.notes)
    sys.stdout.write(_("settings of {file} updated").format(file=event) + "\n")


@event_app.command("go-player")
@refusals
def go_player(
    event: Path = typer.Argument(...),
    number: int = typer.Argument(..., help="draw number"),
    grade: str | None = typer.Option(None, help="official grade (registry / rating list): 3d, 18k, or in words"),
    rank: str | None = typer.Option(None, help="the rank he plays at, if not his grade"),
    country: str | None = typer.Option(None, help="two-letter country code (EGD)"),
    pin: str | None = typer.Option(None, help="EGF PIN (8 digits)"),
    confirm: bool = typer.Option(False, "--confirm", help="the director confirms a rank above the grade"),
    from_registry: bool = typer.Option(False, "--from-registry", help="the official grade from the registry "
                                                                       "(the player's federation ID)"),
) -> None:
    """A player's Go grade and rank; a rank claimed above the official grade needs --confirm."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament.go_arbiter import set_go_player

    store = _store(event)
    if from_registry:
        t = store.read()
        fid = t.entrants[number - 1].player_id.strip() if 1 <= number <= len(t.entrants) else ""
        grade = registry_grade(fid)
        if grade is None:
            raise InputError(problem("player {number}: no registry grade (federation ID {fid!r})", number=number,
                                     fid=fid))
    out = set_go_player(store, _actor(), number, grade=grade, rank=rank, country=country, pin=pin, confirm=confirm)
    _notes(store)
    _say(out.notes)
    sys.stdout.write(_("player {number} of {file} updated").format(number=number, file=event) + "\n")


def _sheet_language() -> str:
    """The Go sheets' language code for the run's language."""
    return "zh" if language() == CHINESE else "en"


def _translator(lang: str):
    """``gettext`` of the project's catalogue for ``zh`` (the compiled ``.mo``), None for English."""
    if lang == "en":
        return None
    import gettext

    from qiyuan.locale.catalogue import LOCALE

    return gettext.translation("django", localedir=str(LOCALE), languages=["zh_Hans"], fallback=True).gettext


@event_app.command("go-pair")
@refusals
def go_pair(
    event: Path = typer.Argument(...),
    explain: bool = typer.Option(False, "--explain", help="why each board, each float, each handicap"),
    lang: str | None = typer.Option(None, "--lang", help="en or zh: the language of the sheet and the explanation "
                                                         "(default: the terminal's)"),
) -> None:
    """Pair the next round of a Go event (as ``event pair``) and print it in Go's words (black, white, handicap
    stones, komi)."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament import arbiter as uc
    from qiyuan.tournament.go_sheets import go_round_table

    lang = lang or _sheet_language()
    if lang not in ("en", "zh"):
        raise InputError(problem("--lang is en or zh, found {lang!r}", lang=lang))
    store = _store(event)
    pairing = uc.pair(store, _actor(), explain=explain)
    _notes(store)
    translate = _translator(lang)
    sys.stdout.write(go_round_table(store.read(), pairing.number, lang))
    if explain:
        sys.stdout.write("".join(f"  {line.text(translate) if hasattr(line, 'text') else line}\n"
                                 for line in pairing.explanation))


@event_app.command("go-round")
@refusals
def go_round(
    event: Path = typer.Argument(..., help="a Go event file, or an OpenGotha file"),
    rnd: int = typer.Argument(..., metavar="ROUND"),
    lang: str | None = typer.Option(None, "--lang", help="en or zh (default: the terminal's)"),
) -> None:
    """A round's pairing list in Go's words: black, white, handicap stones, komi."""
    from qiyuan.errors import InputError, problem
    from qiyuan.tournament.go_sheets import go_round_table

    t = load_event(event)
    lang = lang or _sheet_language()
    if lang not in ("en", "zh") or not 1 <= rnd <= t.rounds_played:
        raise InputError(problem("--lang en or zh, and a round 1..{last}", last=t.rounds_played))
    sys.stdout.write(go_round_table(t, rnd, lang))


def print_go_standings(t: Tournament, as_csv: bool, after: int | None = None) -> None:
    """Place, number, name, rank, then the event's placement criteria (halves shown as .5)."""
    from qiyuan.tournament import go
    from qiyuan.tournament.go_tiebreaks import CRITERIA, criterion, shown, standings
    from qiyuan.tournament.sheets import pad, plain, rpad, text_width

    s, ps = go.settings(t), go.players(t)
    crit = [c for c in (criterion(x) for x in s.criteria) if c]
    rows = standings(t, s, ps, upto=after)

    def rank(n: int) -> str:
        r = ps[n].rank
        return "" if r is None else go.grade_words(r, _sheet_language())

    head = ["place", "number", "name", "rank", *crit]
    if as_csv:
        import csv

        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(head)
        for r in rows:
            w.writerow([r.place, r.number, r.name, rank(r.number), *(plain(shown(r.values[c], c)) for c in crit)])
        return
    width = max([text_width(r.name) for r in rows] + [4])
    chinese = language() == CHINESE
    names = {c: CRITERIA[c][0] if chinese else c for c in crit}
    out = [_("Go standings: {criteria}").format(criteria=_(", ").join(
               names[c] if chinese else f"{c} ({CRITERIA[c][1]})" for c in crit)),
           f"{rpad(_('Pl'), 4)} {rpad(_('No'), 5)} {pad(_('Name'), width)} {rpad(_('Rank'), 7)} "
           + " ".join(rpad(names[c], 7) for c in crit)]
    for r in rows:
        out.append(f"{r.place:>4} {r.number:>5} {pad(r.name, width)} {rpad(rank(r.number), 7)} "
                   + " ".join(f"{plain(shown(r.values[c], c)):>7}" for c in crit))
    sys.stdout.write("\n".join(out) + "\n")


def register(app: typer.Typer) -> None:
    """The commands register themselves on ``event_app`` (imported above)."""


def is_go_event(path: Path) -> bool:
    """Is the file a Go event file (``XQM go_mcmahon`` / ``go_swiss``)? False if unreadable (the caller says why)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return any(line.startswith("XQM go_") for line in f)
    except OSError:
        return False
