"""Single knock-out brackets (单淘汰) seeded by rating.

Seeds go by rating, highest first (players without a rating last, then by
draw number). The bracket has the next power of two of places; standard
seeding puts seed 1 against the last seed, and seeds 1 and 2 can meet only in
the final (for 8: 1–8, 4–5, 2–7, 3–6). Places beyond the field are byes,
so the top seeds get them. Winners advance in bracket order: the winners of
matches 1 and 2 meet, then those of 3 and 4, and so on.  A match is one game, or a mini-match
(``minimatch``: two games and, at 1:1, a tie-break game whose opener is drawn by lot).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from qiyuan.errors import N_
from qiyuan.tournament import minimatch as mm
from qiyuan.tournament.explanation import Line
from qiyuan.tournament.errors import EventError, problem
from qiyuan.tournament.model import Entrant, Tournament

WINS = frozenset("1W+")


@dataclass(slots=True)
class Match:
    round: int
    index: int  # 1-based place in the round, top of the bracket first
    home: int | None  # draw number; None only for a bye's empty place
    away: int | None
    winner: int | None = None  # decided: set for byes at once, else from the result
    #: the event file's round that decided it (a mini-match's second or tie-break game; else ``round``)
    decided_in: int | None = None
    #: a mini-match's games so far (``minimatch``); None in a knock-out of single games
    score: mm.MatchScore | None = None

    @property
    def is_bye(self) -> bool:
        return self.home is None or self.away is None


def seeding(entrants: Iterable[Entrant]) -> list[int]:
    """Draw numbers in seed order: rating high to low, unrated last, then draw number."""
    return [e.number for e in sorted(entrants, key=lambda e: (e.rating is None, -(e.rating or 0), e.number))]


def seed_positions(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size``: 8 -> 1, 8, 4, 5, 2, 7, 3, 6."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        width = 2 * len(order)
        order = [x for s in order for x in (s, width + 1 - s)]
    return order


def bracket(entrants: Iterable[Entrant]) -> list[Match]:
    """The first round: matches in bracket order; the top seeds get the byes."""
    seeds = seeding(entrants)
    if len(seeds) < 2:
        raise ValueError("a knock-out needs at least 2 players")
    size = 1
    while size < len(seeds):
        size *= 2
    places = [seeds[s - 1] if s <= len(seeds) else None for s in seed_positions(size)]
    matches = []
    for i in range(0, size, 2):
        m = Match(1, i // 2 + 1, places[i], places[i + 1])
        if m.away is None:
            m.winner = m.home
        elif m.home is None:
            m.winner = m.away
        matches.append(m)
    return matches


def next_matches(matches: list[Match]) -> list[Match]:
    """The next round from a decided round: winners of matches 1 and 2 meet, and so on."""
    if len(matches) < 2:
        raise ValueError("the final has no next round")
    undecided = [m.index for m in matches if m.winner is None]
    if undecided:
        raise ValueError(f"round {matches[0].round}: matches {undecided} have no winner yet")
    r = matches[0].round + 1
    return [
        Match(r, i // 2 + 1, matches[i].winner, matches[i + 1].winner) for i in range(0, len(matches), 2)
    ]


def decide(matches: list[Match], winners: Mapping[int, int]) -> None:
    """Enter winners by match index; a winner must be one of the match's players."""
    for m in matches:
        if m.index in winners:
            w = winners[m.index]
            if w not in (m.home, m.away):
                raise ValueError(f"round {m.round} match {m.index}: {w} does not play in {m.home}–{m.away}")
            m.winner = w


def winner_from_cells(t: Tournament, round_no: int, m: Match) -> int | None:
    """The match's winner as entered in the round cells (win or forfeit win), None if not decided."""
    by = {e.number: e for e in t.entrants}
    for me, other in ((m.home, m.away), (m.away, m.home)):
        if me is None or other is None:
            continue
        rounds = by[me].rounds
        if len(rounds) >= round_no:
            cell = rounds[round_no - 1]
            if cell.opponent == other and cell.result in WINS:
                return me
    return None


def knockout_rounds(t: Tournament) -> list[list[Match]]:
    """The whole bracket as far as the tournament's results decide it.

    Round ``r`` of the bracket is round ``r`` of the tournament's cells. A
    drawn game does not decide a knock-out match: the arbiter enters the
    play-off's winner as a win.
    """
    mini = mm.is_mini(t)
    rounds = [bracket(t.entrants)]
    while True:
        current = rounds[-1]
        for m in current:
            if m.is_bye:
                continue
            if mini:  # the round ``m.round`` of the bracket is played over several rounds of the file
                m.score = mm.match_score(t, m.round, m.home, m.away)
                m.winner, m.decided_in = m.score.winner, m.score.decided_in
            elif m.winner is None:
                m.winner = winner_from_cells(t, m.round, m)
                m.decided_in = m.round if m.winner is not None else None
        if len(current) == 1 or any(m.winner is None for m in current):
            return rounds
        rounds.append(next_matches(current))


