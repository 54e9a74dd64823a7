"""Rule sets (等级分制度): every setting of the three official texts, by name.

A rule set is data. The three built-in ones follow the project's reading of
the texts (``docs/rating.md``, spec ``decisions.md``); a federation's variant is
a TOML file that names a ``base`` rule set and overrides settings::

    base = "cga-gomoku-2011"
    name = "cga-gomoku-2011-cap400"
    cap = 400
    we_round_robin = "averaging"

Unknown keys and bad values raise ``RulesError`` naming the key.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from qiyuan.errors import InputError
from qiyuan.rating.model import EventFormat

#: Expected-score (预期局分 We) methods.
WE_AVERAGING = "averaging"  # We = N × PD(R − Rc), Rc = mean of the opponents
WE_PER_GAME = "per_game"  # We = Σ PD(R − R_opp), game by game
WE_GO_ROUND_ROBIN = "go_round_robin"  # We = M × Pa − ½ (Go 1995 round robin)
WE_METHODS = (WE_AVERAGING, WE_PER_GAME, WE_GO_ROUND_ROBIN)

#: How a rated player's round-robin game against an unrated opponent is rated.
RR_UNRATED_EVENT_RU = "event_ru"  # the opponent's Ru from that event, rounded
RR_UNRATED_RA = "ra"  # the round robin's Ra
RR_UNRATED_PROVISIONAL = "provisional"  # the opponent's provisional entry rating (1800/1400)
RR_UNRATED_NOT_RATED = "not_rated"  # such games are not rated
RR_UNRATED_CHOICES = (RR_UNRATED_EVENT_RU, RR_UNRATED_RA, RR_UNRATED_PROVISIONAL, RR_UNRATED_NOT_RATED)

#: How a player without a rating gets one.
NEWCOMER_PERFORMANCE = "performance"  # CGA Art. 7: Ru per event, first rating = mean of Ru
NEWCOMER_PROVISIONAL = "provisional"  # Beijing–Shanghai §12: provisional start + K changes
NEWCOMER_NOT_RATED = "not_rated"  # Go 1995: no dan, no rating; his games are not rated
NEWCOMER_METHODS = (NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL, NEWCOMER_NOT_RATED)

#: The window in which a newcomer's counted games must fall.
WINDOW_MONTHS = "months"  # events that ended in the last N months before the list
WINDOW_CALENDAR_YEARS = "calendar_years"  # events that ended in the last N calendar years
WINDOW_KINDS = (WINDOW_MONTHS, WINDOW_CALENDAR_YEARS)

#: The zero-score rule (得分为零, CGA Art. 5(十二)).
ZERO_SCORE_REPEAT = "repeat"  # applied until no unrated player is left on zero
ZERO_SCORE_ONCE = "once"
ZERO_SCORE_OFF = "off"
ZERO_SCORE_CHOICES = (ZERO_SCORE_REPEAT, ZERO_SCORE_ONCE, ZERO_SCORE_OFF)

FORMATS = tuple(f.value for f in EventFormat)

#: How the competition report marks a game not played (未对弈): CGA Art. 11(三) "+" / "—"; B–S §10(三) "*".
UNPLAYED_PLUS_MINUS = "plus_minus"
UNPLAYED_STAR = "star"
UNPLAYED_MARKS = (UNPLAYED_PLUS_MINUS, UNPLAYED_STAR)

#: The rating-difference caps (分差上限) a rule set may use besides none.
CAP_CHOICES = (350, 400)

#: The largest colour advantage (in rating points, either sign) a rule set may give Black.
COLOUR_ADVANTAGE_LIMIT = 400

#: How players of equal rating are ordered on a published list (名册排序).
TIE_PINYIN = "pinyin"  # by the pinyin of the name (ICU zh@collation=pinyin)
TIE_STROKES = "strokes"  # by the strokes of the name, ascending (笔画, ICU zh@collation=stroke; B–S §13(一)2)
TIE_ID = "id"  # by player id only
TIE_CHOICES = (TIE_PINYIN, TIE_STROKES, TIE_ID)
#: How the inactive players (不活跃棋手名册) are ordered.
INACTIVE_BY_RATING = "rating"  # like the others: rating, then the tie order
INACTIVE_BY_PINYIN = "pinyin"  # by the pinyin of the name only (B–S §5: 以拼音排列的“不活跃棋手”名册)
INACTIVE_ORDER_CHOICES = (INACTIVE_BY_RATING, INACTIVE_BY_PINYIN)

#: The conditions an event must meet to be rated (``qiyuan.rating.eligibility``), by official text.
ELIGIBILITY_CGA_2011 = "cga-2011"  # CGA Art. 4–5
ELIGIBILITY_BJSH_2007 = "bjsh-2007"  # B–S §6, §7, §9
ELIGIBILITY_GO_1995 = "go-1995"  # Go §4
ELIGIBILITY_NONE = "none"  # every event is rated
ELIGIBILITY_CHOICES = (ELIGIBILITY_CGA_2011, ELIGIBILITY_BJSH_2007, ELIGIBILITY_GO_1995, ELIGIBILITY_NONE)


class RulesError(InputError):
    """A rule-set name, file or setting that cannot be used (bad input: ``qiyuan.errors``)."""


@dataclass(frozen=True)
class RuleSet:
    """Every setting of a rating rule set. Defaults are those of ``cga-gomoku-2011``."""

    name: str
    title: str
    # --- publication (等级分的公布)
    publication_months: tuple[int, ...] = (1, 7)  # lists on the 1st of these months
    # --- K (换算系数)
    k_new: int = 25  # for the first k_new_games rated games
    k_new_games: int = 30
    k_established: int = 15
    k_top: int = 10  # for good once a published rating reached k_latch_rating
    k_latch_rating: int | None = 2000  # None: no latch
    # --- expected score We by event format
    we_swiss: str = WE_AVERAGING
    we_team: str = WE_AVERAGING
    we_match: str = WE_AVERAGING
    we_knockout: str = WE_AVERAGING
    we_round_robin: str = WE_PER_GAME
    cap: int | None = None  # rating-difference cap (FIDE 350 until 2009, then 400)
    cap_bands: tuple[tuple[int, int | None], ...] = ()  # (from rating, cap or None): a player rated at least
    #   ``from`` uses that cap instead (the highest band he reaches); FIDE from October 2025: ((2650, None),)
    far_below_not_rated: tuple[int, int] | None = None  # (rating, difference): a player rated at least ``rating``
    #   is not rated on a game against a rated opponent more than ``difference`` below him (a minimum opponent
    #   rating, his rating − difference, for the players above a rating); None: no such rule
    rr_unrated_opponent: str = RR_UNRATED_EVENT_RU
    colour_advantage: int = 0  # points added to Black's rating difference D in We for a game whose colour is known
    #   (games.csv's ``black``); 0 = off: every official rule set, and then the setting is written nowhere
    #   (``rules_as_dict``), so editions, bundles and digests are those without it
    # --- newcomers (无等级分棋手)
    newcomer_method: str = NEWCOMER_PERFORMANCE
    start_rating_male: int = 1800  # CGA: entry rating for seeding; B–S: provisional Ro
    start_rating_female: int = 1400
    newcomer_min_rated_opponents: int = 3  # per event
    newcomer_bonus_per_half_point: Decimal = Decimal("12.5")  # Ru above 50 %
    round_ra_first: bool = False  # round Ra to an integer before Ru
    dp_at_extremes: int | None = None  # dp at p = 0 / 1: None = indeterminate (or FIDE's later 800)
    newcomer_min_games: int = 7
    newcomer_window: str = WINDOW_MONTHS
    newcomer_window_length: int = 24
    zero_score_rule: str = ZERO_SCORE_REPEAT
    # --- initial ratings
    dan_start: bool = False  # a player without a rating starts from his 段级位 rating
    dan_start_registered_by: date | None = None  # …only if registered by this date
    dan_start_kyu: bool = True  # kyu grades (级位) start too (Go 1995 lists only dan grades)
    dan_start_granted_by: tuple[str, ...] = ()  # a 段 granted by one of these starts from the table at any
    #                                             registration date (B–S §13(五): 中国棋院)
    reference_rating_start: bool = False  # a reference (foreign/RIF) rating is a starting rating
    # --- activity (不活跃)
    activity_window_months: int | None = 12  # None: every rated player is active
    activity_min_games: int = 7
    reactivation_window_months: int = 12
    reactivation_min_games: int = 7
    removal_after_months: int | None = 24  # None: inactive players are never removed
    # --- protections
    champion_rule: bool = True  # 冠军不降分
    champion_max_days: int | None = None  # B–S: not for events over 20 days
    champion_formats: tuple[str, ...] = ("swiss", "round_robin", "match", "knockout", "team")  # a team event
    #   without boards keeps the champion rule (spec); editions stored before "team" was added list their formats
    #   without it and keep their old behaviour (docs/decisions.md)
    international_min_score: Decimal | None = None  # Go: ≥ 50 % in an international event loses nothing
    board_rule: bool = True  # 全国团体赛: the best score rate on each board does not lose points (CGA Art. 6(四), Go)
    # --- the published list (名册)
    list_tie_order: str = TIE_PINYIN  # equal ratings: pinyin / strokes / id (then the player id)
    list_new_by_registration: bool = False  # B–S §13(一)3: among equal ratings, players rated for the first time on
    #                                         this list come after the others, by registration date
    inactive_list_order: str = INACTIVE_BY_RATING  # B–S: the inactive list by pinyin
    # --- which events are rated
    eligibility: str = ELIGIBILITY_CGA_2011
    # --- the competition report (竞赛报告)
    unplayed_mark: str = UNPLAYED_PLUS_MINUS  # how a game not played is marked

    def we_method(self, fmt: EventFormat) -> str:
        """The expected-score method of an event format."""
        return getattr(self, f"we_{EventFormat(fmt).value}")

    def k_factor(self, games: int, latched: bool) -> int:
        """K (换算系数) for a player with ``games`` rated games before the event; ``latched`` once a
        published rating reached ``k_latch_rating`` (以后即使再降也永远取10)."""
        if latched and self.k_latch_rating is not None:
            return self.k_top
        return self.k_new if games < self.k_new_games else self.k_established

    def cap_for(self, rating: int) -> int | None:
        """The rating-difference cap of a player rated ``rating``: his band's (``cap_bands``), else ``cap``."""
        cap = self.cap
        for lo, band_cap in self.cap_bands:
            if rating >= lo:
                cap = band_cap
        return cap

    def too_far_below(self, rating: int, opponent: int) -> bool:
        """``far_below_not_rated``: the game of a player rated ``rating`` against ``opponent`` is not rated
        for him."""
        rule = self.far_below_not_rated
        return rule is not None and rating >= rule[0] and rating - opponent > rule[1]

    def has_cap(self) -> bool:
        return self.cap is not None or any(c is not None for _, c in self.cap_bands)

    def start_rating(self, gender: Any, who: str = "") -> int:
        """The newcomer's provisional/entry rating by gender (男/女)."""
        value = getattr(gender, "value", gender)
        if value == "M":
            return self.start_rating_male
        if value == "F":
            return self.start_rating_female
        player = f"player {who}: " if who else ""
        raise ValueError(f"{player}a newcomer's provisional rating needs his gender (M/F)")


