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
from qiyuan.tournament.teams import team_of

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


def _seat(e: Entrant, t: Tournament, rnd: int, names: dict[int, str] | None = None) -> Seat:
    """A player at a board; ``names``: the sheet's names (``shown_names``: players of the same name told apart)."""
    return Seat(e.number, (names or {}).get(e.number, e.name), score(e, t.points, rnd - 1), e.rating, e.federation)


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
    names = shown_names(t)
    pairs: list[tuple[Entrant, Entrant, RoundCell]] = []
    unpaired: list[UnpairedRow] = []
    out = knocked_out(t)
    mini = is_mini(t)
    for e in t.entrants:
        if len(e.rounds) < rnd:
            if withdrawn_in(e, rnd):
                unpaired.append(UnpairedRow(_seat(e, t, rnd, names), "withdrawn"))
            continue
        c = e.rounds[rnd - 1]
        if c.opponent is None:
            why = ("withdrawn" if withdrawn_in(e, rnd) else "out" if out.get(e.number, rnd) < rnd
                   else "waiting" if c.result == "Z" and mini else c.result)  # mini-matches: through, others play on
            unpaired.append(UnpairedRow(_seat(e, t, rnd, names), why if why in UNPAIRED else "Z"))
        elif c.colour == "b" or (c.colour == "-" and e.number < c.opponent):
            pairs.append((e, by[c.opponent], c))
    seats = {e.number: _seat(e, t, rnd, names) for pair in pairs for e in pair[:2]}
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


@dataclass(frozen=True, slots=True)
class TeamMatchRows:
    """One team match of a round: the home team (it opens the odd boards), the away team, their boards in
    board order (board 1 first)."""

    home: str
    away: str
    boards: list[BoardRow]


def team_match_rows(t: Tournament, sheet: PairingSheet) -> list[TeamMatchRows]:
    """A team event's pairing sheet grouped by match (北京队 – 上海队), each match's boards in board order;
    [] when the event has no teams."""
    of = team_of(t)
    if not of:
        return []
    groups: dict[tuple[int, int], list[tuple[int, BoardRow]]] = {}
    for b in sheet.boards:
        x, y = of.get(b.opener.number), of.get(b.other.number)
        if x is None or y is None:
            continue
        key = (min(x.number, y.number), max(x.number, y.number))
        groups.setdefault(key, []).append((x.members.index(b.opener.number), b))
    out = []
    for rows in groups.values():
        rows.sort(key=lambda kb: kb[0])
        first = rows[0][1]  # board 1: the home team's player opens it
        home, away = of[first.opener.number], of[first.other.number]
        out.append(TeamMatchRows(home.name, away.name, [b for _k, b in rows]))
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
    width = max([text_width(s.name) for b in sheet.boards for s in (b.opener, b.other)]
                + [text_width(u.seat.name) for u in sheet.unpaired] + [4])

    def seat(s: Seat) -> str:
        rating = "" if s.rating is None else str(s.rating)
        return f"{s.number:>4} {pad(s.name, width)} {plain(s.score):>4} {rating:>4}"

    _ = gettext
    no, name, pts, rtg = rpad(_("No"), 4), pad(_("Name"), width), rpad(_("Pts"), 4), rpad(_("Rtg"), 4)
    lines = [_("Round {round}  (the opener moves first; Pts = score before the round, Rtg = rating)").format(round=rnd),
             f"{rpad(_('Bd'), 4)} {pad(_('opener'), width + 15)}  "
             f"{pad(_('other'), width + 15)}  {_('result')}",
             f"{'':>4} {no} {name} {pts} {rtg}  {no} {name} {pts} {rtg}"]
    matches = team_match_rows(t, sheet)  # a team event: its boards under each match's heading, 北京队 – 上海队
    for m in matches:
        lines.append(f"{m.home} – {m.away}")
        lines += [f"{k:>4} {seat(b.opener)}  {seat(b.other)}  {b.result}".rstrip() for k, b in enumerate(m.boards, 1)]
    for b in sheet.boards if not matches else []:
        lines.append(f"{b.board:>4} {seat(b.opener)}  {seat(b.other)}  {b.result}".rstrip())
    for u in sheet.unpaired:
        lines.append(f"     {seat(u.seat)}  {_(UNPAIRED[u.why])}")
    return "\n".join(lines) + "\n"


