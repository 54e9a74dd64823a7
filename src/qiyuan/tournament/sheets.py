"""What the arbiter posts and prints (对阵表, 成绩表, 交叉表): the rows, computed once.

The command line prints them as text, the hall printouts (``qiyuan.formats.hall_pdf``)
lay them out on A4, the desk shows them.  Pure: plain rows from a ``Tournament``.

* a round's pairing list: board by board (the highest scores first), each player's
  score before the round, rating and association, who opens (先), the result; then
  the players not paired, each with why (bye, excused with points, absent, withdrawn);
* the standings after any round (``after``), with the tie-breaks, overall or in a
  prize category;
* the crosstable (wall chart) by draw number.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from qiyuan.errors import N_

from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import board_key, pairing_scores
from qiyuan.tournament.knockout import eliminated_after
from qiyuan.tournament.minimatch import is_mini
from qiyuan.tournament.model import Entrant, RoundCell, Tournament
from qiyuan.tournament.scoring import score
from qiyuan.tournament.state import withdrawn_in

#: a board's result from its two cells' codes (the first player's, the other's)
_BOARD_RESULT = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "½-½", ("W", "L"): "1-0", ("L", "W"): "0-1",
                 ("D", "D"): "½-½", ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--", (" ", " "): "",
                 ("1", "1"): "++", ("+", "+"): "++", ("0", "0"): "0-0"}

#: why a player has no game in a round
UNPAIRED = {"U": N_("bye"), "H": N_("excused, half point"), "F": N_("excused, full point"), "Z": N_("absent"),
            "out": N_("eliminated"), "withdrawn": N_("withdrawn"), "waiting": N_("through, waiting")}


def board_result(mine: str, theirs: str) -> str:
    """``1-0``, ``0-1``, ``½-½``, forfeits ``+-``, ``-+`` and the double forfeit ``--``, the arbiter's both win
    ``++`` and both lose ``0-0``; "" not yet played."""
    return _BOARD_RESULT.get((mine, theirs), f"{mine}/{theirs}")


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at a board: draw number, name, score before the round, rating, association."""

    number: int
    name: str
    score: Decimal
    rating: int | None
    association: str


@dataclass(frozen=True, slots=True)
class BoardRow:
    board: int
    opener: Seat  # 先: moves first (the first-named player when nobody has the role)
    other: Seat
    result: str  # board_result(), "" while not played
    known_opener: bool


@dataclass(frozen=True, slots=True)
class UnpairedRow:
    seat: Seat
    why: str  # a key of UNPAIRED


@dataclass(frozen=True, slots=True)
class PairingSheet:
    round: int
    boards: list[BoardRow]
    unpaired: list[UnpairedRow]


def _seat(e: Entrant, t: Tournament, rnd: int) -> Seat:
    return Seat(e.number, e.name, score(e, t.points, rnd - 1), e.rating, e.federation)


def knocked_out(t: Tournament) -> dict[int, int]:
    """In a knock-out, per player eliminated: the round he lost (淘汰, not absent after it); {} otherwise."""
    if (t.extra.get("XQM") or [""])[0].strip() != "knockout" or len(t.entrants) < 2:
        return {}
    return eliminated_after(t)


def pairing_sheet(t: Tournament, rnd: int) -> PairingSheet:
    """Round ``rnd``'s pairing list: boards by the players' scores before the round (highest
    first, then the smaller draw number; a Go event's as its pairing numbers them, by McMahon score:
    ``go_tiebreaks.board_key``), then the players without a game (by number). The one board numbering
    of the list, the slips, the results form and the QR codes."""
    by = {e.number: e for e in t.entrants}
    pairs: list[tuple[Entrant, Entrant, RoundCell]] = []
    unpaired: list[UnpairedRow] = []
    out = knocked_out(t)
    mini = is_mini(t)
    for e in t.entrants:
        if len(e.rounds) < rnd:
            if withdrawn_in(e, rnd):
                unpaired.append(UnpairedRow(_seat(e, t, rnd), "withdrawn"))
            continue
        c = e.rounds[rnd - 1]
        if c.opponent is None:
            why = ("withdrawn" if withdrawn_in(e, rnd) else "out" if out.get(e.number, rnd) < rnd
                   else "waiting" if c.result == "Z" and mini else c.result)  # mini-matches: through, others play on
            unpaired.append(UnpairedRow(_seat(e, t, rnd), why if why in UNPAIRED else "Z"))
        elif c.colour == "b" or (c.colour == "-" and e.number < c.opponent):
            pairs.append((e, by[c.opponent], c))
    seats = {e.number: _seat(e, t, rnd) for pair in pairs for e in pair[:2]}
    if go.is_go(t):  # as the McMahon pairing numbers its boards (black first in each pair)
        scores = pairing_scores(t, go.settings(t), go.players(t), rnd)
        pairs.sort(key=lambda p: board_key(scores, p[0].number, p[1].number))
    else:
        pairs.sort(key=lambda p: (-(seats[p[0].number].score + seats[p[1].number].score),
                                  min(p[0].number, p[1].number)))
    boards = [BoardRow(i, seats[a.number], seats[b.number], board_result(c.result, b.rounds[rnd - 1].result),
                       c.colour == "b") for i, (a, b, c) in enumerate(pairs, start=1)]
    return PairingSheet(rnd, boards, unpaired)


