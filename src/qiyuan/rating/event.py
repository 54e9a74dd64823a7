"""一次比赛的等级分计算: one rated event, every player, with the explanation.

Reads like the texts, in their order:

1. Only games actually played are rated (未赛对局不计): forfeits and unplayed
   games are left out for both players.
2. Zero-score rule (CGA Art. 5(十二)): an unrated player who scores 0 is left
   out, with his opponents' games against him — repeated until no unrated
   player is left on zero.
3. Rated players: ΔR = K(W − We) against the opponents that count (rated ones;
   in a round robin also unrated ones, per ``rr_unrated_opponent``), We by the
   method of the event's format, K fixed at the start of the event.
4. Unrated players: CGA performance rating Ru (≥ 3 rated opponents), or the
   Beijing–Shanghai provisional start with K changes, or nothing (Go).
5. Protections of the event's ΣΔR: champion (冠军不降分), Go international ≥ 50 %.

Every player's Ro is the last published rating (no update inside a period).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from qiyuan.rating import results as R
from qiyuan.rating.champion import champions
from qiyuan.rating.exact import mean, round_half_up, to_decimal
from qiyuan.rating.expected import METHODS, Calculation, RatedGame, per_game
from qiyuan.rating.model import Event, EventFormat, Game, Result, Standing
from qiyuan.rating.newcomer import performance_rating, round_robin_dpa, round_robin_ra
from qiyuan.rating.rules import (NEWCOMER_NOT_RATED, NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL, RR_UNRATED_EVENT_RU,
                                 RR_UNRATED_NOT_RATED, RR_UNRATED_PROVISIONAL, RR_UNRATED_RA, ZERO_SCORE_OFF,
                                 ZERO_SCORE_ONCE, RuleSet)
from qiyuan.rating.state import NewcomerRecord, PlayerState

ZERO = Decimal(0)
_SCORE: dict[Result, tuple[Decimal, Decimal]] = {
    Result.WIN: (Decimal(1), ZERO),
    Result.LOSS: (ZERO, Decimal(1)),
    Result.DRAW: (Decimal("0.5"), Decimal("0.5")),
}


class Side(NamedTuple):
    """A played game from one player's side."""

    round: int
    opponent_id: str
    W: Decimal


@dataclass
class EventOutcome:
    changes: list[R.EventChange] = field(default_factory=list)
    records: dict[str, NewcomerRecord] = field(default_factory=dict)  # newcomer events that count


