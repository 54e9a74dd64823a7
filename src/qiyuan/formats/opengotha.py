"""OpenGotha tournament files (the Go federations' tournament manager), read for the office.

An OpenGotha ``.xml`` file holds ``<Players>`` (each keyed by NAME+FIRSTNAME
in capitals), ``<Games>`` (round, black, white, handicap, result) and the
``<GeneralParameterSet>`` (name, dates, location, director, time system).
``read_opengotha`` returns a ``GothaTournament`` or raises ``InputError``
with every problem found (unknown player keys, unknown result codes, missing
attributes, a player twice at one round).

Results are written from the **black** player's side (player1 = black), in
the codes of ``qiyuan.rating.model.Result``. Games won or lost by default
(``…_BYDEF``), "both win"/"both lose" (``Result.BOTH_WIN`` / ``BOTH_LOSS``, the
arbiter's decision) and games without a result (``RESULT_UNKNOWN``) are never
rated; the last are also listed in ``notes``.

Everything else the file holds is read too: every placement criterion, the
online flag (``bInternet``), the categories, the teams of a team tournament and
each player's FFG licence, licence status, rating origin and AGA ID, so that
``gotha_event`` keeps them and ``write_opengotha`` writes them back. What an
event cannot keep (a criterion qiyuan does not compute, a team name too long)
is refused by name, never dropped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from qiyuan.errors import problem
from qiyuan.formats.errors import InputError, Problem
from qiyuan.people.pinyin import joined_name, surname_given
from qiyuan.rating.model import Result
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import CRITERIA
from qiyuan.tournament.go_tiebreaks import criterion as go_criterion
from qiyuan.tournament.model import Entrant, RoundCell, Tournament
from qiyuan.tournament.teams import TEAM_NAME_WIDTH, team_line, teams

#: OpenGotha result codes → the result from black's side.
RESULTS: dict[str, Result] = {
    "RESULT_BLACKWINS": Result.WIN,
    "RESULT_WHITEWINS": Result.LOSS,
    "RESULT_EQUAL": Result.DRAW,
    "RESULT_BLACKWINS_BYDEF": Result.FORFEIT_WIN,
    "RESULT_WHITEWINS_BYDEF": Result.FORFEIT_LOSS,
    "RESULT_EQUAL_BYDEF": Result.NOT_PLAYED,
    "RESULT_BOTHWIN": Result.BOTH_WIN,
    "RESULT_BOTHLOSE": Result.BOTH_LOSS,
    "RESULT_BOTHWIN_BYDEF": Result.BOTH_WIN,
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
    grade: str = ""  # the official grade (OpenGotha's ``grade``), beside the rank he plays at
    participating: str = ""  # one 0/1 per round: does he take part in that round
    smms_correction: int = 0
    licence_status: str = ""  # ffgLicenceStatus
    rating_origin: str = ""  # ratingOrigin ("FFG : -201", "EGF", "MAN" …)
    aga_id: str = ""
    aga_expiration: str = ""
    registering: str = "FIN"  # registeringStatus: FIN (final) or PRE
    rating_text: str = ""  # the rating as written (OpenGotha's scale reaches below 0)

    @property
    def name(self) -> str:
        """Surname and given name: together when both are Chinese (高传德), else with a space (Nemo André)."""
        return joined_name(self.surname, self.first_name)

    @property
    def dan(self) -> str | None:
        """The rank as ``model.Player.dan`` writes it: ``3d``, ``18k``; ``None`` if unreadable."""
        r = self.rank.strip().upper()
        if len(r) >= 2 and go.whole(r[:-1]) and r[-1] in "DKP":
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
    table: int = 0
    known_colour: bool = True


@dataclass(frozen=True, slots=True)
class GothaTeam:
    number: int  # teamNumber, 1..
    name: str
    boards: tuple[tuple[int, int, str], ...]  # (round, board, player key), 1-based


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
    notes: list[Problem] = field(default_factory=list)
    #: the attributes of GeneralParameterSet, HandicapParameterSet and PairingParameterSet, as written
    parameters: dict[str, str] = field(default_factory=dict)
    criteria: list[str] = field(default_factory=list)  # placement criteria in order, NULL left out
    byes: list[tuple[int, str]] = field(default_factory=list)  # (round, player key) of OpenGotha's ByePlayer
    teams: list[GothaTeam] = field(default_factory=list)
    team_size: int = 0
    #: categories by rank: their lower limits as written (numberOfCategories less one), strongest first
    categories: list[str] = field(default_factory=list)
    team_criteria: list[str] = field(default_factory=list)  # a team tournament's placement criteria, NULL left out
    #: clubs groups (OpenGotha's ClubsGroup: clubs kept apart as one when pairing): name -> its clubs
    clubs_groups: dict[str, list[str]] = field(default_factory=dict)

    @property
    def online(self) -> bool:
        """Played on the internet (``bInternet``): the EGD's class D."""
        return self.parameters.get("bInternet", "false") == "true"


