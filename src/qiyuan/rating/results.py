"""What the engine hands back: rating changes with their explanation, and published lists.

Every number a player may want to check is kept: per event Rc, N, Pd, We, W,
K and ΔR (the averaging methods), per game opponent, his rating, D, We, W, K
and ΔR (the per-game methods), a newcomer's performance rating Ru, and the
codes of the rules that acted (``notes``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

# Statuses on a published list (名册).
ACTIVE = "active"  # 活跃
INACTIVE = "inactive"  # 不活跃
UNRATED = "unrated"  # no published rating yet (无等级分 / 未公布)
REMOVED = "removed"  # 除名: removed after a long inactivity, not yet re-rated
#: The status groups of a published list, in list order (``qiyuan.rating.order``).
STATUS_ORDER = {ACTIVE: 0, INACTIVE: 1, REMOVED: 2, UNRATED: 3}

# Methods of an EventChange.
METHOD_PER_GAME = "per_game"
METHOD_AVERAGING = "averaging"
METHOD_GO_ROUND_ROBIN = "go_round_robin"
METHOD_NEWCOMER = "newcomer"  # CGA Art. 7: performance rating Ru, no ΔR
METHOD_PROVISIONAL = "provisional"  # Beijing–Shanghai newcomer: K changes from the provisional rating
METHOD_NOT_RATED = "not_rated"  # nothing of this event counts for him

# Codes of the rules that acted (EventChange.notes).
NOTE_CHAMPION_PROTECTED = "champion_protected"  # 冠军不降分: negative ΣΔR set to 0
NOTE_CHAMPION_RULE_LONG_EVENT = "champion_rule_not_for_long_event"  # B–S: event over 20 days
NOTE_INTERNATIONAL_PROTECTED = "international_50pct_protected"  # Go: ≥ 50 % internationally
NOTE_ZERO_SCORE_IGNORED = "zero_score_ignored"  # his zero score: his results are ignored
NOTE_ZERO_SCORE_OPPONENT = "zero_score_opponent_ignored"  # games against a zero-score newcomer ignored
NOTE_FEW_RATED_OPPONENTS = "fewer_than_3_rated_opponents"  # the event does not count for the newcomer
NOTE_FORFEIT = "forfeit_not_rated"  # some of his games were not played
NOTE_UNRATED_OPPONENTS = "unrated_opponents_not_rated"  # games against unrated players left out
NOTE_FAR_BELOW = "far_below_not_rated"  # games against opponents too far below him left out (a rule-set setting)
NOTE_NO_RATED_GAMES = "no_rated_games"
NOTE_CAP = "rating_difference_capped"
NOTE_UNRATED_NOT_RATED = "unrated_player_not_rated"  # Go: no rating and no dan
NOTE_BOARD_PROTECTED = "best_on_board_protected"  # 全国团体赛: best score rate on his board, negative ΣΔR set to 0


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of a per-game calculation (one row of the 'individual calculations')."""

    round: int
    opponent_id: str
    opponent_rating: Decimal  # the rating used for him (published, or his event Ru rounded)
    D: int  # own rating − opponent's (after the cap, if any)
    We: Decimal  # PD(D)
    W: Decimal  # 1 / 0.5 / 0
    K: int
    dR: Decimal  # K × (W − We), not rounded


@dataclass(frozen=True, slots=True)
class EventChange:
    """One player's result in one rated event, with everything needed to check it by hand.

    ``method`` tells which fields apply:

    * ``per_game`` / ``provisional``: ``lines`` hold the games; ``We`` = Σ PD.
    * ``averaging``: ``Rc`` (mean of the opponents used), ``N``, ``Pd`` = PD(R − Rc rounded), ``We`` = N × Pd.
    * ``go_round_robin``: ``Rc`` = mean of the M players (himself included), ``Pd`` = Pa,
      ``We`` = N × Pa − cycles × (½ − Pa), i.e. M × Pa − ½ for a single round robin.
    * ``newcomer``: ``Rc`` (Ra in a round robin), ``N``, ``W`` and the performance rating ``ru``;
      ``We`` and ``K`` are ``None`` and ``delta`` is 0 (his first rating is a mean of Ru, not a ΔR).
    * ``not_rated``: nothing of the event counts for him (``notes`` say why).

    ``delta`` is ΔR after the protections (champion, international); ``raw_delta`` before them.
    """

    player_id: str
    event_id: str
    list_date: date
    games: int  # rated games counted for him in this event
    W: Decimal
    We: Decimal | None
    K: int | None
    delta: Decimal
    method: str
    Rc: Decimal | None = None
    N: int | None = None
    Pd: Decimal | None = None
    D: int | None = None  # R − Rc rounded (averaging / Go round robin)
    ru: Decimal | None = None
    Ro: Decimal | None = None  # the rating his calculation started from
    raw_delta: Decimal | None = None
    notes: list[str] = field(default_factory=list)
    lines: list[GameLine] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One player on one published list."""

    player_id: str
    rating: int | None  # the published integer (四舍五入); None when he has none
    exact: Decimal | None  # the unrounded value it was rounded from
    games: int  # rated games to date (the count K depends on)
    status: str  # active / inactive / unrated / removed


@dataclass(frozen=True, slots=True)
class PublishedList:
    """A published rating list (等级分名册) of one publication date."""

    date: date
    entries: list[ListEntry]

    def by_player(self) -> dict[str, ListEntry]:
        return {e.player_id: e for e in self.entries}