def rounds_with_cells(t: Tournament) -> int:
    return max((len(e.rounds) for e in t.entrants), default=0)


def as_of(t: Tournament, after: int) -> Tournament:
    """The tournament as it stood after round ``after``: later rounds left out, a withdrawal
    after a later round not yet made, no excuse waiting."""
    from copy import copy

    out = copy(t)
    out.entrants = []
    for e in t.entrants:
        f = copy(e)
        f.rounds = list(e.rounds[:after])
        if f.withdrawn_after is not None and f.withdrawn_after > after:
            f.withdrawn_after = None
        f.excused = {}
        out.entrants.append(f)
    return out


# -- text for the terminal ----------------------------------------------------------------------------


def text_width(s: str) -> int:
    """Columns a string takes in a terminal: CJK characters (全角) take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def pad(s: str, width: int) -> str:
    """``s`` left-aligned in ``width`` terminal columns."""
    return s + " " * max(0, width - text_width(s))


def rpad(s: str, width: int) -> str:
    """``s`` right-aligned in ``width`` display columns."""
    return " " * max(0, width - text_width(s)) + s


def plain(d: Decimal) -> str:
    """A Decimal without trailing zeros: 49.0 -> 49, 182.00 -> 182, 37.75 stays."""
    return format(d.normalize(), "f")


def round_table(t: Tournament, rnd: int, gettext: Callable[[str], str] = str) -> str:
    """The pairings of a round as the arbiter posts them: board, opener (先) and other with
    score and rating, result; then who is not paired and why — in the language of ``gettext``."""
    sheet = pairing_sheet(t, rnd)
    width = max([text_width(e.name) for e in t.entrants] + [4])

    def seat(s: Seat) -> str:
        rating = "" if s.rating is None else str(s.rating)
        return f"{s.number:>4} {pad(s.name, width)} {plain(s.score):>4} {rating:>4}"

    _ = gettext
    no, name, pts, rtg = rpad(_("No"), 4), pad(_("Name"), width), rpad(_("Pts"), 4), rpad(_("Rtg"), 4)
    lines = [_("Round {round}  (the opener moves first; Pts = score before the round, Rtg = rating)").format(round=rnd),
             f"{rpad(_('Bd'), 4)} {pad(_('opener'), width + 15)}  "
             f"{pad(_('other'), width + 15)}  {_('result')}",
             f"{'':>4} {no} {name} {pts} {rtg}  {no} {name} {pts} {rtg}"]
    for b in sheet.boards:
        lines.append(f"{b.board:>4} {seat(b.opener)}  {seat(b.other)}  {b.result}".rstrip())
    for u in sheet.unpaired:
        lines.append(f"     {seat(u.seat)}  {_(UNPAIRED[u.why])}")
    return "\n".join(lines) + "\n"


def crosstable(t: Tournament, gettext: Callable[[str], str] = str) -> str:
    """The crosstable by draw number: per round ``opponent`` + role (b opened, w not) + result — in the language
    of ``gettext``."""
    _ = gettext
    n = rounds_with_cells(t)
    width = max([text_width(e.name) for e in t.entrants] + [4])
    head = f"{rpad(_('No'), 4)} {pad(_('Name'), width)} {rpad(_('Rtg'), 4)} " + " ".join(
        rpad(_("R{round}").format(round=r), 7) for r in range(1, n + 1))
    lines = [head + " " + rpad(_("Pts"), 6)]
    out = knocked_out(t)
    for e in t.entrants:
        cells = []
        for i, c in enumerate(e.rounds, 1):
            if c.opponent is None and out.get(e.number, i) < i:
                cells.append(rpad(_("out"), 7))
            elif c.opponent is None:
                cells.append(f"{c.result:>7}")
            else:
                cells.append(f"{str(c.opponent) + c.colour + c.result.strip():>7}")
        cells += [" " * 7] * (n - len(e.rounds))
        mark = _("  (withdrawn after round {round})").format(round=e.withdrawn_after) \
            if e.withdrawn_after is not None else ""
        rating = "" if e.rating is None else str(e.rating)
        lines.append(f"{e.number:>4} {pad(e.name, width)} {rating:>4} " + " ".join(cells)
                     + f" {plain(score(e, t.points)):>6}{mark}")
    return "\n".join(lines) + "\n"
