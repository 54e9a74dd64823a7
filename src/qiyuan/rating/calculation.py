"""计算过程: every number of a calculation, in the order the texts compute it, so a player can redo it.

An explanation is a sequence of ``Step`` values. Each step names a number (``symbol``), gives it exactly
(``value``: an int, ``Decimal`` or ``Fraction``) and says how it is computed: an operation (``op``) on
earlier numbers (``args``, each with its symbol). A ``given`` step is an input: a published rating, a game
count, a game's result. With the two tables (附表1, 附表2) and the rule set's settings, every step can be
recomputed from the steps before it (``tests/rating/test_redo.py`` does exactly that).

The operations (``OPS``) and what they compute:

* ``given``: an input, read from the lists, the games or the rule set (``ref`` says where from);
* ``sum``, ``mean``: Σ args, Σ args / count (exact: a mean may have any denominator);
* ``sub`` a − b, ``add`` a + b, ``mul`` a × b;
* ``round``: 四舍五入 to an integer (half up);
* ``clamp``: D limited to ±cap; ``clamp_to``: a rating limited to [R − cap, R + cap] (FIDE's 350/400 rule);
* ``PD``: Table 2, D → expected score; ``p``: W / N rounded to hundredths (.005 up); ``dp``: Table 1, p → dp;
* ``K``: K of the rule set from the game count and the latch (args: games, latched 0/1);
* ``delta``: K × (W − We);
* ``go_we``: M × Pa − ½ (one complete Go round robin); ``go_we_cycles``: N × Pa − cycles × (½ − Pa);
* ``half_points``: 2W − N, the half points above 50 %;
* ``bonus``: Rc + bonus × h (a newcomer above 50 %);
* ``ra``: Rar − Dpa × n / (n + 1); ``scaled``: Rc + dp × n / (n + 1) (round-robin newcomer below 50 %);
* ``wmean``: Σ Ru·n / Σ n over (Ru, n) pairs (a first rating, game-weighted);
* ``protect``: a negative ΔR counted as 0 (a protection; ``ref`` says which).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating.results import EventChange, ListEntry
from qiyuan.rating.state import NewcomerRecord

Number = int | Decimal | Fraction

OPS = ("given", "sum", "mean", "sub", "add", "mul", "round", "clamp", "clamp_to", "PD", "p", "dp", "K", "delta",
       "go_we", "go_we_cycles", "half_points", "bonus", "ra", "scaled", "wmean", "protect")


@dataclass(frozen=True, slots=True)
class Step:
    """One number of a calculation: ``symbol = op(args) = value``."""

    symbol: str
    value: Number
    op: str = "given"
    args: tuple[tuple[str, Number], ...] = ()
    ref: str = ""  # where a given number comes from, or what a protection is

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown calculation step {self.op!r}")


def given(symbol: str, value: Number, ref: str = "") -> Step:
    return Step(symbol, value, "given", (), ref)


def step(symbol: str, value: Number, op: str, *args: tuple[str, Number] | Step, ref: str = "") -> Step:
    """A computed step; each arg is a (symbol, value) pair or an earlier ``Step``."""
    return Step(symbol, value, op, tuple((a.symbol, a.value) if isinstance(a, Step) else a for a in args), ref)


#: Where a shown game's opponent rating comes from.
RATING_PUBLISHED = "published"  # his last published rating
RATING_EVENT_RU = "event_ru"  # an unrated opponent's Ru in this event, rounded (CGA round robin)
RATING_RA = "ra"  # the round robin's Ra, rounded
RATING_PROVISIONAL = "provisional"  # the opponent's provisional entry rating
RATING_NONE = ""  # no rating: the game is not rated for this player

#: Why a shown game does not count.
SKIP_UNRATED_OPPONENT = "unrated_opponent"
SKIP_ZERO_SCORE = "zero_score"  # left out by the zero-score rule
SKIP_NOT_PLAYED = "not_played"  # a forfeit or an unplayed game
SKIP_FAR_BELOW = "far_below"  # far_below_not_rated: an opponent too far below a strong player


@dataclass(frozen=True, slots=True)
class ShownGame:
    """One of his games in the event, as the calculation saw it."""

    round: int
    opponent_id: str
    result: str  # '1', '½', '0', '+', '-', '--' (from his side)
    W: Decimal | None  # the score that counts (None: not played)
    rating: int | None = None  # the opponent's rating used (None: none)
    rating_source: str = RATING_NONE
    counted: bool = False
    skipped: str = ""  # why it does not count (SKIP_*)
    board: int | None = None


@dataclass(frozen=True, slots=True)
class EventExplanation:
    """One player's calculation in one event: his games and the steps, ending in the change."""

    change: EventChange
    games: tuple[ShownGame, ...] = ()
    steps: tuple[Step, ...] = ()


#: Verdicts of the activity rule at a publication date.
ACT_NO_RULE = "no_rule"  # the rule set has no activity rule (Go): rated players are active
ACT_NOT_JUDGED = "not_judged"  # he has not held a published rating over a full window yet
ACT_ACTIVE = "active"  # enough rated games in the window
ACT_INACTIVE = "inactive"  # too few: 不活跃 from this list
ACT_STAYS_INACTIVE = "stays_inactive"  # inactive, too few games to be active again
ACT_REACTIVATED = "reactivated"  # inactive, enough games in the reactivation window: active again
ACT_REMOVED = "removed"  # inactive for the removal period: 除名


@dataclass(frozen=True, slots=True)
class Activity:
    """The activity rule (不活跃 / 除名) as applied to him at a publication date, with its numbers."""

    verdict: str
    window_from: date | None = None  # the events that ended in [window_from, list date) count
    games: int | None = None  # his rated games in that window
    needed: int | None = None
    rated_since: date | None = None
    inactive_since: date | None = None
    removal_on: date | None = None  # the list at which an inactive player is removed


@dataclass(frozen=True, slots=True)
class Publication:
    """How his entry on a list came about: Rn = Ro + ΣΔR, a first rating, or a newcomer still collecting."""

    list_date: date
    steps: tuple[Step, ...] = ()
    newcomer_window_from: date | None = None
    newcomer_parts: tuple[NewcomerRecord, ...] = ()  # his counted events inside the window: Ru (CGA) or ΔR (B–S)
    newcomer_needed: int | None = None
    activity: Activity | None = None
    latched_now: bool = False  # K = k_top for good from this list (a published rating reached the threshold)
    removed_now: bool = False


@dataclass(frozen=True)
class PeriodExplanation:
    list_date: date
    events: tuple[EventExplanation, ...]
    publication: Publication
    entry: ListEntry


@dataclass
class PlayerExplanation:
    """A player's calculations, period by period (the periods in which he played or his entry changed)."""

    player_id: str
    rules_name: str
    periods: list[PeriodExplanation] = field(default_factory=list)