def read_opengotha(path: str | Path) -> GothaTournament:
    """Read one OpenGotha tournament file; every problem is reported at once."""
    fname = str(path)
    problems: list[Problem] = []
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError, LookupError, ValueError, UnicodeError) as exc:  # LookupError: an unknown encoding
        raise InputError([problem("not a readable OpenGotha XML file: {why}", file=fname, why=str(exc))]) from exc
    if root.tag != "Tournament":
        raise InputError([problem("root element is <{tag}>, not an OpenGotha <Tournament>", file=fname,
                                  tag=str(root.tag))])

    gps = root.find("./TournamentParameterSet/GeneralParameterSet")
    if gps is None:
        raise InputError([problem("missing: not an OpenGotha tournament file", file=fname,
                                  column="GeneralParameterSet")])
    start = _date(gps, "beginDate", fname, problems)
    end = _date(gps, "endDate", fname, problems)
    rounds = _int(gps, "numberOfRounds", fname, problems, "GeneralParameterSet")
    system = gps.get("complementaryTimeSystem", "")
    basic = gps.get("basicTime", "")
    time_control = f"{basic}+{gps.get('fischerTime', '0')}" if system == "FISCHER" else basic

    players: dict[str, GothaPlayer] = {}
    for i, el in enumerate(root.findall("./Players/Player"), start=1):
        where = problem("Player #{n}", n=i)
        surname, first = el.get("name", ""), el.get("firstName", "")
        if not surname:
            problems.append(problem("player without a name", file=fname, column=where))
            continue
        key = (surname + first).upper()
        rating_text = el.get("rating", "")
        rating = int(rating_text) if go.whole(rating_text, signed=True) else None
        if key in players:
            problems.append(problem("player {name} entered twice", file=fname, column=where,
                                    name=f"{surname} {first}"))
            continue
        corr = el.get("smmsCorrection", "0")
        players[key] = GothaPlayer(key, surname, first, el.get("rank", ""), rating, el.get("club", ""),
                                   el.get("country", ""), el.get("egfPin", ""), el.get("ffgLicence", ""),
                                   el.get("grade", ""), el.get("participating", ""),
                                   int(corr) if go.whole(corr, signed=True) else 0,
                                   el.get("ffgLicenceStatus", ""), el.get("ratingOrigin", ""), el.get("agaId", ""),
                                   el.get("agaExpirationDate", ""), el.get("registeringStatus", "FIN"), rating_text)

    games: list[GothaGame] = []
    notes: list[Problem] = []
    seen: set[tuple[int, str]] = set()
    for i, el in enumerate(root.findall("./Games/Game"), start=1):
        where = problem("Game #{n}", n=i)
        rnd = _int(el, "roundNumber", fname, problems, where)
        black, white, raw = el.get("blackPlayer", ""), el.get("whitePlayer", ""), el.get("result", "")
        bad = False
        for colour, key in (("blackPlayer", black), ("whitePlayer", white)):
            if key not in players:
                problems.append(problem("{colour} {key!r} is not among the players", file=fname, column=where,
                                        colour=colour, key=key))
                bad = True
            elif rnd is not None and (rnd, key) in seen:
                problems.append(problem("{key} plays twice in round {round}", file=fname, column=where, key=key,
                                        round=rnd))
                bad = True
        if raw not in RESULTS:
            problems.append(problem("unknown result code {value!r}", file=fname, column=where, value=raw))
            bad = True
        if bad or rnd is None:
            continue
        seen.update({(rnd, black), (rnd, white)})
        if raw == "RESULT_UNKNOWN":
            notes.append(problem("round {round}: {black} – {white} has no result; not rated", round=rnd,
                                 black=players[black].name, white=players[white].name))
        hc, table = el.get("handicap", "0"), el.get("tableNumber", "0")
        games.append(GothaGame(rnd, black, white, int(hc) if go.whole(hc) else 0, RESULTS[raw], raw,
                               int(table) if go.whole(table) else 0, el.get("knownColor", "true") != "false"))

    byes: list[tuple[int, str]] = []
    for i, el in enumerate(root.findall("./ByePlayers/ByePlayer"), start=1):
        rnd, key = _int(el, "roundNumber", fname, problems, problem("ByePlayer #{n}", n=i)), el.get("player", "")
        if key not in players:
            problems.append(problem("player {key!r} is not among the players", file=fname,
                                    column=problem("ByePlayer #{n}", n=i), key=key))
        elif rnd is not None:
            byes.append((rnd, key))
    parameters: dict[str, str] = {}
    for tag in ("GeneralParameterSet", "HandicapParameterSet", "PairingParameterSet"):
        found = root.find(f"./TournamentParameterSet/{tag}")
        if found is not None:
            parameters.update(found.attrib)
    criteria = [c.get("name", "") for c in root.findall(
        "./TournamentParameterSet/PlacementParameterSet/PlacementCriteria/PlacementCriterion")]
    teams = _teams(root, players, fname, problems)
    team_criteria = [c.get("name", "") for c in root.findall(
        "./TeamTournamentParameterSet/TeamPlacementParameterSet/PlacementCriteria/PlacementCriterion")]
    size = root.find("./TeamTournamentParameterSet/TeamGeneralParameterSet")
    team_size = _int(size, "teamSize", fname, problems, "TeamGeneralParameterSet") if teams and size is not None \
        else 0
    categories = [c.get("lowerLimit", "") for c in sorted(
        root.iter("Category"),
        key=lambda c: int(c.get("number", "0")) if go.whole(c.get("number", "")) else 0)]
    if problems:
        raise InputError(problems)
    assert start is not None and end is not None and rounds is not None
    games.sort(key=lambda g: (g.round, g.black, g.white))
    return GothaTournament(
        name=gps.get("name", ""), short_name=gps.get("shortName", ""), location=gps.get("location", ""),
        director=gps.get("director", ""), start_date=start, end_date=end, rounds=rounds,
        time_control=time_control, time_system=system, players=list(players.values()), games=games, notes=notes,
        parameters=parameters, criteria=[c for c in criteria if c and c != "NULL"], byes=byes,
        teams=teams, team_size=team_size or 0, categories=categories,
        team_criteria=[c for c in team_criteria if c and c != "NULL"] if teams else [],
        clubs_groups={el.get("name", ""): [c.get("name", "") for c in el.findall("./Club")]
                      for el in root.iter("ClubsGroup")},
    )