CGA_GOMOKU_2011 = RuleSet(
    name="cga-gomoku-2011",
    title="中国围棋协会五子棋项目等级分制度实施办法（暂行）2011",
)

BJSH_GOMOKU_2007 = RuleSet(
    name="bjsh-gomoku-2007",
    title="京沪五子棋棋手等级分制和技术等级标准实施细则 2007",
    publication_months=(1, 4, 7, 10),
    k_latch_rating=2400,
    we_swiss=WE_PER_GAME,
    we_team=WE_PER_GAME,
    we_match=WE_PER_GAME,
    we_knockout=WE_PER_GAME,
    we_round_robin=WE_PER_GAME,
    rr_unrated_opponent=RR_UNRATED_NOT_RATED,
    newcomer_method=NEWCOMER_PROVISIONAL,
    start_rating_male=2200,
    start_rating_female=2040,
    newcomer_min_rated_opponents=0,
    newcomer_min_games=9,
    newcomer_window=WINDOW_CALENDAR_YEARS,
    newcomer_window_length=2,
    dan_start=True,
    dan_start_registered_by=date(2007, 12, 31),
    reference_rating_start=True,
    activity_window_months=24,
    activity_min_games=4,
    reactivation_window_months=12,
    reactivation_min_games=4,
    removal_after_months=None,
    champion_max_days=20,
    dan_start_granted_by=("中国棋院",),
    board_rule=False,  # the B–S text has no per-board clause
    list_tie_order=TIE_STROKES,
    list_new_by_registration=True,
    inactive_list_order=INACTIVE_BY_PINYIN,
    eligibility=ELIGIBILITY_BJSH_2007,
    unplayed_mark=UNPLAYED_STAR,
)

