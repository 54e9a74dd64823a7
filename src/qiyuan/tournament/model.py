"""Plain data of a tournament, shaped like a FIDE TRF-16 file.

One ``Entrant`` per draw number (签号), with one ``RoundCell`` per round.
The TRF reader and writer (``qiyuan.formats.trf``), the pairing engine, the
standings and the competition report all work on this one shape.

Colour convention: ``"b"`` is the opener (假先, who moves first), ``"w"`` the
other player, ``"-"`` no role (a bye, an absence, a forfeit written without a
colour).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

#: TRF result codes of one round cell.
#: played: "1" win, "0" loss, "=" draw; also "W"/"D"/"L" (TRF: unrated game of that result)
#: forfeits: "+" won by forfeit, "-" lost by forfeit
#: byes: "U" pairing bye (轮空), "H" half-point bye, "F" full-point bye, "Z" zero-point bye (absent)
#: " " not yet played (paired, no result)
PLAYED_RESULTS = frozenset("10=WDL")
FORFEIT_RESULTS = frozenset("+-")
BYE_RESULTS = frozenset("UHFZ")


@dataclass(slots=True)
class RoundCell:
    opponent: int | None  # draw number; None for a bye or absence
    colour: str  # "b" opener, "w" other, "-" none
    result: str  # one TRF result code, " " when not yet played


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points per result. Gomoku Swiss default: win 2, draw 1, loss 0, bye 2."""

    win: Decimal = Decimal(2)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)
    forfeit_win: Decimal = Decimal(2)
    forfeit_loss: Decimal = Decimal(0)
    pairing_bye: Decimal = Decimal(2)  # U
    half_bye: Decimal = Decimal(1)  # H
    full_bye: Decimal = Decimal(2)  # F
    zero_bye: Decimal = Decimal(0)  # Z


@dataclass(slots=True)
class Entrant:
    number: int  # draw number 签号, 1..n
    name: str
    sex: str = ""  # "m" / "w" as in TRF, or "" unknown
    title: str = ""  # dan/kyu, e.g. "3d", "1k"
    rating: int | None = None
    federation: str = ""  # association 所属单位
    player_id: str = ""  # registry id (TRF's id column)
    id_number: str = ""  # 身份证号: report only, never public
    birth: str = ""  # as written in the file
    points: Decimal | None = None  # declared in the file, checked on read
    rank: int | None = None  # declared in the file
    rounds: list[RoundCell] = field(default_factory=list)
    withdrawn_after: int | None = None  # withdrawn: not paired after this round
    late_after: int | None = None  # a late entry (后报名), entered after this round was paired
    club: str = ""  # 俱乐部 (keep-apart groups)
    family: str = ""  # a family's label (keep-apart groups: siblings, parent and child)
    #: rounds not yet paired the arbiter excused him from: round -> "Z" (0), "H" (a draw's points), "F" (a win's)
    excused: dict[int, str] = field(default_factory=dict)
    #: the document ``id_number`` is from: resident (居民身份证), passport (护照) or other, as the registry's
    id_type: str = "resident"
    #: nationality (国籍): a 3-letter country code (ISO 3166-1: CHN, KOR, JPN); "" not given
    nationality: str = ""
    #: the rating-band floor (分段等级分): his highest published rating of the last editions, as the entry list or
    #: registration gives it; kept in the file as an ``XRB`` line (``categories.keep_band_floors``)
    band_floor: int | None = None


@dataclass(slots=True)
class Tournament:
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: date | None = None
    end_date: date | None = None
    chief_arbiter: str = ""
    deputy_arbiters: list[str] = field(default_factory=list)
    time_control: str = ""
    rounds_planned: int | None = None  # XXR
    round_dates: list[str] = field(default_factory=list)
    points: PointSystem = field(default_factory=PointSystem)
    entrants: list[Entrant] = field(default_factory=list)
    extra: dict[str, list[str]] = field(default_factory=dict)  # other TRF lines, kept for round trips

    @property
    def rounds_played(self) -> int:
        return max((len(e.rounds) for e in self.entrants), default=0)
