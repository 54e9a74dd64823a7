"""What-if (假设计算): the ΔR the official rules would give a player for games he enters — opponents by federation
ID, name or rating, and results — computed by the engine that publishes the lists.

The player and his registered opponents start from their states on the list's latest published edition (what
the next period starts from); an opponent given by a rating is a rated, active player of that rating. The games
form one hypothetical event of the chosen format ending the day before the next list date, rated by
``qiyuan.rating.history.compute_history`` — the one door into the rating engine, which the office's period
computation goes through too — so the result is exact and, once such an event is really imported and published,
identical (tests/web/test_whatif.py). Nothing is stored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from qiyuan.errors import Problem, problem
from qiyuan.office.engine import engine_player, member_from_registry, state_from_json
from qiyuan.office.federation.models import Player
from qiyuan.office import sheets
from qiyuan.office.ratings.models import ListMember, RatingList
from qiyuan.office.registry import search_players
from qiyuan.rating import results as R
from qiyuan.rating.calendar import next_publication_date, previous_publication_date
from qiyuan.rating.history import StartState, compute_history
from qiyuan.rating.model import Event, EventFormat, Game, Result, Standing
from qiyuan.rating.model import Player as EnginePlayer
from qiyuan.rating.state import PlayerState, initial_states

MAX_GAMES = 30
MIN_RATING, MAX_RATING = 100, 3500
EVENT_ID = "what-if"
RATED_PREFIX = "rating#"  # engine ids of the opponents given by a rating
#: a result as typed → the player's result
RESULTS = {"1": Result.WIN, "1-0": Result.WIN, "w": Result.WIN, "胜": Result.WIN,
           "0": Result.LOSS, "0-1": Result.LOSS, "l": Result.LOSS, "负": Result.LOSS,
           "0.5": Result.DRAW, "½": Result.DRAW, "=": Result.DRAW, "d": Result.DRAW, "和": Result.DRAW,
           "0.5-0.5": Result.DRAW}
FORMATS = tuple(f.value for f in EventFormat)


@dataclass
class Opponent:
    """An opponent as entered: a registered player, or only a rating."""

    text: str
    row: int
    player: Player | None = None
    rating: int | None = None

    @property
    def engine_id(self) -> str:
        """His id in the engine: the federation ID, or one per game for an opponent given by rating."""
        return self.player.federation_id if self.player is not None else f"{RATED_PREFIX}{self.row}"


#: what is typed as a rating: digits, maybe signed or with decimals (``-5``, ``1500.5``)
_NUMBER = re.compile(r"[+\-−]?\d+(?:[.,]\d*)?")


@dataclass
class WhatIf:
    """The entered games, read and checked."""

    rating_list: RatingList | None
    format: str = "swiss"
    international: bool = False
    champion: bool = False  # he won the event (冠军不降分 applies); else an opponent is taken as its winner
    games: list[tuple[Opponent, Result]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _opponent(text: str, me: Player, row: int, problems: list[Problem]) -> Opponent | None:
    text = " ".join(text.split())
    if _NUMBER.fullmatch(text):  # a rating, or what was meant as one (-5, 1500.5): never a name to search
        if text.isdigit() and MIN_RATING <= int(text) <= MAX_RATING:
            return Opponent(text, row, rating=int(text))
        problems.append(problem("game {row}: a rating must be from {lo} to {hi}, not {value}", column="opp",
                                code="whatif.rating", row=row, lo=MIN_RATING, hi=MAX_RATING, value=text[:12]))
        return None
    if text.upper() == me.federation_id.upper():
        problems.append(problem("game {row}: {value} is the player this what-if is for: enter an opponent",
                                column="opp", code="whatif.self", row=row, value=text[:40]))
        return None
    exact = Player.objects.registered().filter(federation_id__iexact=text).first()
    found = [exact] if exact is not None else search_players(text, limit=6)
    found = [p for p in found if p.pk != me.pk]
    if len(found) == 1:
        return Opponent(text, row, player=found[0])
    if not found:
        problems.append(problem("game {row}: no registered player “{value}”; enter a federation ID, a name or a "
                                "rating", column="opp", code="whatif.unknown", row=row, value=text[:40]))
    else:
        problems.append(problem("game {row}: “{value}” matches several players ({ids}); enter the federation ID",
                                column="opp", code="whatif.ambiguous", row=row, value=text[:40],
                                ids=", ".join(p.federation_id for p in found[:5])))
    return None


def read(params, me: Player, lists: list[RatingList]) -> WhatIf:
    """The what-if form (``list``, ``format``, ``international``, pairs of ``opp`` and ``res``), checked at once."""
    problems: list[Problem] = []
    by_code = {rl.code: rl for rl in lists}
    code = params.get("list", "") or (lists[0].code if lists else "")
    rl = by_code.get(code)
    if rl is None:
        problems.append(problem("choose one of the lists the player is on ({lists})", column="list",
                                code="whatif.list", lists=", ".join(by_code) or "—"))
    fmt = params.get("format", "swiss")
    if fmt not in FORMATS:
        problems.append(problem("the format “{value}” is not one of the choices", column="format",
                                code="whatif.format", value=fmt[:20]))
        fmt = "swiss"
    yes = ("1", "on", "true")
    w = WhatIf(rl, fmt, params.get("international") in yes, params.get("champion") in yes, problems=problems)
    pairs = list(zip(params.getlist("opp"), params.getlist("res"), strict=False))
    pairs = [(o, r) for o, r in pairs if o.strip() or r.strip()]
    if len(pairs) > MAX_GAMES:
        problems.append(problem("at most {n} games", column="opp", code="whatif.too_many", n=MAX_GAMES))
        pairs = pairs[:MAX_GAMES]
    for row, (opp_text, res_text) in enumerate(pairs, start=1):
        if not opp_text.strip():
            problems.append(problem("game {row}: the opponent is missing", column="opp", code="whatif.no_opponent",
                                    row=row))
            continue
        result = RESULTS.get(res_text.strip().lower())
        if result is None:
            problems.append(problem("game {row}: the result must be 1 (win), ½ or 0.5 (draw) or 0 (loss), not "
                                    "“{value}”", column="res", code="whatif.result", row=row, value=res_text[:12]))
        opp = _opponent(opp_text, me, row, problems)
        if opp is not None and result is not None:
            w.games.append((opp, result))
    return w


def states_on(rl: RatingList, edition, players: list[Player]) -> dict[str, PlayerState]:
    """The players' states after ``edition``: stored with it, else their start on the list (a member not yet
    published, or a registered player new to the list)."""
    fids = {p.federation_id: p for p in players}
    stored = sheets.states(edition) if edition is not None else {}
    states = {fid: state_from_json(fid, json.loads(stored[fid])) for fid in fids if fid in stored}
    rest = [p for fid, p in fids.items() if fid not in states]
    if rest:
        members = {m.player_id: m for m in ListMember.objects.filter(rating_list=rl, player__in=rest)}
        engine = [engine_player(p.federation_id, members.get(p.pk) or member_from_registry(rl, p)) for p in rest]
        states.update(initial_states(rl.rules(), engine, edition.list_date))
    return states


def compute(w: WhatIf, me: Player) -> R.EventChange | None:
    """The player's change for the entered games under the list's rules (None when nothing was entered)."""
    rl = w.rating_list
    edition = rl.editions.order_by("-list_date", "-number").first() if rl is not None else None
    if edition is None or not w.games:
        return None
    rules = rl.rules()
    list_date = next_publication_date(rules.publication_months, edition.list_date)
    day = list_date - timedelta(days=1)
    registered = [me] + [o.player for o, _r in w.games if o.player is not None]
    states = states_on(rl, edition, registered)
    for opp, _r in w.games:
        if opp.player is None:
            states[opp.engine_id] = rated_state(opp.engine_id, opp.rating, edition.list_date)
    event = Event(id=EVENT_ID, name=EVENT_ID, start_date=day, end_date=day, format=EventFormat(w.format),
                  international=w.international)
    games = [Game(EVENT_ID, rnd, me.federation_id, opp.engine_id, result)
             for rnd, (opp, result) in enumerate(w.games, start=1)]
    # the winner (the champion rule): him when he says so, else one of his opponents (not the top score of
    # this partial event, which he would usually hold)
    winner = me.federation_id if w.champion else w.games[0][0].engine_id
    return rate(rules, states, event, games, [Standing(EVENT_ID, winner, 1)], list_date, me.federation_id)


@dataclass(frozen=True)
class GameLine:
    """One entered game as the calculation table shows it: round, opponent, his rating, the result."""

    round: int
    opponent: Player | None
    rating: int | None
    result: Result


def game_lines(w: WhatIf, me: Player) -> list[GameLine]:
    """The entered games with each opponent's rating on the list's latest edition (the rating given, for an
    opponent entered by his rating): the per-game rows of an averaging method, whose change has none."""
    rl = w.rating_list
    edition = rl.editions.order_by("-list_date", "-number").first() if rl is not None else None
    if edition is None:
        return []
    states = states_on(rl, edition, [o.player for o, _r in w.games if o.player is not None])
    return [GameLine(rnd, opp.player, opp.rating if opp.player is None else states[opp.engine_id].rating, result)
            for rnd, (opp, result) in enumerate(w.games, start=1)]


def rated_state(engine_id: str, rating: int, since) -> PlayerState:
    """A player known only by a rating: rated, active and established (K of an established player)."""
    return PlayerState(player_id=engine_id, rating=rating, exact=Decimal(rating), games=100, status=R.ACTIVE,
                       rated_since=since)


def rate_all(rules, states, event: Event, games: list[Game], standings: list[Standing], list_date
             ) -> dict[str, R.EventChange]:
    """The one call into the rating engine (``compute_history``, the project's one door into it): every
    player's change in the event, by engine id, with its calculation lines and notes — the period of
    ``list_date`` computed from the states after the list before it."""
    start = StartState(previous_publication_date(rules.publication_months, list_date), states)
    players = [EnginePlayer(id=pid, name=pid, gender=s.gender) for pid, s in states.items()]
    playing = {p for g in games for p in (g.player1, g.player2)}
    history = compute_history(rules, players, [event], games, standings, start=start, until=list_date,
                              engine="fast", explain=playing)
    out = {}
    for pid in sorted(playing):
        for period in history.explanation(pid).periods:
            out.update((x.change.player_id, x.change) for x in period.events if x.change.event_id == event.id)
    return out


def rate(rules, states, event: Event, games: list[Game], standings: list[Standing], list_date, player_id: str
         ) -> R.EventChange | None:
    """One player's change (``rate_all``)."""
    return rate_all(rules, states, event, games, standings, list_date).get(player_id)
