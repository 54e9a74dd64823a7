"""Matches (对抗赛) and team events (团体赛) over the event file's individual games.

Both record individual games in the ordinary round cells, so every board game is
rated as it is; this module schedules them and scores the whole.

* **match** — two players, ``XXR`` games; player 1 opens the odd games, player 2
  the even ones (the opener alternates).  The higher score wins the match.
* **team** — teams of ``XQB`` boards (fixed line-up, board order = order of
  entry), each team one TRF-16 ``013`` line (name in columns 5-36, the members'
  draw numbers from column 37).  Teams meet by the Berger tables (the team listed
  first is "home"); board ``k`` of one team plays board ``k`` of the other, the home
  team opens on the odd boards.  A team match is won by the team with more board
  points: match points 2 / 1 / 0; teams rank by match points, then board points.

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from qiyuan.tournament.berger import berger_rounds
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.scoring import cell_points, score
from qiyuan.tournament.state import is_active


class TeamError(EventError):
    """A team or match operation the event file's state forbids; the message says why."""


@dataclass(frozen=True, slots=True)
class Team:
    """One team (队): its place in the file (1-based), name, members by board."""

    number: int
    name: str
    members: tuple[int, ...]  # draw numbers, board 1 first


TEAM_NAME_WIDTH = 32  # TRF-16 013 line, columns 5-36


def teams(t: Tournament) -> list[Team]:
    """The teams of the file's ``013`` lines, in file order."""
    out = []
    for i, value in enumerate(t.extra.get("013", []), start=1):
        members = tuple(int(x) for x in value[TEAM_NAME_WIDTH:].split() if x.isdigit())
        out.append(Team(i, value[:TEAM_NAME_WIDTH].strip(), members))
    return out


def boards_per_team(t: Tournament) -> int | None:
    """Boards per team (``XQB``), None when not set."""
    value = (t.extra.get("XQB") or [""])[0].strip()
    return int(value) if value.isdigit() else None


def team_line(name: str, members: tuple[int, ...]) -> str:
    """A team's ``013`` line: its name in the first 32 columns, then its members' draw numbers by board."""
    return name.ljust(TEAM_NAME_WIDTH) + " ".join(f"{n:>4}" for n in members)


def join_team(t: Tournament, name: str, number: int) -> Team:
    """Put player ``number`` on the next board of team ``name`` (the team is created if new)."""
    name = name.strip()
    if not name:
        raise TeamError("a team needs a name")
    if len(name) > TEAM_NAME_WIDTH:
        raise TeamError(f"the team name {name!r} is longer than {TEAM_NAME_WIDTH} characters")
    lines = t.extra.setdefault("013", [])
    for i, team in enumerate(teams(t)):
        if team.name == name:
            boards = boards_per_team(t)
            if boards is not None and len(team.members) >= boards:
                raise TeamError(f"team {name} already has its {boards} boards")
            lines[i] = team_line(name, (*team.members, number))
            return Team(team.number, name, (*team.members, number))
    lines.append(team_line(name, (number,)))
    return Team(len(lines), name, (number,))


def renumber_members(t: Tournament, renumber: dict[int, int]) -> None:
    """After the draw (抽签) or a player removed: the teams' members by their new draw numbers, board order
    kept (``renumber`` maps every number kept: one it leaves out is no longer a member; a team left with
    none goes)."""
    lines = t.extra.get("013")
    if lines:
        kept = [(team.name, tuple(renumber[n] for n in team.members if n in renumber)) for team in teams(t)]
        t.extra["013"] = [team_line(name, members) for name, members in kept if members]


def team_of(t: Tournament) -> dict[int, Team]:
    """Each player's team by draw number."""
    return {n: team for team in teams(t) for n in team.members}


def check_teams(t: Tournament) -> list[str]:
    """What keeps a team event from being paired: too few teams, incomplete line-ups,
    players on no team or on two."""
    faults = []
    boards = boards_per_team(t)
    all_teams = teams(t)
    if boards is None:
        faults.append("the number of boards per team is not set (XQB)")
    if len(all_teams) < 2:
        faults.append(f"a team event needs at least 2 teams, found {len(all_teams)}")
    for team in all_teams:
        if boards is not None and len(team.members) != boards:
            faults.append(f"team {team.name} has {len(team.members)} of its {boards} boards")
    seen: dict[int, str] = {}
    for team in all_teams:
        for n in team.members:
            if n in seen:
                faults.append(f"player {n} is on two teams ({seen[n]}, {team.name})")
            seen[n] = team.name
    for e in t.entrants:
        if e.number not in seen:
            faults.append(f"player {e.number} {e.name} is on no team")
    return faults