CN_GO_1995 = RuleSet(
    name="cn-go-1995",
    title="中国围棋等级分（1995 试行）",
    k_new=10,
    k_established=10,
    k_top=10,
    k_latch_rating=None,
    we_swiss=WE_AVERAGING,
    we_team=WE_AVERAGING,
    we_match=WE_AVERAGING,
    we_knockout=WE_PER_GAME,
    we_round_robin=WE_GO_ROUND_ROBIN,
    rr_unrated_opponent=RR_UNRATED_NOT_RATED,
    newcomer_method=NEWCOMER_NOT_RATED,
    newcomer_min_rated_opponents=0,
    zero_score_rule=ZERO_SCORE_OFF,
    dan_start=True,
    dan_start_kyu=False,
    reference_rating_start=True,
    activity_window_months=None,
    removal_after_months=None,
    international_min_score=Decimal("0.5"),
    eligibility=ELIGIBILITY_GO_1995,
)

BUILTIN_RULES: dict[str, RuleSet] = {r.name: r for r in (CGA_GOMOKU_2011, BJSH_GOMOKU_2007, CN_GO_1995)}

# --- validation of settings (shared by the built-ins and TOML variants)

_CHOICES: dict[str, tuple[str, ...]] = {
    "we_swiss": WE_METHODS,
    "we_team": WE_METHODS,
    "we_match": WE_METHODS,
    "we_knockout": WE_METHODS,
    "we_round_robin": WE_METHODS,
    "rr_unrated_opponent": RR_UNRATED_CHOICES,
    "newcomer_method": NEWCOMER_METHODS,
    "newcomer_window": WINDOW_KINDS,
    "zero_score_rule": ZERO_SCORE_CHOICES,
    "list_tie_order": TIE_CHOICES,
    "inactive_list_order": INACTIVE_ORDER_CHOICES,
    "eligibility": ELIGIBILITY_CHOICES,
    "unplayed_mark": UNPLAYED_MARKS,
}
_OPTIONAL_INT = {"k_latch_rating", "dp_at_extremes", "activity_window_months", "removal_after_months",
                 "champion_max_days"}
