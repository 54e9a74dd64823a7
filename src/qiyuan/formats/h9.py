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

import re
import unicodedata
from dataclasses import replace
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation

from qiyuan.errors import InputError, problem
from qiyuan.people.pinyin import has_han, latin_name, place_latin, title_latin
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import H9_LABELS, criterion, shown, standings
from qiyuan.tournament.eventfile import cross_check
from qiyuan.tournament.model import Entrant, RoundCell, Tournament

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
    marks = go.marks(t)
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
                + "".join(f" {int(shown(row.values[c], c) // 1):>4}" for c in crit) + " 0" * max(0, 4 - len(crit)))
        for r in range(1, rounds + 1):
            c = e.rounds[r - 1] if r <= len(e.rounds) else None
            if c is None or c.opponent is None or c.opponent not in index:
                line += f" {'   0-' if (r, e.number) in marks['unassigned'] else _no_game(c, s, mcmahon):<8}"
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


# -- reading an .h9 --------------------------------------------------------------------------------------------
#
# An EGD results file read back as a Go event (players, games, colours, handicaps), for ``office import`` and
# ``qiyuan standings``: rows in file order are the draw numbers (OpenGotha names an opponent by his row); the
# placement criteria of the header (OpenGotha's short names) become the event's; the values written in the rows
# are not read (standings recompute them from the games).

_HEAD = re.compile(r";\s*([A-Z]{2})\[(.*)\]\s*")
_RANK = re.compile(r"[0-9]{1,2}[kKdDpP]")
_CELL = re.compile(r"([0-9]{1,5})([-+=?])(?:([/!])([wWbB?])?([0-9])?)?")
_NUMBER = re.compile(r"-?[0-9]+(?:½|\.5)?")
_OVERTIME_OF_WORDS = {v.lower(): k for k, v in _OVERTIME_WORDS.items()}


def _head_criterion(label: str, main: str) -> str | None:
    """The criterion of an .h9 column head (OpenGotha's short name): SOS, SOSOS, SODOS, CUSS are the MMS forms,
    or the NBW ones when the first criterion is NBW; ``Ratin`` is Rating cut to five letters."""
    form = "W" if main == "NBW" else "M"
    name = {"SOS": f"SOS{form}", "SOS-1": f"SOS{form}-1", "SOS-2": f"SOS{form}-2", "SODOS": f"SODOS{form}",
            "SOSOS": f"SOSOS{form}", "CUSS": f"CUSS{form}", "Ratin": "Rating"}.get(label, label)
    return criterion(name)


