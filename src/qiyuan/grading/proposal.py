"""An event's grade proposals (授予建议): its final standings under the grant policy.

For one event: is it a grading event (等级赛)? — its class (the standard recorded
for it names one), the class's criteria, and the conditions of BJSH §9: enough
players, few unrated, a national arbiter in charge, the standard recorded before
the start. An event that misses any grants nothing, and the proposal says which
condition failed and why.

For each player of a grading event: the grade his placing earns (the class's
``open`` table; for a woman also her placing among the women in the ``women``
table, BJSH §9(四) — the better of the two), capped by the cap in force on the
event's last day (第五条), then compared with the grade he holds that day. Each
line says what he is granted and by which clause, or why not: he holds it already,
it is above the cap, his placing earns nothing, he is not eligible.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from qiyuan.errors import Problem, problem
from qiyuan.grading.policy import EventClass, GrantPolicy, PlacingRow, table_grade
from qiyuan.people.grades import strength

#: the clauses the conditions are named by
CLAUSE_PLAYERS = "BJSH §9(一)"
CLAUSE_ARBITER = "BJSH §9(二)"
CLAUSE_STANDARD = "BJSH §9(三)"
CLAUSE_WOMEN = "BJSH §9(四)"
CLAUSE_CAP = "第五条"
CLAUSE_CLASS = "policy"


@dataclass(frozen=True, slots=True)
class Holding:
    """A grade a player holds (or was granted): since when, from which body, at which event ("" none)."""

    grade: str
    granted_on: date | None = None
    body: str = ""
    event: str = ""


@dataclass(frozen=True, slots=True)
class Standard:
    """The grading standard recorded for the event (比赛等级和称号标准): its class, and the day the office
    recorded it."""

    event_class: str
    recorded_on: date
    ref: str = ""


@dataclass(frozen=True, slots=True)
class Placing:
    """One player's final placing and what the office knows of him."""

    player: str  # federation ID
    name: str
    rank: int | None
    gender: str = ""  # "M", "F" or ""
    status: str = "active"  # the registry's status: only active players are granted
    nationality: str = ""
    held: Holding | None = None  # the grade held on the grant date (grants of this event left out)
    granted_here: Holding | None = None  # already granted for this event


@dataclass(frozen=True, slots=True)
class GradingEvent:
    """The facts of one event that the proposal looks at."""

    code: str
    name: str
    start_date: date
    end_date: date
    organiser_level: str
    national: bool
    list_code: str
    unrated: int  # players without a published rating when it began
    chief_arbiter_level: str = ""  # "international", "national", … ("" none or unknown)
    chief_arbiter: str = ""
    standard: Standard | None = None
    placings: tuple[Placing, ...] = ()

    @property
    def players(self) -> int:
        return len(self.placings)

    @property
    def women_only(self) -> bool:
        return bool(self.placings) and all(p.gender == "F" for p in self.placings)


