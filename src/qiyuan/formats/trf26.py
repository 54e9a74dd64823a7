"""TRF26 (FIDE's Tournament Report File of 2026): qiyuan's Gomoku/Go profile over TRF-16.

A TRF26 file is a TRF-16 file (same ``012`` … ``132`` header, same ``001`` player lines) in which the
records TRF26 standardised replace the program lines of the pairing engines and qiyuan's own ``XQ*``
records where they carry the same thing (docs/formats.md, "TRF26 profile"):

=========  ==========================================  ==================================
record     carries                                     TRF-16 / qiyuan's record it replaces
=========  ==========================================  ==================================
``132``    round dates (unchanged from TRF-16)         ``132``
``162``    scoring: ``W 2 D 1 L 0 FW 2 FL 0 U 2 H 1    ``BBW`` ``BBD`` ``BBL`` ``BBF``
           F 2 Z 0`` (key, points; keys in any order)  ``BBU`` ``BBZ``
``192``    tournament type (qiyuan's format names)     ``XQM``
``202``    tie-break order (the criteria, in order)    ``XQZ`` (its current line)
``260``    players kept apart: ``n1 n2 …`` one group   derived from ``XQA`` + the groups
``310``    a team: ``TTT`` number, then as ``013``     ``013``
=========  ==========================================  ==================================

A file is TRF26 when it has one of the records ``162``, ``192``, ``202``, ``212``, ``260`` or ``310``
(TRF-16 has none of them); qiyuan writes ``162`` and ``192`` in every TRF26 file, so its own files always
declare themselves.  Everything else (``XXR``, the player records ``XQI`` … ``XQX``, ``XRP``, ``XRH``, the Go
settings ``XQK`` …) stays as in the event file: TRF26 has no record for it.

The module maps TRF26 text to the TRF-16 text the TRF-16 reader reads (:func:`to_trf16`: one line for one
line, so every problem keeps its line), and the TRF-16 text qiyuan writes to TRF26 (:func:`from_trf16`).
Pure text: no I/O.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from qiyuan.errors import N_, problem
from qiyuan.formats.errors import InputError, Problem
from qiyuan.tournament.keepapart import KINDS, group_of, rules
from qiyuan.tournament.model import PointSystem, Tournament

#: the records whose presence makes a file TRF26
TRF26_ONLY = ("162", "192", "202", "212", "260", "310")
_DECLARES = re.compile(r"^(?:162|192|202|212|260|310)(?: |$)", re.M)

#: 162's keys -> the PointSystem field each sets
SCORE_KEYS = {"W": "win", "D": "draw", "L": "loss", "FW": "forfeit_win", "FL": "forfeit_loss",
              "U": "pairing_bye", "H": "half_bye", "F": "full_bye", "Z": "zero_bye"}
#: the TRF-16 program line (bbpPairings' ``BB*``) of each field the TRF-16 reader takes
_BB_OF = {"win": "BBW", "draw": "BBD", "loss": "BBL", "forfeit_loss": "BBF", "pairing_bye": "BBU",
          "zero_bye": "BBZ"}
#: the fields TRF-16 cannot give: each follows another one (the TRF-16 reader's rule)
_FOLLOWS = {"forfeit_win": "win", "full_bye": "win", "half_bye": "draw"}

#: the tournament types (192) qiyuan pairs: its own format names
TYPES = ("swiss", "round_robin", "double_round_robin", "knockout", "match", "team", "go_mcmahon", "go_swiss")

BAD_162 = N_("162 (scoring) needs pairs of a key ({keys}) and points, found {value!r}")
FOLLOW_162 = N_("162 (scoring): {key} must equal {other} ({value} and {other_value}): qiyuan scores it so")
BAD_260 = N_("260 (keep apart) needs two or more player numbers, found {value!r}")
BAD_310 = N_("310 (team) needs a team number in columns 5-7, found {value!r}")
TWICE = N_("{tag} is given twice (also on line {other_line})")


def is_trf26(text: str) -> bool:
    """Whether ``text`` declares itself TRF26 (it has a record TRF-16 does not have)."""
    return _DECLARES.search(text) is not None


def to_trf16(text: str, fname: str) -> str:
    """The TRF-16 text (with qiyuan's records) of a TRF26 text, line for line: ``192`` becomes ``XQM``,
    ``202`` ``XQZ``, ``310`` ``013`` in their place; ``162`` becomes ``BB*`` lines added at the end (its own
    line left blank), ``260`` is dropped when the file has qiyuan's ``XQA`` rules (it is derived from them)
    and kept as written otherwise.  Raises ``InputError`` naming every bad record (line, column)."""
    problems: list[Problem] = []
    lines = text.splitlines()
    out: list[str] = []
    tail: list[str] = []
    seen: dict[str, int] = {}
    has_xqa = any(line.startswith("XQA") for line in lines)
    teams: list[tuple[int, int, str]] = []  # (team number, line index, 013 line)
    for no, line in enumerate(lines, start=1):
        code, value = line[:3], line[4:].rstrip()
        if code in ("162", "192", "202") and (line[3:4] in ("", " ")):
            if code in seen:
                problems.append(problem(TWICE, file=fname, line=no, column=1, tag=code, other_line=seen[code]))
                out.append("")
                continue
            seen[code] = no
        if code == "162" and line[3:4] in ("", " "):
            points, bad = _scoring(value, fname, no)
            problems.extend(bad)
            tail.extend(f"{_BB_OF[f]} {getattr(points, f)}" for f in _BB_OF)
            out.append("")
        elif code == "192" and line[3:4] in ("", " "):
            out.append(f"XQM {value.strip()}" if value.strip() in TYPES else line)
        elif code == "202" and line[3:4] in ("", " "):
            out.append(f"XQZ {value.strip()}".rstrip())
        elif code == "260" and line[3:4] in ("", " "):
            numbers = value.split()
            if len(numbers) < 2 or not all(n.isdecimal() for n in numbers):
                problems.append(problem(BAD_260, file=fname, line=no, column=5, value=value.strip()))
            out.append("" if has_xqa else line)
        elif code == "310" and line[3:4] in ("", " "):
            number = line[4:7].strip()
            if not number.isdecimal():
                problems.append(problem(BAD_310, file=fname, line=no, column=5, value=line[4:7]))
                out.append("")
                continue
            teams.append((int(number), len(out), f"013 {line[8:]}".rstrip()))
            out.append("")
        else:
            out.append(line)
    if problems:
        raise InputError(sorted(problems, key=lambda p: (p.line or 0, p.column or 0)))
    at_lines = sorted(at for _n, at, _t in teams)
    for at, (_n, _at, team) in zip(at_lines, sorted(teams), strict=True):  # by team number, at the 310 places
        out[at] = team
    return "\n".join(out + tail) + "\n"


def _scoring(value: str, fname: str, no: int) -> tuple[PointSystem, list[Problem]]:
    """The point system of a ``162`` record, and its problems."""
    parts = value.split()
    given: dict[str, Decimal] = {}
    bad = len(parts) % 2 == 1 or not parts
    for key, points in zip(parts[::2], parts[1::2], strict=False):
        try:
            given[SCORE_KEYS[key]] = Decimal(points)
        except (KeyError, InvalidOperation):
            bad = True
        else:
            bad = bad or not given[SCORE_KEYS[key]].is_finite() or given[SCORE_KEYS[key]] < 0
    if bad:
        return PointSystem(), [problem(BAD_162, file=fname, line=no, column=5, keys=" ".join(SCORE_KEYS),
                                       value=value.strip())]
    base = PointSystem()
    kw = {f: given.get(f, getattr(base, f)) for f in _BB_OF}
    for f, other in _FOLLOWS.items():
        kw[f] = given.get(f, kw[other])
    keys = {f: k for k, f in SCORE_KEYS.items()}
    out = [problem(FOLLOW_162, file=fname, line=no, column=5, key=keys[f], other=keys[other], value=str(kw[f]),
                   other_value=str(kw[other]))
           for f, other in _FOLLOWS.items() if kw[f] != kw[other]]
    return PointSystem(**kw), out


def scoring_line(p: PointSystem) -> str:
    """The ``162`` record of a point system (every key, in the order of ``SCORE_KEYS``)."""
    return "162 " + " ".join(f"{k} {getattr(p, f)}" for k, f in SCORE_KEYS.items())


def keep_apart_lines(t: Tournament) -> list[str]:
    """The ``260`` records of the groups qiyuan's keep-apart rules (``XQA``) hold apart: per kind in the order
    association, club, family, each group of two or more players once, in the order of its first player."""
    out: list[str] = []
    seen: set[tuple[int, ...]] = set()
    for kind in KINDS:
        if kind not in rules(t):
            continue
        groups: dict[str, list[int]] = {}
        for e in sorted(t.entrants, key=lambda e: e.number):
            if label := group_of(e, kind):
                groups.setdefault(label, []).append(e.number)
        for members in groups.values():
            if len(members) >= 2 and tuple(members) not in seen:
                seen.add(tuple(members))
                out.append("260 " + " ".join(str(n) for n in members))
    return out


def from_trf16(text: str, t: Tournament) -> str:
    """The TRF26 text of the TRF-16 text qiyuan wrote for ``t`` (``write_trf``): after ``132`` (or ``XXR``)
    the block ``162``, ``192``, ``202`` with the other ``XQZ`` lines, ``260``, ``310``; the ``BB*``,
    ``XQM``, ``XQZ`` and ``013`` lines it replaces are left out; everything else is kept in its place."""
    lines = text.splitlines()
    xqm = (t.extra.get("XQM") or [""])[0].strip()
    criteria = t.extra.get("XQZ") or []
    block = [scoring_line(t.points)]
    if xqm:
        block.append(f"192 {xqm}")
    current = [c for c in criteria if not c.strip().startswith("@")]
    if current:
        block.append(f"202 {current[0].strip()}".rstrip())
    block.extend(f"XQZ {c}".rstrip() for c in criteria if c.strip().startswith("@"))
    block.extend(keep_apart_lines(t))
    block.extend(f"310 {i:>3} {team}".rstrip() for i, team in enumerate(t.extra.get("013", []), start=1))
    out: list[str] = []
    placed = False
    for line in lines:
        code = line[:3]
        if code in _BB_OF.values() or code in ("XQZ", "013") or (code == "XQM" and xqm):
            continue
        if code == "260" and rules(t):
            continue  # derived: written again from the rules
        out.append(line)
        if code == "132" and not placed:
            out.extend(block)
            placed = True
    if not placed:
        out[:0] = block
    return "\n".join(out) + "\n"
