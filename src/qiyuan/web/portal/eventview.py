"""What an event page shows (比赛页面), built from the tournament's plain data:
players, pairings and results per round, the crosstable, standings with the
tie-breaks. The same for an event running at the desk (its TRF) and for an
imported event (its stored entries and games). Never the ID numbers.

A Go event (an event of a Go list, e.g. from OpenGotha) is shown the Go way:
1 point a win, the places as reported, no Gomoku tie-breaks (辅分一…七).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from qiyuan.tournament.eventfile import score, system_of
from qiyuan.tournament.go import is_go
from qiyuan.tournament.go import players as go_players
from qiyuan.tournament.go import settings as go_settings
from qiyuan.tournament.go_tiebreaks import criterion, shown
from qiyuan.tournament.go_tiebreaks import standings as go_standings
from qiyuan.tournament.model import Entrant, PointSystem, RoundCell, Tournament
from qiyuan.tournament.sheets import knocked_out, pairing_sheet
from qiyuan.tournament.state import withdrawn_in

RESULT_TEXT = {"1": "1-0", "0": "0-1", "=": "½-½", "W": "1-0", "L": "0-1", "D": "½-½", "+": "+ / −", "-": "− / +",
               " ": ""}
CELL_TEXT = {"1": "1", "0": "0", "=": "½", "W": "1", "L": "0", "D": "½", "+": "+", "-": "−", " ": "·"}
ABSENCE_TEXT = {"U": _("轮空"), "H": _("请假（半分）"), "F": _("请假（全分）"), "Z": _("缺席")}
#: a player without a game in a round after his withdrawal: not absent (缺席) but withdrawn
WITHDREW_TEXT = pgettext_lazy("round", "退赛")
#: a knock-out player after the match he lost: eliminated, not absent
OUT_TEXT = _("淘汰")


@dataclass
class Board:
    number: int
    opener: Entrant  # the first-named player when the opener is not known
    other: Entrant
    result: str  # the opener's TRF result code
    text: str
    known_opener: bool = True


@dataclass
class RoundView:
    number: int
    boards: list[Board] = field(default_factory=list)
    absent: list[tuple[Entrant, str]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return all(b.result != " " for b in self.boards)

    @property
    def openers_known(self) -> bool:
        """Whether the file says who opened (an imported report may not)."""
        return all(b.known_opener for b in self.boards)


@dataclass
class CrossRow:
    entrant: Entrant
    cells: list[str]
    score: Decimal
    withdrawn: bool
    #: the rating column: as entered, or (a rated event's page) the rating its calculation started from (Ro)
    rating_shown: object = None


@dataclass
class EventView:
    t: Tournament
    rounds: list[RoundView]
    cross: list[CrossRow]
    standings: list | None
    tiebreak_names: list[str]
    live_event: object | None = None
    staff: bool = False
    score_label: object = _("积分")
    go: bool = False
    rating_label: object = _("参赛等级分")
    #: a Go event file (its own settings): standings by its placement criteria, each named
    go_event: bool = False
    #: the crosstable's score column, when it is not the standings' first column (a Go event's wins)
    cross_label: object = None

    @property
    def go_words(self) -> bool:
        """Go's words: 黑方/白方 (black moves first), not Gomoku's 先手（假先）/后手."""
        return self.go or self.go_event

    @property
    def standing_rows(self) -> list[tuple]:
        """Each standings row with its entrant (for the link to the player page)."""
        by = {e.number: e for e in self.t.entrants}
        return [(r, by.get(r.number)) for r in self.standings or []]


#: a Go event's placement criteria by name (``go_tiebreaks.CRITERIA``)
GO_CRITERIA_NAMES = {"MMS": _("麦克马洪分"), "NBW": _("胜局数"), "SOSM": _("对手分"), "SOSW": _("对手胜局分"),
                     "SOSOSM": _("对手的对手分"), "SOSOSW": _("对手的对手胜局分"), "SODOSM": _("胜局对手分"),
                     "SODOSW": _("胜局对手胜局分"), "CUSSM": _("累进分"), "CUSSW": _("累进胜局分"), "DC": _("直胜")}
TIEBREAK_NAMES = [_("辅分一"), _("辅分二"), _("辅分三"), _("辅分四"), _("辅分五"), _("辅分六"), _("辅分七")]
#: a round robin's tie-breaks (``qiyuan.tournament.standings.ROUND_ROBIN_TIEBREAKS``)
ROUND_ROBIN_NAMES = [_("直胜"), _("胜局"), _("索分")]


def _rounds(t: Tournament) -> list[RoundView]:
    by = {e.number: e for e in t.entrants}
    n = max((len(e.rounds) for e in t.entrants), default=0)
    out = knocked_out(t)
    views = []
    for rnd in range(1, n + 1):
        rv = RoundView(rnd)
        pairs = []
        for e in t.entrants:
            if len(e.rounds) < rnd:
                if withdrawn_in(e, rnd):
                    rv.absent.append((e, WITHDREW_TEXT))
                continue
            c: RoundCell = e.rounds[rnd - 1]
            if c.opponent is None:
                rv.absent.append((e, WITHDREW_TEXT if withdrawn_in(e, rnd) else OUT_TEXT if out.get(e.number, rnd) < rnd
                                  else ABSENCE_TEXT.get(c.result, c.result)))
            elif c.colour == "b" or (c.colour == "-" and e.number < c.opponent):
                pairs.append((e, by[c.opponent], c.result))
        if is_go(t):  # the pairing list's numbering (``sheets.pairing_sheet``): by McMahon score
            number = {(b.opener.number, b.other.number): b.board for b in pairing_sheet(t, rnd).boards}
            pairs.sort(key=lambda p: number[(p[0].number, p[1].number)])
        else:
            pairs.sort(key=lambda p: (-(score(p[0], t.points, rnd - 1) + score(p[1], t.points, rnd - 1)),
                                      min(p[0].number, p[1].number)))
        rv.boards = [Board(i, a, b, r, RESULT_TEXT.get(r, r), a.rounds[rnd - 1].colour == "b")
                     for i, (a, b, r) in enumerate(pairs, 1)]
        views.append(rv)
    return views


def _cross(t: Tournament) -> list[CrossRow]:
    n = max((len(e.rounds) for e in t.entrants), default=0)
    rows = []
    out = knocked_out(t)
    for e in t.entrants:
        cells = []
        for i, c in enumerate(e.rounds, 1):
            if c.opponent is None and out.get(e.number, i) < i:
                cells.append(str(OUT_TEXT))
            elif c.opponent is None:
                # A pairing bye is written out: a bare "+" would read as a forfeit win.
                cells.append({"U": str(_("轮空")), "H": "½", "F": "1", "Z": "–"}.get(c.result, c.result))
            else:
                role = "b" if c.colour == "b" else ("w" if c.colour == "w" else "")
                cells.append(f"{c.opponent}{role} {CELL_TEXT.get(c.result, c.result)}")
        cells += [""] * (n - len(e.rounds))
        rows.append(CrossRow(e, cells, score(e, t.points), e.withdrawn_after is not None, e.rating))
    return rows


def _standings(t: Tournament):
    if not t.entrants or not any(e.rounds for e in t.entrants):
        return None
    from qiyuan.tournament.standings import standings

    return standings(t)


#: Go (围棋): a win is one point (胜局数); a pairing bye counts as a win, as in OpenGotha.
GO_POINTS = PointSystem(win=Decimal(1), draw=Decimal("0.5"), loss=Decimal(0), forfeit_win=Decimal(1),
                        forfeit_loss=Decimal(0), pairing_bye=Decimal(1), half_bye=Decimal("0.5"),
                        full_bye=Decimal(1), zero_bye=Decimal(0))


@dataclass
class GoRow:
    """A row of a Go event's standings: its place as reported (else by wins) and its wins."""

    rank: int
    number: int
    name: str
    score: Decimal
    tiebreaks: tuple = ()


