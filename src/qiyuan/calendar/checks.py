"""Checks of a registered event (赛事注册) before it is played: all at once, each naming its clause.

BJSH §3: 通过赛事注册，专设机构可对重要赛事安排是否合理进行检查，以避免与其他赛事发生日程冲突。
(三) 如两方以外地区举办的重大赛事提请纳入等级分计算，必须提前90天由组办方向专设机构提出申请，专设机构进行评估后，
就其是否纳入等级分计算提出报告，由协商主体协商确定。

What is checked:

* every eligibility condition of the rule set that a registration already
  shows (organiser level, arbiters, planned rounds against the expected
  field, time control, a dan event's size and published standard) — by the
  rating core's ``check_eligibility`` on ``facts_in_advance``, which fills
  what only the report can show (who is rated, which games were played) with
  the best case, so a failure there means "cannot be rated whatever happens";
  those conditions are listed as notes instead (``TextRules.not_known_in_advance``);
* the rules of play (CGA Art. 5(二); BJSH §7(二)(三));
* an event outside the two regions: applied 90 days ahead, and rated only if
  the parties agree (BJSH §3(三));
* clashes: other registered events on overlapping dates at the same
  organiser level or in the same city (BJSH §3), named.

``assess`` gathers them; ``Assessment.rateable`` is "rateable if played as
registered". The clash check is the office's scheduling service for every
list; the rest follows the official text of the list's rule set
(``TextRules``, one per text).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType

from qiyuan.errors import Problem
from qiyuan.rating.eligibility import ArbiterFacts, Eligibility, EventFacts, OrganiserLevel, TimeControl
from qiyuan.rating.model import EventFormat
from qiyuan.rating.rules import ELIGIBILITY_BJSH_2007, ELIGIBILITY_CGA_2011, ELIGIBILITY_GO_1995

#: The rules of play (竞赛规则) an event registers.
RULES_NATIONAL = "national"  # 国家体育总局审定的最新版五子棋竞赛规则
RULES_RIF = "rif"  # RIF竞赛规则（五子棋国际竞赛规则）
RULES_OF_PLAY = (RULES_NATIONAL, RULES_RIF)

#: The clause of the clash check (the only text that asks for it).
CLASH_CLAUSE = "BJSH §3"


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a check found: the clause it names ("" for none) and an English message template with its
    values (the template is also the translation key, as for ``qiyuan.errors.Problem``)."""

    clause: str
    message: str
    params: Mapping[str, object] | None = None

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The message alone, translated by ``translate`` when given."""
        return Problem(message=self.message, params=self.params).text(translate)

    def __str__(self) -> str:
        return f"{self.clause}: {self.text()}" if self.clause else self.text()


def finding(clause: str, message: str, **params: object) -> Finding:
    return Finding(clause, message, MappingProxyType(params) if params else None)


@dataclass(frozen=True, slots=True)
class TextRules:
    """What one official text asks of an event before it is played, besides its eligibility conditions."""

    #: the regions the text's own events are held in (BJSH: 京沪); events elsewhere apply ahead
    home_regions: tuple[str, ...] = ()
    notice_days_outside: int | None = None
    notice_clause: str = ""
    #: the clause requiring the national rules of play ("" : the text says nothing about them)
    rules_clause: str = ""
    #: the clause allowing RIF rules with the approval of the region's organisation ("" : never allowed)
    rif_clause: str = ""
    #: conditions only the report can show (entrants, games played), said as notes
    not_known_in_advance: tuple[Finding, ...] = ()
    #: the same, for a dan/kyu event (等级赛)
    not_known_in_advance_dan: tuple[Finding, ...] = ()


CGA_2011 = TextRules(
    rules_clause="CGA Art. 5(二)",
    not_known_in_advance=(
        finding("CGA Art. 5(四)–(六)", "the rated share of the field is checked when the report arrives "
                "(the entrants are not known yet)"),
        finding("CGA Art. 5(十一)", "only games actually played are rated: checked on the report"),
    ),
)
BJSH_2007 = TextRules(
    home_regions=("北京", "上海"),
    notice_days_outside=90,
    notice_clause="BJSH §3(三)",
    rules_clause="BJSH §7(二)",
    rif_clause="BJSH §7(三)",
    not_known_in_advance=(
        finding("BJSH §12", "only games actually played are rated: checked on the report"),
    ),
    not_known_in_advance_dan=(
        finding("BJSH §9(一)", "a dan/kyu event's share of unrated players (at most 20 %) is checked when the "
                "report arrives"),
    ),
)
GO_1995 = TextRules(
    not_known_in_advance=(finding("Go §5", "only games actually played are rated: checked on the report"),),
)
NO_TEXT = TextRules()

#: The text rules by the rule set's eligibility conditions (the family it derives from).
TEXTS: dict[str, TextRules] = {ELIGIBILITY_CGA_2011: CGA_2011, ELIGIBILITY_BJSH_2007: BJSH_2007,
                               ELIGIBILITY_GO_1995: GO_1995}


def text_rules(conditions: str) -> TextRules:
    """The registration rules of the official text whose eligibility conditions a rule set names
    (``RuleSet.eligibility``; none for a rule set that rates every event)."""
    return TEXTS.get(conditions, NO_TEXT)


def in_home_regions(city: str, rules: TextRules) -> bool | None:
    """Whether ``city`` lies in the text's home regions (``北京``, ``北京市朝阳区`` …); ``None`` when the text
    has none (the question does not arise)."""
    if not rules.home_regions:
        return None
    city = (city or "").strip()
    return any(city.startswith(region) for region in rules.home_regions)


@dataclass(frozen=True, slots=True)
class PlannedEvent:
    """An event as registered: what the organiser says it will be."""

    name: str
    start: date
    end: date
    applied_on: date  # the day the registration reached the office (BJSH §3(三): 90 days ahead)
    format: EventFormat
    rounds: int  # planned rounds
    expected_players: int
    time_control: TimeControl
    organiser_level: OrganiserLevel = OrganiserLevel.OTHER
    national: bool = False
    international: bool = False
    agreed_by_parties: bool = False  # BJSH §3(三), §6(三)(四): 经协商主体协商确定
    city: str = ""
    inside_regions: bool | None = None  # None: the text has no home regions
    rules_of_play: str = RULES_NATIONAL
    rif_approved: bool = False  # BJSH §7(三): RIF rules approved by the region's Gomoku organisation
    arbiters: tuple[ArbiterFacts, ...] = ()  # the chief arbiter first
    grants_grades: bool = False  # 等级赛 (BJSH §8–9)
    standard_published_on: date | None = None  # BJSH §9(三): 比赛等级和称号标准应在比赛开始前公布


@dataclass(frozen=True, slots=True)
class Scheduled:
    """Another registered event, as the clash check sees it."""

    code: str
    name: str
    start: date
    end: date
    city: str = ""
    organiser_level: OrganiserLevel = OrganiserLevel.OTHER


@dataclass(frozen=True, slots=True)
class Clash:
    """Another registered event on overlapping dates at the same organiser level or in the same city."""

    code: str
    name: str
    start: date
    end: date
    same_city: bool
    same_level: bool

    def finding(self) -> Finding:
        message = {
            (True, True): "clashes with {ref} {name} ({start} – {end}): same dates, same city and same organiser level",
            (True, False): "clashes with {ref} {name} ({start} – {end}): same dates and same city",
            (False, True): "clashes with {ref} {name} ({start} – {end}): same dates and same organiser level",
        }[(self.same_city, self.same_level)]
        return finding(CLASH_CLAUSE, message, ref=self.code, name=self.name, start=self.start.isoformat(),
                       end=self.end.isoformat())


@dataclass(frozen=True, slots=True)
class Assessment:
    """The outcome of the checks: failed conditions, clashes, and notes on what only the report can show."""

    failures: tuple[Finding, ...] = ()
    clashes: tuple[Clash, ...] = ()
    notes: tuple[Finding, ...] = ()

    @property
    def rateable(self) -> bool:
        """Rateable if played as registered: no condition fails."""
        return not self.failures

    @property
    def approvable(self) -> bool:
        """Approved without an override: rateable, and clashing with nothing."""
        return self.rateable and not self.clashes

    @property
    def problems(self) -> tuple[Finding, ...]:
        """Everything that stands in the way of approval: the failures, then each clash."""
        return self.failures + tuple(c.finding() for c in self.clashes)

    def verdict(self) -> str:
        if self.rateable:
            return "rateable if played as registered"
        return f"not rateable as registered: {len(self.failures)} condition(s) fail"


def facts_in_advance(p: PlannedEvent) -> EventFacts:
    """The eligibility facts a registration shows; what only the report can show is the best case (every
    entrant rated, every game played), so a failure means the event cannot be rated as registered."""
    return EventFacts(
        format=p.format, players=p.expected_players, rounds=p.rounds, rated_players=p.expected_players,
        organiser_level=p.organiser_level, national=p.national, international=p.international,
        agreed_by_parties=p.agreed_by_parties, arbiters=p.arbiters, time_control=p.time_control,
        rated_men=p.expected_players, rated_women=p.expected_players,
        played_games=p.rounds * (p.expected_players // 2), unplayed_games=0, dan_event=p.grants_grades,
        unrated_players=0,
        standards_published=p.standard_published_on is not None and p.standard_published_on < p.start,
    )


def notice_failures(p: PlannedEvent, rules: TextRules) -> list[Finding]:
    """BJSH §3(三): an event outside the two regions applies 90 days ahead, and the parties decide."""
    if rules.notice_days_outside is None or p.inside_regions is not False:
        return []
    regions = "、".join(rules.home_regions)
    out = []
    ahead = (p.start - p.applied_on).days
    if ahead < rules.notice_days_outside:
        out.append(finding(rules.notice_clause, "an event outside {regions} applies {days} days before it starts; "
                           "this one applied on {applied}, {ahead} day(s) before its start on {start}",
                           regions=regions, days=rules.notice_days_outside, applied=p.applied_on.isoformat(),
                           ahead=ahead, start=p.start.isoformat()))
    if not p.agreed_by_parties:
        out.append(finding(rules.notice_clause, "an event outside {regions} is rated only if the parties (协商主体) "
                           "agree after the office's evaluation; not agreed yet", regions=regions))
    return out


def rules_failures(p: PlannedEvent, rules: TextRules) -> list[Finding]:
    """CGA Art. 5(二), BJSH §7(二): the national rules; BJSH §7(三): RIF rules with the region's approval."""
    if not rules.rules_clause or p.rules_of_play == RULES_NATIONAL:
        return []
    if rules.rif_clause:
        if p.rif_approved:
            return []
        return [finding(rules.rif_clause, "RIF rules are used only with the approval of the region's Gomoku "
                        "organisation (本地区五子棋组织); not approved")]
    return [finding(rules.rules_clause, "the national rules (国家体育总局审定的中国五子棋竞赛规则) must be used; "
                    "registered with RIF rules")]


