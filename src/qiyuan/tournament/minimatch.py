"""Knock-out mini-matches (淘汰赛小场): two games with alternating openers, then one tie-break game (加赛) whose
opener is drawn by lot — the event's records of them, and the score of a match from its games.

Each game is a round of the event file (so each is rated as the game it is); which round is which game of which
match round is recorded as it is paired, and so is the lot of each tie-break round:

* ``XQ6 TEXT`` — the event plays mini-matches; TEXT is the tie-break game's time control (加赛用时);
* ``XQ7 R K G`` — file round R is game G (``1``, ``2`` or ``T`` the tie-break game) of knock-out round K;
* ``XQ8 R seed N`` — the tie-break openers of file round R drawn by qiyuan with seed N (``random.Random(N)``:
  per tied match in bracket order, the upper or the lower place opens), or ``XQ8 R hall A B …`` — the openers
  as drawn in the hall, one per tied match.

Scoring within a match: a win 1, a draw ½, a forfeit win 1.  After two games the player with more points goes
through; at 1:1 the tie-break game decides, and it must have a winner (a drawn tie-break game is replayed: the
arbiter enters the winner of the replay).  Pure: plain data in, plain data out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from qiyuan.errors import N_
from qiyuan.tournament.errors import EventError, problem
from qiyuan.tournament.model import Tournament

SETTING, GAMES, LOTS = "XQ6", "XQ7", "XQ8"
TIEBREAK = "T"
#: a game's points within a mini-match, from the player's side
POINTS = {"1": Fraction(1), "W": Fraction(1), "+": Fraction(1), "=": Fraction(1, 2), "D": Fraction(1, 2),
          "0": Fraction(0), "L": Fraction(0), "-": Fraction(0)}


def is_mini(t: Tournament) -> bool:
    """Does the event play knock-out mini-matches (``XQ6``)?"""
    return SETTING in t.extra


def tiebreak_time_control(t: Tournament) -> str:
    return (t.extra.get(SETTING) or [""])[0].strip()


def set_mini(t: Tournament, tiebreak_tc: str) -> None:
    t.extra[SETTING] = [" ".join(tiebreak_tc.split())]


@dataclass(frozen=True, slots=True)
class Slot:
    """What one round of the file is: game ``game`` (1, 2 or ``T``) of knock-out round ``k``."""

    round: int
    k: int
    game: str


def schedule(t: Tournament) -> list[Slot]:
    """The file's rounds as mini-match games, in round order (``XQ7``)."""
    out = []
    for line in t.extra.get(GAMES, []):
        parts = line.split()
        if len(parts) == 3 and parts[0].isdecimal() and parts[1].isdecimal() and parts[2] in ("1", "2", TIEBREAK):
            out.append(Slot(int(parts[0]), int(parts[1]), parts[2]))
    return sorted(out, key=lambda s: s.round)


def slot_of(t: Tournament, rnd: int) -> Slot | None:
    return next((s for s in schedule(t) if s.round == rnd), None)


def record_slot(t: Tournament, slot: Slot) -> None:
    lines = [x for x in t.extra.get(GAMES, []) if x.split()[:1] != [str(slot.round)]]
    t.extra[GAMES] = lines + [f"{slot.round} {slot.k} {slot.game}"]


def forget_round(t: Tournament, rnd: int) -> None:
    """A round undone: its game record goes (a lot drawn for it stays drawn)."""
    if GAMES in t.extra:
        t.extra[GAMES] = [x for x in t.extra[GAMES] if x.split()[:1] != [str(rnd)]]


# -- the lot of a tie-break round ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lot:
    """How a tie-break round's openers were drawn: by qiyuan (``seed``) or in the hall (``openers``)."""

    round: int
    seed: int | None = None
    openers: tuple[int, ...] = ()

    def how_zh(self) -> str:
        return f"由程序抽签（种子 {self.seed}）" if self.seed is not None else "由现场抽签"

    def text(self, gettext: Callable[[str], str] = str) -> str:
        """How the openers were drawn, in the language of ``gettext`` (English by default: the file's readers)."""
        if self.seed is not None:
            return gettext(LOT_BY_SEED).format(seed=self.seed)
        return gettext(LOT_IN_HALL).format(openers=", ".join(map(str, self.openers)))


#: a lot's account (``Lot.text``), each template whole
LOT_BY_SEED = N_("tie-break openers drawn by lot, seed {seed}")
LOT_IN_HALL = N_("tie-break openers drawn in the hall: {openers}")
TIEBREAK_SCORE = N_("{score} (tie-break {tiebreak})")


def lot_of(t: Tournament, rnd: int) -> Lot | None:
    for line in t.extra.get(LOTS, []):
        parts = line.split()
        if len(parts) >= 3 and parts[0] == str(rnd):
            if parts[1] == "seed" and parts[2].lstrip("-").isdecimal():
                return Lot(rnd, seed=int(parts[2]))
            if parts[1] == "hall" and all(p.isdecimal() for p in parts[2:]):
                return Lot(rnd, openers=tuple(int(p) for p in parts[2:]))
    return None


