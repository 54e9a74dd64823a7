"""Which events may be rated (可计算等级分的比赛 / 等级分赛的条件).

Pure checks of an event's facts against the conditions of each rule set:

- CGA Gomoku 2011, Art. 4 (who organises) and Art. 5 (arbiters, rounds
  against players, rated share, time control, unplayed games);
- Beijing–Shanghai Gomoku 2007, §6 (approved events), §7 (arbiter, time
  control) and, for a dan/kyu event (等级赛), §9;
- Chinese Go 1995, §4 (events approved by the national sports body).

The rule set says which conditions apply (its ``eligibility`` setting: one
of the texts above, or ``none``). ``check_eligibility`` returns *every* failed
condition, each named by its clause, so the rating officer sees the whole
picture at once; ``eligibility_clauses`` lists the clauses a rule set checks
(the portal shows each, ticked unless failed). No Django, no I/O: the office
builds ``EventFacts`` from its records and calls this.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from decimal import Decimal

from qiyuan.errors import Problem, problem
from qiyuan.rating.model import EventFormat
from qiyuan.rating.rules import (ELIGIBILITY_BJSH_2007, ELIGIBILITY_CGA_2011, ELIGIBILITY_GO_1995, ELIGIBILITY_NONE,
                                 RuleSet)


class OrganiserLevel(str, enum.Enum):
    """Who organised or approved the event (主办/承办/批准单位的级别)."""

    STATE = "state"  # 国家体育总局、棋牌运动管理中心、中国围棋协会(五子棋分会)、中国棋院、国家体委
    REGIONAL = "regional"  # 地区体育局（棋院）
    LOCAL = "local"  # 本地区五子棋组织（协会、委员会）
    OTHER = "other"  # anyone else (clubs, schools, commercial organisers)


#: Arbiter levels that count as "national level" (国家级裁判员); international arbiters a fortiori.
NATIONAL_ARBITER_LEVELS = frozenset({"national", "international"})


@dataclass(frozen=True, slots=True)
class ArbiterFacts:
    """One arbiter of the event (裁判长或裁判员)."""

    name: str
    level: str = ""  # "international", "national", "first", "second", "third", "" unknown
    recognised_national: bool = False  # CGA Art. 5(一): recognised by the CGA Gomoku branch for national events

    @property
    def national_level(self) -> bool:
        return self.level in NATIONAL_ARBITER_LEVELS


@dataclass(frozen=True, slots=True)
class TimeControl:
    """用时: the first period per player in minutes, and the Fischer increment per move in seconds (0 if none)."""

    base_minutes: int
    increment_seconds: int = 0

    @property
    def fischer(self) -> bool:
        return self.increment_seconds > 0

    def __str__(self) -> str:
        return f"{self.base_minutes} min + {self.increment_seconds} s" if self.fischer else f"{self.base_minutes} min"


_NUM = r"(\d+(?:\.\d+)?)"
_HOURS = re.compile(_NUM + r"\s*(?:小时|h|hours?|hrs?)(?![a-z])", re.I)
_MINUTES = re.compile(_NUM + r"\s*(?:分钟|分|min(?:utes?)?|mins?|m|')(?![a-z])", re.I)
_SECONDS = re.compile(_NUM + r"\s*(?:秒|s(?:ec(?:onds?)?)?|\")(?![a-z])", re.I)
_PLUS = re.compile(r"^\s*(?:G/)?" + _NUM + r"\s*(?:\+|＋)\s*" + _NUM + r"\s*$", re.I)
_BARE = re.compile(r"^\s*(?:G/)?" + _NUM + r"\s*$", re.I)


def parse_time_control(text: str) -> TimeControl | None:
    """Read a time control as organisers write it; ``None`` when it cannot be read (also when its
    minutes or seconds are beyond any game's: more than 10,000).

    Accepted: ``90``, ``G/60``, ``90+30`` (minutes + seconds per move), ``60分钟``,
    ``每方45分钟，每步加30秒``, ``1小时``, ``45 min + 30 s``, ``1h30``.
    Only the first period counts (Art. 5(八): 第一时限); byo-yomi is not an increment.
    """
    tc = _parse_time_control(text)
    if tc is not None and (tc.base_minutes > 10000 or tc.increment_seconds > 10000):
        return None
    return tc


def _parse_time_control(text: str) -> TimeControl | None:
    if not text or not text.strip():
        return None
    t = text.strip()
    if m := _PLUS.match(t):
        return TimeControl(_whole(m.group(1)), _whole(m.group(2)))
    if m := _BARE.match(t):
        return TimeControl(_whole(m.group(1)))
    minutes = Decimal(0)
    found = False
    hm = re.search(r"(\d+)\s*h\s*(\d+)(?!\s*(?:s|秒))", t, re.I)
    if hm:
        minutes += Decimal(hm.group(1)) * 60 + Decimal(hm.group(2))
        found = True
        t_rest = t[: hm.start()] + t[hm.end():]
    else:
        t_rest = t
        if m := _HOURS.search(t_rest):
            minutes += Decimal(m.group(1)) * 60
            found = True
            t_rest = t_rest[: m.start()] + t_rest[m.end():]
        if m := _MINUTES.search(t_rest):
            minutes += Decimal(m.group(1))
            found = True
            t_rest = t_rest[: m.start()] + t_rest[m.end():]
    if not found:
        return None
    increment = 0
    incr_context = re.search(r"加|\+|＋|increment|inc|per move|每步|每手|fischer|费舍尔", t, re.I)
    if incr_context and (s := _SECONDS.search(t_rest)):
        increment = _whole(s.group(1))
    return TimeControl(int(minutes), increment)


def _whole(number: str) -> int:
    return int(Decimal(number))


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What the eligibility rules look at, as the office knows it for one event."""

    format: EventFormat
    players: int  # 参赛人数
    rounds: int  # rounds actually played (a round with at least one game played)
    rated_players: int  # entrants holding a published rating before the event
    organiser_level: OrganiserLevel = OrganiserLevel.OTHER
    national: bool = False  # 全国性赛事
    international: bool = False  # 国际性赛事 (hosted in China)
    agreed_by_parties: bool = False  # BJSH §6(三)(四): 经协商主体协商确定
    arbiters: tuple[ArbiterFacts, ...] = ()
    time_control: TimeControl | None = None
    rated_men: int = 0
    rated_women: int = 0
    women_only: bool = False
    played_games: int = 0
    unplayed_games: int = 0  # forfeits and games not played
    dan_event: bool = False  # 等级赛: an event that awards dan/kyu titles (BJSH §8–9)
    unrated_players: int | None = None  # defaults to players − rated_players
    standards_published: bool = False  # BJSH §9(三): title standards published before the start


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed condition: the clause and what is wrong."""

    clause: str
    message: str | Problem  # a template with its values (``qiyuan.errors.problem``), shown in the reader's language

    def problem(self) -> Problem:
        """What is wrong, as a translatable problem (without the clause)."""
        return self.message if isinstance(self.message, Problem) else Problem(message=self.message)

    def __str__(self) -> str:
        return f"{self.clause}: {self.message}"


@dataclass(frozen=True, slots=True)
class Eligibility:
    """The outcome: rated if nothing failed; notes are facts worth showing that do not block rating."""

    failures: tuple[Failure, ...] = ()
    notes: tuple[Problem, ...] = field(default_factory=tuple)  # translatable; ``str()`` is the English line

    @property
    def eligible(self) -> bool:
        return not self.failures


@dataclass(frozen=True, slots=True)
class Clause:
    """A condition an event must meet: its clause and what it asks (Chinese, as the portal shows it)."""

    clause: str
    summary: str


#: The clauses each set of conditions checks, in the order of the text.
CLAUSES: dict[str, tuple[Clause, ...]] = {
    ELIGIBILITY_CGA_2011: (
        Clause("CGA Art. 4", "主办单位级别；全国性或国际性赛事"),
        Clause("CGA Art. 5(一)", "至少两名认可的裁判员"),
        Clause("CGA Art. 5(三)", "积分编排制的轮数"),
        Clause("CGA Art. 5(四)", "有等级分棋手的比例"),
        Clause("CGA Art. 5(五)", "参赛人数少于10人的比赛至少4人有等级分"),
        Clause("CGA Art. 5(八)", "比赛用时"),
        Clause("CGA Art. 5(十一)", "有实际进行的对局"),
    ),
    ELIGIBILITY_BJSH_2007: (
        Clause("BJSH §6", "经认可的比赛"),
        Clause("BJSH §7", "裁判员与比赛用时"),
        Clause("BJSH §9", "等级赛的条件"),
        Clause("BJSH §12", "有实际进行的对局"),
    ),
    ELIGIBILITY_GO_1995: (Clause("Go §4", "经批准的比赛"), Clause("Go §5", "有实际进行的对局")),
    ELIGIBILITY_NONE: (),
}


def eligibility_clauses(rules: RuleSet) -> tuple[Clause, ...]:
    """The clauses the rule set's conditions check (what an event page lists, ticked unless failed)."""
    return CLAUSES[rules.eligibility]


def check_eligibility(rules: RuleSet, facts: EventFacts) -> Eligibility:
    """Every condition of the rule set's ``eligibility`` that ``facts`` fails, with the clause."""
    checks = {ELIGIBILITY_CGA_2011: _cga, ELIGIBILITY_BJSH_2007: _bjsh, ELIGIBILITY_GO_1995: _go,
              ELIGIBILITY_NONE: lambda f: []}
    failures = checks[rules.eligibility](facts)
    notes = []
    if facts.unplayed_games:
        notes.append(problem("{n} unplayed game(s) (forfeits, byes) are never rated", n=facts.unplayed_games))
    return Eligibility(tuple(failures), tuple(notes))


def _no_games(facts: EventFacts, clause: str) -> list[Failure]:
    """未实际比赛的对局一概不计算等级分: an event with no game actually played has nothing to rate."""
    if facts.played_games == 0:
        return [Failure(clause, "no game was actually played (all unplayed or forfeited); nothing can be rated")]
    return []


def _cga(f: EventFacts) -> list[Failure]:
    out: list[Failure] = []
    # Art. 4: international or national events organised by the State sports bodies or the CGA Gomoku branch.
    if f.organiser_level is not OrganiserLevel.STATE:
        out.append(Failure("CGA Art. 4", problem(
            "organiser level is {level!r}; rated events are organised by the General Administration of Sport, its "
            "Chess & Card centre or the CGA Gomoku branch", level=f.organiser_level.value)))
    if not (f.national or f.international):
        out.append(Failure("CGA Art. 4", "the event is neither national (全国性) nor international (国际性)"))
    # Art. 5(一): at least two arbiters recognised for national events.
    recognised = sum(1 for a in f.arbiters if a.recognised_national)
    if recognised < 2:
        out.append(Failure("CGA Art. 5(一)", problem("{n} arbiter(s) recognised by the CGA Gomoku branch; at least 2 "
                                                    "needed", n=recognised)))
    # Art. 5(三): Swiss rounds against players.
    if f.format is EventFormat.SWISS:
        need = 5 if f.players <= 20 else 7
        if f.rounds < need:
            out.append(Failure("CGA Art. 5(三)", problem(
                "Swiss with {players} players played {rounds} round(s); at least {need} needed ({cmp}20 players)",
                players=f.players, rounds=f.rounds, need=need, cmp="≤" if f.players <= 20 else ">")))
    out.extend(_cga_rated_share(f))
    # Art. 5(八): time control.
    out.extend(_cga_time(f))
    out.extend(_no_games(f, "CGA Art. 5(十一)"))
    return out


def _cga_rated_share(f: EventFacts) -> list[Failure]:
    """Art. 5(四)(五)(六): rated share; a national or international round robin with enough rated players is rated."""
    share: list[Failure] = []
    if f.format is EventFormat.ROUND_ROBIN and 3 * f.rated_players < f.players:
        share.append(Failure("CGA Art. 5(四)", problem("round robin with {rated} rated of {players} players; at least "
                                                      "one third must be rated", rated=f.rated_players,
                                                      players=f.players)))
    if f.players < 10 and f.rated_players < 4:
        share.append(Failure("CGA Art. 5(五)", problem("{players} players (fewer than 10) with {rated} rated; at "
                                                      "least 4 must be rated", players=f.players,
                                                      rated=f.rated_players)))
    if f.format is EventFormat.ROUND_ROBIN and (f.national or f.international):
        if f.women_only:
            enough, need = f.rated_women >= 2, problem("nor does this national/international round robin have 2 rated "
                                                       "women (women-only event)")
        else:
            enough, need = f.rated_men >= 3, problem("nor does this national/international round robin have 3 rated men")
        if enough:
            return []  # Art. 5(六): such a round robin is rated
        if share:
            share.append(Failure("CGA Art. 5(六)", need))
    return share


def _cga_time(f: EventFacts) -> list[Failure]:
    tc = f.time_control
    if tc is None:
        return [Failure("CGA Art. 5(八)", "time control not stated or not readable (Art. 11(一) requires it)")]
    if tc.base_minutes >= 60:
        return []
    if tc.fischer and tc.base_minutes >= 45 and tc.increment_seconds >= 30:
        return []
    if tc.fischer:
        return [Failure("CGA Art. 5(八)", problem("time control {tc}: Fischer needs at least 45 min + 30 s per move (or "
                                                 "a first period of 60 min)", tc=str(tc)))]
    return [Failure("CGA Art. 5(八)", problem("time control {tc}: the first period must be at least 60 min per player", tc=str(tc)))]


def _bjsh(f: EventFacts) -> list[Failure]:
    out: list[Failure] = []
    # §6: approved events.
    lvl = f.organiser_level
    if lvl in (OrganiserLevel.LOCAL, OrganiserLevel.OTHER) and not f.agreed_by_parties:
        out.append(Failure("BJSH §6", problem(
            "approved by a local Gomoku organisation only; it must also be agreed by the two parties (协商主体)")
            if lvl is OrganiserLevel.LOCAL else
            problem("approved by another body only; it must also be agreed by the two parties (协商主体)")))
    # §7(一): at least one national-level arbiter.
    national = sum(1 for a in f.arbiters if a.national_level)
    if national < 1:
        out.append(Failure("BJSH §7(一)", "no national-level arbiter (国家级裁判员) directed the event"))
    # §7(四)(1): first period at least 60 min, whatever the time system.
    tc = f.time_control
    if tc is None:
        out.append(Failure("BJSH §7(四)", "time control not stated or not readable (§10(一) requires it)"))
    elif tc.base_minutes < 60:
        out.append(Failure("BJSH §7(四)", problem("time control {tc}: the first period must be at least 60 min per player", tc=str(tc))))
    out.extend(_no_games(f, "BJSH §12"))
    if f.dan_event:
        out.extend(_bjsh_dan_event(f, national))
    return out


def _bjsh_dan_event(f: EventFacts, national_arbiters: int) -> list[Failure]:
    """§9: a dan/kyu event (等级赛) must in addition meet these."""
    out: list[Failure] = []
    if f.players < 12:
        out.append(Failure("BJSH §9(一)", problem("dan/kyu event with {players} players; at least 12 needed",
                                                 players=f.players)))
    unrated = f.unrated_players if f.unrated_players is not None else f.players - f.rated_players
    if f.players and 5 * unrated > f.players:
        out.append(Failure("BJSH §9(一)", problem("{unrated} of {players} players unrated; at most 20% may be",
                                                 unrated=unrated, players=f.players)))
    if national_arbiters < 1:
        out.append(Failure("BJSH §9(二)", "a dan/kyu event needs a national-level arbiter"))
    if not f.standards_published:
        out.append(Failure("BJSH §9(三)", "the title standards were not published before the start"))
    return out


def _go(f: EventFacts) -> list[Failure]:
    out: list[Failure] = []
    # §4: national team and individual events, dan events, international and traditional events, others approved by
    # the national sports commission: all approved at state level.
    if f.organiser_level is not OrganiserLevel.STATE:
        out.append(Failure("Go §4", problem("organiser level is {level!r}; rated Go events are national, international "
                                           "or approved by the national sports commission",
                                           level=f.organiser_level.value)))
    out.extend(_no_games(f, "Go §5"))  # 凡未曾对局而得到的局分，一律不得记入实得局分之内
    return out


#: the texts' names as clause labels say them (``CGA Art. 5(一)`` → 中国棋协办法第五条（一）)
_TEXT_NAMES = {"CGA Art.": ("中国棋协办法", "CGA Art."), "BJSH §": ("京沪细则", "BJSH §"), "Go §": ("围棋办法", "Go §")}
_CLAUSE = re.compile(r"^(?P<text>CGA Art\. ?|BJSH §|Go §)(?P<article>\d+)(?P<items>(?:\([^)]*\))*)(?P<rest>.*)$")
_NUMERALS = "〇一二三四五六七八九"


def _chinese_number(n: int) -> str:
    """1 → 一, 11 → 十一, 20 → 二十 (the articles are below 100)."""
    tens, units = divmod(n, 10)
    return ((_NUMERALS[tens] if tens > 1 else "") + "十" if tens else "") + (_NUMERALS[units] if units else "") or "〇"


def _arabic(numeral: str) -> str:
    """一 → 1, 十一 → 11; anything else as it is."""
    if not numeral or any(c not in _NUMERALS + "十" for c in numeral):
        return numeral
    tens, _sep, units = numeral.rpartition("十")
    value = (_NUMERALS.index(tens) if tens else 1) * 10 if _sep else 0
    return str(value + (_NUMERALS.index(units) if units else 0))


def clause_label(clause: str, *, chinese: bool) -> str:
    """A clause as a reader of the language says it: ``CGA Art. 5(一)`` → 中国棋协办法第五条（一） / CGA Art. 5(1);
    ``BJSH §7(三)`` → 京沪细则第七条（三） / BJSH §7(3). Another label is returned as it is."""
    m = _CLAUSE.match(clause or "")
    if m is None:
        return clause
    name_zh, name_en = _TEXT_NAMES[m["text"].strip()]
    items = m["items"] + m["rest"]
    if chinese:
        return f"{name_zh}第{_chinese_number(int(m['article']))}条" + re.sub(
            r"\(([^)]*)\)", r"（\1）", items).replace("–", "至")
    space = " " if name_en.endswith(".") else ""
    return f"{name_en}{space}{m['article']}" + re.sub(r"\(([^)]*)\)", lambda x: f"({_arabic(x[1])})", items)