# -- the bracket played round by round in the event file ----------------------------------



def _refuse_past(rounds: list[list[Match]]) -> None:
    last = rounds[-1]
    if len(last) == 1 and last[0].winner is not None:
        raise EventError(problem("the knock-out is over: {winner} won the final", winner=last[0].winner))
    undecided = ", ".join(f"{m.home}-{m.away}" for m in last if m.winner is None)
    raise EventError(problem("round {round} has matches without a winner: {matches} (a drawn match needs a "
                             "play-off: enter its winner as a win)", round=len(rounds), matches=undecided))


def pending_tiebreak(t: Tournament) -> tuple[int, list[tuple[int, int]]]:
    """The next round of the file, and the matches ``(upper, lower)`` tied after their two games that it is
    the tie-break game of (none when it is not a tie-break round)."""
    rounds = knockout_rounds(t)
    done = mm.schedule(t)
    rnd = (done[-1].round if done else 0) + 1
    if not done or done[-1].game != "2" or done[-1].k > len(rounds):
        return rnd, []
    return rnd, [(m.home, m.away) for m in rounds[done[-1].k - 1]
                 if not m.is_bye and m.score is not None and m.score.tied]


def mini_match_round(t: Tournament) -> tuple[mm.Slot, list[tuple[int, int]], list[int], list[str]]:
    """The next round of the file in a knock-out of mini-matches: which game it is, its boards ``(opener,
    other)`` — game 1 the upper place opens, game 2 the lower, the tie-break game as the lot drew — the
    players through on a bye (game 1 only), and notes."""
    rounds = knockout_rounds(t)
    _rnd, pairs = pending_tiebreak(t)
    slot = mm.next_slot(t, bool(pairs))
    n_rounds = len(rounds[0]).bit_length()
    title = Line("knock-out round {round} of {rounds}, mini-matches", round=slot.k, rounds=n_rounds)
    if slot.game == mm.TIEBREAK:
        lot = mm.lot_of(t, slot.round)
        if lot is None:
            raise EventError(problem("round {round} is the tie-break game of {count} tied match(es) ({matches}): "
                                     "draw its openers by lot first (event lot EVENT --seed N, or --openers A,B "
                                     "as drawn in the hall)", round=slot.round, count=len(pairs),
                                     matches=", ".join(f"{a}-{b}" for a, b in pairs)))
        boards = mm.tiebreak_openers(lot, pairs)
        how = Line(mm.LOT_BY_SEED, seed=lot.seed) if lot.seed is not None else Line(
            mm.LOT_IN_HALL, openers=", ".join(map(str, lot.openers)))
        return slot, boards, [], [title + Line(": tie-break game ({time}); ", time=mm.tiebreak_time_control(t))
                                  + how]
    if slot.k > len(rounds):
        _refuse_past(rounds)
    matches = rounds[slot.k - 1]
    if slot.game == "1":
        boards = [(m.home, m.away) for m in matches if not m.is_bye]
        byes = [m.winner for m in matches if m.is_bye]
        notes = [title + Line(": game 1, the upper place opens")]
        notes += [_through_on_bye(m) for m in matches if m.is_bye]
        return slot, boards, byes, notes
    return slot, [(m.away, m.home) for m in matches if not m.is_bye], [], [
        title + Line(": game 2, the lower place opens")]


def knockout_round(t: Tournament, rnd: int) -> tuple[list[tuple[int, int]], list[int], list[str]]:
    """Round ``rnd`` of a knock-out: boards ``(opener, other)`` (the upper place of the
    bracket opens), the players through on a bye, and a note per match."""
    if len(t.entrants) < 2:
        raise EventError(problem("a knock-out needs at least 2 players"))
    if mm.is_mini(t):
        _slot, boards, byes, notes = mini_match_round(t)
        return boards, byes, notes
    rounds = knockout_rounds(t)
    if rnd > len(rounds):
        _refuse_past(rounds)
    matches = rounds[rnd - 1]
    boards = [(m.home, m.away) for m in matches if not m.is_bye]
    byes = [m.winner for m in matches if m.is_bye]
    notes = [Line("knock-out round {round} of {rounds}, seeded by rating; the upper place opens", round=rnd,
                  rounds=len(rounds[0]).bit_length())]
    notes += [_through_on_bye(m) for m in matches if m.is_bye]
    return boards, byes, notes


