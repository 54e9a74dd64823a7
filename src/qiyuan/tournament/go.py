"""A Go event's facts (围棋赛事): grades, handicaps, komi, rule set, McMahon settings, kept in the event file.

A Go event is a ``Tournament`` like any other (TRF-16 rows, colour ``b`` =
black 黑, who moves first; ``w`` = white 白); what Go adds is kept in qiyuan's
own program lines, read and written here (other programs ignore them):

Per player:

* ``XQG nnnn GRADE RANK`` the official grade (段级位, from the registry or the
  federation's list) and the rank the player entered with, which pairs him
  (``3d 3d``; ``11k 10k`` when he claims one grade more);
* ``XQO nnnn CC`` his country (EGD two-letter code), ``XQE nnnn PIN`` his EGF PIN;
* ``XQH nnnn R STONES`` the handicap (让子) of his game of round R (both players' lines);
* ``XQV nnnn N`` a correction of his McMahon start score (OpenGotha's ``smmsCorrection``).

Per event:

* ``XQK 7.5`` komi (贴目); ``XQR chinese`` the rule set (``chinese`` area or ``japanese`` territory counting);
* ``XQN BAR FLOOR ZERO`` McMahon bar, floor and the grade scoring 0 (``4d 20k 30k``);
* ``XQJ BASIS CORRECTION CEILING NOHANDICAP`` handicap: from the ``mms`` or ``rank``
  difference, less the correction, at most the ceiling, none when the stronger
  player is at or above the grade given (``mms 1 9 1d``);
* ``XQ2 MMS_ABSENT MMS_BYE NBW_ABSENT NBW_BYE ROUNDDOWN`` what a round without a game
  is worth, in half points as OpenGotha keeps them (``1 2 0 2 1``);
* ``XQZ MMS SOSM SOSOSM`` the placement criteria (tie-breaks), in order
  (``qiyuan.tournament.go_tiebreaks``); ``XQZ@R …`` a change made after round R;
* ``XQ3 BASIC SYSTEM …`` the time control as the EGD classes it: basic minutes and
  ``sd``, ``byoyomi SECONDS``, ``canadian SECONDS MOVES`` or ``fischer SECONDS``;
* ``XQ4 h1`` the handicap rule written to ``.h9`` (``HA``);
* ``XQ9 online=1 categories=10k,1d`` an event played on the internet (OpenGotha's ``bInternet``: EGD
  class D), ``unplayedhalf=1`` SOS counting the opponents' unplayed rounds as half points (OpenGotha's
  ``genCountNotPlayedGamesAsHalfPoint``) and the lower grade limits of its categories (OpenGotha's ``numberOfCategories`` less one
  limits; the ``CAT`` criterion), as ``key=value`` words (words it does not know are kept as written);
  marks of ``round:number`` lists: ``equalbydef`` a jigo by default and ``unknowncolour`` a game whose
  colours OpenGotha did not know (by black's number), ``unassigned`` a round a player was there for but
  not paired (OpenGotha's NOT_ASSIGNED: worth nothing, unlike an absence);
  ``teamcriteria=TEAMP,BDW`` a team tournament's own placement criteria, as OpenGotha names them.

``XQM go_mcmahon`` / ``go_swiss`` is the event's format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from qiyuan.tournament.errors import EventInputError, Problem, problem, refuse
from qiyuan.tournament.model import PointSystem, Tournament

#: Go scores one point a win (results ``1``/``0``, jigo ``=`` half); a bye is a win's point
GO_POINTS = PointSystem(win=Decimal(1), draw=Decimal("0.5"), loss=Decimal(0), forfeit_win=Decimal(1),
                        forfeit_loss=Decimal(0), pairing_bye=Decimal(1), half_bye=Decimal("0.5"),
                        full_bye=Decimal(1), zero_bye=Decimal(0))

GO_FORMATS = ("go_mcmahon", "go_swiss")
RULE_SETS = ("chinese", "japanese")
_GRADE = re.compile(r"\s*(\d{1,2})\s*([kKdDpP]|级|段|级位|段位)\s*")


def whole(text: str, signed: bool = False) -> bool:
    """Is ``text`` a whole number in ASCII digits (``"-3"`` too when ``signed``)? ``str.isdigit`` takes ``²``."""
    return re.fullmatch(r"-?[0-9]+" if signed else r"[0-9]+", text or "") is not None


def grade_value(text: str) -> int | None:
    """A Go grade as a number: 30k → -30, 1k → -1, 1d → 0, 9d → 8, 1p → 9 (OpenGotha's scale); None if unreadable."""
    m = _GRADE.fullmatch(text or "")
    if not m:
        return None
    n, kind = int(m.group(1)), m.group(2).lower()
    if kind in ("k", "级", "级位") and 1 <= n <= 30:
        return -n
    if kind in ("d", "段", "段位") and 1 <= n <= 9:
        return n - 1
    if kind == "p" and 1 <= n <= 9:
        return 8 + n
    return None


def grade_text(value: int) -> str:
    """The grade of a value as files write it: ``3d``, ``18k``, ``1p``."""
    if value < 0:
        return f"{-value}k"
    return f"{value + 1}d" if value <= 8 else f"{value - 8}p"


def grade_words(value: int, lang: str = "zh") -> str:
    """A grade in words for people: 五段, 3级, 职业二段 / 5 dan, 3 kyu, 2 pro."""
    if lang == "zh":
        if value < 0:
            return f"{-value}级"
        digits = "零一二三四五六七八九"
        return f"{digits[value + 1]}段" if value <= 8 else f"职业{digits[value - 8]}段"
    if value < 0:
        return f"{-value} kyu"
    return f"{value + 1} dan" if value <= 8 else f"{value - 8} pro"


@dataclass(slots=True)
class GoPlayer:
    """The Go facts of one entrant (draw number ``number``)."""

    number: int
    grade: int | None = None  # official grade (registry / rating list)
    rank: int | None = None  # the rank he plays at (pairs him, gives his handicaps)
    country: str = ""
    egf_pin: str = ""
    smms_correction: int = 0
    handicaps: dict[int, int] = field(default_factory=dict)  # round -> stones of his game


@dataclass(slots=True)
class GoSettings:
    """A Go event's settings (see the module's docstring for their lines)."""

    komi: Decimal = Decimal("7.5")
    rules: str = "chinese"
    bar: int = 3  # 4d
    floor: int = -20  # 20k
    zero: int = -30  # 30k
    hd_basis: str = "mms"  # "mms" or "rank"
    hd_correction: int = 1
    hd_ceiling: int = 9
    hd_none_from: int = 0  # 1d: no handicap when the stronger player is 1d or more
    mms2_absent: int = 1
    mms2_bye: int = 2
    nbw2_absent: int = 0
    nbw2_bye: int = 2
    round_down: bool = True
    criteria: list[str] = field(default_factory=lambda: ["MMS", "SOSM", "SOSOSM"])
    #: (round after which, criteria before the change) of every change made once a round was paired
    criteria_changes: list[tuple[int, list[str]]] = field(default_factory=list)
    basic_minutes: int = 0
    overtime: str = "sd"  # sd, byoyomi, canadian, fischer
    overtime_seconds: int = 0
    overtime_moves: int = 0
    handicap_rule: str = "h1"  # EGD's HA line: h1 = grade difference less 1 …
    online: bool = False  # played on the internet (OpenGotha's bInternet): EGD class D
    #: SOS counts the opponents' unplayed rounds as half points (OpenGotha's genCountNotPlayedGamesAsHalfPoint)
    unplayed_half: bool = False
    categories: list[int] = field(default_factory=list)  # lower grade limits, strongest category first

    def category(self, rank: int) -> int:
        """The category (0 = the strongest) of a rank: the first whose lower limit it reaches (OpenGotha)."""
        return next((i for i, low in enumerate(self.categories) if rank >= low), len(self.categories))

    def mms_start(self, rank: int, correction: int = 0) -> int:
        """McMahon start score (起始麦克马洪分): the rank held between floor and bar, counted from zero."""
        return max(self.floor, min(self.bar, rank)) - self.zero + correction


def is_go(t: Tournament) -> bool:
    return (t.extra.get("XQM") or [""])[0].strip() in GO_FORMATS


def is_go_swiss(t: Tournament) -> bool:
    """A simple Swiss for Go (``go_swiss``: everybody starts at 0, ranked by wins), not McMahon?  (The one place
    the Go engine reads which of its two systems an event is; ``tournament.systems.go`` registers both.)"""
    return (t.extra.get("XQM") or [""])[0].strip() == GO_FORMATS[1]


def _one(t: Tournament, code: str) -> str | None:
    lines = t.extra.get(code)
    return lines[0].strip() if lines else None


def settings(t: Tournament) -> GoSettings:
    """The event's Go settings from its ``XQ`` lines; defaults for the lines absent.

    Raises ``EventInputError`` with every unreadable line."""
    s = GoSettings()
    faults: list[Problem] = []

    def bad(code: str, text: str, want: str) -> None:
        faults.append(problem("{record} {text!r}: {want}", record=code, text=text, want=want))

    if (v := _one(t, "XQK")) is not None:
        try:
            s.komi = Decimal(v)
        except InvalidOperation:
            bad("XQK", v, "komi must be a number like 7.5")
    if (v := _one(t, "XQR")) is not None:
        if v in RULE_SETS:
            s.rules = v
        else:
            bad("XQR", v, "the rule set is chinese or japanese")
    if (v := _one(t, "XQN")) is not None:
        parts = [grade_value(p) for p in v.split()]
        if len(parts) == 3 and None not in parts:
            s.bar, s.floor, s.zero = parts  # type: ignore[assignment]
        else:
            bad("XQN", v, "McMahon bar, floor and zero grades, like '4d 20k 30k'")
    if (v := _one(t, "XQJ")) is not None:
        p = v.split()
        if len(p) == 4 and p[0] in ("mms", "rank") and whole(p[1], signed=True) and whole(p[2]) \
                and grade_value(p[3]) is not None:
            s.hd_basis, s.hd_correction, s.hd_ceiling = p[0], int(p[1]), int(p[2])
            s.hd_none_from = grade_value(p[3])  # type: ignore[assignment]
        else:
            bad("XQJ", v, "handicap basis (mms or rank), correction, ceiling and a grade, like 'mms 1 9 1d'")
    if (v := _one(t, "XQ2")) is not None:
        p = v.split()
        if len(p) == 5 and all(whole(x) for x in p):
            s.mms2_absent, s.mms2_bye, s.nbw2_absent, s.nbw2_bye = map(int, p[:4])
            s.round_down = p[4] == "1"
        else:
            bad("XQ2", v, "five whole numbers: MMS absent, MMS bye, NBW absent, NBW bye (half points), round down 0/1")
    if (lines := t.extra.get("XQZ")) is not None:
        for line in lines:
            head, _, rest = line.strip().partition(" ")
            if head.startswith("@") and whole(head[1:]):
                s.criteria_changes.append((int(head[1:]), rest.split()))
            else:
                s.criteria = line.split()
    if (v := _one(t, "XQ3")) is not None:
        p = v.split()
        ok = len(p) >= 2 and whole(p[0]) and all(whole(x) for x in p[2:])
        if ok and p[1] == "sd" and len(p) == 2:
            s.basic_minutes, s.overtime = int(p[0]), "sd"
        elif ok and p[1] in ("byoyomi", "fischer") and len(p) == 3:
            s.basic_minutes, s.overtime, s.overtime_seconds = int(p[0]), p[1], int(p[2])
        elif ok and p[1] == "canadian" and len(p) == 4:
            s.basic_minutes, s.overtime, s.overtime_seconds, s.overtime_moves = int(p[0]), "canadian", int(p[2]), int(p[3])
        else:
            bad("XQ3", v, "basic minutes and sd, 'byoyomi SECONDS', 'canadian SECONDS MOVES' or 'fischer SECONDS'")
    if (v := _one(t, "XQ4")) is not None:
        s.handicap_rule = v
    if (v := _one(t, "XQ9")) is not None:
        words = dict(w.partition("=")[::2] for w in v.split())
        for key, attr in (("online", "online"), ("unplayedhalf", "unplayed_half")):
            if words.get(key, "0") in ("0", "1"):
                setattr(s, attr, words.get(key) == "1")
            else:
                bad("XQ9", v, f"{key}=0 or {key}=1")
        limits = [grade_value(x) for x in words.get("categories", "").split(",") if x]
        if None in limits:
            bad("XQ9", v, "categories: the lower grade limit of each category but the last, like categories=10k,1d")
        else:
            s.categories = limits  # type: ignore[assignment]
    refuse(faults, EventInputError)
    return s


MARKS = ("equalbydef", "unknowncolour", "unassigned")


def marks(t: Tournament) -> dict[str, set[tuple[int, int]]]:
    """The ``round:number`` marks of ``XQ9`` (see the module's docstring), unreadable items left out."""
    words = dict(w.partition("=")[::2] for w in (t.extra.get("XQ9") or [""])[0].split())
    out: dict[str, set[tuple[int, int]]] = {}
    for key in MARKS:
        pairs = (x.partition(":") for x in words.get(key, "").split(",") if x)
        out[key] = {(int(r), int(n)) for r, _, n in pairs if whole(r) and whole(n)}
    return out


def set_settings(t: Tournament, s: GoSettings) -> None:
    """Write the settings into the event's ``XQ`` lines."""
    t.extra["XQK"] = [str(s.komi)]
    t.extra["XQR"] = [s.rules]
    t.extra["XQN"] = [f"{grade_text(s.bar)} {grade_text(s.floor)} {grade_text(s.zero)}"]
    t.extra["XQJ"] = [f"{s.hd_basis} {s.hd_correction} {s.hd_ceiling} {grade_text(s.hd_none_from)}"]
    t.extra["XQ2"] = [f"{s.mms2_absent} {s.mms2_bye} {s.nbw2_absent} {s.nbw2_bye} {int(s.round_down)}"]
    t.extra["XQZ"] = [" ".join(s.criteria)] + [f"@{r} {' '.join(c)}" for r, c in s.criteria_changes]
    overtime = {"sd": "sd", "byoyomi": f"byoyomi {s.overtime_seconds}", "fischer": f"fischer {s.overtime_seconds}",
                "canadian": f"canadian {s.overtime_seconds} {s.overtime_moves}"}[s.overtime]
    t.extra["XQ3"] = [f"{s.basic_minutes} {overtime}"]
    t.extra["XQ4"] = [s.handicap_rule]
    words = [w for w in (t.extra.get("XQ9") or [""])[0].split()
             if w.partition("=")[0] not in ("online", "categories", "unplayedhalf")]
    words += (["online=1"] if s.online else []) + (["unplayedhalf=1"] if s.unplayed_half else []) + \
        ([f"categories={','.join(grade_text(c) for c in s.categories)}"] if s.categories else [])
    if words:
        t.extra["XQ9"] = [" ".join(words)]
    else:
        t.extra.pop("XQ9", None)


def players(t: Tournament) -> dict[int, GoPlayer]:
    """The Go facts of every entrant, by draw number (an entrant without ``XQG`` reads his title column)."""
    out = {e.number: GoPlayer(e.number, grade_value(e.title), grade_value(e.title)) for e in t.entrants}
    faults: list[Problem] = []
    for code in ("XQG", "XQO", "XQE", "XQH", "XQV"):
        for line in t.extra.get(code, []):
            parts = line.split()
            p = out.get(int(parts[0])) if parts and whole(parts[0]) else None
            if p is None:
                faults.append(problem("{record} {entry!r}: no such player", record=code, entry=line))
                continue
            rest = parts[1:]
            if code == "XQG" and len(rest) == 2 and None not in (g := [grade_value(x) for x in rest]):
                p.grade, p.rank = g
            elif code == "XQO" and len(rest) == 1:
                p.country = rest[0]
            elif code == "XQE" and len(rest) == 1:
                p.egf_pin = rest[0]
            elif code == "XQH" and len(rest) == 2 and whole(rest[0]) and whole(rest[1]):
                p.handicaps[int(rest[0])] = int(rest[1])
            elif code == "XQV" and len(rest) == 1 and whole(rest[0], signed=True):
                p.smms_correction = int(rest[0])
            else:
                faults.append(problem("{record} {entry!r}: unreadable", record=code, entry=line))
    refuse(faults, EventInputError)
    return out


def set_players(t: Tournament, ps: dict[int, GoPlayer]) -> None:
    """Write every entrant's Go facts into the event's per-player ``XQ`` lines (replacing them)."""
    for code in ("XQG", "XQO", "XQE", "XQH", "XQV"):
        t.extra.pop(code, None)
    lines: dict[str, list[str]] = {"XQG": [], "XQO": [], "XQE": [], "XQH": [], "XQV": []}
    for n in sorted(ps):
        p = ps[n]
        if p.grade is not None or p.rank is not None:
            g = p.grade if p.grade is not None else p.rank
            r = p.rank if p.rank is not None else p.grade
            lines["XQG"].append(f"{n:>4} {grade_text(g)} {grade_text(r)}")  # type: ignore[arg-type]
        if p.country:
            lines["XQO"].append(f"{n:>4} {p.country}")
        if p.egf_pin:
            lines["XQE"].append(f"{n:>4} {p.egf_pin}")
        for rnd, h in sorted(p.handicaps.items()):
            lines["XQH"].append(f"{n:>4} {rnd} {h}")
        if p.smms_correction:
            lines["XQV"].append(f"{n:>4} {p.smms_correction}")
    for code, ls in lines.items():
        if ls:
            t.extra[code] = ls


def handicap(s: GoSettings, stronger: int, weaker: int) -> int:
    """Stones the weaker player takes (让子) for a difference of ``stronger - weaker`` (in MMS or rank):
    the difference less the correction, never below 0, at most the ceiling; 0 when the stronger
    player is at or above the no-handicap grade (OpenGotha's ``hdNoHdRankThreshold``).

    One stone is a game without komi (让先): the ``.h9`` and OpenGotha write it ``1``.
    """
    diff = stronger - weaker - s.hd_correction
    return max(0, min(s.hd_ceiling, diff))


def jigo_possible(s: GoSettings, stones: int) -> bool:
    """Can the game end in a jigo (和棋)? Only when its komi is a whole number: an even game's komi, or none
    (0) in a handicap game."""
    return (Decimal(0) if stones else s.komi) % 1 == 0


@dataclass(frozen=True)
class BoardTerms:
    """A Go board's terms as every door shows them (the desk, the slips, the players' phones): the stones black
    places (0: an even game), the komi (``None``: none, a handicap game) and whether a jigo (和棋) is possible."""

    stones: int
    komi: Decimal | None
    jigo: bool


def board_terms(s: GoSettings, ps: dict[int, GoPlayer], rnd: int, black: int) -> BoardTerms:
    """The terms of round ``rnd``'s board whose black player is ``black``: his stones that round, the komi of
    an even game, a jigo only where the komi allows one (:func:`jigo_possible`)."""
    stones = ps[black].handicaps.get(rnd, 0) if black in ps else 0
    return BoardTerms(stones, None if stones else s.komi, jigo_possible(s, stones))


def rank_above_grade(p: GoPlayer) -> bool:
    """Does the player claim a rank above his official grade (gocongress#110)? The director confirms it."""
    return p.grade is not None and p.rank is not None and p.rank > p.grade


def time_control_text(s: GoSettings) -> str:
    """The time control in words for the event file's ``122`` line: ``60 min + byo-yomi 30 s``."""
    extra = {"sd": "", "byoyomi": f" + byo-yomi {s.overtime_seconds} s", "fischer": f" + {s.overtime_seconds} s a move",
             "canadian": f" + {s.overtime_moves} moves in {s.overtime_seconds} s"}[s.overtime]
    return f"{s.basic_minutes} min{extra}"


def adjusted_minutes(s: GoSettings) -> Decimal:
    """The EGD's adjusted time (TA): basic time + the overtime of 45 moves (byo-yomi), 60 moves
    (Canadian) or 120 moves (Fischer); sudden death: the basic time."""
    basic = Decimal(s.basic_minutes)
    if s.overtime == "byoyomi":
        return basic + Decimal(45 * s.overtime_seconds) / 60
    if s.overtime == "canadian" and s.overtime_moves:
        return basic + Decimal(60 * s.overtime_seconds) / s.overtime_moves / 60
    if s.overtime == "fischer":
        return basic + Decimal(120 * s.overtime_seconds) / 60
    return basic


#: EGD tournament classes: (class, least basic minutes, least adjusted minutes), best first
EGD_CLASSES = (("A", 60, 75), ("B", 40, 50), ("C", 25, 30))


def egd_class(s: GoSettings) -> str | None:
    """The EGD class (A, B, C) the time control allows, D for an event played on the internet; None below
    class C."""
    if s.online:
        return "D"
    ta = adjusted_minutes(s)
    for cls, basic, adjusted in EGD_CLASSES:
        if s.basic_minutes >= basic and ta >= adjusted:
            return cls
    return None
