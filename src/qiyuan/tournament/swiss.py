"""Gomoku Swiss pairing (五子棋瑞士制抓对), as read in ``spec/gomoku-swiss.md``.

Hard rules (法则一): everybody present is paired, an odd count gives exactly
one bye (轮空); nobody meets twice; nobody gets a second bye; withdrawn and
absent players are not paired.

Order of work (法则二、三、四): score groups (积分组) from the highest score
down. In a group, the players who floated into it (轮低 from above, in the
order they were chosen) each take an opponent — who pairs up (轮高) is the
player with most ``downs``, then fewest ``ups``, then the smaller draw number
in odd rounds and the larger in even rounds. Then as few of the group's own
remaining players as possible float out; who floats is chosen one at a time by
most ``ups``, then fewest ``downs``, then the larger draw number. The rest
pair inside the group: the smallest remaining draw number picks, taking the
front (抓前) in odd rounds and the back (抓后) in even rounds. The player
floating out of the lowest group gets the bye.

Every choice is taken only if the rest of the round can still be completed
(the look-ahead that replaces the source's re-pairing of the groups above:
:mod:`qiyuan.tournament.lookahead`).

Speed: the procedure is first run *optimistically*, each choice taken when it
is merely legal. If that run completes the round, every choice it made had a
completion (the run's own result), so it is exactly the procedure's pairing.
Otherwise the procedure runs again with the look-ahead, keeping one perfect
matching of the unpaired players (the witness, started from the optimistic
run) and repairing it after each choice (:mod:`qiyuan.tournament.matching`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from qiyuan.collector import held
from qiyuan.tournament import keepapart
from qiyuan.tournament.errors import EventError, problem
from qiyuan.tournament.explanation import Line
from qiyuan.tournament.lookahead import BYE, LookAhead
from qiyuan.tournament.matching import Matching
from qiyuan.tournament.model import RoundCell, Tournament
from qiyuan.tournament.openers import opener_rule
from qiyuan.tournament.state import PlayerState, player_states, states_and_gaps

__all__ = [
    "Board",
    "Pairing",
    "PairingError",
    "PlayerState",
    "apply_pairing",
    "next_round",
    "pair_round",
    "player_states",
]



class PairingError(EventError):
    """No complete pairing exists, or the event cannot be paired as it stands.  ``message`` is an
    English template filled from ``params`` (its problem carries both, for the desk's translation)."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(problem(message, **params) if params else message)
        self.message = message.format(**params) if params else message


@dataclass(frozen=True, slots=True)
class Board:
    opener: int  # 假先 / 开局者, TRF colour "b"
    other: int


@dataclass(slots=True)
class Pairing:
    round: int
    boards: list[Board]
    bye: int | None
    explanation: list[Line] = field(default_factory=list)  # each line a str, translatable (``Line.text``)
    #: said whether or not ``explain`` was asked (``Problem``s): e.g. a keep-apart rule relaxed for this round
    warnings: list = field(default_factory=list)


def next_round(t: Tournament) -> int:
    """The round to pair: the first round some player still to be paired has no cell for."""
    pending = [
        len(e.rounds)
        for e in t.entrants
        if e.withdrawn_after is None or e.withdrawn_after > len(e.rounds)
    ]
    if not pending:
        raise PairingError("nobody is left to pair: every player has withdrawn")
    return min(pending) + 1


#: the explanation's templates used in more than one variant (the others are written where they are used)
FLOATED_IN_ODD = ("{a}–{b}: {a} floated into the {score}-point group and {b} pairs up (downs {downs}, ups {ups}; "
                  "most downs, then fewest ups, then the smaller draw number first)")
FLOATED_IN_EVEN = ("{a}–{b}: {a} floated into the {score}-point group and {b} pairs up (downs {downs}, ups {ups}; "
                   "most downs, then fewest ups, then the larger draw number first)")
FLOAT_ORDER = "; {n} has ups {ups}, downs {downs} (most ups, then fewest downs, then the larger draw number float first)"
FLOAT_ORDER_BYE = ("; {n} has ups {ups}, downs {downs} (most ups, then fewest downs, then the larger draw number float "
                   "first, only players without a bye can take it)")
TAKES_FRONT = ("{a}–{b}: {a} is the smallest remaining draw number of the {score}-point group and takes from the "
               "front (odd round: 抓前) the first player it has not met")
TAKES_BACK = ("{a}–{b}: {a} is the smallest remaining draw number of the {score}-point group and takes from the "
              "back (even round: 抓后) the first player it has not met")
OPENER_RULES = {
    1: "board {board}: {opener} opens against {other} (rule 1: fewer openings, the bye counting half)",
    2: "board {board}: {opener} opens against {other} (rule 2: no third opening or non-opening in a row)",
    3: "board {board}: {opener} opens against {other} (rule 3: the smaller draw number in odd rounds, the larger in "
       "even)",
}


def _fmt(score: Decimal) -> str:
    return format(score.normalize(), "f") if score == score.to_integral() else str(score)


class _Procedure:
    """One run of the pairing procedure over the players to pair."""

    def __init__(
        self,
        round_no: int,
        pool: list[int],
        st: dict[int, PlayerState],
        *,
        explain: bool,
        apart: dict[int, set[int]] | None = None,
    ) -> None:
        self.round_no = round_no
        self.odd = round_no % 2 == 1
        self.explain = explain
        self.notes: list[Line] = []
        size = max(pool, default=0) + 1
        self.met: list[set[int]] = [set()] * size
        self.had_bye = [False] * size
        self.ups = [0] * size
        self.downs = [0] * size
        #: pairs kept apart this round (keep-apart rule): treated like a meeting, named apart in notes
        self.apart: dict[int, set[int]] = apart or {}
        for n in pool:
            s = st[n]
            self.met[n] = s.opponents | self.apart[n] if n in self.apart else s.opponents
            self.had_bye[n] = s.had_bye
            self.ups[n] = s.ups
            self.downs[n] = s.downs
        by_score: dict[Decimal, list[int]] = {}
        for n in pool:
            by_score.setdefault(st[n].score, []).append(n)
        self.groups = [(score, sorted(by_score[score])) for score in sorted(by_score, reverse=True)]
        self.paired = [False] * size
        self.pairs: list[tuple[int, int]] = []
        self.bye: int | None = None
        self.failed = False
        #: the look-ahead: can the rest of the round still be completed after a choice?
        self.look = LookAhead(round_no, size, self.met, self.had_bye)

    # -- keys of the ordered choices ------------------------------------

    def pairs_up_key(self, n: int) -> tuple[int, int, int]:
        """Who pairs up (轮高) first: most downs, fewest ups, then front/back by round."""
        return (-self.downs[n], self.ups[n], n if self.odd else -n)

    def floats_key(self, n: int) -> tuple[int, int, int]:
        """Who floats down (轮低) first: most ups, fewest downs, then the larger draw number."""
        return (-self.ups[n], self.downs[n], -n)

    def note(self, text: Line) -> None:
        self.notes.append(text)

    # -- the look-ahead (qiyuan.tournament.lookahead) --------------------------

    def start_witness(self, pool: list[int], seed_pairs: list[tuple[int, int]], seed_bye: int | None) -> None:
        order = [n for _, members in self.groups for n in members]
        if len(pool) % 2:
            order.append(BYE)
        refusal = self.look.start(order, pool, seed_pairs, seed_bye)
        if refusal is not None:
            template, params = refusal
            raise PairingError(template, **params)

    @property
    def witness(self) -> Matching | None:
        return self.look.witness


    # -- the procedure -------------------------------------------------------

    def run(self) -> None:
        carry: list[int] = []
        last = len(self.groups) - 1
        for g, (score, members) in enumerate(self.groups):
            if self.witness is not None:
                self.witness.compact()
            carry = self.take_floaters(score, members, carry) + self.float_out(g + 1, score, members, g == last)
        self.finish(carry)

    def take_floaters(self, score: Decimal, members: list[int], carry: list[int]) -> list[int]:
        """Players who floated into the group take their opponents; return those who float on."""
        on: list[int] = []
        paired, met = self.paired, self.met
        for f in carry:
            legal = [c for c in members if not paired[c] and c not in met[f]]
            chosen = None
            if self.witness is None:
                if legal:
                    chosen = min(legal, key=self.pairs_up_key)
            else:
                feasible: set[int] | None = None
                for c in sorted(legal, key=self.pairs_up_key):
                    if feasible is not None and c not in feasible:
                        ok = False
                    else:
                        ok = self.look.try_pair(f, c)
                        if not ok and feasible is None:  # one search answers for all the others
                            feasible = self.look.partners(f)
                    if ok:
                        chosen = c
                        break
                    if self.explain:
                        self.note(Line("  {a}–{b} not taken: the rest of the round could not be completed", a=f, b=c))
            if chosen is None:
                on.append(f)
                if self.explain:
                    self.note(Line("{n} floats on past the {score}-point group: nobody in it can meet him and still "
                                   "leave the round complete", n=f, score=_fmt(score)))
                continue
            paired[f] = paired[chosen] = True
            self.pairs.append((f, chosen))
            if self.explain:
                template = (FLOATED_IN_ODD if self.odd else FLOATED_IN_EVEN)
                self.note(Line(template, a=f, b=chosen, score=_fmt(score), downs=self.downs[chosen],
                               ups=self.ups[chosen]))
        return on

    def float_out(self, tag: int, score: Decimal, members: list[int], last: bool) -> list[int]:
        """Choose the group's floaters, pair the rest inside; return the floaters in order."""
        rest = [m for m in members if not self.paired[m]]
        if self.witness is None:
            floaters: list[int] = []
            if len(rest) % 2:
                cands = [x for x in rest if not self.had_bye[x]] if last else rest
                if cands:
                    floaters = [min(cands, key=self.floats_key)]
                else:
                    self.failed = True
        else:
            floaters = self.choose_floaters(tag, rest)
        if self.explain and floaters:
            self.explain_floaters(score, rest, floaters, last)
            order = sorted(rest, key=self.floats_key)
            passed = [x for x in order[: max(order.index(f) for f in floaters)] if x not in floaters]
            if passed:
                self.note(Line("  passed over {players}: no complete round lets them float with those chosen before "
                               "them", players=", ".join(map(str, passed))))
        fl = set(floaters)
        self.pair_inside(score, [m for m in rest if m not in fl])
        return floaters

    def choose_floaters(self, tag: int, rest: list[int]) -> list[int]:
        """As few floaters as possible; each chosen by :meth:`floats_key` order, if feasible.

        The floaters are the first set, in that order, of the smallest size
        for which the round can still be completed. Sizes below the bounds
        of the group's own side (its players left over by a maximum pairing
        among themselves) and of the side below (how many players from the
        group it needs) are skipped; partial choices are pruned by both
        sides' exact conditions; each full choice is checked on the whole
        round.
        """
        order = sorted(rest, key=self.floats_key)
        k0 = len(rest) % 2
        found = self._search(tag, rest, order, k0, 0, [])
        if found is not None:
            return found
        k = max(k0 + 2, self.look.deficiency(rest))
        while k <= len(rest) and not self.look.below_ok(rest, [], k):
            k += 2
        for k in range(k, len(rest) + 1, 2):
            found = self._search(tag, rest, order, k, 0, [])
            if found is not None:
                return found
        raise AssertionError("the witness guarantees some split of the group")

    def _search(
        self, tag: int, rest: list[int], order: list[int], k: int, start: int, chosen: list[int]
    ) -> list[int] | None:
        if len(chosen) == k:
            return chosen if self.look.try_split(tag, rest, chosen) else None
        need = k - len(chosen)
        for i in range(start, len(order) - need + 1):
            trial = chosen + [order[i]]
            left = need - 1
            if left:
                fl = set(trial)
                if self.look.deficiency([v for v in rest if v not in fl]) > left:
                    continue
                if not self.look.below_ok(rest, trial, left):
                    continue
            found = self._search(tag, rest, order, k, i + 1, trial)
            if found is not None:
                return found
        return None

    def explain_floaters(self, score: Decimal, rest: list[int], floaters: list[int], last: bool) -> None:
        g = _fmt(score)
        if len(floaters) == len(rest) % 2:
            why = Line("the {score}-point group has an odd number of players left ({n})", score=g, n=len(rest))
        else:
            why = Line("the {score}-point group cannot pair {k} of its {n} players among themselves and still leave "
                       "the round complete, so {m} float", score=g, k=len(rest) - len(floaters) + 2, n=len(rest),
                       m=len(floaters))
        for x in floaters:
            dest = Line("{n} takes the bye: ", n=x) if last else Line("{n} floats down: ", n=x)
            self.note(dest + why + Line(FLOAT_ORDER_BYE if last else FLOAT_ORDER, n=x, ups=self.ups[x],
                                        downs=self.downs[x]))

    def pair_inside(self, score: Decimal, rest: list[int]) -> None:
        """法则四: the smallest remaining draw number picks, front in odd rounds, back in even."""
        n = len(rest)
        if self.witness is not None:
            self.witness.scope = rest
        used = [False] * n
        met, odd, explain = self.met, self.odd, self.explain
        hi = n - 1
        for i in range(n):
            if used[i]:
                continue
            p = rest[i]
            used[i] = True
            mp = met[p]
            partner = -1
            skipped: list[int] = []
            already: list[int] = []
            if odd:
                js = range(i + 1, n)
            else:
                while hi > i and used[hi]:
                    hi -= 1
                js = range(hi, i, -1)
            feasible: set[int] | None = None
            for j in js:
                if used[j]:
                    continue
                q = rest[j]
                if q in mp:
                    if explain:
                        already.append(q)
                    continue
                if feasible is None or q in feasible:
                    if self.look.try_pair(p, q):
                        partner = j
                        break
                    if feasible is None and self.witness is not None:  # one search for the others
                        feasible = self.look.partners(p)
                skipped.append(q)
            if partner == -1:
                self.failed = True
                if explain:
                    self.note(Line("{n} finds no opponent in the {score}-point group", n=p, score=_fmt(score)))
                continue
            used[partner] = True
            q = rest[partner]
            self.paired[p] = self.paired[q] = True
            self.pairs.append((p, q))
            if explain:
                text = Line(TAKES_FRONT if odd else TAKES_BACK, a=p, b=q, score=_fmt(score))
                kept = [x for x in already if x in self.apart.get(p, ())]
                already = [x for x in already if x not in kept]
                if already:
                    text += Line("; already met {players}", players=", ".join(map(str, already)))
                if kept:
                    text += Line("; kept apart from {players} (keep-apart rule)", players=", ".join(map(str, kept)))
                if skipped:
                    text += Line("; passed over {players} (the rest of the round could not be completed)",
                                 players=", ".join(map(str, skipped)))
                self.note(text)
        if self.witness is not None:
            self.witness.scope = None

    def finish(self, carry: list[int]) -> None:
        if not carry:
            return
        if len(carry) == 1 and not self.had_bye[carry[0]]:
            self.bye = carry[0]
            if self.explain:
                self.note(Line("{n} has the bye (轮空): he is left after the lowest group", n=carry[0]))
            if self.witness is not None:
                self.witness.remove(carry[0])
            return
        self.failed = True


def _pool(t: Tournament, r: int) -> tuple[list[int], list[tuple[int, int, str]], int | None, list[str]]:
    """Players to pair in round ``r``, games and bye already entered for it, and notes."""
    pool: list[int] = []
    fixed: list[tuple[int, int, str]] = []
    fixed_bye: int | None = None
    notes: list[Line] = []
    for e in t.entrants:
        if e.withdrawn_after is not None and e.withdrawn_after < r:
            notes.append(Line("{n} is not paired: withdrawn after round {round}", n=e.number, round=e.withdrawn_after))
            continue
        if len(e.rounds) >= r:
            cell = e.rounds[r - 1]
            if cell.opponent is not None:
                if e.number < cell.opponent:
                    fixed.append((e.number, cell.opponent, cell.colour))
                continue
            if cell.result == "U":
                if fixed_bye is not None:
                    raise PairingError(f"round {r} already has two byes: players {fixed_bye} and {e.number}")
                fixed_bye = e.number
                continue
            notes.append(Line("{n} is not paired: entered as '{result}' (absent or excused) for round {round}",
                              n=e.number, result=cell.result, round=r))
            continue
        pool.append(e.number)
    return pool, fixed, fixed_bye, notes


def pair_round(
    t: Tournament,
    round_no: int | None = None,
    *,
    explain: bool = False,
    apart: dict[int, set[int]] | None = None,
    apart_reason: str | Line = "the keep-apart rule",
) -> Pairing:
    """Pair round ``round_no`` (default: the next round) by the Gomoku Swiss system.

    Cells already entered for the round are respected: absences and the
    arbiter's byes (``Z``/``H``/``F``) and withdrawn players are not paired,
    games entered by hand stay as they are. Raises :class:`PairingError`
    naming the problem when no complete pairing exists.

    ``apart`` (off by default) names, per player, the players he must not meet
    this round (the arbiter's keep-apart rule: same association, club or family
    in the first rounds).  It is an added hard rule, honoured by the look-ahead
    like a meeting; when no complete pairing keeps them apart it is relaxed for
    the round and ``Pairing.warnings`` says so (``apart_reason`` names the rule).
    """
    with held():  # ~100,000 small objects for 10,000 players: rescans took a third of the time
        return _pair_round(t, round_no, explain=explain, apart=apart, apart_reason=apart_reason)


def _pair_round(
    t: Tournament, round_no: int | None, *, explain: bool, apart: dict[int, set[int]] | None,
    apart_reason: str | Line
) -> Pairing:
    r = next_round(t) if round_no is None else round_no
    if r < 1:
        raise PairingError(f"round {r} does not exist")
    st, gaps = states_and_gaps(t, r)
    if gaps:
        shown = ", ".join(f"round {k}: {a}–{b}" for k, a, b in gaps[:10] if a < b)
        raise PairingError("cannot pair round {round}: earlier games have no result ({games})", round=r, games=shown)
    pool, fixed, fixed_bye, notes = _pool(t, r)
    if fixed_bye is not None and len(pool) % 2:
        raise PairingError("round {round}: player {number} already has the bye and {left} players are left to pair",
                           round=r, number=fixed_bye, left=len(pool))
    for a, b, _ in fixed:
        if a in st and b in st[a].opponents:
            raise PairingError("round {round}: the game {a}–{b} entered by hand is a repeat meeting", round=r, a=a, b=b)
    if fixed_bye is not None and st[fixed_bye].had_bye:
        raise PairingError("round {round}: player {number} is given a second bye", round=r, number=fixed_bye)

    warnings: list = []  # Problems: said to the arbiter whether or not he asked for the explanation
    relaxed_for: dict[int, set[int]] | None = None
    if apart:
        try:
            proc = _procedure(r, pool, st, explain, apart)
        except PairingError:
            # relaxed board by board: only the fewest same-group pairs the pairing needs may meet
            fewer, _pairs, _bound = keepapart.relax(pool, {n: st[n].opponents for n in pool},
                                                    {n: st[n].had_bye for n in pool}, apart)
            try:
                proc = _procedure(r, pool, st, explain, fewer)
            except PairingError:
                proc = _procedure(r, pool, st, explain, None)
            relaxed_for = apart
    else:
        proc = _procedure(r, pool, st, explain, None)

    boards: list[Board] = []
    fixed_lines: list[str] = []
    for a, b, colour in fixed:
        if colour == "b":
            boards.append(Board(a, b))
        elif colour == "w":
            boards.append(Board(b, a))
        else:
            o, x, _ = opener_rule(st[a], st[b], r)
            boards.append(Board(o, x))
        fixed_lines.append(Line("{a}–{b}: entered by hand", a=a, b=b))
    board_lines: list[Line] = []
    for a, b in proc.pairs:
        opener, other, rule = opener_rule(st[a], st[b], r)
        boards.append(Board(opener, other))
        if explain:
            board_lines.append(Line(OPENER_RULES[rule], board=len(boards), opener=opener, other=other))
    if relaxed_for is not None:
        names = {e.number: e.name for e in t.entrants}
        same = keepapart.same_group_boards([(b.opener, b.other) for b in boards], relaxed_for)
        warnings.append(problem("round {round}: the keep-apart rule cannot hold on every board; relaxed on "
                                "{count} board(s), the fewest found: {boards}", round=r, count=len(same),
                                boards="; ".join(f"#{k} {a} {names.get(a, '')} – {b} {names.get(b, '')}"
                                                 for k, a, b in same)))
    relaxed = [Line(w.message, **(w.params or {})) + Line(" (") + apart_reason + Line(")") for w in warnings]
    lines = relaxed + notes + fixed_lines + proc.notes + board_lines if explain else []
    bye = fixed_bye if fixed_bye is not None else proc.bye
    return Pairing(r, boards, bye, lines, warnings)


def _procedure(
    r: int, pool: list[int], st: dict[int, PlayerState], explain: bool, apart: dict[int, set[int]] | None
) -> _Procedure:
    """Run the procedure: optimistically first, then with the look-ahead if that run dead-ends."""
    proc = _Procedure(r, pool, st, explain=explain, apart=apart)
    proc.run()
    if proc.failed:
        seed_pairs, seed_bye = proc.pairs, proc.bye
        proc = _Procedure(r, pool, st, explain=explain, apart=apart)
        proc.start_witness(pool, seed_pairs, seed_bye)
        proc.run()
        if proc.failed:  # cannot happen: the witness always certifies a completion
            raise PairingError(f"round {r}: internal error, the look-ahead left players unpaired")
    return proc


def apply_pairing(t: Tournament, pairing: Pairing) -> None:
    """Write the round's cells: games with result ``" "`` until entered, the bye as ``U``."""
    r = pairing.round
    by_number = {e.number: e for e in t.entrants}

    def put(n: int, cell: RoundCell) -> None:
        e = by_number[n]
        while len(e.rounds) < r - 1:
            e.rounds.append(RoundCell(None, "-", "Z"))
        if len(e.rounds) >= r:
            old = e.rounds[r - 1]
            if old.opponent == cell.opponent and (old.opponent is not None or old.result == cell.result):
                return
            e.rounds[r - 1] = cell
        else:
            e.rounds.append(cell)

    for b in pairing.boards:
        put(b.opener, RoundCell(b.other, "b", " "))
        put(b.other, RoundCell(b.opener, "w", " "))
    if pairing.bye is not None:
        put(pairing.bye, RoundCell(None, "-", "U"))
