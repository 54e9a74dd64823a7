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
5. Protections of the event's ΣΔR: champion (冠军不降分), in the national team
   championship the best score rate on each board instead, Go international ≥ 50 %.

Every player's Ro is the last published rating (no update inside a period).
With ``explain``, the players named get an ``EventExplanation``: their games as
the calculation saw them and every number in the order the text computes it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from qiyuan.rating import calculation as C
from qiyuan.rating import results as R
from qiyuan.rating.calculation import Step, given, step
from qiyuan.rating.champion import best_on_each_board, board_rates, champions, event_scores, runners_up
from qiyuan.rating.exact import mean, round_half_up, to_decimal
from qiyuan.rating.expected import METHODS, Calculation, RatedGame, per_game
from qiyuan.rating.model import Event, EventFormat, Game, Result, Standing
from qiyuan.rating.newcomer import performance_calculation, round_robin_average
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
#: A game's result from (player1's, player2's) side, as shown.
_SHOWN: dict[Result, tuple[str, str]] = {
    Result.WIN: ("1", "0"), Result.LOSS: ("0", "1"), Result.DRAW: ("½", "½"),
    Result.FORFEIT_WIN: ("+", "-"), Result.FORFEIT_LOSS: ("-", "+"), Result.NOT_PLAYED: ("--", "--"),
    Result.BOTH_WIN: ("1", "1"), Result.BOTH_LOSS: ("0", "0"),
}
_RATING_SOURCE = {RR_UNRATED_EVENT_RU: C.RATING_EVENT_RU, RR_UNRATED_RA: C.RATING_RA,
                  RR_UNRATED_PROVISIONAL: C.RATING_PROVISIONAL}


class Side(NamedTuple):
    """A played game from one player's side."""

    round: int
    opponent_id: str
    W: Decimal
    colour: int = 0  # 1: he had Black, -1: White, 0: not known


@dataclass
class EventOutcome:
    changes: list[R.EventChange] = field(default_factory=list)
    records: dict[str, NewcomerRecord] = field(default_factory=dict)  # newcomer events that count
    explanations: dict[str, C.EventExplanation] = field(default_factory=dict)  # for the players asked for


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
        self.ra_steps: tuple[Step, ...] = ()

    # --- who is rated, who plays whom

    def rated(self, p: str) -> bool:
        return p in self.ro

    def _all_sides(self) -> dict[str, list[Side]]:
        out: dict[str, list[Side]] = {p: [] for p in self.players}
        for g in self.played:
            w1, w2 = _SCORE[g.result]
            out[g.player1].append(Side(g.round, g.player2, w1, g.black))
            out[g.player2].append(Side(g.round, g.player1, w2, -g.black))
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
        ra, self.ra_steps = round_robin_average(
            [(p, self.ro[p], sum((s.W for s in self.sides(p)), ZERO), len(self.sides(p))) for p in rated],
            len(participants) - 1, dp_at_extremes=self.rules.dp_at_extremes, round_first=self.rules.round_ra_first)
        return ra

    def performance(self, p: str, ra: Fraction | None) -> tuple[Fraction | None, Fraction | None, list[Side],
                                                                  tuple[Step, ...]]:
        """(Rc, Ru, games entering Ru, steps) of an unrated player (Art. 7)."""
        sides = self.newcomer_sides(p)
        if not sides:
            return None, None, sides, ()
        if self.round_robin:
            if ra is None:
                return None, None, sides, ()
            rc, rc_steps = ra, self.ra_steps
            rc_step = rc_steps[-1]
        else:
            rc = mean(self.ro[s.opponent_id] for s in sides)
            rc_step = step("Rc", rc, "mean", *(("R_opp", self.ro[s.opponent_id]) for s in sides))
            rc_steps = (rc_step,)
        ru, ru_steps = performance_calculation(
            rc_step, sum((s.W for s in sides), ZERO), len(sides), round_robin=self.round_robin,
            n_opponents=len({s.opponent_id for s in sides}),
            bonus_per_half_point=self.rules.newcomer_bonus_per_half_point,
            dp_at_extremes=self.rules.dp_at_extremes,
        )
        return rc, ru, sides, (*rc_steps, *ru_steps)

    # --- what the explanation shows

    def shown_games(self, p: str, rating_of: Mapping[str, int | None], sources: Mapping[str, str],
                    counted: Collection[tuple[int, str]]) -> tuple[C.ShownGame, ...]:
        """Every game of his in the event: result, the opponent's rating used, and whether it counts."""
        out = []
        for g in self.games:
            if p not in (g.player1, g.player2):
                continue
            first = g.player1 == p
            q = g.player2 if first else g.player1
            shown = _SHOWN[g.result][0 if first else 1]
            if not g.result.played:
                out.append(C.ShownGame(g.round, q, shown, None, skipped=C.SKIP_NOT_PLAYED, board=g.board))
                continue
            w = _SCORE[g.result][0 if first else 1]
            rating = rating_of.get(q)
            is_counted = (g.round, q) in counted
            skipped = ""
            if not is_counted:
                skipped = C.SKIP_ZERO_SCORE if (p in self.ignored or q in self.ignored) else C.SKIP_UNRATED_OPPONENT
                if (skipped == C.SKIP_UNRATED_OPPONENT and self.rated(p) and self.rated(q)
                        and self.rules.too_far_below(self.ro[p], self.ro[q])):
                    skipped = C.SKIP_FAR_BELOW
            out.append(C.ShownGame(g.round, q, shown, w, rating, sources.get(q, C.RATING_NONE) if rating is not None
                                   else C.RATING_NONE, is_counted, skipped, g.board))
        return tuple(out)


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