def team_round(t: Tournament, rnd: int) -> tuple[list[tuple[int, int]], list[int], list[str]]:
    """Round ``rnd`` of a team event: boards ``(opener, other)``, no byes, notes."""
    if faults := check_teams(t):
        raise TeamError("the teams are not ready: " + "; ".join(faults))

    all_teams = teams(t)
    table = berger_rounds(len(all_teams), double=True)
    cycle = len(table) // 2
    limit = t.rounds_planned or cycle
    if rnd > min(limit, len(table)):
        raise TeamError(f"all {min(limit, len(table))} rounds of the team event are paired")
    boards: list[tuple[int, int]] = []
    notes = [f"team round {rnd}: Berger table of {len(all_teams)} teams; board k meets board k, "
             "the team listed first opens on the odd boards"]
    playing = set()
    absent = [f"{n} ({team.name}, board {k})"
              for a, b in table[rnd - 1] for team in (all_teams[a - 1], all_teams[b - 1])
              for k, n in enumerate(team.members, start=1) if not is_active(t.entrants[n - 1], rnd)]
    if absent:
        raise TeamError(f"round {rnd}: {', '.join(absent)} withdrawn or excused, but a fixed line-up plays every "
                        "board: reinstate (or do not excuse) them and enter the board as a forfeit (-+)")
    for a, b in table[rnd - 1]:
        home, away = all_teams[a - 1], all_teams[b - 1]
        playing |= {a, b}
        notes.append(f"{home.name} – {away.name}")
        for k, (x, y) in enumerate(zip(home.members, away.members, strict=True), start=1):
            boards.append((x, y) if k % 2 else (y, x))
    notes += [f"{team.name} rests this round" for team in all_teams if team.number not in playing]
    return boards, [], notes


def match_round(t: Tournament, rnd: int) -> tuple[list[tuple[int, int]], list[int], list[str]]:
    """Game ``rnd`` of a match: player 1 opens the odd games, player 2 the even ones."""
    if len(t.entrants) != 2:
        raise TeamError(f"a match is between 2 players, the file has {len(t.entrants)}")
    if t.rounds_planned is None:
        raise TeamError("set the number of games of the match (--rounds)")
    board = (1, 2) if rnd % 2 else (2, 1)
    return [board], [], [f"match game {rnd} of {t.rounds_planned}: {board[0]} opens (the opener alternates)"]


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """One team's line in the team standings (团体名次)."""

    rank: int
    team: Team
    match_points: int  # 2 a match won, 1 drawn, 0 lost
    board_points: Decimal  # the points its players scored in team matches
    won: int
    drawn: int
    lost: int


def team_matches(t: Tournament) -> list[tuple[int, Team, Team, Decimal, Decimal]]:
    """Every team match with at least one result: ``(round, team, other, points, other's points)``;
    a board without a result counts 0 until it has one."""
    by_team = team_of(t)
    totals: dict[tuple[int, int, int], list[Decimal]] = {}
    played: set[tuple[int, int, int]] = set()
    for e in t.entrants:
        mine = by_team.get(e.number)
        for rnd, c in enumerate(e.rounds, start=1):
            theirs = by_team.get(c.opponent) if c.opponent is not None else None
            if mine is None or theirs is None or mine.number >= theirs.number:
                continue
            other_cell = t.entrants[c.opponent - 1].rounds[rnd - 1]
            key = (rnd, mine.number, theirs.number)
            pts = totals.setdefault(key, [Decimal(0), Decimal(0)])
            pts[0] += cell_points(c, t.points)
            pts[1] += cell_points(other_cell, t.points)
            if c.result != " ":
                played.add(key)
    all_teams = {team.number: team for team in teams(t)}
    return [(rnd, all_teams[a], all_teams[b], *totals[(rnd, a, b)]) for rnd, a, b in sorted(played)]


def team_standings(t: Tournament) -> list[TeamStanding]:
    """Teams by match points, then board points; equal on both share the place."""
    all_teams = teams(t)
    mp = {team.number: 0 for team in all_teams}
    bp = {team.number: Decimal(0) for team in all_teams}
    wdl = {team.number: [0, 0, 0] for team in all_teams}
    for _, a, b, pa, pb in team_matches(t):
        bp[a.number] += pa
        bp[b.number] += pb
        for team, mine, theirs in ((a, pa, pb), (b, pb, pa)):
            k = 0 if mine > theirs else 1 if mine == theirs else 2
            wdl[team.number][k] += 1
            mp[team.number] += (2, 1, 0)[k]
    order = sorted(all_teams, key=lambda team: (-mp[team.number], -bp[team.number], team.number))
    rows: list[TeamStanding] = []
    for i, team in enumerate(order):
        key = (mp[team.number], bp[team.number])
        same = rows and (rows[-1].match_points, rows[-1].board_points) == key
        rank = rows[-1].rank if same else i + 1
        rows.append(TeamStanding(rank, team, mp[team.number], bp[team.number], *wdl[team.number]))
    return rows


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """One player's line in a match (对抗赛): the higher score wins, equal scores draw."""

    rank: int
    number: int
    name: str
    score: Decimal
    won: int
    drawn: int
    lost: int


def match_standings(t: Tournament) -> list[MatchStanding]:
    """The two players of a match, the leader first (both rank 1 when level)."""
    rows = []
    for e in t.entrants:
        results = [c.result for c in e.rounds if c.opponent is not None]
        rows.append((score(e, t.points), e, sum(r in "1W+" for r in results), sum(r in "=D" for r in results),
                     sum(r in "0L-" for r in results)))
    rows.sort(key=lambda r: (-r[0], r[1].number))
    out = []
    for i, (pts, e, w, d, lost) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].score == pts else i + 1
        out.append(MatchStanding(rank, e.number, e.name, pts, w, d, lost))
    return out