def _go_standings(t: Tournament) -> list[GoRow] | None:
    if not t.entrants or not any(e.rounds for e in t.entrants):
        return None
    wins = {e.number: score(e, GO_POINTS) for e in t.entrants}
    if all(e.rank for e in t.entrants):
        order = sorted(t.entrants, key=lambda e: (e.rank, e.number))
        return [GoRow(e.rank, e.number, e.name, wins[e.number]) for e in order]
    order = sorted(t.entrants, key=lambda e: (-wins[e.number], e.number))
    rows: list[GoRow] = []
    for i, e in enumerate(order, 1):
        shared = rows and rows[-1].score == wins[e.number]
        rows.append(GoRow(rows[-1].rank if shared else i, e.number, e.name, wins[e.number]))
    return rows


@dataclass
class GoEventRow:
    """A Go event's standings row: place, the first criterion (usually the McMahon score), then the others."""

    rank: int
    number: int
    name: str
    score: Decimal
    tiebreaks: list[Decimal]
    decision: None = None


def _go_event_standings(t: Tournament) -> tuple[list[GoEventRow], list[str]]:
    s, ps = go_settings(t), go_players(t)
    crit = [c for c in (criterion(x) for x in s.criteria) if c] or ["MMS"]
    rows = [GoEventRow(r.place, r.number, r.name, shown(r.values[crit[0]]), [shown(r.values[c]) for c in crit[1:]])
            for r in go_standings(t, s, ps, criteria=crit)]
    return rows, crit


def build(t: Tournament, *, live_event=None, staff: bool = False, go: bool = False) -> EventView:
    """The event page's content; ``go``: an event of a Go list (Go points and places, no tie-breaks). A Go
    event file (``go.is_go``) is shown by its own placement criteria, each by its name."""
    if not go and is_go(t):
        t.points = GO_POINTS
        rows, crit = _go_event_standings(t)
        return EventView(t, _rounds(t), _cross(t), rows, [GO_CRITERIA_NAMES[c] for c in crit[1:]], live_event,
                         staff, GO_CRITERIA_NAMES[crit[0]], go_event=True, cross_label=_("胜局"))
    if go:
        t.points = GO_POINTS
        return EventView(t, _rounds(t), _cross(t), _go_standings(t), [], live_event, staff, _("胜局"), True)
    names = ROUND_ROBIN_NAMES if system_of(t).round_robin else TIEBREAK_NAMES
    return EventView(t, _rounds(t), _cross(t), _standings(t), names, live_event, staff)