def _through_on_bye(m) -> Line:
    return Line("match {match}: {number} goes through on a bye", match=m.index, number=m.winner)


def knockout_places(t: Tournament) -> dict[int, int]:
    """Final places of a knock-out: the winner 1, the loser of the final 2, of the
    semi-finals 3 (shared), of the quarter-finals 5, …; players still in share the best
    place left."""
    rounds = knockout_rounds(t)
    n_rounds = len(rounds[0]).bit_length()  # a bracket of 2^R places has R rounds
    places: dict[int, int] = {}
    for k, matches in enumerate(rounds, start=1):
        for m in matches:
            if m.winner is not None and not m.is_bye:
                loser = m.away if m.winner == m.home else m.home
                places[loser] = 2 ** (n_rounds - k) + 1
    final = rounds[-1][0] if len(rounds[-1]) == 1 else None
    if final is not None and final.winner is not None:
        places[final.winner] = 1
    for e in t.entrants:
        places.setdefault(e.number, 1)  # the winner, or still in
    return places


#: how far a player of a knock-out got, and the bracket's words (``knockout_reached``, ``bracket_text``), each whole
REACHED = {"winner": N_("winner"), "final": N_("final"), "semi-final": N_("semi-final"),
           "quarter-final": N_("quarter-final")}
REACHED_ROUND = N_("round {round}")
STILL_IN = N_("{reached} (still in)")
BRACKET_RULE = N_("Mini-matches: 2 games, openers alternate; at 1:1 a tie-break game ({time}), its opener drawn by lot")
BRACKET_LOT = N_("; round {round}: {lot}")
BRACKET_ROUND = N_("Round {round}")
BRACKET_BYE = N_("{number} {name}: bye")


def knockout_reached(t: Tournament, gettext: Callable[[str], str] = str) -> dict[int, str]:
    """How far each player of a knock-out got (晋级轮次): ``winner``, ``final``,
    ``semi-final``, ``quarter-final`` or ``round k``; ``(still in)`` while not out — in the language of
    ``gettext`` (English by default: the CSV's words)."""
    rounds = knockout_rounds(t)
    n_rounds = len(rounds[0]).bit_length()  # a bracket of 2^R places has R rounds
    names = {n_rounds: "final", n_rounds - 1: "semi-final", n_rounds - 2: "quarter-final"}
    reached: dict[int, str] = {}
    for k, matches in enumerate(rounds, start=1):
        for m in matches:
            for p in (m.home, m.away):
                if p is not None:
                    out = m.winner is not None and m.winner != p
                    at = gettext(REACHED[names[k]]) if k in names else gettext(REACHED_ROUND).format(round=k)
                    reached[p] = at if out else gettext(STILL_IN).format(reached=at)
    final = rounds[-1][0] if len(rounds) == n_rounds else None
    if final is not None and final.winner is not None:
        reached[final.winner] = gettext(REACHED["winner"])
    return reached