def read_h9(data: bytes, fname: str = "") -> Tournament:
    """An ``.h9`` file (ISO-8859-1) as a Go event. Raises ``InputError`` with every problem, each by line and
    column (the first column is 1)."""
    text = data.decode("latin-1").replace("\r\n", "\n").replace("\r", "\n")
    faults: list = []
    head: dict[str, tuple[int, str]] = {}
    labels: list[tuple[int, str]] = []
    rows: list[tuple[int, str]] = []
    for no, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            if m := _HEAD.fullmatch(line):
                head.setdefault(m[1], (no, m[2]))
            elif "Club" in line and line.lstrip(" ;").startswith("Pl"):
                rest = line[line.index("Club") + 4:]
                labels = [(no, rest[i:i + 5].strip()) for i in range(0, len(rest), 5) if rest[i:i + 5].strip()]
            continue
        rows.append((no, line))
    t = Tournament(points=go.GO_POINTS)
    t.extra["XQM"] = ["go_mcmahon"]
    s = go.GoSettings()
    _read_head(head, s, t, fname, faults)
    main = "NBW" if labels and labels[0][1] == "NBW" else "MMS"
    criteria: list[str] = []
    for no, label in labels:
        name = _head_criterion(label, main)
        if name is None:
            faults.append(problem("unknown placement criterion {name!r} in the column heads", file=fname, line=no,
                                  name=label))
        else:
            criteria.append(name)
    if criteria:
        s.criteria = criteria  # type: ignore[assignment]
    parsed = [_read_row(no, line, fname, faults) for no, line in rows]
    n = len(parsed)
    gps: dict[int, go.GoPlayer] = {}
    rounds = max((len(r[4]) for r in parsed if r), default=0)
    marks: dict[str, set[str]] = {"equalbydef": set(), "unknowncolour": set(), "unassigned": set()}
    for i, row in enumerate(parsed, start=1):
        name, rank, country, club, cells, pin, values = row or ("?", None, "", "", [], "", [])
        rating = values[criteria.index("Rating")] if "Rating" in criteria and len(values) > criteria.index("Rating") \
            else ""  # the rating, when a criterion: the one column that is not derived from the games
        e = Entrant(number=i, name=name, title=go.grade_text(rank) if rank is not None else "",
                    federation=country if country != "XX" else "", club=club if club != "xxxx" else "",
                    rating=int(rating) if go.whole(rating) and 0 < int(rating) <= 9999 else None)
        gps[i] = go.GoPlayer(i, rank, rank, country if country != "XX" else "", pin)
        e.rounds = []
        for rnd in range(1, rounds + 1):
            cell = cells[rnd - 1] if rnd <= len(cells) else None
            if cell is None:
                e.rounds.append(RoundCell(None, "-", "Z"))
                continue
            opp, res, kind, colour, stones, col = cell
            if opp == 0:  # 0+ a bye, 0= an absence worth ½, 0- a round he was not paired in (worth nothing)
                e.rounds.append(RoundCell(None, "-", {"+": "U", "=": "Z", "-": "Z", "?": "Z"}[res]))
                if res == "=":
                    s.mms2_absent = 1
                elif res in "-?":
                    marks["unassigned"].add(f"{rnd}:{i}")
                continue
            if opp > n or opp == i:
                faults.append(problem("round {round}: opponent {opponent} is not a row of the file (1..{n})",
                                      file=fname, line=rows[i - 1][0], column=col, round=rnd, opponent=opp, n=n))
                e.rounds.append(RoundCell(None, "-", "Z"))
                continue
            code = {"+": "+" if kind == "!" else "1", "-": "-" if kind == "!" else "0", "=": "=", "?": " "}[res]
            if res == "=" and kind == "!":  # a jigo by default: marked as the OpenGotha import marks it
                marks["equalbydef"].add(f"{rnd}:{i if colour != 'w' else opp}")
            e.rounds.append(RoundCell(opp, {"w": "w", "b": "b"}.get(colour, "-"), code))
            if stones:
                gps[i].handicaps[rnd] = stones
        t.entrants.append(e)
    if not faults:
        entrants = {e.number: e for e in t.entrants}
        for number, idx, _field, why in cross_check(entrants, n, both=True):
            cell = parsed[number - 1][4][idx] if parsed[number - 1] else None
            faults.append(replace(why, file=fname, line=rows[number - 1][0], column=cell[5] if cell else None))
        for e in t.entrants:  # both sides of a board give its stones (one may be blank: the other's count)
            for rnd, c in enumerate(e.rounds, start=1):
                if c.opponent is not None and rnd in gps[c.opponent].handicaps:
                    gps[e.number].handicaps.setdefault(rnd, gps[c.opponent].handicaps[rnd])
        _colours_of_handicap_games(t, gps, marks)
    if not rows:
        faults.append(problem("no player rows: not an .h9 results file", file=fname))
    if faults:
        raise InputError(faults)
    t.rounds_planned = rounds
    if any(marks.values()):
        t.extra["XQ9"] = [" ".join(f"{k}={','.join(sorted(v))}" for k, v in marks.items() if v)]
    t.time_control = go.time_control_text(s)
    go.set_settings(t, s)
    go.set_players(t, gps)
    return t


def _colours_of_handicap_games(t: Tournament, gps: dict[int, go.GoPlayer], marks: dict[str, set[str]]) -> None:
    """A handicap game whose colours the file does not know (``?``): the stronger player gave the stones, so he
    had white (SOS counts the stones by colour); the colours stay marked unknown for the .h9 written again."""
    for e in t.entrants:
        for rnd, c in enumerate(e.rounds, start=1):
            o = c.opponent
            if o is None or c.colour != "-" or not gps[e.number].handicaps.get(rnd) or o < e.number:
                continue
            mine, theirs = gps[e.number].rank, gps[o].rank
            if mine is None or theirs is None or mine == theirs:
                continue
            back = t.entrants[o - 1].rounds[rnd - 1]
            c.colour, back.colour = ("w", "b") if mine > theirs else ("b", "w")
            marks["unknowncolour"].add(f"{rnd}:{e.number if c.colour == 'b' else o}")