_NON_NEGATIVE_INT = {"k_new", "k_new_games", "k_established", "k_top", "start_rating_male", "start_rating_female",
                     "newcomer_min_rated_opponents", "newcomer_min_games", "newcomer_window_length",
                     "activity_min_games", "reactivation_window_months", "reactivation_min_games"}
_BOOL = {"round_ra_first", "dan_start", "dan_start_kyu", "reference_rating_start", "champion_rule", "board_rule",
         "list_new_by_registration"}
_DECIMAL = {"newcomer_bonus_per_half_point"}
_OPTIONAL_DECIMAL = {"international_min_score"}
_TEXT = {"name", "title"}
_NONE_WORDS = ("none", "off")


#: No setting needs a number beyond this (ratings, months, games); larger ones are typing errors that would
#: overflow the engine's fixed-width arrays.
SETTING_MAX = 1_000_000


def _shown(value: Any) -> str:
    """A value as a message shows it: short (a fuzzed file may hold a megabyte in one setting)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _check_int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SETTING_MAX:
        raise RulesError(f"setting '{key}': expected a whole number from 0 to {SETTING_MAX}, got {_shown(value)}")
    return value


def _check_decimal(key: str, value: Any) -> Decimal:
    if isinstance(value, bool) or isinstance(value, float):
        # TOML floats are binary: ask for a string so 12.5 stays exact.
        raise RulesError(f"setting '{key}': write the number as a string (\"{value}\") or an integer")
    if not isinstance(value, (int, str, Decimal)):
        raise RulesError(f"setting '{key}': expected a decimal number, got {_shown(value)}")
    try:
        number = Decimal(str(value)) if not isinstance(value, Decimal) else value
    except InvalidOperation:
        raise RulesError(f"setting '{key}': expected a decimal number, got {_shown(value)}") from None
    if not number.is_finite() or abs(number) > SETTING_MAX:
        raise RulesError(f"setting '{key}': expected a decimal number from −{SETTING_MAX} to {SETTING_MAX}, "
                         f"got {_shown(value)}")
    return number


def _check_cap_bands(value: Any) -> tuple[tuple[int, int | None], ...]:
    """``[[from rating, cap or "none"], …]``: whole numbers, each rating once; sorted by rating."""
    shape = "a list of [from rating, cap or \"none\"] pairs"
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"setting 'cap_bands': expected {shape}, got {value!r}")
    out: list[tuple[int, int | None]] = []
    for pair in value:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise RulesError(f"setting 'cap_bands': expected {shape}, got {pair!r}")
        lo, cap = pair
        if isinstance(lo, bool) or not isinstance(lo, int) or lo < 0:
            raise RulesError(f"setting 'cap_bands': a band's rating must be a whole number ≥ 0, got {lo!r}")
        if cap is None or (isinstance(cap, str) and cap.lower() in _NONE_WORDS):
            cap = None
        elif isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise RulesError(f"setting 'cap_bands': a band's cap must be a whole number ≥ 1 or \"none\", got {cap!r}")
        out.append((lo, cap))
    if len({lo for lo, _ in out}) < len(out):
        raise RulesError("setting 'cap_bands': a rating is given twice")
    return tuple(sorted(out))


def _check_setting(key: str, value: Any) -> Any:
    """The validated value of one setting (raises ``RulesError`` naming ``key``)."""
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise RulesError(f"setting '{key}': expected one of {', '.join(_CHOICES[key])}; got {value!r}")
        return value
    if key == "cap":  # FIDE's rule as the texts know it: 350 points until 2009, then 400 (spec: none/350/400)
        if value is None or (isinstance(value, str) and value.lower() in _NONE_WORDS):
            return None
        if isinstance(value, bool) or value not in CAP_CHOICES:
            raise RulesError(f"setting 'cap': expected none, 350 or 400, got {value!r}")
        return value
    if key == "cap_bands":
        return _check_cap_bands(value)
    if key == "far_below_not_rated":
        if value is None or (isinstance(value, str) and value.lower() in _NONE_WORDS):
            return None
        if (not isinstance(value, (list, tuple)) or len(value) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)):
            raise RulesError(f"setting '{key}': expected [rating, difference] (whole numbers ≥ 0) or \"none\", "
                             f"got {value!r}")
        return (value[0], value[1])
    if key == "colour_advantage":
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > COLOUR_ADVANTAGE_LIMIT:
            raise RulesError(f"setting '{key}': expected a whole number of rating points from "
                             f"-{COLOUR_ADVANTAGE_LIMIT} to {COLOUR_ADVANTAGE_LIMIT}, got {value!r}")
        return value
    if key in _OPTIONAL_INT:
        if value is None or (isinstance(value, str) and value.lower() in _NONE_WORDS):
            return None
        if _check_int(key, value) == 0 and key != "dp_at_extremes":
            raise RulesError(f"setting '{key}': expected a positive whole number or \"none\", got 0")
        return value
    if key in _NON_NEGATIVE_INT:
        return _check_int(key, value)
    if key in _BOOL:
        if not isinstance(value, bool):
            raise RulesError(f"setting '{key}': expected true or false, got {value!r}")
        return value
    if key in _DECIMAL:
        return _check_decimal(key, value)
    if key in _OPTIONAL_DECIMAL:
        if value is None or (isinstance(value, str) and value.lower() in _NONE_WORDS):
            return None
        return _check_decimal(key, value)
    if key in _TEXT:
        if not isinstance(value, str) or not value.strip():
            raise RulesError(f"setting '{key}': expected a non-empty text, got {value!r}")
        return value
    if key == "publication_months":
        if (not isinstance(value, (list, tuple)) or not value
                or any(isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= 12 for m in value)):
            raise RulesError(f"setting '{key}': expected a list of months 1–12, got {value!r}")
        return tuple(sorted(set(value)))
    if key == "champion_formats":
        if not isinstance(value, (list, tuple)) or any(v not in FORMATS for v in value):
            raise RulesError(f"setting '{key}': expected a list of formats from {', '.join(FORMATS)}; got {value!r}")
        return tuple(value)
    if key == "dan_start_granted_by":
        if (not isinstance(value, (list, tuple))
                or any(not isinstance(v, str) or not v.strip() for v in value)):
            raise RulesError(f"setting '{key}': expected a list of granting bodies (texts), got {value!r}")
        return tuple(v.strip() for v in value)
    if key == "dan_start_registered_by":
        if value is None or (isinstance(value, str) and value.lower() in _NONE_WORDS):
            return None
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value))
        except ValueError:
            raise RulesError(f"setting '{key}': expected a date YYYY-MM-DD or \"none\", got {value!r}") from None
    raise RulesError(f"unknown setting '{key}'")


SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet))

#: One line per setting, for ``qiyuan rules show`` and the portal.
SETTING_HELP: dict[str, str] = {
    "name": "rule-set name",
    "title": "the official text",
    "publication_months": "lists are published on the 1st of these months",
    "k_new": "K for a player's first k_new_games rated games",
    "k_new_games": "how many games K stays at k_new",
    "k_established": "K after that",
    "k_top": "K for good once a published rating reached k_latch_rating",
    "k_latch_rating": "published rating that latches K at k_top (none: no latch)",
    "we_swiss": "We method in Swiss events (averaging / per_game / go_round_robin)",
    "we_team": "We method in team events",
    "we_match": "We method in matches",
    "we_knockout": "We method in knock-out events",
    "we_round_robin": "We method in round robins",
    "cap": "rating-difference cap (none / 350 / 400)",
    "far_below_not_rated": "[rating, difference]: a player rated at least rating is not rated on games against an "
                           "opponent more than difference below him (none: no such rule)",
    "cap_bands": "a cap by rating band: [[from rating, cap or none], …] — a player rated at least the band's rating "
                 "uses its cap instead of cap",
    "rr_unrated_opponent": "rating of an unrated round-robin opponent for rated players "
                           "(event_ru / ra / provisional / not_rated)",
    "colour_advantage": "points added to Black's rating difference in We, for games whose colour is known "
                        "(games.csv's black column; 0: off, as in every official rule set)",
    "newcomer_method": "how a newcomer is rated (performance / provisional / not_rated)",
    "start_rating_male": "newcomer's entry (CGA) or provisional (B–S) rating, men",
    "start_rating_female": "the same, women",
    "newcomer_min_rated_opponents": "rated opponents a newcomer must meet in an event for it to count",
    "newcomer_bonus_per_half_point": "Ru: points per half point above 50 %",
    "round_ra_first": "round Ra to an integer before computing Ru",
    "dp_at_extremes": "dp at 0 % / 100 % (none: indeterminate)",
    "newcomer_min_games": "counted games needed for a first rating",
    "newcomer_window": "window of those games: months or calendar_years",
    "newcomer_window_length": "length of that window",
    "zero_score_rule": "unrated player scoring 0: his games ignored (repeat / once / off)",
    "dan_start": "a player without a rating starts from his dan/kyu rating",
    "dan_start_registered_by": "…only if registered by this date (none: any date)",
    "dan_start_kyu": "kyu grades start too (not only dan grades)",
    "dan_start_granted_by": "a dan (not kyu) granted by one of these bodies starts from the table at any "
                            "registration date",
    "reference_rating_start": "a reference (foreign / RIF) rating is a starting rating",
    "activity_window_months": "activity window (none: every rated player is active)",
    "activity_min_games": "fewer rated games in the window: inactive",
    "reactivation_window_months": "window in which an inactive player can become active again",
    "reactivation_min_games": "games in that window to be active again",
    "removal_after_months": "removal after this long on the inactive list (none: never)",
    "champion_rule": "the champion does not lose points (冠军不降分)",
    "champion_max_days": "…except in events longer than this many days (none: any length)",
    "champion_formats": "event formats the champion rule applies to",
    "international_min_score": "no loss in an international event at this score fraction (none: no such rule)",
    "board_rule": "national team championship: the best score rate on each board does not lose points",
    "list_tie_order": "list order of equal ratings: pinyin / strokes / id (then the player id)",
    "list_new_by_registration": "equal ratings: players rated for the first time on the list last, by registration date",
    "inactive_list_order": "order of the inactive list: rating (as the others) / pinyin",
    "eligibility": "the conditions an event must meet to be rated: cga-2011 / bjsh-2007 / go-1995 / none",
    "unplayed_mark": "how the competition report marks a game not played: plus_minus (+ / −) or star (*)",
}


def with_settings(base: RuleSet, overrides: dict[str, Any], *, source: str = "") -> RuleSet:
    """``base`` with the given settings replaced; every problem is reported at once."""
    where = f"{source}: " if source else ""
    problems: list[str] = []
    values: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in SETTING_NAMES:
            problems.append(f"unknown setting '{key}'")
            continue
        try:
            values[key] = _check_setting(key, value)
        except RulesError as exc:
            problems.append(str(exc))
    if problems:
        raise RulesError(where + "; ".join(problems))
    return dataclasses.replace(base, **values)


def parse_settings_text(text: str | bytes, *, source: str) -> dict[str, Any]:
    """The settings of a variant or overrides file's text (UTF-8 TOML); a clear refusal for anything else."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RulesError(f"{source}: not UTF-8 text (byte {exc.start + 1})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{source}: not valid TOML ({exc})") from None


