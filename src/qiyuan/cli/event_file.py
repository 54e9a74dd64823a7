"""The ``event`` command group's plumbing, shared by the tournament desk (``cli/tournament.py``) and Go's commands
(``cli/go.py``): the group itself, reading and storing the event's TRF file (notes on its encoding to stderr),
the arbiter's refusals as lines on stderr with exit 2, and who runs the command."""

from __future__ import annotations

import functools
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from qiyuan.cli.lang import N_, _, problem_line

if TYPE_CHECKING:
    from qiyuan.tournament.model import Tournament

EVENT_HELP = N_("""\
Run an event from its TRF file, round by round.

Commands, in the order of an event: new, add-player or add-players (a
CSV/xlsx entry list, or --registry IDS), draw (--seed N or
--order 5,2,1,… or --by-rating), then per round: pair, result ("12 1-0" from
player 12's side; "12 " clears it), show; at any time: standings [--after N]
[--category U12], crosstable, bracket (knock-out), print (PDF for the hall),
withdraw, reinstate, excuse (any future round or a range), set-pairing,
override (swap two players), undo, keep-apart, categories, tie (a final
tie decided by play-off or lot), lot (a knock-out's tie-break openers), finish, reopen,
export.  Commands that change the file lock it (queued, never lost) and
write it atomically.  Guide: docs/tournament.md.

Decisions the rules leave open:
 • win 2, draw 1, loss 0; the pairing bye (TRF U) scores 2 and
   counts 0 in the tie-breaks;
 • an absent player (excuse) scores 0 that round (Z) and is not a bye;
   --points half / full grant 1 / 2;
 • a withdrawn player is not paired again; a late entry is Z in the
   rounds already paired, and none is taken once the last round is paired;
 • a game lost by forfeit is a meeting: never paired again; never rated;
 • draw numbers by lot use a seed written into the file (XQD line);
 • who floats: most rounds paired up, then fewest paired down, then the larger draw number;
 • a hand-made pairing (set-pairing, override) must keep the hard rules:
   everyone present paired once, no repeat meeting, no second bye;
 • keep-apart (off by default): same association / club / family not paired
   in the first K rounds, relaxed for a round only when no pairing exists;
 • knock-out: seeded by rating, top seeds get the byes, the upper place
   opens; a drawn match needs a play-off: enter its winner as a win;
   with --mini-matches: 2 games (openers alternate), at 1:1 a tie-break
   game whose opener is drawn by lot (event lot), which must be won;
 • round robin: Berger tables, the player listed first opens; in an odd
   field one player sits out each round (Z); the rounds follow the cycle;
 • match (--format match --rounds N): 2 players, N games, player 1 opens
   the odd games; team (--format team --boards K, add-player --team T):
   teams meet by Berger tables, board k against board k, the home team
   opens the odd boards; team match won by more board points (2/1/0).""")

event_app = typer.Typer(help=EVENT_HELP, no_args_is_help=True, rich_markup_mode=None)


# -- plumbing -------------------------------------------------------------------------------


def _fail(message: str) -> typer.Exit:
    sys.stderr.write(message.rstrip("\n") + "\n")
    return typer.Exit(2)


def _refusal(exc) -> typer.Exit:
    """Every problem of a refusal on stderr (``error: …``), exit 2."""
    lines = [problem_line(p) for p in exc.problems] or [_("refused: nothing changed")]
    return _fail(_("error: ") + "\n       ".join(lines))


def refusals(command):
    """Run a command; a ``QiyuanError`` from it becomes its problems on stderr and exit 2."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        from qiyuan.errors import QiyuanError

        try:
            return command(*args, **kwargs)
        except QiyuanError as exc:
            raise _refusal(exc) from None

    return run


def say(item) -> str:
    """A note or an explanation line in the run's language (a ``Problem``, a ``Line`` or an English id)."""
    from qiyuan.errors import Problem

    if isinstance(item, Problem):
        return problem_line(item)
    text = getattr(item, "text", None)
    return text(_) if callable(text) else _(str(item))


def _notes_text(notes) -> str:
    return "".join(_("note: {text}").format(text=say(n)) + "\n" for n in notes)


def _actor() -> str:
    """Who runs the command (the audit's actor on the desk; unused by the file)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def _store(path: Path, **kw):
    from qiyuan.formats.eventstore import TrfFileStore

    return TrfFileStore(path, **kw)


def _notes(store) -> None:
    sys.stderr.write(_notes_text(store.notes))


def _load(path: Path, *, players: bool = False) -> Tournament:
    """Read the event file (notes on its encoding go to stderr); ``players``: refuse a
    file without any ``001`` player line (nothing to pair, rank or report)."""
    from qiyuan.errors import InputError, Problem

    store = _store(path)
    t = store.read()
    _notes(store)
    if players and not t.entrants:
        raise InputError(Problem(str(path), None, None,
                                 "no player lines (001): not a TRF-16 event file, or no player entered yet"))
    return t


def _run(path: Path, use_case, *args, **kwargs):
    """Call a use case on the event file's store; encoding notes go to stderr."""
    store = _store(path)
    try:
        return use_case(store, _actor(), *args, **kwargs)
    finally:
        _notes(store)
