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
from qiyuan.people.pinyin import has_han, latin_name, place_latin, title_latin
from qiyuan.formats.opengotha import game_marks
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import H9_LABELS, criterion, standings
from qiyuan.tournament.model import Tournament

_OVERTIME_WORDS = {"sd": "Sudden death", "byoyomi": "Standard byo-yomi", "canadian": "Canadian byo-yomi",
                   "fischer": "Fischer"}
_RESULT = {"1": "+", "W": "+", "0": "-", "L": "-", "=": "=", "D": "=", "+": "+", "-": "-"}


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
    """The club column as OpenGotha writes it: its last four letters (Latin-1, pinyin for Chinese), ``xxxx``
    when there is none."""
    text = place_latin(text) if has_han(text) else text
    text = latin1(text).replace(" ", "")
    return text[-4:] if text else "xxxx"


def _country(text: str) -> str:
    """The country column: two letters, ``XX`` when there is none (OpenGotha's placeholder)."""
    text = latin1(text).strip()
    return text[-2:] if len(text) >= 2 else "XX"


def event_title(name: str, title: str = "") -> str:
    """The event's name for ``EV``: its Latin title when given, else the name, in pinyin with a space between
    syllables when written in Chinese characters."""
    text = title.strip() or name
    return latin1(title_latin(text) if has_han(text) else text)


def _no_game(c, s: go.GoSettings, mcmahon: bool) -> str:
    """A round without a game: ``0`` and what it was worth (OpenGotha: ``+`` a win's points, ``=`` half,
    ``-`` nothing), by the McMahon (or, in a Swiss, the wins) value of a bye or an absence."""
    r = "Z" if c is None else c.result
    if r in ("U", "F"):
        worth = s.mms2_bye if mcmahon else s.nbw2_bye
    elif r == "H":
        worth = 1
    else:
        worth = s.mms2_absent if mcmahon else s.nbw2_absent
    return "   0" + {2: "+", 1: "="}.get(worth, "-")


def write_h9(t: Tournament, *, pins: bool = False, latin: Mapping[int, str] | None = None,
             country: str | None = None, title: str = "") -> bytes:
    """The ``.h9`` bytes (ISO-8859-1) of a Go event, as OpenGotha writes them (``generateH9File``).

    ``latin``: the registry's Latin name by draw number (entrants matched to the registry);
    ``country``: the event's country code for ``PC`` (default: the event file's ``032``);
    ``title``: the event's Latin title for ``EV`` (default: its name, in pinyin if Chinese).
    A board without a result is written ``?``; players equal on every criterion have their place left
    blank; the criteria are padded to four with ``0`` columns; every round of the event has its cell.
    Raises ``InputError`` when the time control is below EGD class C."""
    s, ps = go.settings(t), go.players(t)
    cls = go.egd_class(s)
    if cls is None:
        raise InputError([problem("the time control ({basic} min, adjusted {adjusted} min) is below EGD class C "
                                  "(basic 25 min, adjusted 30 min): the EGD does not rate it",
                                  basic=s.basic_minutes, adjusted=go.adjusted_minutes(s))])
    rows = standings(t, s, ps)
    index = {r.number: i for i, r in enumerate(rows, start=1)}  # OpenGotha names opponents by row
    crit = [c for c in (criterion(x) for x in s.criteria) if c]
    entrants = {e.number: e for e in t.entrants}
    marks = game_marks(t)
    mcmahon = (t.extra.get("XQM") or ["go_mcmahon"])[0].strip() != "go_swiss"
    dates = ",".join(d.isoformat() for d in (t.start_date, t.end_date) if d is not None)
    where = latin1(place_latin(t.city) if has_han(t.city) else t.city)
    ta = go.adjusted_minutes(s)
    out = [f"; CL[{cls}]", f"; EV[{event_title(t.name, title)}]",
           f"; PC[{latin1(country if country is not None else t.federation)},{where}]",
           f"; DT[{dates}]", f"; HA[{s.handicap_rule}]", f"; KM[{s.komi}]", f"; TM[{int(ta)}]",
           f"; CM[{_OVERTIME_WORDS[s.overtime]}]", "; Generated by qiyuan", ";",
           "; Pl Name" + " " * 28 + "Rk Co Club" + "".join(f"{H9_LABELS[c][:5]:>5}" for c in crit)]
    latin = latin or {}
    rounds = max(t.rounds_planned or 0, max((len(e.rounds) for e in t.entrants), default=0))
    for i, row in enumerate(rows):
        e = entrants[row.number]
        p = ps.get(e.number, go.GoPlayer(e.number))
        rank = go.grade_text(p.rank).upper() if p.rank is not None else ""
        place = "" if i and rows[i - 1].place == row.place else str(row.place)
        line = (f"{place:>4} {egf_name(e.name, latin.get(e.number, ''))[:30]:<30} {rank:>3} "
                f"{_country(p.country or e.federation)} {_club(e.club):>4}"
                + "".join(f" {row.values[c] // 2:>4}" for c in crit) + " 0" * max(0, 4 - len(crit)))
        for r in range(1, rounds + 1):
            c = e.rounds[r - 1] if r <= len(e.rounds) else None
            if c is None or c.opponent is None or c.opponent not in index:
                line += f" {_no_game(c, s, mcmahon):<8}"
                continue
            black = e.number if c.colour != "w" else c.opponent
            result = "=" if (r, black) in marks["equalbydef"] else _RESULT.get(c.result, "?")
            kind = "!" if c.result in "+-" and c.result.strip() or (r, black) in marks["equalbydef"] else "/"
            colour = c.colour if c.colour in ("w", "b") and (r, black) not in marks["unknowncolour"] else "?"
            line += f" {str(index[c.opponent]) + result + kind + colour + str(p.handicaps.get(r, 0)):>8}"
        if pins and p.egf_pin:
            line += f" |{p.egf_pin}"
        out.append(line)
    return ("\n".join(out) + "\n").encode("latin-1")
