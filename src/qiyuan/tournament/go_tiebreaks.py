"""Go placement criteria (围棋名次依据): McMahon score, wins, SOS, SOSOS, SODOS, cumulative score, exploits,
direct encounter, rating, rank, category — as OpenGotha computes them (``Tournament.fillBaseScoringInfo``).

A registry of criteria by name, as OpenGotha names them; the event chooses and
orders them (``XQZ``, ``go.GoSettings.criteria``). Values are kept in half
points (OpenGotha's ``x2`` integers) so nothing is ever rounded on the way;
they are shown as halves. Where the event says so (OpenGotha's ``genRoundDownNBWMMS``)
the points of rounds without a game (absent, bye) are rounded down to whole points,
counted from the first round on, before anything is summed from MMS and NBW (as
OpenGotha does; a jigo's half point is kept).

| name | 中文 | value |
|---|---|---|
| MMS | 麦克马洪分 | start score from the rank (between floor and bar) + wins; a round without a game adds the event's absent or bye value |
| NBW | 胜局数 | wins (+ what a bye or absence is worth) |
| SOSM / SOSW | 对手分 | the opponents' MMS (NBW); a round without a game counts the player's own start score (MMS) or 0 (NBW); with MMS, an opponent who gave the player h stones counts h less, one who took h stones h more |
| SOSM-1, SOSM-2 / SOSW-1, SOSW-2 | 去掉最低的对手分 | SOS without the lowest one (two) of its rounds (OpenGotha: after two rounds SOSM-1 is 0) |
| SOSOSM / SOSOSW | 对手的对手分 | the opponents' SOS (a round without a game counts the player's own start score times the rounds) |
| SODOSM / SODOSW | 胜局对手分 | the MMS (with the stones, as in SOSM) or NBW of the opponents beaten, half of it for a jigo |
| CUSSM / CUSSW | 累进分 | the running MMS (NBW) after each round, added up |
| EXT / EXR | 挑战分 / 挑战胜分 | the opponents' NBW weighted by how far the player played above his rank (0 below, 1 at the natural handicap, 2 one stone above, 3 two or more), every game (EXT) or the games won (EXR) |
| Rating / Rank | 等级分 / 段级位 | the player's rating; his rank |
| CAT | 组别 | his category (the event's categories by rank, ``XQ9``): the strongest first |
| DC | 直胜 | among the players still equal on every criterion before it: games won against each other |
| SDC | 简化直胜 | among the players equal before it, when each has met each: the number of them he beat (else 0) |

``SOS``, ``SOSOS``, ``SODOS`` and ``CUSS`` are read as their MMS forms. A both-win
(the arbiter's decision, cells ``1``/``1``) counts as a win for each, a both-lose as a
loss (docs/decisions.md), as OpenGotha counts RESULT_BOTHWIN / RESULT_BOTHLOSE.
OpenGotha's Strasbourg score (STS, SOSTS) is not computed: a file that orders by it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from qiyuan.tournament.go import GoPlayer, GoSettings, is_go_swiss, marks
from qiyuan.tournament.model import Tournament

WON = frozenset("1W+")
DRAWN = frozenset("=D")
PLAYED = frozenset("10=WDL+-")

#: name -> (中文, English)
CRITERIA: dict[str, tuple[str, str]] = {
    "MMS": ("麦克马洪分", "McMahon score"),
    "NBW": ("胜局数", "wins"),
    "SOSM": ("对手分", "sum of opponents' McMahon scores"),
    "SOSW": ("对手胜局分", "sum of opponents' wins"),
    "SOSM-1": ("去掉最低的对手分", "SOS less the lowest"),
    "SOSM-2": ("去掉两个最低的对手分", "SOS less the two lowest"),
    "SOSW-1": ("去掉最低的对手胜局分", "SOSW less the lowest"),
    "SOSW-2": ("去掉两个最低的对手胜局分", "SOSW less the two lowest"),
    "SOSOSM": ("对手的对手分", "sum of opponents' SOS"),
    "SOSOSW": ("对手的对手胜局分", "sum of opponents' SOSW"),
    "SODOSM": ("胜局对手分", "sum of defeated opponents' scores"),
    "SODOSW": ("胜局对手胜局分", "sum of defeated opponents' wins"),
    "CUSSM": ("累进分", "cumulative score"),
    "CUSSW": ("累进胜局分", "cumulative wins"),
    "EXT": ("挑战分", "exploits attempted"),
    "EXR": ("挑战胜分", "exploits achieved"),
    "Rating": ("等级分", "rating"),
    "Rank": ("段级位", "rank"),
    "CAT": ("组别", "category"),
    "DC": ("直胜", "direct encounter"),
    "SDC": ("简化直胜", "simplified direct encounter"),
}
ALIASES = {"SOS": "SOSM", "SOSOS": "SOSOSM", "SODOS": "SODOSM", "CUSS": "CUSSM", "WINS": "NBW", "MM": "MMS",
           "SOSMM1": "SOSM-1", "SOSMM2": "SOSM-2", "SOSWM1": "SOSW-1", "SOSWM2": "SOSW-2", "RATING": "Rating",
           "RANK": "Rank"}
#: OpenGotha's short names, the .h9 column heads (at most five characters: ``Rating`` is cut to ``Ratin`` there)
H9_LABELS = {"MMS": "MMS", "NBW": "NBW", "SOSM": "SOS", "SOSW": "SOS", "SOSM-1": "SOS-1", "SOSM-2": "SOS-2",
             "SOSW-1": "SOS-1", "SOSW-2": "SOS-2", "SOSOSM": "SOSOS", "SOSOSW": "SOSOS", "SODOSM": "SODOS",
             "SODOSW": "SODOS", "CUSSM": "CUSS", "CUSSW": "CUSS", "EXT": "EXT", "EXR": "EXR", "Rating": "Ratin",
             "Rank": "Rank", "CAT": "CAT", "DC": "DC", "SDC": "SDC"}


def criterion(name: str) -> str | None:
    """The registry's name for a criterion as written (``sos`` → ``SOSM``, ``RATING`` → ``Rating``); None if
    unknown."""
    key = name.strip().upper()
    key = ALIASES.get(key, key)
    return key if key in CRITERIA else None


@dataclass(frozen=True, slots=True)
class GoRow:
    place: int  # 1.. in order; players equal on every criterion share the best place
    number: int
    name: str
    values: dict[str, int]  # criterion -> value in half points


def _cells(t: Tournament, upto: int | None):
    n = max((len(e.rounds) for e in t.entrants), default=0) if upto is None else upto
    return n, {e.number: (e.rounds[:n] + [None] * (n - len(e.rounds[:n]))) for e in t.entrants}


def _paired(c) -> bool:
    return c is not None and c.opponent is not None


def compute(t: Tournament, s: GoSettings, ps: dict[int, GoPlayer], upto: int | None = None) -> dict[str, dict[int, int]]:
    """Every criterion of the registry but DC and SDC for every player, in half points, after round ``upto``
    (all rounds)."""
    n, cells = _cells(t, upto)
    start2 = {num: 2 * s.mms_start(_rank(ps, num), ps[num].smms_correction if num in ps else 0) for num in cells}
    unassigned = marks(t)["unassigned"]
    mms2: dict[int, int] = {}
    nbw2: dict[int, int] = {}
    cuss_m: dict[int, int] = {}
    cuss_w: dict[int, int] = {}
    for num, row in cells.items():
        gm = gw = am = aw = cm = cw = 0
        m, w = start2[num], 0
        for rnd, c in enumerate(row, start=1):
            game, extra = _round_value(c, s) if (rnd, num) not in unassigned else (0, (0, 0))
            gm, gw = gm + game, gw + game
            am, aw = am + extra[0], aw + extra[1]
            # OpenGotha rounds the points of the rounds without a game down (counted from round 1), not a jigo's
            m = start2[num] + gm + (am // 2 * 2 if s.round_down else am)
            w = gw + (aw // 2 * 2 if s.round_down else aw)
            cm, cw = cm + m, cw + w
        mms2[num], nbw2[num], cuss_m[num], cuss_w[num] = m, w, cm, cw
    # the opponents' scores SOS counts: with OpenGotha's genCountNotPlayedGamesAsHalfPoint, each one's games
    # actually played and half a point for every other round ("virtual" scores)
    opp_m, opp_w = (_virtual(t, cells, start2) if s.unplayed_half else (mms2, nbw2))
    out: dict[str, dict[int, int]] = {k: {} for k in CRITERIA if k not in ("DC", "SDC")}
    for num, row in cells.items():
        osm, osw, dm, dw, ext, exr = [], [], 0, 0, 0, 0
        for rnd, c in enumerate(row, start=1):
            if not _paired(c) or c.opponent not in cells:
                osm.append(start2[num])
                osw.append(0)
                continue
            o = c.opponent
            h = ps[num].handicaps.get(rnd, 0) if num in ps else 0
            given = h if c.colour == "w" else -h if c.colour == "b" else 0  # stones he gave (taken: negative)
            osm.append(opp_m[o] + 2 * given)
            osw.append(opp_w[o])
            won = 2 if c.result in WON else 1 if c.result in DRAWN else 0
            dm, dw = dm + osm[-1] * won // 2, dw + osw[-1] * won // 2
            exploit = given - (_rank(ps, num) - _rank(ps, o))  # stones given beyond the natural handicap
            weight = 0 if exploit < 0 else min(exploit + 1, 3)
            ext += nbw2[o] * weight
            exr += nbw2[o] * weight if c.result in WON else 0
        out["SOSM"][num], out["SOSW"][num] = sum(osm), sum(osw)
        out["SOSM-1"][num], out["SOSM-2"][num] = _less_lowest(osm, mms=True)
        out["SOSW-1"][num], out["SOSW-2"][num] = _less_lowest(osw, mms=False)
        out["SODOSM"][num], out["SODOSW"][num], out["EXT"][num], out["EXR"][num] = dm, dw, ext, exr
    for num, row in cells.items():
        a = b = 0
        for c in row:
            if not _paired(c) or c.opponent not in cells:
                a += start2[num] * n
                continue
            a += out["SOSM"][c.opponent]
            b += out["SOSW"][c.opponent]
        out["SOSOSM"][num], out["SOSOSW"][num] = a, b
    ratings = {e.number: e.rating or 0 for e in t.entrants}
    for num in cells:
        out["MMS"][num], out["NBW"][num], out["CUSSM"][num], out["CUSSW"][num] = \
            mms2[num], nbw2[num], cuss_m[num], cuss_w[num]
        out["Rating"][num], out["Rank"][num] = 2 * ratings[num], 2 * _rank(ps, num)
        out["CAT"][num] = -2 * s.category(_rank(ps, num))  # higher is better: the strongest category first
    return out


def _virtual(t: Tournament, cells: dict, start2: dict[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    """(MMS, NBW) in half points as OpenGotha's "virtual" scores: the points of games actually played (not
    decided by default, not without a result), plus half a point for every other round."""
    by_default = marks(t)["equalbydef"]
    m: dict[int, int] = {}
    w: dict[int, int] = {}
    for num, row in cells.items():
        points = unplayed = 0
        for rnd, c in enumerate(row, start=1):
            black = num if c is None or c.colour != "w" else c.opponent
            if _paired(c) and c.result in ("1", "0", "=", "W", "L", "D") and (rnd, black) not in by_default:
                points += 2 if c.result in WON else 1 if c.result in DRAWN else 0
            else:
                unplayed += 1
        m[num], w[num] = start2[num] + points + unplayed, points + unplayed
    return m, w


def _less_lowest(values: list[int], mms: bool) -> tuple[int, int]:
    """(SOS less its lowest round, less its two lowest), as OpenGotha computes them: 0 after one round; after
    two, the best round for SOS-1 — but 0 for SOSM-1 (OpenGotha never stores it then) — and 0 for SOS-2."""
    if len(values) <= 1:
        return 0, 0
    if len(values) == 2:
        return (0 if mms else max(values)), 0
    low = sorted(values)
    return sum(values) - low[0], sum(values) - low[0] - low[1]


def _rank(ps: dict[int, GoPlayer], num: int) -> int:
    p = ps.get(num)
    return p.rank if p is not None and p.rank is not None else -30


def _round_value(c, s: GoSettings) -> tuple[int, tuple[int, int]]:
    """The half points one round adds: a game's (to MMS and NBW alike), and a round without a game's
    (MMS, NBW) — a bye's, an excused half point's or an absence's, which OpenGotha may round down."""
    if c is None or c.opponent is None:
        r = "Z" if c is None else c.result
        if r in ("U", "F"):
            return 0, (s.mms2_bye, s.nbw2_bye)
        if r == "H":
            return 0, (1, 1)
        return 0, (s.mms2_absent, s.nbw2_absent)
    return (2 if c.result in WON else 1 if c.result in DRAWN else 0), (0, 0)