def _teams(root: ET.Element, players: dict[str, GothaPlayer], fname: str, problems: list[Problem]) -> list[GothaTeam]:
    """The ``<Teams>`` of a team tournament: each ``<Team teamNumber teamName>`` and its ``<Board roundNumber
    boardNumber player>`` (OpenGotha's ``importTeamsFromXMLFile``)."""
    out = []
    for i, el in enumerate(root.findall("./Teams/Team"), start=1):
        where = problem("Team #{n}", n=i)
        number = _int(el, "teamNumber", fname, problems, where)
        boards = []
        for j, b in enumerate(el.findall("./Board"), start=1):
            at = problem("Team #{n} Board #{b}", n=i, b=j)
            rnd, board = _int(b, "roundNumber", fname, problems, at), _int(b, "boardNumber", fname, problems, at)
            key = b.get("player", "")
            if key not in players:
                problems.append(problem("player {key!r} is not among the players", file=fname, column=at, key=key))
            elif rnd is not None and board is not None:
                boards.append((rnd, board, key))
        if number is not None:
            out.append(GothaTeam(number, el.get("teamName", ""), tuple(boards)))
    return out


def _date(el: ET.Element, attr: str, fname: str, problems: list[Problem]) -> date | None:
    text = el.get(attr, "")
    try:
        return date.fromisoformat(text)
    except ValueError:
        problems.append(problem("not a date: {value!r}", file=fname, column=f"GeneralParameterSet {attr}", value=text))
        return None


