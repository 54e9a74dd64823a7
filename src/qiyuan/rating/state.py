"""A player's rating state between two published lists (what the office stores).

``PlayerState`` is everything the next rating period needs about a player:
his published rating, game count (for K), the K = 10 latch, his status, and
the records the windows are judged on (counted games per event for activity,
the newcomer's counted events for a first rating). ``rate_period`` takes a
mapping of these and returns the new ones, so the office can store them and
compute the next period alone with exactly the same result.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating.exact import round_half_up
from qiyuan.rating.model import Gender, Player
from qiyuan.rating.results import ACTIVE, UNRATED
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.tables import dan_rating


@dataclass(frozen=True, slots=True)
class NewcomerRecord:
    """One event that counts toward a newcomer's first rating.

    ``ru`` (CGA Art. 7) is his exact performance rating in that event — a
    ``Fraction``, since Ra and Rc are means (store it as ``str(ru)``, e.g.
    ``'21129/9'``; ``Fraction(text)`` reads it back). ``delta`` (Beijing–Shanghai)
    is his ΔR from the provisional rating.
    """

    event_id: str
    end_date: date
    games: int
    ru: Fraction | None = None
    delta: Decimal | None = None


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's state after the last published list."""

    player_id: str
    gender: Gender | None = None
    rating: int | None = None  # last published rating (Ro of the next period)
    exact: Decimal | None = None  # the unrounded value it was rounded from
    games: int = 0  # rated games to date (K's count)
    latched: bool = False  # K = k_top for good
    status: str = UNRATED
    rated_since: date | None = None  # when the current published rating was first held
    inactive_since: date | None = None  # the list that first marked him inactive
    activity: tuple[tuple[date, int], ...] = ()  # (event end date, counted games), inside the windows
    newcomer: tuple[NewcomerRecord, ...] = ()  # counted events toward a first rating

    @property
    def is_rated(self) -> bool:
        return self.rating is not None


def starting_rating(rules: RuleSet, player: Player) -> int | None:
    """A player's rating when the history starts: the published one, else the rule set's start from
    his 段级位 or reference rating (the higher of the two), else none.

    The dan start holds for players registered by ``dan_start_registered_by`` (an unknown registration date
    counts as in time) and, at any registration date, for a 段 granted by a body of ``dan_start_granted_by``.
    """
    if player.rating is not None:
        return round_half_up(player.rating)
    candidates: list[int] = []
    if rules.reference_rating_start and player.reference_rating is not None:
        candidates.append(round_half_up(player.reference_rating))
    grade = (player.dan or "").strip().lower()
    registered_in_time = (
        rules.dan_start_registered_by is None
        or player.registered_on is None
        or player.registered_on <= rules.dan_start_registered_by
        # B–S §13(五): a later registrant holding a 段 (not a 级) granted by the China Qiyuan still starts from it
        or (grade.endswith("d") and (player.dan_granted_by or "").strip() in rules.dan_start_granted_by)
    )
    kyu_allowed = rules.dan_start_kyu or not grade.endswith("k")
    if rules.dan_start and registered_in_time and kyu_allowed and dan_rating(grade) is not None:
        candidates.append(dan_rating(grade))
    return max(candidates) if candidates else None


def initial_states(rules: RuleSet, players: Iterable[Player], start: date) -> dict[str, PlayerState]:
    """The state of every player at ``start`` (the beginning of the first rating period)."""
    states: dict[str, PlayerState] = {}
    for player in players:
        rating = starting_rating(rules, player)
        latched = player.k_latched or (
            rating is not None and rules.k_latch_rating is not None and rating >= rules.k_latch_rating
        )
        states[player.id] = PlayerState(
            player_id=player.id,
            gender=player.gender,
            rating=rating,
            exact=Decimal(rating) if rating is not None else None,
            games=player.games if rating is not None else 0,
            latched=latched,
            status=ACTIVE if rating is not None else UNRATED,
            rated_since=start if rating is not None else None,
        )
    return states
