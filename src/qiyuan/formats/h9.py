"""EGD results file (``.h9``): a Go event's results for the European Go Database, ISO-8859-1.

Header lines (``; CL[A]`` class, ``EV`` event, ``PC`` country and place, ``DT``
dates, ``HA`` handicap rule, ``KM`` komi, ``TM`` adjusted time, ``CM`` the
overtime system), a ``;`` line, the column heads, then one row a player, in
the order of the event's placement criteria::

       1 Minieri Davide                  3D FR 75Ju   36  128  503 0    2+/w0    3+/b0

place, ``Surname Given`` (EGF style), rank, country, club, one column per
placement criterion (whole numbers, rounded down as OpenGotha writes them),
the unlabelled column OpenGotha writes after them (``0``), then one cell per
round: the opponent's place, ``+`` won / ``-`` lost / ``=`` jigo, ``/``, the
player's colour (``w``/``b``) and the handicap stones. A round without a game
is ``0=`` (absent) or ``0+`` (a bye worth a win). ``pins=True`` adds ``|PIN``
to the rows of players with an EGF PIN.

Names reach the EGD in Latin letters: a name written in Chinese characters is
written in pinyin, surname first (``people.pinyin.latin_name``, or the
registry's Latin spelling when one is given); letters outside ISO-8859-1 lose
their accents (``Łukasz`` → ``Lukasz``); never ``?``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from qiyuan.errors import InputError, problem
from qiyuan.people.pinyin import has_han, latin_name, place_latin
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import H9_LABELS, criterion, standings
from qiyuan.tournament.model import Tournament

_OVERTIME_WORDS = {"sd": "Sudden death", "byoyomi": "Standard byo-yomi", "canadian": "Canadian byo-yomi",
                   "fischer": "Fischer"}
_RESULT = {"1": "+", "W": "+", "0": "-", "L": "-", "=": "=", "D": "=", "+": "+!", "-": "-!"}


def latin1(text: str) -> str:
    """``text`` in ISO-8859-1 letters: accents outside Latin-1 dropped, other signs left out (never ``?``)."""
    out = []
    for ch in text:
        try:
            ch.encode("latin-1")
            out.append(ch)
        except UnicodeEncodeError:
            base = unicodedata.normalize("NFKD", ch)
            kept = "".join(c for c in base if not unicodedata.combining(c))
            out.append(kept if kept.isascii() else {"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o"}.get(ch, ""))
    return "".join(out)


def egf_name(name: str, name_latin: str = "") -> str:
    """A player's name as the EGD wants it: ``Surname Given``, each word capitalised where it was written
    in capitals (``GONG Zeyuan`` → ``Gong Zeyuan``), Chinese names in pinyin, Latin-1 letters only."""
    text = latin_name(name, name_latin) if (has_han(name) or name_latin) else name
    words = []
    for w in latin1(text).split():
        words.append("-".join(p[:1].upper() + p[1:].lower() if p.isupper() and len(p) > 1 else p
                              for p in w.split("-")))
    return " ".join(words)


def _club(text: str) -> str:
    text = place_latin(text) if has_han(text) else text
    text = latin1(text).replace(" ", "")
    return text[:4] if has_han(text) is False and text else "-"


def write_h9(t: Tournament, *, pins: bool = False, latin: Mapping[int, str] | None = None,
             country: str | None = None) -> bytes:
    """The ``.h9`` bytes (ISO-8859-1) of a Go event whose every paired board has its result.

    ``latin``: the registry's Latin name by draw number (entrants matched to the registry);
    ``country``: the event's country code for ``PC`` (default: the event file's ``032``).
    Raises ``InputError`` when a board has no result or the time control is below EGD class C."""
    s, ps = go.settings(t), go.players(t)
    faults = []
    for e in t.entrants:
        for r, c in enumerate(e.rounds, start=1):
            if c.opponent is not None and c.result not in _RESULT:
                faults.append(problem("round {round}: board of player {number} has no result yet",
                                      round=r, number=e.number))
    cls = go.egd_class(s)
    if cls is None:
        faults.append(problem("the time control ({basic} min, adjusted {adjusted} min) is below EGD class C "
                              "(basic 25 min, adjusted 30 min): the EGD does not rate it",
                              basic=s.basic_minutes, adjusted=go.adjusted_minutes(s)))
    if faults:
        raise InputError(faults)
    rows = standings(t, s, ps)
    place = {r.number: i for i, r in enumerate(rows, start=1)}
    crit = [c for c in (criterion(x) for x in s.criteria) if c]
    entrants = {e.number: e for e in t.entrants}
    dates = ",".join(d.isoformat() for d in (t.start_date, t.end_date) if d is not None)
    where = latin1(place_latin(t.city) if has_han(t.city) else t.city)
    event = latin1(place_latin(t.name) if has_han(t.name) else t.name)
    ta = go.adjusted_minutes(s)
    out = [f"; CL[{cls}]", f"; EV[{event}]", f"; PC[{latin1(country if country is not None else t.federation)},{where}]",
           f"; DT[{dates}]", f"; HA[{s.handicap_rule}]", f"; KM[{s.komi}]", f"; TM[{int(ta)}]",
           f"; CM[{_OVERTIME_WORDS[s.overtime]}]", "; Generated by qiyuan", ";",
           "; Pl Name" + " " * 28 + "Rk Co Club" + "".join(f"{H9_LABELS[c]:>5}" for c in crit)]
    latin = latin or {}
    for row in rows:
        e = entrants[row.number]
        p = ps.get(e.number, go.GoPlayer(e.number))
        rank = go.grade_text(p.rank).upper() if p.rank is not None else ""
        line = (f"{place[e.number]:>4} {egf_name(e.name, latin.get(e.number, '')):<30} {rank:>3} "
                f"{latin1(p.country or e.federation)[:2]:<2} {_club(e.club):<4}"
                + "".join(f" {row.values[c] // 2:>4}" for c in crit) + " 0")
        for r, c in enumerate(e.rounds, start=1):
            if c.opponent is None:
                line += f" {'0+' if c.result in ('U', 'F') else '0=':>5}   "
            else:
                colour = c.colour if c.colour in ("w", "b") else "?"
                line += f" {str(place[c.opponent]) + _RESULT[c.result]:>5}/{colour}{p.handicaps.get(r, 0)}"
        if pins and p.egf_pin:
            line += f" |{p.egf_pin}"
        out.append(line)
    return ("\n".join(out) + "\n").encode("latin-1")