#: the widest a terminal sheet is by default (an 80-column terminal); ``--wide`` lifts it
TERMINAL_WIDTH = 80
#: the widest a name column grows before a long name wraps onto the next line
NAME_WIDTH = 16
#: a withdrawn player's short mark beside his name, and the footnote that says when each withdrew
WITHDRAWN_MARK = N_("(wd)")
WITHDRAWN_NOTE = N_("{mark} withdrew: {players}")
WITHDRAWN_PLAYER = N_("{number} {name} after round {round}")


def shown_names(t: Tournament) -> dict[int, str]:
    """Each entrant's name as the sheets print it: players of the same name told apart — by association when
    theirs differ (王伟（北京）, 王伟（上海）), else by birth year, else by draw number (王伟（7号）)."""
    by_name: dict[str, list[Entrant]] = {}
    for e in t.entrants:
        by_name.setdefault(e.name, []).append(e)
    out = {e.number: e.name for e in t.entrants}
    for name, same in by_name.items():
        if len(same) < 2:
            continue
        for key in (lambda e: e.federation, lambda e: e.birth[:4]):
            tags = [key(e) for e in same]
            if all(tags) and len(set(tags)) == len(tags):
                out.update({e.number: f"{name}（{tag}）" for e, tag in zip(same, tags, strict=True)})
                break
        else:
            out.update({e.number: f"{name}（{e.number}号）" for e in same})
    return out


def wrap(text: str, width: int) -> list[str]:
    """``text`` cut into pieces of at most ``width`` terminal columns (a CJK character takes two), after a space or
    comma when one is in the second half of a piece (``Mikhaletz,`` / ``Lubomir``)."""
    pieces = []
    while text_width(text) > width:
        cut = 0
        while cut < len(text) and text_width(text[:cut + 1]) <= width:
            cut += 1
        cut = max(cut, 1)
        soft = max(text.rfind(" ", 0, cut), text.rfind(",", 0, cut) + 1 if text.rfind(",", 0, cut) >= 0 else -1)
        if soft > cut // 2:
            cut = soft
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return pieces + [text]


def withdrawn_note(t: Tournament, names: dict[int, str], gettext: Callable[[str], str] = str, *,
                   wide: bool = False) -> list[str]:
    """The footnote of a sheet whose withdrawn players carry the short mark: who withdrew after which round (in
    lines of 80 columns unless ``wide``)."""
    gone = [e for e in t.entrants if e.withdrawn_after is not None]
    if not gone:
        return []
    players = gettext(", ").join(gettext(WITHDRAWN_PLAYER).format(number=e.number, name=names[e.number],
                                                                  round=e.withdrawn_after) for e in gone)
    note = gettext(WITHDRAWN_NOTE).format(mark=gettext(WITHDRAWN_MARK), players=players)
    return [note] if wide else wrap(note, TERMINAL_WIDTH)