@dataclass(frozen=True)
class _Protections:
    """Who the event's protections cover, and why (for the explanation: with what the others scored)."""

    champions: frozenset[str]
    champion_basis: str  # "rank 1 in the standings" or "highest score 5.5 (the next best: 5, by B, C)"
    board_best: dict[str, tuple[int, Decimal, int]] | None  # national team championship with boards, else None
    board_rates: dict[int, list[tuple[str, Decimal, int]]] | None = None  # per board: everyone's score and games


def _protections(ev: _Event, standings: Sequence[Standing]) -> _Protections:
    rules, event = ev.rules, ev.event
    ranked = [s for s in standings if s.event_id == event.id]
    champs = champions(ev.games, ranked)
    if any(s.rank == 1 for s in ranked):
        basis = "rank 1 in the standings"
    else:
        scores = event_scores(ev.games)
        basis = ""
        if scores:
            top = max(scores.values())
            basis = f"highest score {_score_text(top)}"
            second, who = runners_up(scores, top)
            basis += (f" (the next best: {_score_text(second)}, by {', '.join(who)})" if second is not None
                      else " (everyone scored the same)")
    board_best = rates = None
    if (rules.board_rule and event.national and EventFormat(event.format) is EventFormat.TEAM
            and any(g.board is not None for g in ev.games)):
        board_best = best_on_each_board(ev.games)
        rates = board_rates(ev.games)
    return _Protections(champs, basis, board_best, rates)


def _score_text(w: Decimal) -> str:
    """A score as shown: 5.5, 6 (not 6.0)."""
    return format(w.normalize(), "f") if w != w.to_integral_value() else str(int(w))