def _int(el: ET.Element, attr: str, fname: str, problems: list[Problem], where: str | Problem) -> int | None:
    text = el.get(attr, "")
    if go.whole(text):
        return int(text)
    place = problem("{where} {attr}", where=where, attr=attr) if isinstance(where, Problem) else f"{where} {attr}"
    problems.append(problem("not a whole number: {value!r}", file=fname, column=place, value=text))
    return None


# -- a Go event from an OpenGotha file, and back ------------------------------------------------------------
#
# ``gotha_event`` turns the file into qiyuan's event (TRF-16 rows + the Go lines of
# ``qiyuan.tournament.go``), so ``qiyuan standings``, the ``.h9`` export and the
# McMahon pairing of the next round work on it; ``write_opengotha`` writes an
# event back as an OpenGotha file.

#: OpenGotha result (black's side) -> (black's cell, white's cell); a both-win is ``1``/``1`` (``+``/``+`` by
#: default), a both-lose ``0``/``0`` (``-``/``-`` by default); a jigo by default is ``=``/``=`` marked in ``XQ9``
_CELLS = {
    "RESULT_BLACKWINS": ("1", "0"), "RESULT_WHITEWINS": ("0", "1"), "RESULT_EQUAL": ("=", "="),
    "RESULT_BLACKWINS_BYDEF": ("+", "-"), "RESULT_WHITEWINS_BYDEF": ("-", "+"),
    "RESULT_BOTHWIN": ("1", "1"), "RESULT_BOTHWIN_BYDEF": ("+", "+"),
    "RESULT_BOTHLOSE": ("0", "0"), "RESULT_BOTHLOSE_BYDEF": ("-", "-"),
    "RESULT_EQUAL_BYDEF": ("=", "="), "RESULT_UNKNOWN": (" ", " "),
}
_BACK = {cells: code for code, cells in _CELLS.items() if code != "RESULT_EQUAL_BYDEF"}
#: OpenGotha's ``Gotha.MAX_NUMBER_OF_ROUNDS``: ``participating`` and a team's line-ups run over as many rounds
MAX_ROUNDS = 20
_TIME_SYSTEMS = {"SUDDENDEATH": "sd", "STDBYOYOMI": "byoyomi", "CANBYOYOMI": "canadian", "FISCHER": "fischer"}
#: the per-player facts kept in the ``XQ1`` line, ``|``-separated, in this order
_KEPT = ("name", "firstName", "rating", "ffgLicence", "ffgLicenceStatus", "ratingOrigin", "agaId", "agaExpirationDate",
         "registeringStatus", "participating")


