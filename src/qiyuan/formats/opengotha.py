"""OpenGotha tournament files (the Go federations' tournament manager), read for the office.

An OpenGotha ``.xml`` file holds ``<Players>`` (each keyed by NAME+FIRSTNAME
in capitals), ``<Games>`` (round, black, white, handicap, result) and the
``<GeneralParameterSet>`` (name, dates, location, director, time system).
``read_opengotha`` returns a ``GothaTournament`` or raises ``InputError``
with every problem found (unknown player keys, unknown result codes, missing
attributes, a player twice at one round).

Results are written from the **black** player's side (player1 = black), in
the codes of ``qiyuan.rating.model.Result``. Games won or lost by default
(``…_BYDEF``), "both win"/"both lose" and games without a result
(``RESULT_UNKNOWN``) are never rated; the last are also listed in ``notes``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from qiyuan.formats.errors import InputError, Problem
from qiyuan.rating.model import Result

#: OpenGotha result codes → the result from black's side.
RESULTS: dict[str, Result] = {
    "RESULT_BLACKWINS": Result.WIN,
    "RESULT_WHITEWINS": Result.LOSS,
    "RESULT_EQUAL": Result.DRAW,
    "RESULT_BLACKWINS_BYDEF": Result.FORFEIT_WIN,
    "RESULT_WHITEWINS_BYDEF": Result.FORFEIT_LOSS,
    "RESULT_EQUAL_BYDEF": Result.NOT_PLAYED,
    "RESULT_BOTHWIN": Result.NOT_PLAYED,
    "RESULT_BOTHLOSE": Result.NOT_PLAYED,
    "RESULT_BOTHWIN_BYDEF": Result.NOT_PLAYED,
    "RESULT_BOTHLOSE_BYDEF": Result.NOT_PLAYED,
    "RESULT_UNKNOWN": Result.NOT_PLAYED,
}


@dataclass(frozen=True, slots=True)
class GothaPlayer:
    key: str  # NAME+FIRSTNAME in capitals: how games name the player
    surname: str
    first_name: str
    rank: str  # "3D", "18K" (OpenGotha's rank; grade kept aside)
    rating: int | None
    club: str
    country: str
    egf_pin: str
    licence: str  # national licence (FFG), if any

    @property
    def name(self) -> str:
        return f"{self.surname} {self.first_name}".strip()

    @property
    def dan(self) -> str | None:
        """The rank as ``model.Player.dan`` writes it: ``3d``, ``18k``; ``None`` if unreadable."""
        r = self.rank.strip().upper()
        if len(r) >= 2 and r[:-1].isdigit() and r[-1] in "DKP":
            return f"{int(r[:-1])}{'k' if r[-1] == 'K' else 'd'}"
        return None


@dataclass(frozen=True, slots=True)
class GothaGame:
    round: int
    black: str
    white: str
    handicap: int
    result: Result  # from black's side
    raw_result: str


@dataclass(slots=True)
class GothaTournament:
    name: str
    short_name: str
    location: str
    director: str
    start_date: date
    end_date: date
    rounds: int
    time_control: str  # as ``rating.eligibility.parse_time_control`` reads it
    time_system: str
    players: list[GothaPlayer] = field(default_factory=list)
    games: list[GothaGame] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def read_opengotha(path: str | Path) -> GothaTournament:
    """Read one OpenGotha tournament file; every problem is reported at once."""
    fname = str(path)
    problems: list[Problem] = []
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError, LookupError, ValueError, UnicodeError) as exc:  # LookupError: an unknown encoding
        raise InputError([Problem(fname, None, None, f"not a readable OpenGotha XML file: {exc}")]) from exc
    if root.tag != "Tournament":
        raise InputError([Problem(fname, None, None, f"root element is <{root.tag}>, not an OpenGotha <Tournament>")])

    gps = root.find("./TournamentParameterSet/GeneralParameterSet")
    if gps is None:
        raise InputError([Problem(fname, None, "GeneralParameterSet", "missing: not an OpenGotha tournament file")])
    start = _date(gps, "beginDate", fname, problems)
    end = _date(gps, "endDate", fname, problems)
    rounds = _int(gps, "numberOfRounds", fname, problems, "GeneralParameterSet")
    system = gps.get("complementaryTimeSystem", "")
    basic = gps.get("basicTime", "")
    time_control = f"{basic}+{gps.get('fischerTime', '0')}" if system == "FISCHER" else basic

    players: dict[str, GothaPlayer] = {}
    for i, el in enumerate(root.findall("./Players/Player"), start=1):
        where = f"Player #{i}"
        surname, first = el.get("name", ""), el.get("firstName", "")
        if not surname:
            problems.append(Problem(fname, None, where, "player without a name"))
            continue
        key = (surname + first).upper()
        rating_text = el.get("rating", "")
        rating = int(rating_text) if rating_text.lstrip("-").isdigit() else None
        if key in players:
            problems.append(Problem(fname, None, where, f"player {surname} {first} entered twice"))
            continue
        players[key] = GothaPlayer(key, surname, first, el.get("rank", ""), rating, el.get("club", ""),
                                   el.get("country", ""), el.get("egfPin", ""), el.get("ffgLicence", ""))

    games: list[GothaGame] = []
    notes: list[str] = []
    seen: set[tuple[int, str]] = set()
    for i, el in enumerate(root.findall("./Games/Game"), start=1):
        where = f"Game #{i}"
        rnd = _int(el, "roundNumber", fname, problems, where)
        black, white, raw = el.get("blackPlayer", ""), el.get("whitePlayer", ""), el.get("result", "")
        bad = False
        for colour, key in (("blackPlayer", black), ("whitePlayer", white)):
            if key not in players:
                problems.append(Problem(fname, None, where, f"{colour} {key!r} is not among the players"))
                bad = True
            elif rnd is not None and (rnd, key) in seen:
                problems.append(Problem(fname, None, where, f"{key} plays twice in round {rnd}"))
                bad = True
        if raw not in RESULTS:
            problems.append(Problem(fname, None, where, f"unknown result code {raw!r}"))
            bad = True
        if bad or rnd is None:
            continue
        seen.update({(rnd, black), (rnd, white)})
        if raw == "RESULT_UNKNOWN":
            notes.append(f"round {rnd}: {players[black].name} – {players[white].name} has no result; not rated")
        hc = el.get("handicap", "0")
        games.append(GothaGame(rnd, black, white, int(hc) if hc.isdigit() else 0, RESULTS[raw], raw))

    if problems:
        raise InputError(problems)
    assert start is not None and end is not None and rounds is not None
    games.sort(key=lambda g: (g.round, g.black, g.white))
    return GothaTournament(
        name=gps.get("name", ""), short_name=gps.get("shortName", ""), location=gps.get("location", ""),
        director=gps.get("director", ""), start_date=start, end_date=end, rounds=rounds,
        time_control=time_control, time_system=system, players=list(players.values()), games=games, notes=notes,
    )


def _date(el: ET.Element, attr: str, fname: str, problems: list[Problem]) -> date | None:
    text = el.get(attr, "")
    try:
        return date.fromisoformat(text)
    except ValueError:
        problems.append(Problem(fname, None, f"GeneralParameterSet {attr}", f"not a date: {text!r}"))
        return None


def _int(el: ET.Element, attr: str, fname: str, problems: list[Problem], where: str) -> int | None:
    text = el.get(attr, "")
    if text.isdigit():
        return int(text)
    problems.append(Problem(fname, None, f"{where} {attr}", f"not a whole number: {text!r}"))
    return None