def _protect(ev: _Event, p: str, calc: Calculation, games: int, prot: _Protections
             ) -> tuple[Decimal, list[str], Step | None]:
    """The event's ΣΔR after the protections, the notes, and the protection's step (None if none acted)."""
    rules, event = ev.rules, ev.event
    notes: list[str] = []
    delta = calc.delta
    if delta >= 0:
        return delta, notes, None
    raw = ("ΔR", delta)
    if prot.board_best is not None:  # the national team championship: per board, instead of the champion rule
        if p in prot.board_best:
            board, w, n = prot.board_best[p]
            notes.append(R.NOTE_BOARD_PROTECTED)
            others = [f"{q} {_score_text(qw)}/{qn}" for q, qw, qn in (prot.board_rates or {}).get(board, [])
                      if q != p]
            return ZERO, notes, step("ΔR", ZERO, "protect", raw,
                                     ref=f"best score rate on board {board}: {_score_text(w)}/{n}; the others on "
                                         f"board {board}: {', '.join(others) if others else 'none'}")
    elif rules.champion_rule and p in prot.champions and EventFormat(event.format).value in rules.champion_formats:
        if rules.champion_max_days is not None and event.length_days > rules.champion_max_days:
            notes.append(R.NOTE_CHAMPION_RULE_LONG_EVENT)
        else:
            notes.append(R.NOTE_CHAMPION_PROTECTED)
            return ZERO, notes, step("ΔR", ZERO, "protect", raw, ref=f"champion: {prot.champion_basis}")
    if (rules.international_min_score is not None and event.international and games
            and calc.W >= rules.international_min_score * games):
        notes.append(R.NOTE_INTERNATIONAL_PROTECTED)
        return ZERO, notes, step("ΔR", ZERO, "protect", raw,
                                 ref=f"international: W {_score_text(calc.W)} ≥ {rules.international_min_score} × {games}")
    return delta, notes, None


def _k_steps(rules: RuleSet, k: int, games: int, base: int, latched: bool) -> tuple[Step, ...]:
    """K fixed at the start of the event: the game count (on the last list + this period's events that ended
    before this one started) and the latch (以后即使再降也永远取10)."""
    on_list = given("games before", base, "rated games on the last list (a newcomer: his counted games)")
    parts: tuple[Step, ...] = (on_list,)
    count = on_list
    if games != base:
        earlier = given("games earlier", games - base, "in this period's events that ended before this one began")
        count = step("games", games, "sum", on_list, earlier)
        parts = (on_list, earlier, count)
    one_k = rules.k_new == rules.k_established and (rules.k_latch_rating is None or rules.k_top == rules.k_new)
    if one_k:  # Go 1995: K is 10 for everyone; no game count or latch decides it
        why = f"K is {rules.k_new} for every player under {rules.name}"
    elif latched and rules.k_latch_rating is not None:
        why = f"latched: a published rating reached {rules.k_latch_rating}"
    else:
        why = f"{'fewer than' if games < rules.k_new_games else 'at least'} {rules.k_new_games} games"
    return (*parts, step("K", k, "K", count, ("latched", int(latched)), ref=why))