def pairing_scores(t: Tournament, s: GoSettings, ps: dict[int, GoPlayer], rnd: int) -> dict[int, int]:
    """The scores that pair round ``rnd`` (half points, before it): the McMahon score, or the wins in a simple
    Swiss for Go (``go_swiss``)."""
    swiss = is_go_swiss(t)
    return dict(compute(t, s, ps, upto=rnd - 1)["NBW" if swiss else "MMS"])


def board_key(scores: dict[int, int], black: int, white: int) -> tuple[int, int, int]:
    """A Go round's board order, the one numbering of its list, slips, results form and QR codes: the higher
    of the two scores first, then the higher sum, then black's draw number."""
    return -max(scores[black], scores[white]), -(scores[black] + scores[white]), black


def shown(value2: int, name: str = "") -> Decimal:
    """A value in half points as people read it (``33.5``); a category (``CAT``) as its number, 1 the
    strongest (as OpenGotha writes it)."""
    if name == "CAT":
        return Decimal(-value2 // 2 + 1)
    return Decimal(value2) / 2


def standings(t: Tournament, s: GoSettings, ps: dict[int, GoPlayer], upto: int | None = None,
              criteria: list[str] | None = None) -> list[GoRow]:
    """Players in order of the event's criteria (then rating, then draw number, for a stable order);
    players equal on every criterion share the best of their places."""
    crit = [c for c in (criterion(x) for x in (criteria or s.criteria)) if c]
    values = compute(t, s, ps, upto)
    rounded = values
    names = {e.number: e.name for e in t.entrants}
    ratings = {e.number: e.rating or 0 for e in t.entrants}
    keyed = list(names)
    if "DC" in crit:
        rounded["DC"] = _direct(t, crit[: crit.index("DC")], rounded, upto)
    if "SDC" in crit:
        rounded["SDC"] = _simplified_direct(t, crit[: crit.index("SDC")], rounded, upto)
    key = lambda num: tuple(-rounded[c][num] for c in crit)  # noqa: E731
    keyed.sort(key=lambda num: (key(num), -ratings[num], num))
    rows: list[GoRow] = []
    for i, num in enumerate(keyed):
        place = rows[-1].place if rows and key(keyed[i - 1]) == key(num) else i + 1
        rows.append(GoRow(place, num, names[num], {c: rounded[c][num] for c in crit}))
    return rows


def _direct(t: Tournament, before: list[str], values: dict[str, dict[int, int]], upto: int | None) -> dict[int, int]:
    """DC: games won (jigo half) against the players equal on every criterion before DC."""
    _, cells = _cells(t, upto)
    group = {num: tuple(values[c][num] for c in before) for num in cells}
    out = {}
    for num, row in cells.items():
        v = 0
        for c in row:
            if c is not None and c.opponent in group and group[c.opponent] == group[num]:
                v += 2 if c.result in WON else 1 if c.result in DRAWN else 0
        out[num] = v
    return out


def _simplified_direct(t: Tournament, before: list[str], values: dict[str, dict[int, int]],
                       upto: int | None) -> dict[int, int]:
    """SDC (OpenGotha): in a group of players equal on every criterion before SDC in which each has met each
    with a decided score between them (games won less games lost, only games played and won, not forfeits
    or decisions), the number of the group he has the better of, twice; 0 for everyone in any other group."""
    _, cells = _cells(t, upto)
    group = {num: tuple(values[c][num] for c in before) for num in cells}
    balance: dict[tuple[int, int], int] = {}
    for num, row in cells.items():
        for i, c in enumerate(row):
            if _paired(c) and c.opponent in cells and c.result in ("1", "0"):
                back = cells[c.opponent][i]
                if back is not None and back.result == ("0" if c.result == "1" else "1"):
                    balance[num, c.opponent] = balance.get((num, c.opponent), 0) + (1 if c.result == "1" else -1)
    out = dict.fromkeys(cells, 0)
    members: dict[tuple[int, ...], list[int]] = {}
    for num in cells:
        members.setdefault(group[num], []).append(num)
    for nums in members.values():
        if len(nums) > 1 and all(balance.get((a, b), 0) for a in nums for b in nums if a != b):
            for a in nums:
                out[a] = 2 * sum(1 for b in nums if a != b and balance[a, b] > 0)
    return out