def bracket_text(t: Tournament, gettext: Callable[[str], str] = str) -> str:
    """The knock-out bracket round by round: ``1 张三 – 8 李四  → 1`` (winner once decided) — in the language of
    ``gettext``."""
    names = {e.number: e.name for e in t.entrants}
    lines = []
    if mm.is_mini(t):
        lots = [lot for s in mm.schedule(t) if s.game == mm.TIEBREAK and (lot := mm.lot_of(t, s.round))]
        lines.append(gettext(BRACKET_RULE).format(time=mm.tiebreak_time_control(t))
                     + "".join(gettext(BRACKET_LOT).format(round=lot.round, lot=lot.text(gettext)) for lot in lots))
    for k, matches in enumerate(knockout_rounds(t), start=1):
        lines.append(gettext(BRACKET_ROUND).format(round=k))
        for m in matches:
            if m.is_bye:
                lines.append(f"  {m.index:>3}. " + gettext(BRACKET_BYE).format(number=m.winner, name=names[m.winner]))
                continue
            won = f"  → {m.winner}" if m.winner is not None else ""
            score = f"  {m.score.text(gettext)}" if m.score is not None and m.score.games else ""
            lines.append(f"  {m.index:>3}. {m.home} {names[m.home]} – {m.away} {names[m.away]}{score}{won}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class BracketSlot:
    """One match of the printed bracket (对阵图): its two places as printed and who went through."""

    title: str  # the round's name: 第1轮 … 半决赛, 决赛
    upper: str  # "1 张三" (seed's draw number and name); "轮空" for a bye's empty place
    lower: str
    winner: int | None  # 0 the upper place, 1 the lower, None not decided
    score: str = ""  # the game's result as entered, "1:0"


def round_title(k: int, n_rounds: int) -> str:
    """第k轮, 四分之一决赛, 半决赛, 决赛."""
    return {n_rounds: "决赛", n_rounds - 1: "半决赛", n_rounds - 2: "四分之一决赛"}.get(k, f"第{k}轮")


def bracket_rounds(t: Tournament) -> list[list[BracketSlot]]:
    """The bracket as far as decided, round by round, for printing: a full first round (byes
    printed as 轮空), then the winners' rounds up to the final."""
    names = {e.number: f"{e.number} {e.name}" for e in t.entrants}
    played = knockout_rounds(t)
    n_rounds = len(played[0]).bit_length()
    out: list[list[BracketSlot]] = []
    by = {e.number: e for e in t.entrants}
    for k in range(1, n_rounds + 1):
        title = round_title(k, n_rounds)
        if k <= len(played):
            row = []
            for m in played[k - 1]:
                won = None if m.winner is None else (0 if m.winner == m.home else 1)
                score = ""
                if m.score is not None:
                    score = m.score.text_zh() if m.score.games else ""
                elif not m.is_bye and m.winner is not None and len(by[m.home].rounds) >= k:
                    code = by[m.home].rounds[k - 1].result
                    score = {"1": "1:0", "0": "0:1", "+": "+:−", "-": "−:+", "W": "1:0", "L": "0:1"}.get(code, "")
                row.append(BracketSlot(title, names.get(m.home, "轮空"), names.get(m.away, "轮空"), won, score))
            out.append(row)
        else:
            out.append([BracketSlot(title, "", "", None) for _ in range(2 ** (n_rounds - k))])
    return out


def eliminated_after(t: Tournament) -> dict[int, int]:
    """Per player knocked out: the round he lost (淘汰: not absent in the rounds after it)."""
    out: dict[int, int] = {}
    for matches in knockout_rounds(t):
        for m in matches:
            if m.winner is not None and not m.is_bye:
                out[m.away if m.winner == m.home else m.home] = m.decided_in or m.round
    return out


# -- mini-matches on the sheets -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """One mini-match as one of its players saw it: the knock-out round, the opponent, the score from his side
    (``1:1``, the tie-break game's apart) and whether he went through (None while undecided)."""

    k: int
    opponent: int
    mine: str
    theirs: str
    tiebreak: tuple[str, str] | None
    won: bool | None

    def text_zh(self) -> str:
        """``第1轮对5号 1:1（加赛 1:0）胜``."""
        tb = f"（加赛 {self.tiebreak[0]}:{self.tiebreak[1]}）" if self.tiebreak else ""
        return f"第{self.k}轮对{self.opponent}号 {self.mine}:{self.theirs}{tb}" + {True: "胜", False: "负", None: ""}[self.won]

    def text(self) -> str:
        """``R1 v5 1:1 (tie-break 1:0) won``."""
        tb = f" (tie-break {self.tiebreak[0]}:{self.tiebreak[1]})" if self.tiebreak else ""
        return f"R{self.k} v{self.opponent} {self.mine}:{self.theirs}{tb}" + {True: " won", False: " lost",
                                                                             None: ""}[self.won]


def played_matches(t: Tournament) -> dict[int, list[PlayedMatch]]:
    """Per player, his mini-matches with a game played, round by round ({} unless the event plays mini-matches)."""
    if not mm.is_mini(t) or len(t.entrants) < 2:
        return {}
    out: dict[int, list[PlayedMatch]] = {}
    for matches in knockout_rounds(t):
        for m in matches:
            s = m.score
            if m.is_bye or s is None or not (s.games or s.tiebreak):
                continue
            up, low = mm.points_text(s.upper), mm.points_text(s.lower)
            tb = None if s.tiebreak is None else (mm.points_text(s.tiebreak[0]), mm.points_text(s.tiebreak[1]))
            for me, other, mine, theirs, tbs in ((m.home, m.away, up, low, tb),
                                                 (m.away, m.home, low, up, tb and (tb[1], tb[0]))):
                won = None if m.winner is None else m.winner == me
                out.setdefault(me, []).append(PlayedMatch(m.round, other, mine, theirs, tbs, won))
    return out


def mini_match_rule_zh(t: Tournament) -> str:
    """What the sheets say of the mini-matches: the rule, the tie-break game's time control, each lot."""
    if not mm.is_mini(t):
        return ""
    tc = mm.tiebreak_time_control(t)
    lots = [lot for s in mm.schedule(t) if s.game == mm.TIEBREAK and (lot := mm.lot_of(t, s.round)) is not None]
    text = f"每场两局，先手轮换；1:1 时加赛一局（用时 {tc}），加赛先手抽签"
    if lots:
        text += "：" + "；".join(f"第{lot.round}轮{lot.how_zh()}" for lot in lots)
    return text