def crosstable(t: Tournament, gettext: Callable[[str], str] = str, *, wide: bool = False) -> str:
    """The crosstable by draw number: per round ``opponent`` + role (b opened, w not) + result — in the language
    of ``gettext``.  It fits an 80-column terminal: the rounds that do not fit beside the names follow in a
    second block (each with the numbers and names again), a long name wraps, a withdrawn player carries a short
    mark explained below; ``wide``: one block, whatever its width."""
    _ = gettext
    n = rounds_with_cells(t)
    names = shown_names(t)
    mark = _(WITHDRAWN_MARK)
    label = {e.number: names[e.number] + (" " + mark if e.withdrawn_after is not None else "") for e in t.entrants}
    width = max([text_width(x) for x in label.values()] + [text_width(_("Name")), 4])
    if not wide:
        width = min(width, NAME_WIDTH)
    digits = len(str(len(t.entrants)))
    cw = max([digits + 2, 4] + [text_width(_("R{round}").format(round=r)) for r in range(1, n + 1)])
    out = knocked_out(t)

    def cell(e: Entrant, i: int) -> str:
        if i > len(e.rounds):
            return " " * cw
        c = e.rounds[i - 1]
        if c.opponent is None and out.get(e.number, i) < i:
            return rpad(_("out"), cw)
        if c.opponent is None:
            return rpad(c.result, cw)
        return rpad(str(c.opponent) + c.colour + c.result.strip(), cw)

    lead = 4 + 1 + width + 1 + 4  # No, name, rating
    per_block = n if wide else max(1, (TERMINAL_WIDTH - lead - 7) // (cw + 1))
    blocks = [list(range(k, min(n, k + per_block - 1) + 1)) for k in range(1, n + 1, per_block)] or [[]]
    lines: list[str] = []
    for b, rounds in enumerate(blocks):
        last = b == len(blocks) - 1
        if b:
            lines.append("")
        lines.append(f"{rpad(_('No'), 4)} {pad(_('Name'), width)} {rpad(_('Rtg'), 4)}"
                     + "".join(" " + rpad(_("R{round}").format(round=r), cw) for r in rounds)
                     + (" " + rpad(_("Pts"), 6) if last else ""))
        for e in t.entrants:
            rating = "" if e.rating is None else str(e.rating)
            first, *rest = wrap(label[e.number], width) if not wide else [label[e.number]]
            lines.append((f"{e.number:>4} {pad(first, width)} {rating:>4}" + "".join(" " + cell(e, i) for i in rounds)
                          + (f" {plain(score(e, t.points)):>6}" if last else "")).rstrip())
            lines += [f"{'':>4} {piece}" for piece in rest]
    return "\n".join(lines + withdrawn_note(t, names, _, wide=wide)) + "\n"


#: a game's result from one side in a round robin's grid
GRID_RESULT = {"1": "1", "0": "0", "=": "½", "W": "1", "L": "0", "D": "½", "+": "+", "-": "-"}


def round_robin_grid(t: Tournament, gettext: Callable[[str], str] = str, *, wide: bool = False) -> str:
    """A round robin's square crosstable (循环赛成绩表): a row per player, a column per opponent (by number), each
    cell his result against that opponent (both games of a double round robin), ``x`` on the diagonal; then the
    score.  Columns that do not fit 80 terminal columns follow in further blocks (``wide``: one block)."""
    _ = gettext
    names = shown_names(t)
    numbers = [e.number for e in t.entrants]
    met: dict[tuple[int, int], str] = {}
    for e in t.entrants:
        for c in e.rounds:
            if c.opponent is not None and c.result.strip():
                met[(e.number, c.opponent)] = met.get((e.number, c.opponent), "") + GRID_RESULT.get(c.result, "?")
    cw = max([len(str(n)) for n in numbers] + [len(v) for v in met.values()] + [1])
    width = max([text_width(x) for x in names.values()] + [text_width(_("Name")), 4])
    if not wide:
        width = min(width, NAME_WIDTH)
    lead = 4 + 1 + width
    per_block = len(numbers) if wide else max(1, (TERMINAL_WIDTH - lead - 7) // (cw + 1))
    blocks = [numbers[k:k + per_block] for k in range(0, len(numbers), per_block)] or [[]]
    lines: list[str] = []
    for b, columns in enumerate(blocks):
        last = b == len(blocks) - 1
        if b:
            lines.append("")
        lines.append(f"{rpad(_('No'), 4)} {pad(_('Name'), width)}" + "".join(" " + rpad(str(m), cw) for m in columns)
                     + (" " + rpad(_("Pts"), 6) if last else ""))
        for e in t.entrants:
            first, *rest = wrap(names[e.number], width) if not wide else [names[e.number]]
            cells = "".join(" " + rpad("x" if m == e.number else met.get((e.number, m), ""), cw) for m in columns)
            lines.append((f"{e.number:>4} {pad(first, width)}{cells}"
                          + (f" {plain(score(e, t.points)):>6}" if last else "")).rstrip())
            lines += [f"{'':>4} {piece}" for piece in rest]
    return "\n".join(lines) + "\n"