def gotha_event(g: GothaTournament, fname: str = "") -> Tournament:
    """The event of an OpenGotha file: players numbered in the file's order, one round cell per round
    played (a round without a game: ``U`` if OpenGotha named him the bye, else absent ``Z``), rounds he
    will not take part in excused (``XQX``), the Go facts and settings in the ``XQ`` lines; the teams of a
    team tournament as ``013`` lines (members by board) with ``XQ0 R TEAM n…`` for a round whose line-up
    differs; each player's OpenGotha facts (names as written, rating, licence, AGA ID) in ``XQ1``.

    Raises ``InputError`` for what an event file cannot keep, each by name."""
    last = min(g.rounds, 99)
    problems = [problem("{black} – {white}: round {round} is not a round of the event (1..{last})", file=fname,
                        column=problem("round {round}", round=x.round), black=x.black, white=x.white, round=x.round,
                        last=last) for x in g.games if not 1 <= x.round <= last]
    problems += [problem("round {round} is not a round of the event (1..{last})", file=fname,
                         column=f"ByePlayer {key}", round=r, last=last)
                 for r, key in g.byes if not 1 <= r <= last]
    problems += [problem("placement criterion {name} is not one qiyuan computes (known: {known}); the event "
                         "cannot keep it", file=fname, column="PlacementCriterion", name=c,
                         known=", ".join(CRITERIA)) for c in g.criteria if go_criterion(c) is None]
    limits = [go.grade_value(x) for x in g.categories]
    problems += [problem("category limit {value!r} is not a grade", file=fname, column="Category", value=x)
                 for x, v in zip(g.categories, limits, strict=True) if v is None]
    problems += [problem("team {name!r} has a name longer than {width} characters; the event cannot keep it",
                         file=fname, column=problem("Team {n}", n=x.number), name=x.name, width=TEAM_NAME_WIDTH)
                 for x in g.teams if len(x.name) > TEAM_NAME_WIDTH]
    if problems:
        raise InputError(problems)
    p = g.parameters
    number = {pl.key: i for i, pl in enumerate(g.players, start=1)}
    last = max([x.round for x in g.games] + [r for r, _ in g.byes] + [0])
    byes = set(g.byes)
    t = Tournament(name=g.name, city=g.location, start_date=g.start_date, end_date=g.end_date,
                   chief_arbiter=g.director, rounds_planned=g.rounds, points=go.GO_POINTS)
    t.extra["XQM"] = ["go_mcmahon"]
    t.extra["092"] = ["Individual: McMahon (Go)"]
    gps: dict[int, go.GoPlayer] = {}
    kept = []
    marks: dict[str, list[str]] = {"equalbydef": [], "unknowncolour": [], "unassigned": []}
    for i, pl in enumerate(g.players, start=1):
        rank = go.grade_value(pl.rank)
        grade = go.grade_value(pl.grade) if pl.grade else rank
        e = Entrant(number=i, name=pl.name, title=go.grade_text(rank) if rank is not None else "",
                    rating=pl.rating if pl.rating and 0 < pl.rating <= 9999 else None,
                    federation=pl.country[:3], club=pl.club, player_id=pl.licence[:11])
        e.rounds = [RoundCell(None, "-", "U" if (r, pl.key) in byes else "Z") for r in range(1, last + 1)]
        played = {x.round for x in g.games if pl.key in (x.black, x.white)}
        marks["unassigned"] += [f"{r}:{i}" for r in range(1, last + 1) if r not in played and (r, pl.key) not in byes
                                and (r > len(pl.participating) or pl.participating[r - 1] != "0")]
        for r in range(last + 1, g.rounds + 1):
            if r <= len(pl.participating) and pl.participating[r - 1] == "0":
                e.excused[r] = "Z"
        t.entrants.append(e)
        gps[i] = go.GoPlayer(i, grade, rank, pl.country, pl.egf_pin, pl.smms_correction)
        facts = (pl.surname, pl.first_name, pl.rating_text, pl.licence, pl.licence_status, pl.rating_origin,
                 pl.aga_id, pl.aga_expiration, pl.registering, pl.participating)
        kept.append(f"{i:>4} " + "|".join(f.replace("|", "/").strip() for f in facts))
    if kept:
        t.extra["XQ1"] = kept
    for x in g.games:
        b, w = number[x.black], number[x.white]
        cb, cw = _CELLS[x.raw_result]
        t.entrants[b - 1].rounds[x.round - 1] = RoundCell(w, "b", cb)
        t.entrants[w - 1].rounds[x.round - 1] = RoundCell(b, "w", cw)
        if x.raw_result == "RESULT_EQUAL_BYDEF":
            marks["equalbydef"].append(f"{x.round}:{b}")
        if not x.known_colour:
            marks["unknowncolour"].append(f"{x.round}:{b}")
        if x.handicap:
            gps[b].handicaps[x.round] = x.handicap
            gps[w].handicaps[x.round] = x.handicap
    _keep_teams(t, g, number)
    if g.clubs_groups:  # kept as written, for export-opengotha: ``XQ0 clubs NAME|CLUB|CLUB``
        t.extra.setdefault("XQ0", []).extend("clubs " + "|".join(x.replace("|", "/") for x in (name, *clubs))
                                             for name, clubs in g.clubs_groups.items())
    s = go.GoSettings()
    s.komi = _decimal(p.get("komi"), s.komi)
    for attr, key in (("bar", "genMMBar"), ("floor", "genMMFloor"), ("zero", "genMMZero"),
                      ("hd_none_from", "hdNoHdRankThreshold")):
        v = go.grade_value(p.get(key, ""))
        if v is not None:
            setattr(s, attr, v)
    for attr, key in (("mms2_absent", "genMMS2ValueAbsent"), ("mms2_bye", "genMMS2ValueBye"),
                      ("nbw2_absent", "genNBW2ValueAbsent"), ("nbw2_bye", "genNBW2ValueBye"),
                      ("hd_correction", "hdCorrection"), ("hd_ceiling", "hdCeiling"),
                      ("basic_minutes", "basicTime")):
        if go.whole(p.get(key, ""), signed=True):
            setattr(s, attr, int(p[key]))
    s.round_down = p.get("genRoundDownNBWMMS", "true") == "true"
    s.hd_basis = "mms" if p.get("hdBasedOnMMS", "true") == "true" else "rank"
    s.handicap_rule = f"h{s.hd_correction}" if s.hd_ceiling else "h0"
    s.overtime = _TIME_SYSTEMS.get(p.get("complementaryTimeSystem", ""), "sd")
    seconds = {"byoyomi": "stdByoYomiTime", "canadian": "canByoYomiTime", "fischer": "fischerTime"}.get(s.overtime)
    if seconds and go.whole(p.get(seconds, "")):
        s.overtime_seconds = int(p[seconds])
    if s.overtime == "canadian" and go.whole(p.get("nbMovesCanTime", "")):
        s.overtime_moves = int(p["nbMovesCanTime"])
    known = [c for c in (go_criterion(c) for c in g.criteria) if c]
    if known:
        s.criteria = known
    s.online = g.online
    s.unplayed_half = p.get("genCountNotPlayedGamesAsHalfPoint", "false") == "true"
    s.categories = [v for v in limits if v is not None]
    t.time_control = go.time_control_text(s)
    words = [f"{k}={','.join(v)}" for k, v in marks.items() if v]
    if g.team_criteria:
        words.append(f"teamcriteria={','.join(g.team_criteria)}")
    if words:
        t.extra["XQ9"] = [" ".join(words)]
    go.set_settings(t, s)
    go.set_players(t, gps)
    return t


