"""What an import reads, decides and stores: plain data passed between its steps.

``parse`` turns a file into a ``ParsedEvent`` (entrants and games as the file
gives them), ``match`` finds each entrant in the registry and checks the
event (a ``Plan``), ``store`` writes the plan; ``ImportResult`` is what the
officer is told. ``Options`` is what the officer states that the file does
not say, and his confirmations of name matches (``PendingMatch``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from qiyuan.errors import Problem, problem
from qiyuan.formats.report_xlsx import RESULTS_SHEET
from qiyuan.rating.eligibility import OrganiserLevel
from qiyuan.rating.model import EventFormat, Result

#: the kinds of file the office imports
KINDS = ("report", "trf", "opengotha", "h9", "history")

@dataclass(frozen=True)
class PendingCandidate:
    """A registry player a report player may be (by name and association)."""

    federation_id: str
    name: str
    association: str  # code, "" when none
    birth_year: int | None
    id_masked: str  # the registry's ID number, masked ("" when it holds none)
    id_conflict: bool  # the registry holds an ID number that differs from the report's


@dataclass(frozen=True)
class PendingMatch:
    """A report player waiting for the officer's confirmation (``ImportRefused.pending_matches``).

    Confirm with ``Options.confirm[str(number)]`` = a candidate's federation ID (ending in ``!`` to override
    an ID-number conflict) or ``"new"``.
    """

    number: int  # draw number (签号)
    name: str
    association: str  # as the report gives it
    id_masked: str  # the report's ID number, masked ("" when none)
    where: Problem  # sheet and cell (report) or player (other files), a translatable place
    candidates: tuple[PendingCandidate, ...]
    text: Problem  # the same, as the message in ``ImportRefused.pending`` (translatable)


#: the facts that make an event rateable and that only its organiser knows: from its registration in the
#: calendar, else the report's lines, else the officer; never assumed (``imports.facts``)
FACTS = ("organiser_level", "national", "international", "agreed_by_parties", "dan_event", "standards_published")


@dataclass
class Options:
    """What the officer states about the event (the file does not say) and his confirmations. A fact left
    ``None`` is not stated: it comes from the registration or the report, or the import is refused."""

    organiser_level: str | None = None
    national: bool | None = None
    international: bool | None = None
    agreed_by_parties: bool | None = None
    dan_event: bool | None = None
    standards_published: bool | None = None
    format: str | None = None  # the event format, when neither the registration nor the file says it
    #: the officer's facts win over the registration's and the report's (the differences shown and audited)
    override_facts: bool = False
    #: "draw number or name" → federation id (ending in "!": despite a differing ID number) or "new"
    confirm: dict[str, str] = field(default_factory=dict)
    confirm_all: bool = False
    received_on: date | None = None
    #: the officer has seen how the report differs from its registration in the calendar
    accept_registration_differences: bool = False
    #: import an event although it mostly repeats this stored event (its code), for this reason (audited)
    duplicate_of: str = ""
    duplicate_reason: str = ""

    def problems(self) -> list[Problem]:
        """What is wrong with the options themselves: an organiser level or event format the rules do not know."""
        out = []
        levels = [lvl.value for lvl in OrganiserLevel]
        if self.organiser_level is not None and self.organiser_level not in levels:
            out.append(problem("--organiser-level {value!r} is not one of {known}", code="import.option",
                               value=self.organiser_level, known=", ".join(levels)))
        formats = [f.value for f in EventFormat]
        if self.format is not None and self.format not in formats:
            out.append(problem("--format {value!r} is not one of {known}", code="import.option", value=self.format,
                               known=", ".join(formats)))
        return out


@dataclass
class ParsedEntrant:
    where: Problem  # "player 3 (王五)": how problems name him in a file without cells (TRF, OpenGotha)
    number: int
    name: str
    gender: str = ""  # M / F / ""
    id_number: str = ""
    dan: str = ""
    association: str = ""
    rating: int | None = None
    rank: int | None = None
    score: Decimal | None = None
    federation_id: str = ""
    name_latin: str = ""
    remark: str = ""
    row: int | None = None  # the report's results-sheet row: problems then name the cell
    birth_date: date | None = None  # as the file gives it (a resident ID number holds its own)
    id_type: str = ""  # the document of ``id_number`` when the file says: resident, passport, other
    nationality: str = ""  # 国籍, a 3-letter country code, when the file gives it

    def at(self, what: str = "name") -> Problem:
        """Where a problem about ``what`` (number, name, gender, id, association) is: in a report the sheet and
        cell, with the draw number and name (``Sheet 成绩, cell E7 (No. 5 邵斌)``); else ``where``. A translatable
        place (``Problem``), to be given to a message as a parameter."""
        if self.row is None:
            return self.where
        return problem("Sheet {sheet}, cell {cell} (No. {number} {name})", sheet=RESULTS_SHEET,
                       cell=f"{_REPORT_COLUMN[what]}{self.row}", number=self.number, name=self.name)


#: the results sheet's column of each fact of a player (签号, 姓名, 性别, 身份证号, 所属棋协)
_REPORT_COLUMN = {"number": "B", "name": "C", "gender": "D", "id": "E", "association": "G"}


@dataclass
class ParsedEvent:
    name: str
    start_date: date | None
    end_date: date | None
    format: str
    rounds: int
    time_control: str = ""
    city: str = ""
    organiser: str = ""
    chief_arbiter: str = ""
    arbiters: list[str] = field(default_factory=list)
    entrants: list[ParsedEntrant] = field(default_factory=list)
    #: round, number1, number2, result, opener (1 / 2: who opened, 先手; None: the file does not say)
    games: list[tuple[int, int, int, Result, int | None]] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    days: int | None = None
    #: the desk event the report was downloaded from (its 赛事代码), "" for a report from elsewhere
    desk_code: str = ""
    #: the facts (``FACTS``) the file declares: a report's lines; "" format above: the file does not say
    declared: dict = field(default_factory=dict)
    #: the number of rounds the file declares (a report's 轮数, a TRF's XXR, OpenGotha's numberOfRounds); None: not said
    rounds_declared: int | None = None
    #: the event checker's verdict on the file's pairings and standings (``tournament.check``), as plain data
    pairing_check: dict = field(default_factory=dict)
    #: the upper limits of the event's rating-band prizes (its ``XQP`` prize categories): the integrity checks'
    prize_bands: list[int] = field(default_factory=list)
    #: how games' results were entered, where the file records it (``tournament.hall.games_entered``): by (round,
    #: lower draw number, higher); a game not here came in the file alone
    entered: dict = field(default_factory=dict)


@dataclass
class Plan:
    """What an import would store, once every check passed."""

    parsed: ParsedEvent
    players: dict[int, object] = field(default_factory=dict)  # draw number → registry Player (saved or new)
    new_players: list = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    pending_matches: list[PendingMatch] = field(default_factory=list)  # matches awaiting the officer's confirmation
    notes: list[Problem] = field(default_factory=list)  # translatable; ``str()`` is the English line
    eligibility: dict = field(default_factory=dict)
    arbiters: list = field(default_factory=list)
    chief: object | None = None
    registration: object | None = None  # its registration in the calendar (``event_registration.RegistrationMatch``)
    duplicate_of: tuple[str, str] | None = None  # (stored event's code, the officer's reason): imported anyway
    #: facts where the officer's value replaced the registration's or the report's: fact → [theirs, his]
    overridden: dict = field(default_factory=dict)


@dataclass
class ImportResult:
    batch: object
    events: list = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)  # translatable; ``str()`` is the English line
    new_players: int = 0
    games: int = 0
    late_for: list[date] = field(default_factory=list)  # list dates already published that the events belong to