class _Event:
    """The working state of one event's calculation."""

    def __init__(self, rules: RuleSet, event: Event, games: Sequence[Game], states: Mapping[str, PlayerState]):
        self.rules = rules
        self.event = event
        self.round_robin = EventFormat(event.format) is EventFormat.ROUND_ROBIN
        self.games = sorted(games, key=lambda g: (g.round, g.player1, g.player2, g.result.value))
        self.players = sorted({p for g in self.games for p in (g.player1, g.player2)})
        missing = [p for p in self.players if p not in states]
        if missing:
            raise ValueError(f"event {event.id}: unknown player(s) {', '.join(missing)}")
        self.states = states
        self.ro = {p: states[p].rating for p in self.players if states[p].rating is not None}
        self.forfeits = {p for g in self.games if not g.result.played for p in (g.player1, g.player2)}
        self.played = [g for g in self.games if g.result.played]
        self.all_sides = self._all_sides()
        self.ignored: set[str] = set()  # players left out by the zero-score rule
        self.notes: dict[str, list[str]] = {p: [] for p in self.players}
        for p in sorted(self.forfeits):
            self.notes[p].append(R.NOTE_FORFEIT)

    # --- who is rated, who plays whom

    def rated(self, p: str) -> bool:
        return p in self.ro

    def _all_sides(self) -> dict[str, list[Side]]:
        out: dict[str, list[Side]] = {p: [] for p in self.players}
        for g in self.played:
            w1, w2 = _SCORE[g.result]
            out[g.player1].append(Side(g.round, g.player2, w1))
            out[g.player2].append(Side(g.round, g.player1, w2))
        return out

    def sides(self, p: str) -> list[Side]:
        """His played games that are still in the event (after the zero-score rule)."""
        if p in self.ignored:
            return []
        return [s for s in self.all_sides[p] if s.opponent_id not in self.ignored]

    def newcomer_sides(self, p: str) -> list[Side]:
        """The games that enter an unrated player's Ru: all of them in a CGA round robin, else those
        against rated opponents."""
        sides = self.sides(p)
        if self.round_robin and self.rules.newcomer_method == NEWCOMER_PERFORMANCE:
            return sides
        return [s for s in sides if self.rated(s.opponent_id)]

    # --- 2. zero-score rule

    def apply_zero_score_rule(self) -> None:
        rules = self.rules
        if rules.zero_score_rule == ZERO_SCORE_OFF or rules.newcomer_method == NEWCOMER_NOT_RATED:
            return
        while True:
            zero = [p for p in self.players
                    if not self.rated(p) and p not in self.ignored
                    and (sides := self.newcomer_sides(p)) and sum(s.W for s in sides) == 0]
            if not zero:
                return
            for p in zero:
                opponents = {s.opponent_id for s in self.sides(p)}
                self.ignored.add(p)
                self.notes[p].append(R.NOTE_ZERO_SCORE_IGNORED)
                for q in sorted(opponents):
                    if R.NOTE_ZERO_SCORE_OPPONENT not in self.notes[q]:
                        self.notes[q].append(R.NOTE_ZERO_SCORE_OPPONENT)
            if rules.zero_score_rule == ZERO_SCORE_ONCE:
                return

    # --- round-robin average for unrated players (Art. 6(一)2)

    def round_robin_ra(self) -> Fraction | None:
        participants = [p for p in self.players if self.sides(p)]
        rated = [p for p in participants if self.rated(p)]
        if not rated or len(participants) < 2:
            return None
        dpa = round_robin_dpa(
            ((sum((s.W for s in self.sides(p)), ZERO), len(self.sides(p))) for p in rated),
            dp_at_extremes=self.rules.dp_at_extremes,
        )
        return round_robin_ra([self.ro[p] for p in rated], dpa, len(participants) - 1,
                              round_first=self.rules.round_ra_first)

    def performance(self, p: str, ra: Fraction | None) -> tuple[Fraction | None, Fraction | None, list[Side]]:
        """(Rc, Ru, games entering Ru) of an unrated player (Art. 7)."""
        sides = self.newcomer_sides(p)
        if not sides:
            return None, None, sides
        if self.round_robin:
            rc = ra
        else:
            rc = mean(self.ro[s.opponent_id] for s in sides)
        if rc is None:
            return None, None, sides
        w = sum((s.W for s in sides), ZERO)
        ru = performance_rating(
            rc, w, len(sides), round_robin=self.round_robin,
            n_opponents=len({s.opponent_id for s in sides}),
            bonus_per_half_point=self.rules.newcomer_bonus_per_half_point,
            dp_at_extremes=self.rules.dp_at_extremes,
        )
        return rc, ru, sides


def _opponent_rating_for_rated(ev: _Event, q: str, ra: Fraction | None,
                               ru: Mapping[str, Fraction | None]) -> int | None:
    """The rating a rated player's game against ``q`` uses, or None when that game is not rated."""
    if ev.rated(q):
        return ev.ro[q]
    if not ev.round_robin:
        return None  # Art. 6(五): Swiss, team, match: only games against rated opponents
    how = ev.rules.rr_unrated_opponent
    if how == RR_UNRATED_EVENT_RU:
        value = ru.get(q)
        return round_half_up(value) if value is not None else None
    if how == RR_UNRATED_RA:
        return round_half_up(ra) if ra is not None else None
    if how == RR_UNRATED_PROVISIONAL:
        return ev.rules.start_rating(ev.states[q].gender, q)
    assert how == RR_UNRATED_NOT_RATED
    return None