def _keep_teams(t: Tournament, g: GothaTournament, number: dict[str, int]) -> None:
    """A team tournament's teams as ``013`` lines (the line-up of most rounds, by board), ``XQB`` their size
    and an ``XQ0 R TEAM n…`` line for each round whose line-up differs from it (OpenGotha lists a team's
    members for each of its 20 possible rounds)."""
    if not g.teams:
        return
    lines, rounds = [], []
    for i, team in enumerate(sorted(g.teams, key=lambda x: x.number), start=1):
        by_round: dict[int, dict[int, int]] = {}
        for rnd, board, key in team.boards:
            by_round.setdefault(rnd, {})[board] = number[key]
        line_ups = {r: tuple(b[k] for k in sorted(b)) for r, b in sorted(by_round.items())}
        counts = Counter(line_ups.values())
        first = max(counts, key=lambda x: (counts[x], -min(r for r, m in line_ups.items() if m == x))) \
            if counts else ()
        lines.append(team_line(team.name, first))
        rounds += [f"{r} {i} " + " ".join(str(n) for n in members) for r, members in line_ups.items()
                   if members != first]
    t.extra["013"] = lines
    if g.team_size:
        t.extra["XQB"] = [str(g.team_size)]
    if rounds:
        t.extra.setdefault("XQ0", []).extend(rounds)


def _decimal(text: str | None, default: Decimal) -> Decimal:
    try:
        return Decimal(text) if text else default
    except InvalidOperation:
        return default