def _read_variant(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RulesError(f"{path}: no such file") from None
    except OSError as exc:
        raise RulesError(f"{path}: cannot be read ({exc.strerror or type(exc).__name__})") from None
    return parse_settings_text(raw, source=str(path))


def load_rules(name_or_path: str | Path) -> RuleSet:
    """A built-in rule set by name, or a TOML variant file (``base = "…"`` plus overrides)."""
    text = str(name_or_path)
    if text in BUILTIN_RULES:
        return BUILTIN_RULES[text]
    path = Path(text)
    if path.suffix.lower() != ".toml":
        raise RulesError(f"unknown rule set '{text}' (built in: {', '.join(BUILTIN_RULES)}; or give a .toml file)")
    return rules_from_mapping(_read_variant(path), source=str(path))


def _checked_base(value: Any, source: str) -> str:
    if value is None:
        raise RulesError(f"{source}: missing 'base' (one of {', '.join(BUILTIN_RULES)})")
    if not isinstance(value, str) or value not in BUILTIN_RULES:
        raise RulesError(f"{source}: setting 'base': unknown rule set {_shown(value)} "
                         f"(one of {', '.join(BUILTIN_RULES)})")
    return value


def base_name(name_or_path: str | Path) -> str:
    """The built-in rule set a rule set starts from: a built-in itself, or a variant file's ``base``."""
    text = str(name_or_path)
    if text in BUILTIN_RULES:
        return text
    return _checked_base(_read_variant(Path(text)).get("base"), text)


def rules_from_mapping(data: dict[str, Any], *, source: str = "rules") -> RuleSet:
    """A variant from parsed TOML: ``base`` names a built-in rule set, the other keys override it."""
    data = dict(data)
    base_name = _checked_base(data.pop("base", None), source)
    data.setdefault("name", f"{base_name}+{Path(source).stem}")
    return with_settings(BUILTIN_RULES[base_name], data, source=source)


def rules_with_overrides(base: str, text: str | bytes, *, name: str, source: str = "overrides") -> RuleSet:
    """A rating list's rules: the built-in ``base`` with the TOML ``text`` overriding it (``office list add
    --overrides``), validated by the same checks as a variant file; ``base`` in the text, if any, must agree."""
    data = parse_settings_text(text, source=source)
    if "base" in data and data["base"] != base:
        raise RulesError(f"{source}: setting 'base': the list keeps rule set {base}, the file names "
                         f"{_shown(data['base'])} (leave 'base' out of an overrides file)")
    data["base"] = base
    data.setdefault("name", name)
    rules = rules_from_mapping(data, source=source)
    if rules.colour_advantage:
        raise RulesError(f"{source}: setting 'colour_advantage': the office's games carry no colours, so a list "
                         f"cannot use it (it is for variants given to qiyuan rate and qiyuan rules)")
    return rules


def rules_as_dict(rules: RuleSet, *, every: bool = False) -> dict[str, Any]:
    """Every setting as plain TOML-friendly values (for display and round trips); a setting of
    ``_WRITTEN_ONLY_WHEN_SET`` at its default only with ``every`` (for display: ``rules show``)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name == "cap_bands":
            value = [[lo, "none" if cap is None else cap] for lo, cap in value]
        elif f.name == "far_below_not_rated" and value is not None:
            value = list(value)
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Decimal):
            value = str(value)
        elif isinstance(value, date):
            value = value.isoformat()
        elif value is None:
            value = "none"
        if not every and f.name in _WRITTEN_ONLY_WHEN_SET and value == f.default:
            continue
        out[f.name] = value
    return out


#: Settings ``rules_as_dict`` leaves out at their default, so that what the office stores for a list, a bundle's
#: ``inputs/rules.toml`` and every digest over them stay what they were before the setting existed.
_WRITTEN_ONLY_WHEN_SET = frozenset({"colour_advantage"})


# The built-ins pass the same validation as a variant file.
for _rules in BUILTIN_RULES.values():
    with_settings(_rules, rules_as_dict(_rules), source=_rules.name)
del _rules