def record_lot(t: Tournament, lot: Lot) -> None:
    lines = [x for x in t.extra.get(LOTS, []) if x.split()[:1] != [str(lot.round)]]
    how = f"seed {lot.seed}" if lot.seed is not None else "hall " + " ".join(map(str, lot.openers))
    t.extra[LOTS] = lines + [f"{lot.round} {how}"]


def tiebreak_openers(lot: Lot, matches: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The tie-break boards ``(opener, other)`` of the tied ``matches`` (upper, lower place) by the lot:
    drawn with the seed, one draw per match in bracket order, or as the hall drew them."""
    if lot.seed is not None:
        rng = random.Random(lot.seed)
        return [(a, b) if rng.random() < 0.5 else (b, a) for a, b in matches]
    faults = []
    if len(lot.openers) != len(matches):
        faults.append(problem("the lot names {given} opener(s) for {count} tie-break game(s): one per tied match "
                              "({matches})", given=len(lot.openers), count=len(matches),
                              matches=", ".join(f"{a}-{b}" for a, b in matches)))
    boards = []
    for (a, b), opener in zip(matches, lot.openers, strict=False):
        if opener not in (a, b):
            faults.append(problem("player {number} does not play in the tied match {a}-{b}", number=opener, a=a, b=b))
        boards.append((a, b) if opener == a else (b, a))
    if faults:
        raise EventError(faults)
    return boards


# -- the score of a match -------------------------------------------------------------------------------------


@dataclass(slots=True)
class MatchScore:
    """A mini-match's games so far: points of the upper and the lower place after the two games, the tie-break
    game's (None when not played), who went through (None while undecided) and the round that decided it."""

    upper: Fraction = Fraction(0)
    lower: Fraction = Fraction(0)
    games: int = 0
    tiebreak: tuple[Fraction, Fraction] | None = None
    winner: int | None = None
    decided_in: int | None = None

    @property
    def tied(self) -> bool:
        return self.games == 2 and self.upper == self.lower and self.tiebreak is None

    def text_zh(self) -> str:
        """``1½:½``, ``1:1（加赛 1:0）``."""
        out = f"{points_text(self.upper)}:{points_text(self.lower)}"
        if self.tiebreak is not None:
            out += f"（加赛 {points_text(self.tiebreak[0])}:{points_text(self.tiebreak[1])}）"
        return out

    def text(self, gettext: Callable[[str], str] = str) -> str:
        """``1½:½``, ``1:1 (tie-break 1:0)`` — in the language of ``gettext``."""
        out = f"{points_text(self.upper)}:{points_text(self.lower)}"
        if self.tiebreak is not None:
            out = gettext(TIEBREAK_SCORE).format(
                score=out, tiebreak=f"{points_text(self.tiebreak[0])}:{points_text(self.tiebreak[1])}")
        return out


def points_text(p: Fraction) -> str:
    """``1½``, ``½``, ``0``."""
    whole, half = divmod(p, 1)
    return (str(int(whole)) if whole or not half else "") + ("½" if half else "")


def match_score(t: Tournament, k: int, upper: int, lower: int) -> MatchScore:
    """The mini-match of ``upper`` and ``lower`` in knock-out round ``k``, from the cells of its games."""
    by = {e.number: e for e in t.entrants}
    s = MatchScore()
    for slot in schedule(t):
        if slot.k != k:
            continue
        rounds = by[upper].rounds
        if len(rounds) < slot.round:
            continue
        cell = rounds[slot.round - 1]
        back = by[lower].rounds[slot.round - 1] if len(by[lower].rounds) >= slot.round else None
        if cell.opponent != lower or cell.result not in POINTS or back is None or back.result not in POINTS:
            continue
        mine, theirs = POINTS[cell.result], POINTS[back.result]
        if slot.game == TIEBREAK:
            s.tiebreak = (mine, theirs)
            if mine != theirs:
                s.winner, s.decided_in = (upper if mine > theirs else lower), slot.round
        else:
            s.upper += mine
            s.lower += theirs
            s.games += 1
            if s.games == 2 and s.upper != s.lower:
                s.winner, s.decided_in = (upper if s.upper > s.lower else lower), slot.round
    return s


def next_slot(t: Tournament, tied: bool) -> Slot:
    """What the next round of the file is: game 1 of the first knock-out round, game 2 after game 1, the
    tie-break game after game 2 when a match is ``tied``, else game 1 of the next knock-out round."""
    done = schedule(t)
    rnd = (done[-1].round if done else 0) + 1
    if not done:
        return Slot(rnd, 1, "1")
    last = done[-1]
    if last.game == "1":
        return Slot(rnd, last.k, "2")
    if last.game == "2" and tied:
        return Slot(rnd, last.k, TIEBREAK)
    return Slot(rnd, last.k + 1, "1")