def write_opengotha(t: Tournament) -> str:
    """An event as an OpenGotha file: players (with the OpenGotha facts kept in ``XQ1``), games (every result
    OpenGotha writes, both-win and both-lose too), bye players, teams, the general (online flag, categories),
    handicap and placement parameters."""
    s, gps = go.settings(t), go.players(t)
    marks = go.marks(t)
    root = ET.Element("Tournament", dataVersion="201", gothaMinorVersion="5", gothaVersion="348")
    pls = ET.SubElement(root, "Players")
    keys: dict[int, str] = {}
    rounds = max(t.rounds_planned or 0, t.rounds_played)
    kept = _kept(t)
    for e in t.entrants:
        facts = kept.get(e.number, {})
        surname, first = (facts["name"], facts["firstName"]) if facts and joined_name(
            facts["name"], facts["firstName"]) == e.name else surname_given(e.name)
        keys[e.number] = (surname + first).upper()
        gp = gps.get(e.number, go.GoPlayer(e.number))
        rank = go.grade_text(gp.rank).upper() if gp.rank is not None else "30K"
        grade = go.grade_text(gp.grade).upper() if gp.grade is not None else rank
        kept_part = facts.get("participating", "")  # beyond the event's rounds, as the file had it
        part = "".join("0" if (r <= len(e.rounds) and e.rounds[r - 1].result == "Z" and e.rounds[r - 1].opponent
                               is None and (r, e.number) not in marks["unassigned"]) or e.excused.get(r) == "Z"
                       or (r > rounds and r <= len(kept_part) and kept_part[r - 1] == "0")
                       else "1" for r in range(1, MAX_ROUNDS + 1))
        ET.SubElement(pls, "Player", agaExpirationDate=facts.get("agaExpirationDate", ""), agaId=facts.get("agaId", ""),
                      club=e.club, country=gp.country or e.federation, egfPin=gp.egf_pin,
                      ffgLicence=facts.get("ffgLicence", e.player_id.strip()),
                      ffgLicenceStatus=facts.get("ffgLicenceStatus", ""), firstName=first, grade=grade,
                      name=surname, participating=part, rank=rank,
                      rating=facts.get("rating") or str(e.rating or 0), ratingOrigin=facts.get("ratingOrigin", ""),
                      registeringStatus=facts.get("registeringStatus") or "FIN",
                      smmsCorrection=str(gp.smms_correction))
    games = ET.SubElement(root, "Games")
    byes = ET.SubElement(root, "ByePlayers")
    for r in range(1, rounds + 1):
        table = 0
        for e in t.entrants:
            c = e.rounds[r - 1] if r <= len(e.rounds) else None
            if c is None:
                continue
            if c.opponent is None:
                if c.result == "U":
                    ET.SubElement(byes, "ByePlayer", player=keys[e.number], roundNumber=str(r))
                continue
            if c.colour != "b" and not (c.colour == "-" and e.number < c.opponent):
                continue
            o = t.entrants[c.opponent - 1].rounds[r - 1]
            table += 1
            result = "RESULT_EQUAL_BYDEF" if (r, e.number) in marks["equalbydef"] else \
                _BACK.get((c.result, o.result), "RESULT_UNKNOWN")
            known = c.colour == "b" and (r, e.number) not in marks["unknowncolour"]
            ET.SubElement(games, "Game", blackPlayer=keys[e.number], handicap=str(gp_h(gps, e.number, r)),
                          knownColor="true" if known else "false", result=result, roundNumber=str(r),
                          tableNumber=str(table), whitePlayer=keys[c.opponent])
    tps = ET.SubElement(root, "TournamentParameterSet")
    overtime = {v: k for k, v in _TIME_SYSTEMS.items()}[s.overtime]
    general = ET.SubElement(
        tps, "GeneralParameterSet", bInternet="true" if s.online else "false", basicTime=str(s.basic_minutes),
        beginDate=t.start_date.isoformat() if t.start_date else "",
        canByoYomiTime=str(s.overtime_seconds if s.overtime == "canadian" else 300),
        complementaryTimeSystem=overtime, director=t.chief_arbiter,
        endDate=t.end_date.isoformat() if t.end_date else "",
        fischerTime=str(s.overtime_seconds if s.overtime == "fischer" else 10),
        genCountNotPlayedGamesAsHalfPoint="true" if s.unplayed_half else "false",
        genMMBar=go.grade_text(s.bar).upper(), genMMFloor=go.grade_text(s.floor).upper(),
        genMMS2ValueAbsent=str(s.mms2_absent), genMMS2ValueBye=str(s.mms2_bye),
        genMMZero=go.grade_text(s.zero).upper(), genNBW2ValueAbsent=str(s.nbw2_absent),
        genNBW2ValueBye=str(s.nbw2_bye), genRoundDownNBWMMS="true" if s.round_down else "false",
        komi=str(s.komi), location=t.city, name=t.name,
        nbMovesCanTime=str(s.overtime_moves if s.overtime == "canadian" else 15),
        numberOfCategories=str(len(s.categories) + 1), numberOfRounds=str(rounds), shortName=t.name, size="19",
        stdByoYomiTime=str(s.overtime_seconds if s.overtime == "byoyomi" else 30))
    for i, low in enumerate(s.categories, start=1):
        ET.SubElement(general, "Category", lowerLimit=go.grade_text(low).upper(), number=str(i))
    ET.SubElement(tps, "HandicapParameterSet", hdBasedOnMMS="true" if s.hd_basis == "mms" else "false",
                  hdCeiling=str(s.hd_ceiling), hdCorrection=str(s.hd_correction),
                  hdNoHdRankThreshold=go.grade_text(s.hd_none_from).upper())
    pps = ET.SubElement(ET.SubElement(tps, "PlacementParameterSet"), "PlacementCriteria")
    crit = s.criteria[:6]
    for i in range(6):
        ET.SubElement(pps, "PlacementCriterion", name=crit[i] if i < len(crit) else "NULL", number=str(i + 1))
    _write_teams(root, t, keys)
    groups = [line.split(" ", 1)[1].split("|") for line in t.extra.get("XQ0", []) if line.startswith("clubs ")]
    if groups:
        el = ET.SubElement(root, "ClubsGroups")
        for name, *clubs in groups:
            cg = ET.SubElement(el, "ClubsGroup", name=name)
            for club in clubs:
                ET.SubElement(cg, "Club", name=club)
    ET.indent(root, space="")
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _kept(t: Tournament) -> dict[int, dict[str, str]]:
    """The OpenGotha facts of each player kept in ``XQ1`` (by draw number)."""
    out = {}
    for line in t.extra.get("XQ1", []):
        head, _, rest = line.strip().partition(" ")
        fields = rest.split("|")
        if go.whole(head) and len(fields) == len(_KEPT):
            out[int(head)] = dict(zip(_KEPT, fields, strict=True))
    return out