def _protect(ev: _Event, p: str, calc: Calculation, games: int, champs: frozenset[str]) -> tuple[Decimal, list[str]]:
    """The event's ΣΔR after the champion and international protections, and the notes."""
    rules, event = ev.rules, ev.event
    notes: list[str] = []
    delta = calc.delta
    if delta >= 0:
        return delta, notes
    if rules.champion_rule and p in champs and EventFormat(event.format).value in rules.champion_formats:
        if rules.champion_max_days is not None and event.length_days > rules.champion_max_days:
            notes.append(R.NOTE_CHAMPION_RULE_LONG_EVENT)
        else:
            notes.append(R.NOTE_CHAMPION_PROTECTED)
            return ZERO, notes
    if (rules.international_min_score is not None and event.international and games
            and calc.W >= rules.international_min_score * games):
        notes.append(R.NOTE_INTERNATIONAL_PROTECTED)
        return ZERO, notes
    return delta, notes


def rate_event(rules: RuleSet, event: Event, games: Sequence[Game], states: Mapping[str, PlayerState],
               k_games: Mapping[str, int], list_date: date, standings: Sequence[Standing] = ()) -> EventOutcome:
    """Rate one event. ``states`` are the players' states after the last published list;
    ``k_games[p]`` is the game count that fixes p's K at the start of this event."""
    ev = _Event(rules, event, games, states)
    ev.apply_zero_score_rule()
    champs = champions(ev.games, [s for s in standings if s.event_id == event.id])

    needs_ra = ev.round_robin and (rules.newcomer_method == NEWCOMER_PERFORMANCE
                                   or rules.rr_unrated_opponent in (RR_UNRATED_EVENT_RU, RR_UNRATED_RA))
    ra = ev.round_robin_ra() if needs_ra else None
    perf: dict[str, tuple[Fraction | None, Fraction | None, list[Side]]] = {}
    if rules.newcomer_method == NEWCOMER_PERFORMANCE or (ev.round_robin and rules.rr_unrated_opponent
                                                         == RR_UNRATED_EVENT_RU):
        for p in ev.players:
            if not ev.rated(p) and p not in ev.ignored:
                perf[p] = ev.performance(p, ra)
    ru = {p: v[1] for p, v in perf.items()}

    outcome = EventOutcome()
    for p in ev.players:
        notes = ev.notes[p]
        state = states[p]
        k = rules.k_factor(k_games.get(p, state.games), state.latched)
        common = dict(player_id=p, event_id=event.id, list_date=list_date)
        if p in ev.ignored:
            outcome.changes.append(R.EventChange(**common, games=0, W=ZERO, We=None, K=None, delta=ZERO,
                                                 method=R.METHOD_NOT_RATED, notes=notes))
            continue
        sides = ev.sides(p)
        if ev.rated(p):
            method = rules.we_method(event.format)
            opp_rating = {s.opponent_id: _opponent_rating_for_rated(ev, s.opponent_id, ra, ru) for s in sides}
            rated_games = [RatedGame(s.round, s.opponent_id, opp_rating[s.opponent_id], s.W)
                           for s in sides if opp_rating[s.opponent_id] is not None]
            if len(rated_games) < len(sides):
                notes.append(R.NOTE_UNRATED_OPPONENTS)
            outcome.changes.append(_rated_change(ev, p, method, k, rated_games, champs, notes, common))
        elif rules.newcomer_method == NEWCOMER_PERFORMANCE:
            outcome.changes.append(_newcomer_change(ev, p, perf[p], notes, common, outcome.records))
        elif rules.newcomer_method == NEWCOMER_PROVISIONAL:
            outcome.changes.append(_provisional_change(ev, p, k, sides, champs, notes, common, outcome.records))
        else:
            if sides:
                notes.append(R.NOTE_UNRATED_NOT_RATED)
            outcome.changes.append(R.EventChange(**common, games=0, W=ZERO, We=None, K=None, delta=ZERO,
                                                 method=R.METHOD_NOT_RATED, notes=notes))
    return outcome