def rate_event(rules: RuleSet, event: Event, games: Sequence[Game], states: Mapping[str, PlayerState],
               k_games: Mapping[str, int], list_date: date, standings: Sequence[Standing] = (), *,
               explain: Collection[str] | bool = (), k_base: Mapping[str, int] | None = None,
               only: Collection[str] | None = None) -> EventOutcome:
    """Rate one event. ``states`` are the players' states after the last published list;
    ``k_games[p]`` is the game count that fixes p's K at the start of this event (``k_base[p]``: the
    part of it from the last list, shown in an explanation). ``explain``: the players (or all, ``True``)
    whose ``EventExplanation`` is wanted; ``only``: give the changes of these players alone (each
    player's change depends on the others' games and ratings, not on their changes)."""
    ev = _Event(rules, event, games, states)
    ev.apply_zero_score_rule()
    prot = _protections(ev, standings)

    needs_ra = ev.round_robin and (rules.newcomer_method == NEWCOMER_PERFORMANCE
                                   or rules.rr_unrated_opponent in (RR_UNRATED_EVENT_RU, RR_UNRATED_RA))
    ra = ev.round_robin_ra() if needs_ra else None
    perf: dict[str, tuple[Fraction | None, Fraction | None, list[Side], tuple[Step, ...]]] = {}
    if rules.newcomer_method == NEWCOMER_PERFORMANCE or (ev.round_robin and rules.rr_unrated_opponent
                                                         == RR_UNRATED_EVENT_RU):
        needed = ev.players
        if only is not None:  # those asked for, and the unrated opponents whose Ru their games use
            needed = {p for p in only if p in ev.all_sides} | {s.opponent_id for p in only
                                                               for s in ev.all_sides.get(p, ())}
        for p in needed:
            if not ev.rated(p) and p not in ev.ignored:
                perf[p] = ev.performance(p, ra)
    ru = {p: v[1] for p, v in perf.items()}

    outcome = EventOutcome()
    for p in (ev.players if only is None else [p for p in ev.players if p in only]):
        wanted = explain is True or (explain is not False and p in explain)
        notes = ev.notes[p]
        state = states[p]
        n_k = k_games.get(p, state.games)
        k = rules.k_factor(n_k, state.latched)
        k_steps = _k_steps(rules, k, n_k, (k_base or k_games).get(p, n_k), state.latched) if wanted else ()
        common = dict(player_id=p, event_id=event.id, list_date=list_date)
        if p in ev.ignored:
            change = R.EventChange(**common, games=0, W=ZERO, We=None, K=None, delta=ZERO,
                                   method=R.METHOD_NOT_RATED, notes=notes)
            outcome.changes.append(change)
            if wanted:
                outcome.explanations[p] = C.EventExplanation(change, ev.shown_games(p, ev.ro, {}, ()))
            continue
        sides = ev.sides(p)
        if ev.rated(p):
            method = rules.we_method(event.format)
            opp_rating = {s.opponent_id: _opponent_rating_for_rated(ev, s.opponent_id, ra, ru) for s in sides}
            far = {q for q, r in opp_rating.items()
                   if r is not None and ev.rated(q) and rules.too_far_below(ev.ro[p], r)}
            opp_rating = {q: None if q in far else r for q, r in opp_rating.items()}  # far_below_not_rated
            rated_games = [RatedGame(s.round, s.opponent_id, opp_rating[s.opponent_id], s.W, s.colour)
                           for s in sides if opp_rating[s.opponent_id] is not None]
            if any(opp_rating[s.opponent_id] is None and s.opponent_id not in far for s in sides):
                notes.append(R.NOTE_UNRATED_OPPONENTS)
            if far:
                notes.append(R.NOTE_FAR_BELOW)
            change, steps = _rated_change(ev, p, method, k, rated_games, prot, notes, common)
            if wanted:
                sources = {q: C.RATING_PUBLISHED if ev.rated(q) else _RATING_SOURCE.get(rules.rr_unrated_opponent, "")
                           for q in opp_rating}
                counted = {(g.round, g.opponent_id) for g in rated_games}
                ro = given("Ro", ev.ro[p], "his last published rating")
                outcome.explanations[p] = C.EventExplanation(
                    change, ev.shown_games(p, opp_rating, sources, counted), (ro, *k_steps, *steps))
        elif rules.newcomer_method == NEWCOMER_PERFORMANCE:
            change, steps = _newcomer_change(ev, p, perf[p], notes, common, outcome.records)
            outcome.changes.append(change)
            if wanted:
                counted = {(s.round, s.opponent_id) for s in perf[p][2]}
                outcome.explanations[p] = C.EventExplanation(
                    change, ev.shown_games(p, ev.ro, dict.fromkeys(ev.ro, C.RATING_PUBLISHED), counted), steps)
            continue
        elif rules.newcomer_method == NEWCOMER_PROVISIONAL:
            change, steps = _provisional_change(ev, p, k, sides, prot, notes, common, outcome.records)
            if wanted:
                counted = {(s.round, s.opponent_id) for s in sides if ev.rated(s.opponent_id)} if change.games else ()
                start = given("Ro", change.Ro, "provisional rating (暂定等级分)")
                outcome.explanations[p] = C.EventExplanation(
                    change, ev.shown_games(p, ev.ro, dict.fromkeys(ev.ro, C.RATING_PUBLISHED), counted),
                    (start, *k_steps, *steps))
        else:
            if sides:
                notes.append(R.NOTE_UNRATED_NOT_RATED)
            change = R.EventChange(**common, games=0, W=ZERO, We=None, K=None, delta=ZERO,
                                   method=R.METHOD_NOT_RATED, notes=notes)
            if wanted:
                outcome.explanations[p] = C.EventExplanation(change, ev.shown_games(p, ev.ro, {}, ()))
        outcome.changes.append(change)
    return outcome


