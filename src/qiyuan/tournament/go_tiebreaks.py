"""Go placement criteria (围棋名次依据): McMahon score, wins, SOS, SOSOS, SODOS, cumulative score, direct encounter.

A registry of criteria by name, as OpenGotha names them; the event chooses and
orders them (``XQZ``, ``go.GoSettings.criteria``). Values are kept in half
points (OpenGotha's ``x2`` integers) so nothing is ever rounded on the way;
they are shown as halves. Where the event says so (OpenGotha's ``genRoundDownNBWMMS``)
MMS and NBW are rounded down to a whole point first, and everything summed from them
uses the rounded values (as OpenGotha does: Juvisy 2019's SOSOS agree only so).

| name | 中文 | value |
|---|---|---|
| MMS | 麦克马洪分 | start score from the rank (between floor and bar) + wins; a round without a game adds the event's absent or bye value |
| NBW | 胜局数 | wins (+ what a bye or absence is worth) |
| SOSM / SOSW | 对手分 | the opponents' MMS (NBW); a round without a game counts the player's own start score (MMS) or 0 (NBW); with MMS, an opponent who gave the player h stones counts h less, one who took h stones h more |
| SOSOSM / SOSOSW | 对手的对手分 | the opponents' SOS (a round without a game counts the player's own start score times the rounds) |
| SODOSM / SODOSW | 胜局对手分 | the MMS (NBW) of the opponents beaten, half of it for a jigo |
| CUSSM / CUSSW | 累进分 | the running MMS (NBW) after each round, added up |
| DC | 直胜 | among the players still equal on every criterion before it: games won against each other |

``SOS``, ``SOSOS``, ``SODOS`` and ``CUSS`` are read as their MMS forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from qiyuan.tournament.go import GoPlayer, GoSettings
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
    "SOSOSM": ("对手的对手分", "sum of opponents' SOS"),
    "SOSOSW": ("对手的对手胜局分", "sum of opponents' SOSW"),
    "SODOSM": ("胜局对手分", "sum of defeated opponents' scores"),
    "SODOSW": ("胜局对手胜局分", "sum of defeated opponents' wins"),
    "CUSSM": ("累进分", "cumulative score"),
    "CUSSW": ("累进胜局分", "cumulative wins"),
    "DC": ("直胜", "direct encounter"),
}
ALIASES = {"SOS": "SOSM", "SOSOS": "SOSOSM", "SODOS": "SODOSM", "CUSS": "CUSSM", "WINS": "NBW", "MM": "MMS"}
#: OpenGotha's labels for the .h9 header (at most five characters)
H9_LABELS = {"MMS": "MMS", "NBW": "NBW", "SOSM": "SOS", "SOSW": "SOSW", "SOSOSM": "SOSOS", "SOSOSW": "SSSW",
             "SODOSM": "SODOS", "SODOSW": "SDSW", "CUSSM": "CUSS", "CUSSW": "CUSW", "DC": "DC"}


def criterion(name: str) -> str | None:
    """The registry's name for a criterion as written (``sos`` → ``SOSM``); None if unknown."""
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


def compute(t: Tournament, s: GoSettings, ps: dict[int, GoPlayer], upto: int | None = None) -> dict[str, dict[int, int]]:
    """Every criterion of the registry for every player, in half points, after round ``upto`` (all rounds)."""
    n, cells = _cells(t, upto)
    start2 = {num: 2 * s.mms_start(_rank(ps, num), ps[num].smms_correction if num in ps else 0) for num in cells}
    mms2: dict[int, int] = {}
    nbw2: dict[int, int] = {}
    cuss_m: dict[int, int] = {}
    cuss_w: dict[int, int] = {}
    for num, row in cells.items():
        m, w, cm, cw = start2[num], 0, 0, 0
        for c in row:
            gm, gw = _round_value(c, s)
            m, w = m + gm, w + gw
            cm, cw = cm + m, cw + w
        if s.round_down:  # OpenGotha rounds the scores down before anything is summed from them
            m, w = m // 2 * 2, w // 2 * 2
        mms2[num], nbw2[num], cuss_m[num], cuss_w[num] = m, w, cm, cw
    sos_m: dict[int, int] = {}
    sos_w: dict[int, int] = {}
    sodos_m: dict[int, int] = {}
    sodos_w: dict[int, int] = {}
    for num, row in cells.items():
        a = b = dm = dw = 0
        for rnd, c in enumerate(row, start=1):
            if c is None or c.opponent is None or c.opponent not in cells:
                a += start2[num]
                continue
            o = c.opponent
            h = ps[num].handicaps.get(rnd, 0) if num in ps else 0
            a += mms2[o] + (2 * h if c.colour == "w" else -2 * h if c.colour == "b" else 0)
            b += nbw2[o]
            if c.result in WON:
                dm, dw = dm + mms2[o], dw + nbw2[o]
            elif c.result in DRAWN:
                dm, dw = dm + mms2[o] // 2, dw + nbw2[o] // 2
        sos_m[num], sos_w[num], sodos_m[num], sodos_w[num] = a, b, dm, dw
    sosos_m: dict[int, int] = {}
    sosos_w: dict[int, int] = {}
    for num, row in cells.items():
        a = b = 0
        for c in row:
            if c is None or c.opponent is None or c.opponent not in cells:
                a += start2[num] * n
                continue
            a += sos_m[c.opponent]
            b += sos_w[c.opponent]
        sosos_m[num], sosos_w[num] = a, b
    return {"MMS": mms2, "NBW": nbw2, "SOSM": sos_m, "SOSW": sos_w, "SOSOSM": sosos_m, "SOSOSW": sosos_w,
            "SODOSM": sodos_m, "SODOSW": sodos_w, "CUSSM": cuss_m, "CUSSW": cuss_w}


def _rank(ps: dict[int, GoPlayer], num: int) -> int:
    p = ps.get(num)
    return p.rank if p is not None and p.rank is not None else -30


def _round_value(c, s: GoSettings) -> tuple[int, int]:
    """(MMS, NBW) half points one round adds."""
    if c is None or c.opponent is None:
        r = "Z" if c is None else c.result
        if r in ("U", "F"):
            return s.mms2_bye, s.nbw2_bye
        if r == "H":
            return 1, 1
        return s.mms2_absent, s.nbw2_absent
    if c.result in WON:
        return 2, 2
    if c.result in DRAWN:
        return 1, 1
    return 0, 0


def pairing_scores(t: Tournament, s: GoSettings, ps: dict[int, GoPlayer], rnd: int) -> dict[int, int]:
    """The scores that pair round ``rnd`` (half points, before it): the McMahon score, or the wins in a simple
    Swiss for Go (``go_swiss``)."""
    swiss = (t.extra.get("XQM") or [""])[0].strip() == "go_swiss"
    return dict(compute(t, s, ps, upto=rnd - 1)["NBW" if swiss else "MMS"])


def board_key(scores: dict[int, int], black: int, white: int) -> tuple[int, int, int]:
    """A Go round's board order, the one numbering of its list, slips, results form and QR codes: the higher
    of the two scores first, then the higher sum, then black's draw number."""
    return -max(scores[black], scores[white]), -(scores[black] + scores[white]), black


def shown(value2: int) -> Decimal:
    """A value in half points as people read it (``33.5``)."""
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