def _write_teams(root: ET.Element, t: Tournament, keys: dict[int, str]) -> None:
    """The event's teams as OpenGotha's ``<Teams>`` (every round's line-up) and its team size."""
    found = teams(t)
    if not found:
        return
    changed: dict[tuple[int, int], list[int]] = {}
    for line in t.extra.get("XQ0", []):
        parts = line.split()
        if len(parts) >= 2 and all(go.whole(x) for x in parts):
            changed[int(parts[0]), int(parts[1])] = [int(x) for x in parts[2:]]
    rounds = max(t.rounds_planned or 0, t.rounds_played, MAX_ROUNDS)
    el = ET.SubElement(root, "Teams")
    for team in found:
        te = ET.SubElement(el, "Team", teamName=team.name, teamNumber=str(team.number))
        for r in range(1, rounds + 1):
            for board, n in enumerate(changed.get((r, team.number), team.members), start=1):
                if n in keys:
                    ET.SubElement(te, "Board", boardNumber=str(board), player=keys[n], roundNumber=str(r))
    size = (t.extra.get("XQB") or [str(max(len(x.members) for x in found))])[0].strip()
    ttps = ET.SubElement(root, "TeamTournamentParameterSet")
    ET.SubElement(ttps, "TeamGeneralParameterSet", teamSize=size)
    words = dict(w.partition("=")[::2] for w in (t.extra.get("XQ9") or [""])[0].split())
    crit = [c for c in words.get("teamcriteria", "").split(",") if c]
    if crit:
        pps = ET.SubElement(ET.SubElement(ttps, "TeamPlacementParameterSet"), "PlacementCriteria")
        for i in range(max(6, len(crit))):
            ET.SubElement(pps, "PlacementCriterion", name=crit[i] if i < len(crit) else "NULL", number=str(i + 1))


def gp_h(gps, number: int, rnd: int) -> int:
    p = gps.get(number)
    return p.handicaps.get(rnd, 0) if p is not None else 0