def _rated_change(ev: _Event, p: str, method: str, k: int, rated_games: list[RatedGame], prot: _Protections,
                  notes: list[str], common: dict) -> tuple[R.EventChange, tuple[Step, ...]]:
    ro = ev.ro[p]
    if not rated_games:
        if R.NOTE_NO_RATED_GAMES not in notes:
            notes.append(R.NOTE_NO_RATED_GAMES)
        return R.EventChange(**common, games=0, W=ZERO, We=ZERO, K=k, delta=ZERO, method=R.METHOD_NOT_RATED,
                             Ro=Decimal(ro), notes=notes), ()
    calc = METHODS[method](ro, k, rated_games, ev.rules.cap_for(ro), ev.rules.colour_advantage)
    if calc.capped:
        notes.append(R.NOTE_CAP)
    delta, more, protection = _protect(ev, p, calc, len(rated_games), prot)
    notes.extend(more)
    change = R.EventChange(
        **common, games=len(rated_games), W=calc.W, We=calc.We, K=k, delta=delta, method=method,
        Rc=to_decimal(calc.Rc) if calc.Rc is not None else None,
        N=len(rated_games), Pd=calc.Pd, D=calc.D, Ro=Decimal(ro), raw_delta=calc.delta, notes=notes,
        lines=list(calc.lines),
    )
    return change, (*calc.steps, *((protection,) if protection else ()))


def _newcomer_change(ev: _Event, p: str, perf: tuple[Fraction | None, Fraction | None, list[Side], tuple[Step, ...]],
                     notes: list[str], common: dict, records: dict[str, NewcomerRecord]
                     ) -> tuple[R.EventChange, tuple[Step, ...]]:
    """Art. 7: his Ru counts if he met ≥ 3 rated opponents and scored more than 0."""
    rc, ru, sides, steps = perf
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
    change = R.EventChange(
        **common, games=len(sides) if counts else 0, W=w, We=None, K=None, delta=ZERO, method=R.METHOD_NEWCOMER,
        Rc=to_decimal(rc) if rc is not None else None, N=len(sides),
        ru=to_decimal(ru) if ru is not None else None, notes=notes,
    )
    opponents = given("rated opponents", len(rated_opponents),
                      f"at least {ev.rules.newcomer_min_rated_opponents} needed for the event to count")
    return change, (opponents, *steps)


def _provisional_change(ev: _Event, p: str, k: int, sides: list[Side], prot: _Protections, notes: list[str],
                        common: dict, records: dict[str, NewcomerRecord]) -> tuple[R.EventChange, tuple[Step, ...]]:
    """Beijing–Shanghai §12: from the provisional 2200/2040, K changes against rated opponents."""
    start = ev.rules.start_rating(ev.states[p].gender, p)
    rated_games = [RatedGame(s.round, s.opponent_id, ev.ro[s.opponent_id], s.W, s.colour)
                   for s in sides if ev.rated(s.opponent_id)]
    if len(rated_games) < len(sides):
        notes.append(R.NOTE_UNRATED_OPPONENTS)
    rated_opponents = {g.opponent_id for g in rated_games}
    if not rated_games or len(rated_opponents) < ev.rules.newcomer_min_rated_opponents:
        notes.append(R.NOTE_NO_RATED_GAMES if not rated_games else R.NOTE_FEW_RATED_OPPONENTS)
        return R.EventChange(**common, games=0, W=ZERO, We=None, K=k, delta=ZERO, method=R.METHOD_NOT_RATED,
                             Ro=Decimal(start), notes=notes), ()
    calc = per_game(start, k, rated_games, ev.rules.cap_for(start), ev.rules.colour_advantage)
    if calc.capped:
        notes.append(R.NOTE_CAP)
    delta, more, protection = _protect(ev, p, calc, len(rated_games), prot)
    notes.extend(more)
    records[p] = NewcomerRecord(ev.event.id, ev.event.end_date, len(rated_games), delta=delta)
    change = R.EventChange(**common, games=len(rated_games), W=calc.W, We=calc.We, K=k, delta=delta,
                           method=R.METHOD_PROVISIONAL, N=len(rated_games), Ro=Decimal(start), raw_delta=calc.delta,
                           notes=notes, lines=list(calc.lines))
    return change, (*calc.steps, *((protection,) if protection else ()))
