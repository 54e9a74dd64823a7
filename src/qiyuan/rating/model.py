"""Plain data of a rating history: players, events, games, standings.

This is the contract between the readers (history CSV, TRF, the office's
database) and the rating engine. Ratings are ``Decimal``; nothing here is a
binary float.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date
from decimal import Decimal


class Gender(str, enum.Enum):
    MALE = "M"
    FEMALE = "F"


class EventFormat(str, enum.Enum):
    """赛制: the event formats the rating texts name."""

    SWISS = "swiss"  # 积分编排制
    ROUND_ROBIN = "round_robin"  # 循环制
    TEAM = "team"  # 团体赛
    MATCH = "match"  # 对抗赛
    KNOCKOUT = "knockout"  # 淘汰赛


class Result(str, enum.Enum):
    """A game's result from player1's side, as written in ``games.csv``."""

    WIN = "1-0"
    LOSS = "0-1"
    DRAW = "0.5-0.5"
    FORFEIT_WIN = "+-"  # player1 won by forfeit: never rated
    FORFEIT_LOSS = "-+"  # player1 lost by forfeit: never rated
    NOT_PLAYED = "--"  # neither played: never rated
    #: both win / both lose by the arbiter's decision (OpenGotha's RESULT_BOTHWIN / RESULT_BOTHLOSE): a win
    #: (a loss) for each in the event's score and tie-breaks, never rated (docs/decisions.md)
    BOTH_WIN = "++"
    BOTH_LOSS = "0-0"

    @property
    def played(self) -> bool:
        """Only games actually played are rated (未赛对局不计)."""
        return self in (Result.WIN, Result.LOSS, Result.DRAW)


#: Accepted spellings of each result code.
RESULT_ALIASES: dict[str, Result] = {
    "1-0": Result.WIN,
    "0-1": Result.LOSS,
    "0.5-0.5": Result.DRAW,
    "½-½": Result.DRAW,
    "=": Result.DRAW,
    "+-": Result.FORFEIT_WIN,
    "-+": Result.FORFEIT_LOSS,
    "--": Result.NOT_PLAYED,
    "++": Result.BOTH_WIN,
    "0-0": Result.BOTH_LOSS,
}


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    gender: Gender | None = None
    dan: str | None = None  # '9d'…'1d', '1k'…'10k'
    rating: Decimal | None = None  # published rating before the first event
    games: int = 0  # rated games before the first event
    k_latched: bool = False  # the K = 10 threshold already reached
    registered_on: date | None = None
    reference_rating: Decimal | None = None  # foreign / RIF reference rating
    dan_granted_by: str | None = None  # who granted the dan (段位授予单位), e.g. 中国棋院


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    name: str
    start_date: date
    end_date: date
    format: EventFormat
    international: bool = False
    days: int | None = None  # when it differs from the dates
    national: bool = False  # 全国性: a national event (with format team: the national team championship, 全国团体赛)

    @property
    def length_days(self) -> int:
        return self.days if self.days is not None else (self.end_date - self.start_date).days + 1


@dataclass(frozen=True, slots=True)
class Game:
    event_id: str
    round: int
    player1: str
    player2: str
    result: Result
    board: int | None = None  # 台次 in a team event (board 1 first); None when not known
    black: int = 0  # who had Black: 1 player1, -1 player2, 0 not known (games.csv's optional ``black`` column)


@dataclass(frozen=True, slots=True)
class Standing:
    event_id: str
    player_id: str
    rank: int