def _rated_change(ev: _Event, p: str, method: str, k: int, rated_games: list[RatedGame], champs: frozenset[str],
                  notes: list[str], common: dict) -> R.EventChange:
    ro = ev.ro[p]
    if not rated_games:
        if R.NOTE_NO_RATED_GAMES not in notes:
            notes.append(R.NOTE_NO_RATED_GAMES)
        return R.EventChange(**common, games=0, W=ZERO, We=ZERO, K=k, delta=ZERO, method=R.METHOD_NOT_RATED,
                             Ro=Decimal(ro), notes=notes)
    calc = METHODS[method](ro, k, rated_games, ev.rules.cap)
    if calc.capped:
        notes.append(R.NOTE_CAP)
    delta, more = _protect(ev, p, calc, len(rated_games), champs)
    notes.extend(more)
    return R.EventChange(
        **common, games=len(rated_games), W=calc.W, We=calc.We, K=k, delta=delta, method=method,
        Rc=to_decimal(calc.Rc) if calc.Rc is not None else None,
        N=len(rated_games), Pd=calc.Pd, D=calc.D, Ro=Decimal(ro), raw_delta=calc.delta, notes=notes,
        lines=list(calc.lines),
    )


def _newcomer_change(ev: _Event, p: str, perf: tuple[Fraction | None, Fraction | None, list[Side]],
                     notes: list[str], common: dict, records: dict[str, NewcomerRecord]) -> R.EventChange:
    """Art. 7: his Ru counts if he met ≥ 3 rated opponents and scored more than 0."""
    rc, ru, sides = perf
    w = sum((s.W for s in sides), ZERO)
    rated_opponents = {s.opponent_id for s in sides if ev.rated(s.opponent_id)}
    counts = ru is not None and w > 0 and len(rated_opponents) >= ev.rules.newcomer_min_rated_opponents
    if len(rated_opponents) < ev.rules.newcomer_min_rated_opponents:
        notes.append(R.NOTE_FEW_RATED_OPPONENTS)
    elif sides and w == 0 and R.NOTE_ZERO_SCORE_IGNORED not in notes:
        notes.append(R.NOTE_ZERO_SCORE_IGNORED)
    elif not sides:
        notes.append(R.NOTE_NO_RATED_GAMES)
    if counts:
        records[p] = NewcomerRecord(ev.event.id, ev.event.end_date, len(sides), ru=ru)
    return R.EventChange(
        **common, games=len(sides) if counts else 0, W=w, We=None, K=None, delta=ZERO, method=R.METHOD_NEWCOMER,
        Rc=to_decimal(rc) if rc is not None else None, N=len(sides),
        ru=to_decimal(ru) if ru is not None else None, notes=notes,
    )


def _provisional_change(ev: _Event, p: str, k: int, sides: list[Side], champs: frozenset[str], notes: list[str],
                        common: dict, records: dict[str, NewcomerRecord]) -> R.EventChange:
    """Beijing–Shanghai §12: from the provisional 2200/2040, K changes against rated opponents."""
    start = ev.rules.start_rating(ev.states[p].gender, p)
    rated_games = [RatedGame(s.round, s.opponent_id, ev.ro[s.opponent_id], s.W)
                   for s in sides if ev.rated(s.opponent_id)]
    if len(rated_games) < len(sides):
        notes.append(R.NOTE_UNRATED_OPPONENTS)
    rated_opponents = {g.opponent_id for g in rated_games}
    if not rated_games or len(rated_opponents) < ev.rules.newcomer_min_rated_opponents:
        notes.append(R.NOTE_NO_RATED_GAMES if not rated_games else R.NOTE_FEW_RATED_OPPONENTS)
        return R.EventChange(**common, games=0, W=ZERO, We=None, K=k, delta=ZERO, method=R.METHOD_NOT_RATED,
                             Ro=Decimal(start), notes=notes)
    calc = per_game(start, k, rated_games, ev.rules.cap)
    if calc.capped:
        notes.append(R.NOTE_CAP)
    delta, more = _protect(ev, p, calc, len(rated_games), champs)
    notes.extend(more)
    records[p] = NewcomerRecord(ev.event.id, ev.event.end_date, len(rated_games), delta=delta)
    return R.EventChange(**common, games=len(rated_games), W=calc.W, We=calc.We, K=k, delta=delta,
                         method=R.METHOD_PROVISIONAL, N=len(rated_games), Ro=Decimal(start), raw_delta=calc.delta,
                         notes=notes, lines=list(calc.lines))