class Outcome(str, enum.Enum):
    """What a proposal line says."""

    GRANT = "grant"  # granted on confirmation
    GRANTED = "granted"  # granted already, for this event
    HOLDS = "holds"  # holds this grade or a higher one
    ABOVE_CAP = "above_cap"  # earns more than the cap and holds the cap (or above_cap = "none")
    NO_GRADE = "no_grade"  # the placing earns nothing in the class's tables
    NOT_ELIGIBLE = "not_eligible"  # not a player the federation grants (status, nationality)


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line: his placing, what it earns (``earned``, by ``row`` of table ``table``), what is
    granted (``grade``) and why (``reason``: a templated ``Problem``, translatable)."""

    placing: Placing
    women_rank: int | None
    outcome: Outcome
    reason: Problem
    earned: str | None = None
    grade: str | None = None
    table: str = ""  # "open" or "women"
    row: PlacingRow | None = None
    clause: str = ""  # e.g. "national open 3-4 (BJSH §9(四))"


@dataclass(frozen=True, slots=True)
class Proposal:
    """The proposal for one event: the class, the grant date and cap, the failed conditions, the lines."""

    event: GradingEvent
    policy: str
    event_class: EventClass | None
    grant_on: date
    cap: str | None
    failures: tuple[Problem, ...] = ()
    lines: tuple[Line, ...] = field(default_factory=tuple)

    @property
    def grants(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.outcome is Outcome.GRANT)

    @property
    def grading_event(self) -> bool:
        """Every condition met: the event grants."""
        return not self.failures


def _failure(clause: str, message: str, **params) -> Problem:
    return problem("{clause}: " + message, code="grades.condition", clause=clause, **params)


def conditions_failed(policy: GrantPolicy, ev: GradingEvent, cls: EventClass | None) -> list[Problem]:
    """Every condition the event misses (BJSH §9, the policy's class, the cap), each named by its clause."""
    out: list[Problem] = []
    c = policy.conditions
    if ev.standard is None:
        out.append(_failure(CLAUSE_STANDARD, "no grading standard was recorded for this event, so it is not a "
                            "grading event"))
    elif cls is None:
        out.append(_failure(CLAUSE_CLASS, "the standard names class {cls!r}, which the policy {policy} does not "
                            "have", cls=ev.standard.event_class, policy=policy.name))
    else:
        for why in cls.mismatches(organiser_level=ev.organiser_level, national=ev.national, list_code=ev.list_code,
                                  women_only=ev.women_only):
            out.append(_failure(CLAUSE_CLASS, why.message, **dict(why.params or {})))
    if c.standard_before_start and ev.standard is not None and ev.standard.recorded_on >= ev.start_date:
        out.append(_failure(CLAUSE_STANDARD, "the standard was recorded on {recorded}, not before the start on "
                            "{start}", recorded=ev.standard.recorded_on.isoformat(),
                            start=ev.start_date.isoformat()))
    if ev.players < c.min_players:
        out.append(_failure(CLAUSE_PLAYERS, "{players} players; a grading event needs at least {min}",
                            players=ev.players, min=c.min_players))
    if ev.players and Fraction(ev.unrated, ev.players) > c.max_unrated_share:
        out.append(_failure(CLAUSE_PLAYERS, "{unrated} of {players} players were unrated; at most {share} may be",
                            unrated=ev.unrated, players=ev.players, share=_percent(c.max_unrated_share)))
    if c.national_arbiter_in_charge and ev.chief_arbiter_level not in ("national", "international"):
        if ev.chief_arbiter:
            out.append(_failure(CLAUSE_ARBITER, "the chief arbiter {name} is not a national-level arbiter", name=ev.chief_arbiter))
        else:
            out.append(_failure(CLAUSE_ARBITER, "no chief arbiter is recorded; a national-level arbiter must be in "
                                "charge"))
    if policy.cap_on(ev.end_date) is None:
        first = policy.caps[0].since.isoformat() if policy.caps else "—"
        out.append(_failure(CLAUSE_CAP, "no cap is in force on {day} (the policy's first step is {first})",
                            day=ev.end_date.isoformat(), first=first))
    return out


def _percent(share: Fraction) -> str:
    value = share * 100
    return f"{value.numerator // value.denominator}%" if value.denominator == 1 else f"{float(value):.4g}%"


def women_ranks(placings: Sequence[Placing]) -> dict[str, int]:
    """Each woman's placing among the women (ties keep their shared placing: 1, 2, 2, 4)."""
    women = sorted((p for p in placings if p.gender == "F" and p.rank is not None), key=lambda p: p.rank)
    out: dict[str, int] = {}
    for i, p in enumerate(women):
        same = next((q for q in women[:i] if q.rank == p.rank), None)
        out[p.player] = out[same.player] if same is not None else i + 1
    return out


def propose(policy: GrantPolicy, ev: GradingEvent) -> Proposal:
    """The proposal for ``ev`` under ``policy`` (see the module's docstring). The grant date is the event's
    last day; a failed condition leaves every line out (nothing is granted)."""
    cls = policy.event_class(ev.standard.event_class) if ev.standard is not None else None
    failures = conditions_failed(policy, ev, cls)
    cap = policy.cap_on(ev.end_date)
    if failures or cls is None:
        return Proposal(ev, policy.name, cls, ev.end_date, cap, tuple(failures), ())
    women = women_ranks(ev.placings)
    lines = tuple(_line(policy, cls, cap, p, women.get(p.player)) for p in
                  sorted(ev.placings, key=lambda p: (p.rank is None, p.rank or 0, p.player)))
    return Proposal(ev, policy.name, cls, ev.end_date, cap, (), lines)


def _earned(cls: EventClass, p: Placing, women_rank: int | None) -> tuple[str, PlacingRow] | None:
    """The better of the open standard (his placing) and, for a woman, the women's (her placing among them)."""
    best: tuple[str, PlacingRow] | None = None
    candidates = [("open", table_grade(cls.open, p.rank))]
    if p.gender == "F":
        candidates.append(("women", table_grade(cls.women, women_rank)))
    for table, row in candidates:
        if row is not None and (best is None or strength(row.grade) > strength(best[1].grade)):
            best = (table, row)
    return best


def _clause(cls: EventClass, table: str, row: PlacingRow) -> str:
    """``national open 3-4`` — the class, its table and the row that applies."""
    return f"{cls.name} {table} {row.placings}" + (f" ({CLAUSE_WOMEN})" if table == "women" else "")


def _line(policy: GrantPolicy, cls: EventClass, cap: str | None, p: Placing, women_rank: int | None) -> Line:
    if p.granted_here is not None:
        earned = _earned(cls, p, women_rank)
        table, row = earned if earned is not None else ("", None)
        return Line(p, women_rank, Outcome.GRANTED, problem("granted {grade} on {day}", grade=p.granted_here.grade,
                    day=p.granted_here.granted_on.isoformat() if p.granted_here.granted_on else "—"),
                    earned=row.grade if row else None, grade=p.granted_here.grade, table=table, row=row,
                    clause=_clause(cls, table, row) if row else "")
    if p.status != "active":
        return Line(p, women_rank, Outcome.NOT_ELIGIBLE,
                    problem("not eligible: registration status {status}", status=p.status))
    if policy.nationalities and p.nationality not in policy.nationalities:
        return Line(p, women_rank, Outcome.NOT_ELIGIBLE,
                    problem("not eligible: nationality {nationality} (the policy grants {allowed})",
                            nationality=p.nationality or "—", allowed=", ".join(policy.nationalities)))
    earned = _earned(cls, p, women_rank)
    if earned is None:
        return Line(p, women_rank, Outcome.NO_GRADE, problem("placing {rank} earns no grade in class {cls}",
                    rank=p.rank if p.rank is not None else "—", cls=cls.name))
    table, row = earned
    clause = _clause(cls, table, row)
    grade = row.grade
    capped = cap is not None and strength(grade) > strength(cap) and grade.endswith("d")
    if capped:
        if policy.above_cap == "none":
            return Line(p, women_rank, Outcome.ABOVE_CAP, problem("earns {earned}, above the cap {cap} in force on "
                        "that day; the policy grants nothing above the cap", earned=grade, cap=cap),
                        earned=grade, table=table, row=row, clause=clause)
        grade = cap
    held = p.held
    if held is not None and (strength(held.grade) > strength(grade) or
                             (policy.only_raise and strength(held.grade) == strength(grade))):
        if capped:
            return Line(p, women_rank, Outcome.ABOVE_CAP, problem("earns {earned}, above the cap {cap}; holds "
                        "{held} already", earned=row.grade, cap=cap, held=held.grade),
                        earned=row.grade, table=table, row=row, clause=clause)
        why = (problem("earns {earned}; holds {held} already ({body}, {day})", earned=grade, held=held.grade,
                       body=held.body or "—", day=held.granted_on.isoformat()) if held.granted_on else
               problem("earns {earned}; holds {held} already (the registry's grade, undated)", earned=grade,
                       held=held.grade))
        return Line(p, women_rank, Outcome.HOLDS, why, earned=row.grade, table=table, row=row, clause=clause)
    reason = (problem("earns {earned}, above the cap; granted the cap {cap} ({cap_clause})", earned=row.grade, cap=cap,
                      cap_clause=CLAUSE_CAP) if capped else
              problem("placing {rank} earns {grade}", rank=p.rank, grade=grade) if table == "open" else
              problem("placing {rank} among the women earns {grade} ({women_clause})", rank=women_rank, grade=grade,
                      women_clause=CLAUSE_WOMEN))
    return Line(p, women_rank, Outcome.GRANT, reason, earned=row.grade, grade=grade, table=table, row=row,
                clause=clause)