def _read_head(head: dict[str, tuple[int, str]], s: go.GoSettings, t: Tournament, fname: str, faults: list) -> None:
    """The header's values: CL class (D: online), EV name, PC country and place, DT dates, KM komi, HA handicap
    rule, TM adjusted minutes, CM overtime."""
    def bad(key: str, what: str) -> None:
        no, value = head[key]
        faults.append(problem("{key}[{value}]: {what}", file=fname, line=no, column=3, key=key, value=value,
                              what=what))

    t.name = head.get("EV", (0, ""))[1].strip()
    if "PC" in head:
        country, _, where = head["PC"][1].partition(",")
        t.federation, t.city = country.strip()[:3], where.strip()
    if "DT" in head:
        try:
            days = [date.fromisoformat(d.strip()) for d in head["DT"][1].split(",") if d.strip()]
        except ValueError:
            days = []
            bad("DT", problem("the dates, like 2019-10-26,2019-10-28"))
        if days:
            t.start_date, t.end_date = days[0], days[-1]
    if "KM" in head:
        try:
            s.komi = Decimal(head["KM"][1].strip())
        except InvalidOperation:
            bad("KM", problem("komi must be a number like 7.5"))
    if "HA" in head:
        rule = head["HA"][1].strip()
        s.handicap_rule = rule
        if re.fullmatch(r"h[0-9]", rule):
            s.hd_correction = int(rule[1:])
    if "TM" in head:
        if go.whole(head["TM"][1].strip()):
            s.basic_minutes = int(head["TM"][1].strip())
        else:
            bad("TM", problem("the adjusted time in whole minutes"))
    if "CM" in head:
        words = head["CM"][1].strip().lower()
        if words in _OVERTIME_OF_WORDS and _OVERTIME_OF_WORDS[words] == "sd":
            s.overtime = "sd"
    s.online = head.get("CL", (0, ""))[1].strip().upper() == "D"


def _read_row(no: int, line: str, fname: str, faults: list):
    """(name, rank, country, club, cells, pin, criteria values) of a player row, cells as (opponent, result,
    kind, colour, stones, column); None (and the faults) when it cannot be read."""
    tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", line)]
    start = 1 if tokens and line[:4].strip().isdigit() and tokens[0][0] <= 4 else 0
    at = next((i for i in range(start + 1, len(tokens)) if _RANK.fullmatch(tokens[i][1])), None)
    if at is None or at + 2 >= len(tokens):
        faults.append(problem("a player row needs a name, a rank (like 3D or 18K), a country and a club", file=fname,
                              line=no, column=tokens[min(start, len(tokens) - 1)][0] if tokens else 1))
        return None
    name = " ".join(w for _, w in tokens[start:at])
    rank = go.grade_value(tokens[at][1])
    country, club = tokens[at + 1][1], tokens[at + 2][1]
    cells: list[tuple] = []
    values: list[str] = []
    pin = ""
    ok = True
    for col, word in tokens[at + 3:]:
        if word.startswith("|"):
            pin = word[1:]
            if not go.whole(pin):
                faults.append(problem("{value!r}: an EGF PIN is digits", file=fname, line=no, column=col, value=word))
                ok = False
            break
        m = _CELL.fullmatch(word)
        if m:
            cells.append((int(m[1]), m[2], m[3] or "", (m[4] or "").lower(), int(m[5] or 0), col))
        elif not cells and _NUMBER.fullmatch(word):
            values.append(word)
        else:
            faults.append(problem("{value!r} is not a round (like 12+/w0, 7-/b2 or 0=)", file=fname, line=no,
                                  column=col, value=word))
            ok = False
    return (name, rank, country, club, cells, pin, values) if ok else None
