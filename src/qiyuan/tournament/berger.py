"""Round robins by the Berger tables (循环制, 贝格尔编排法).

For ``n`` players (an odd ``n`` gets a dummy ``n + 1``: whoever meets it
rests that round) there are ``n - 1`` rounds (``n`` if odd). In round ``r``
the last player ``m + 1`` (``m`` = number of the others) meets
``p = (r - 1) · (m + 1) / 2 mod m + 1``, opening in even rounds, and for
``k = 1 .. (m - 1) / 2`` player ``p + k`` opens against ``p - k`` (counted
round the circle ``1..m``). That is FIDE's Berger table: round 1 of six is
1–6, 2–5, 3–4; round 2 is 6–4, 5–3, 1–2.

In a double round robin the second cycle repeats the first with the
openers exchanged. The player listed first opens (the tables' colours are
the openers, spec decision).
"""

from __future__ import annotations

from qiyuan.tournament.explanation import Line
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.swiss import Board, Pairing, PairingError


def berger_rounds(n: int, *, double: bool = False) -> list[list[tuple[int, int]]]:
    """The rounds of a round robin of ``n`` players: pairs ``(opener, other)`` in board order.

    With an odd ``n`` the player who would meet the dummy ``n + 1`` rests
    and is left out of that round.
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {n}")
    size = n + (n % 2)
    m = size - 1
    half = size // 2
    rounds: list[list[tuple[int, int]]] = []
    for r in range(1, size):
        p = ((r - 1) * half) % m + 1
        games = [(p, size) if r % 2 else (size, p)]
        for k in range(1, half):
            a = (p + k - 1) % m + 1
            b = (p - k - 1) % m + 1
            games.append((a, b))
        rounds.append([g for g in games if size not in g or size == n])
    if double:
        rounds += [[(b, a) for a, b in games] for games in rounds]
    return rounds


def resting_player(n: int, games: list[tuple[int, int]]) -> int | None:
    """Who rests in a round of an odd round robin (None when everybody plays)."""
    playing = {x for g in games for x in g}
    rest = [x for x in range(1, n + 1) if x not in playing]
    return rest[0] if rest else None


def pair_round_robin(t: Tournament, round_no: int) -> Pairing:
    """Round ``round_no`` of the tournament's round robin (double when ``round_no`` is past one cycle).

    Draw numbers must be ``1..n``. The player who rests in an odd round robin
    is not a pairing bye: ``Pairing.bye`` stays None and the explanation names him.
    """
    numbers = sorted(e.number for e in t.entrants)
    n = len(numbers)
    if numbers != list(range(1, n + 1)):
        raise PairingError("a round robin needs draw numbers 1..n without gaps")
    table = berger_rounds(n, double=True)
    if not 1 <= round_no <= len(table):
        raise PairingError(f"a double round robin of {n} players has rounds 1..{len(table)}, not {round_no}")
    games = table[round_no - 1]
    lines = [Line("Berger table, {n} players, round {round}: the player listed first opens", n=n, round=round_no)]
    rest = resting_player(n, games)
    if rest is not None:
        lines.append(Line("{n} rests this round", n=rest))
    return Pairing(round_no, [Board(a, b) for a, b in games], None, lines)