def _same_city(a: str, b: str) -> bool:
    a, b = (a or "").strip(), (b or "").strip()
    return bool(a) and a == b


def clashes(p: PlannedEvent, others: Iterable[Scheduled]) -> tuple[Clash, ...]:
    """BJSH §3: the other events on overlapping dates at the same organiser level or in the same city."""
    out = []
    for o in others:
        if o.start <= p.end and p.start <= o.end:
            same_city, same_level = _same_city(o.city, p.city), o.organiser_level is p.organiser_level
            if same_city or same_level:
                out.append(Clash(o.code, o.name, o.start, o.end, same_city, same_level))
    return tuple(sorted(out, key=lambda c: (c.start, c.code)))


def assess(p: PlannedEvent, eligibility: Eligibility, rules: TextRules, others: Iterable[Scheduled]) -> Assessment:
    """Every check at once: ``eligibility`` is ``check_eligibility`` on ``facts_in_advance(p)``."""
    failures = [Finding(f.clause, f.problem().message, f.problem().params) for f in eligibility.failures]
    failures += rules_failures(p, rules)
    failures += notice_failures(p, rules)
    notes = list(rules.not_known_in_advance) + (list(rules.not_known_in_advance_dan) if p.grants_grades else [])
    notes += [Finding("", n) for n in eligibility.notes]
    return Assessment(tuple(failures), clashes(p, others), tuple(notes))
