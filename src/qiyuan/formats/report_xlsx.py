"""The competition report (竞赛报告) as an Excel workbook, and its reader.

Content required by CGA Art. 11 (and Beijing–Shanghai §10): event name, dates,
time control, chief arbiter and arbiters; per player name, gender, ID number
(身份证号 — the report goes to the federation only, never to the public), dan/kyu,
association, rating and final rank; the result against every opponent, win
``1``, draw ``½``, loss ``0``, games not played scored ``+`` / ``−``, with a
remarks column (备注) for explanations and changes of name or association.

Two sheets: ``竞赛报告`` (the event) and ``成绩`` (one row per player in rank
order), and ``组别名次`` when the event has prize categories, ``棋手资料`` (birth date, document, nationality)
when any of these is known of a player.  A round cell reads
``12先1``: opponent's draw number 12, this player opened (先; 后 = did not open),
won.  A game not played is marked as the rule set the report goes to says
(``RuleSet.unplayed_mark``): CGA Art. 11(三) ``+`` (1 point) / ``−`` (0 points),
``3先+``; Beijing–Shanghai §10(三) the points with ``*``, ``3先1*``.  Rounds without
a game: ``轮空`` (the pairing bye, a win's points), ``请假½`` / ``请假1`` (excused by the
arbiter with half / full points), ``缺席`` (absent, 0 points; ``轮休`` in a round
robin, where one player sits out each round of an odd field).  备注 explains every
round without a played game, a late entry and a withdrawal, then the arbiter's own
remarks.  Printing: A4 landscape, one page wide, the title rows and the columns
名次/签号/姓名 repeated on every page.  ``read_report`` reads this template back (both
markings, and the older ``轮空½``/``轮空1``), cell by cell, for the office's import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path

from qiyuan.errors import problem
from qiyuan.formats.errors import InputError, Problem
from qiyuan.formats.xlsx_page import page_setup as _page_setup
from qiyuan.people.grades import GRADE_ZH, parse_grade
from qiyuan.tournament import categories as cat
from qiyuan.tournament import go, hall
from qiyuan.tournament.eventfile import birth_date, cross_check, is_country_code, trf_date
from qiyuan.tournament.knockout import mini_match_rule_zh, played_matches
from qiyuan.tournament.model import Entrant, PointSystem, RoundCell, Tournament
from qiyuan.tournament.scoring import score
from qiyuan.tournament import minimatch as mm
from qiyuan.tournament.sheets import as_of, knocked_out
from qiyuan.tournament.standings import StandingRow, decisions_by_player, final_places
from qiyuan.tournament.state import rounds_paired
from qiyuan.tournament.systems import system_of
from qiyuan.tournament.teams import team_standings, teams

INFO_SHEET = "竞赛报告"
RESULTS_SHEET = "成绩"
TITLE = "竞赛报告"

#: the event sheet: (row, label) — the value is in column B (dates: B and C; points: B..E)
INFO_ROWS = {
    "name": (3, "赛事名称"),
    "dates": (4, "比赛日期"),
    "city": (5, "比赛地点"),
    "time_control": (6, "时限规定"),
    "chief_arbiter": (7, "裁判长"),
    "arbiters": (8, "裁判员"),
    "format": (9, "赛制"),
    "rounds": (10, "轮数"),
    "points": (11, "积分（胜/和/负/轮空）"),
    "organizer": (12, "主办单位"),
    "host": (13, "承办单位"),
    "notes": (14, "说明"),
    "report_date": (15, "填报日期"),
}
#: the desk event the report was downloaded from (optional row: older reports have none)
DESK_CODE_ROW, DESK_CODE_LABEL = 16, "赛事代码"
#: the facts the eligibility rules and the rating read that only the organiser knows (optional rows, after the
#: desk code; older reports have none): fact → (row, label). An empty value declares nothing.
FACT_ROWS = {
    "organiser_level": (17, "主办单位级别"),
    "national": (18, "全国性赛事"),
    "international": (19, "国际性赛事"),
    "agreed_by_parties": (20, "经协商主体协商确定"),
    "dan_event": (21, "等级赛（授予段级位）"),
    "standards_published": (22, "段级位标准赛前公布"),
}
#: how the event's results were entered (issue 37, from the event file's provenance record ``XRP``): kind → (row,
#: label), each row the count of results entered that way (``hall.entered_counts``); the office reads its own
#: records, not these lines
ENTERED_ROWS = {
    hall.PHONES: (23, "成绩来源：双方手机确认、裁判签字"),
    hall.SETTLED: (24, "成绩来源：裁判在赛场裁定"),
    hall.DESK: (25, "成绩来源：记录台录入"),
    hall.TERMINAL: (26, "成绩来源：终端录入"),
    hall.FILE: (27, "成绩来源：无来源记录（导入的文件）"),
}
#: organiser levels as the report writes them (``rating.eligibility.OrganiserLevel`` values)
LEVELS_ZH = {"state": "国家级", "regional": "地区级", "local": "本地区棋类组织", "other": "其他"}
YES, NO = "是", "否"
LEAD = ["名次", "签号", "姓名", "性别", "身份证号", "段级位", "所属棋协", "等级分"]
TAIL = ["积分", "备注"]
FIRST_ROW = 3  # first player row of the results sheet
#: how a game not played is marked (the rule set's ``unplayed_mark``)
PLUS_MINUS, STAR = "plus_minus", "star"
LEGENDS = {
    PLUS_MINUS: "胜 1，和 ½，负 0；未对弈：+ 判胜（计 1 分）、− 判负（计 0 分）；先 = 假先（先行方），后 = 后行方；"
                "轮空 = 编排轮空（计胜）；请假½ / 请假1 = 请假计半分 / 全分；缺席 = 缺席计 0 分；未对弈的情况见备注",
    STAR: "胜 1，和 ½，负 0；未对弈的得分以 * 标出（1* 判胜、0* 判负）；先 = 假先（先行方），后 = 后行方；"
          "轮空1* = 编排轮空（计胜）；请假½* / 请假1* = 请假计半分 / 全分；缺席0* = 缺席计 0 分；未对弈的情况见备注",
}
LEGEND = LEGENDS[PLUS_MINUS]

_SHOW = {"1": "1", "W": "1", "=": "½", "D": "½", "0": "0", "L": "0", "+": "+", "-": "−", " ": ""}
_READ = {"1": "1", "½": "=", "0.5": "=", "=": "=", "0": "0", "+": "+", "−": "-", "-": "-", "—": "-", "": " "}
_BYES = {"U": "轮空", "H": "请假½", "F": "请假1", "Z": "缺席"}
_BYES_STAR = {"U": "轮空1*", "H": "请假½*", "F": "请假1*", "Z": "缺席0*"}
_BYES_BACK = ({v: k for k, v in _BYES.items()} | {v: k for k, v in _BYES_STAR.items()}
              | {"轮休": "Z", "轮休0*": "Z", "轮空½": "H", "轮空1": "F"}  # the last two: reports written before 2027
              | {"淘汰": "Z", "待赛": "Z"})  # a knock-out: eliminated; through, waiting while others play on
_STAR_POINTS = {"+": "1*", "-": "0*"}
REST = "轮休"  # the player who sits out a round of an odd round robin (no game, 0 points)
_ABSENT = RoundCell(None, "-", "Z")
_ROLE = {"b": "先", "w": "后", "-": ""}
#: a Go event's cells: 黑 (black, moves first) and 白 (``12黑1``); both read back
_GO_ROLE = {"b": "黑", "w": "白", "-": ""}
_ROLE_BACK = {"先": "b", "后": "w", "黑": "b", "白": "w", "": "-"}
GO_LEGEND_NOTE = "围棋：黑 = 执黑（先行），白 = 执白；让子与贴目见对阵表"
_SEX = {"m": "男", "w": "女", "f": "女"}
_SEX_BACK = {"男": "m", "女": "w", "": ""}
#: a mini-match's remark (``knockout.PlayedMatch.text_zh``): written from the results, not the arbiter's own
_MATCH_REMARK = re.compile(r"第\d+轮对\d+号 ")
_CELL_RE = re.compile(r"(\d+)\s*(先|后|黑|白)?\s*(1\*|0\*|1|0|½|0\.5|=|\+|−|-|—)?")
FORMATS = {"swiss": "瑞士制", "round_robin": "循环制", "double_round_robin": "双循环制", "knockout": "淘汰制",
           "match": "对抗赛", "team": "团体赛", "go_mcmahon": "麦克马洪制（围棋）", "go_swiss": "积分编排制（围棋）"}
TEAM_SHEET = "团体成绩"
TEAM_HEADS = ["名次", "队号", "队名", "场分", "局分", "胜", "和", "负", "队员（台次顺序）"]


@dataclass(slots=True)
class ReportMeta:
    """What the report says beyond the TRF: organisers, notes, per-player remarks (备注)."""

    format: str = "swiss"  # key of FORMATS
    organizer: str = ""  # 主办单位
    host: str = ""  # 承办单位
    notes: str = ""  # 说明: anything that affects the validity of results
    report_date: date | None = None
    remarks: dict[int, str] = field(default_factory=dict)  # draw number -> 备注 (name/association changes…)
    #: how games not played are marked: PLUS_MINUS (CGA Art. 11(三)) or STAR (Beijing–Shanghai §10(三));
    #: the rule set's ``unplayed_mark``
    unplayed_mark: str = PLUS_MINUS
    #: the desk event's code (赛事代码) when the desk wrote the report: the office links its record to it
    desk_code: str = ""
    #: what the organiser declares (``FACT_ROWS``): organiser_level → 'state'…, the others → True/False;
    #: a fact left out is not declared
    facts: dict = field(default_factory=dict)


def title_text(title: str) -> str:
    """``1d`` → ``初段``, ``4d`` → ``四段``, ``2k`` → ``二级`` (段级位, as the texts write them); anything else as
    written."""
    return GRADE_ZH.get(title.strip().lower(), title)


def title_code(text: str) -> str:
    """A grade as a report writes it (``初段``, ``四段``, ``4段``, ``二级``) → its code; anything else as written."""
    return parse_grade(text) or text.strip()


def cell_text(cell: RoundCell, mark: str = PLUS_MINUS, roles: dict[str, str] = _ROLE) -> str:
    """A round cell as the report writes it (``12先1``, ``轮空``, ``3先+`` or ``3先1*``; a Go event's ``12黑1``)."""
    star = mark == STAR
    if cell.opponent is None:
        if cell.result in _BYES:
            return (_BYES_STAR if star else _BYES)[cell.result]
        return _STAR_POINTS.get(cell.result, _SHOW[cell.result]) if star else _SHOW[cell.result]
    shown = _STAR_POINTS.get(cell.result) if star else None
    return f"{cell.opponent}{roles[cell.colour]}{shown or _SHOW[cell.result]}"


def knockout_marks(t: Tournament, e: Entrant) -> dict[int, str]:
    """A knock-out player's rounds without a game that are no absence: 淘汰 after the match he lost, 待赛 while
    he is through and others play their tie-break games (mini-matches)."""
    out = knocked_out(t)
    if not out and not mm.is_mini(t):
        return {}
    lost = out.get(e.number)
    return {i: "淘汰" if lost is not None and lost < i else "待赛" for i, c in enumerate(e.rounds, start=1)
            if c.opponent is None and c.result == "Z" and (lost is not None and lost < i or mm.is_mini(t))}


def _spans(rounds: list[int]) -> list[str]:
    """``[1, 2, 3, 5]`` -> ``["1-3", "5"]``."""
    out: list[list[int]] = []
    for r in rounds:
        if out and r == out[-1][-1] + 1:
            out[-1].append(r)
        else:
            out.append([r])
    return [f"{s[0]}-{s[-1]}" if len(s) > 1 else str(s[0]) for s in out]


def auto_remarks(e: Entrant, *, rests: bool = False, skip: frozenset[int] | set[int] = frozenset()) -> list[str]:
    """What 备注 must say (凡能影响成绩有效性的情况): every round without a played game — a forfeit,
    the pairing bye, an excuse with its points, an absence (``轮休`` in a round robin) — a late
    entry and a withdrawal, in round order; not the rounds ``skip`` (a knock-out's 淘汰 and 待赛:
    the cell says it)."""
    notes: list[tuple[int, str]] = []
    late = e.late_after or 0
    kinds: dict[str, list[int]] = {}
    for i, c in enumerate(e.rounds, start=1):
        if c.result == "+":
            notes.append((i, f"第{i}轮对方弃权判胜" if c.opponent else f"第{i}轮未对弈判胜"))
        elif c.result == "-":
            notes.append((i, f"第{i}轮弃权判负" if c.opponent else f"第{i}轮缺席判负"))
        elif c.opponent is None and c.result in _BYES and i > late and i not in skip and (
                e.withdrawn_after is None or i <= e.withdrawn_after):
            kinds.setdefault(c.result, []).append(i)
    words = {"U": "轮空（计胜）", "H": "请假（计半分）", "F": "请假（计全分）", "Z": "轮休" if rests else "缺席"}
    for code, rounds in kinds.items():
        notes += [(int(span.split("-")[0]), f"第{span}轮{words[code]}") for span in _spans(rounds)]
    out = [f"第{late}轮后报名（第{_spans(list(range(1, late + 1)))[0]}轮未参赛）"] if late else []
    out += [text for _, text in sorted(notes)]
    if e.withdrawn_after is not None:
        out.append(f"第{e.withdrawn_after}轮后退赛")
    return out


def write_report(t: Tournament, path: str | Path, meta: ReportMeta | None = None) -> None:
    """Write the competition report workbook (federation only: it holds ID numbers)."""
    Path(path).write_bytes(report_bytes(t, meta))


def report_bytes(t: Tournament, meta: ReportMeta | None = None) -> bytes:
    """The competition report workbook as bytes (federation only: it holds ID numbers)."""
    import io

    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    meta = meta or ReportMeta()
    wb = Workbook()
    info = wb.active
    info.title = INFO_SHEET
    info["A1"] = TITLE
    info["A1"].font = Font(bold=True, size=16)
    p = t.points
    values = {
        "name": [t.name],
        "dates": [_iso(t.start_date), _iso(t.end_date)],
        "city": [t.city],
        "time_control": [t.time_control],
        "chief_arbiter": [t.chief_arbiter],
        "arbiters": ["、".join(t.deputy_arbiters)],
        "format": [FORMATS.get(meta.format, meta.format)],
        # (never fewer than played: an event that added a round declares the rounds it had)
        "rounds": [max(t.rounds_planned, t.rounds_played) if t.rounds_planned is not None else t.rounds_played],
        "points": [_num(p.win), _num(p.draw), _num(p.loss), _num(p.pairing_bye)],
        "organizer": [meta.organizer],
        "host": [meta.host],
        "notes": [meta.notes],
        "report_date": [_iso(meta.report_date)],
    }
    wrap = Alignment(wrap_text=True, vertical="top")
    for key, (row, label) in INFO_ROWS.items():
        info.cell(row, 1, label).font = Font(bold=True)
        for j, v in enumerate(values[key], start=2):
            info.cell(row, j, v).alignment = wrap
    info.cell(DESK_CODE_ROW, 1, DESK_CODE_LABEL).font = Font(bold=True)
    info.cell(DESK_CODE_ROW, 2, meta.desk_code or None)
    # every report has the lines for the facts: what the writer knows is filled, the organiser fills the rest
    for key, (row, label) in FACT_ROWS.items():
        info.cell(row, 1, label).font = Font(bold=True)
        v = meta.facts.get(key)
        info.cell(row, 2, None if v is None else LEVELS_ZH.get(v, v) if key == "organiser_level" else YES if v else NO)
    for key, n in hall.entered_counts(t).items():
        row, label = ENTERED_ROWS[key]
        info.cell(row, 1, label).font = Font(bold=True)
        info.cell(row, 2, n)
    info.column_dimensions["A"].width = 22
    info.column_dimensions["B"].width = 44
    for col in "CDE":
        info.column_dimensions[col].width = 12
    _page_setup(info, landscape=False, title_rows=None, title_cols=None)

    ws = wb.create_sheet(RESULTS_SHEET)
    n_rounds = rounds_paired(t)
    t = as_of(t, n_rounds)  # an excuse for the next round already entered is not reported yet
    heads = LEAD + [f"第{r}轮" for r in range(1, n_rounds + 1)] + TAIL
    ws["A1"] = f"{t.name} 成绩表"
    ws["A1"].font = Font(bold=True, size=14)
    for j, h in enumerate(heads, start=1):
        ws.cell(2, j, h).font = Font(bold=True)
        ws.cell(2, j).alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
    ranks = final_places(t)
    decided = decisions_by_player(t)
    rests = meta.format in ("round_robin", "double_round_robin")  # no game in a round robin: 轮休
    board = {n: (team, k) for team in _teams(t) for k, n in enumerate(team.members)}

    def place(e: Entrant) -> tuple[int, int, int, int]:  # a team's players together, by board
        team, k = board.get(e.number, (None, 0))
        return ranks.get(e.number, 10**9), team.number if team else 0, k, e.number

    order = sorted(t.entrants, key=place)
    roles = _GO_ROLE if go.is_go(t) else _ROLE
    matches = played_matches(t)
    centre = Alignment(horizontal="center", vertical="top")
    remark_col = len(LEAD) + n_rounds + 2
    for i, e in enumerate(order):
        r = FIRST_ROW + i
        lead = [ranks.get(e.number), e.number, e.name, _SEX.get(e.sex, e.sex), e.id_number, title_text(e.title),
                e.federation, e.rating]
        for j, v in enumerate(lead, start=1):
            ws.cell(r, j, v).alignment = Alignment(vertical="top", wrap_text=j == 7)
        ws.cell(r, 5).number_format = "@"  # an ID number is text, never a float
        marks = knockout_marks(t, e)
        for k, c in enumerate(e.rounds):
            text = (REST + ("0*" if meta.unplayed_mark == STAR else "")) if rests and c == _ABSENT else (
                marks.get(k + 1) or cell_text(c, meta.unplayed_mark, roles))
            ws.cell(r, len(LEAD) + 1 + k, text).alignment = centre
        team_note = [f"{board[e.number][0].name}第{board[e.number][1] + 1}台"] if e.number in board else []
        own = [meta.remarks[e.number]] if meta.remarks.get(e.number) else []
        tie = [f"第{ranks[e.number]}名{decided[e.number].how_zh()}"] if e.number in decided else []
        ko = [m.text_zh() for m in matches.get(e.number, [])]  # mini-matches: 第1轮对5号 1:1（加赛 1:0）胜
        remark = "；".join(team_note + auto_remarks(e, rests=rests, skip=set(marks)) + ko + tie + own)
        ws.cell(r, len(LEAD) + n_rounds + 1, _num(score(e, t.points))).alignment = centre
        ws.cell(r, remark_col, remark or None).alignment = wrap
    legend_row = FIRST_ROW + len(order) + 1
    ws.cell(legend_row, 1, LEGENDS.get(meta.unplayed_mark, LEGEND) + ("；" + GO_LEGEND_NOTE if roles is _GO_ROLE else "")
            + (f"；淘汰赛{rule}；淘汰 = 已被淘汰，待赛 = 已晋级、等候其他对局加赛" if (rule := mini_match_rule_zh(t)) else
               "；淘汰 = 已被淘汰" if knocked_out(t) else ""))
    from openpyxl.styles import Border, Side

    thin = Side(style="thin", color="808080")
    grid = Border(left=thin, right=thin, top=thin, bottom=thin)
    for row in ws.iter_rows(min_row=2, max_row=FIRST_ROW + len(order) - 1, max_col=remark_col):
        for cell in row:
            cell.border = grid
    from openpyxl.utils import get_column_letter

    for col, width in zip("ABCDEFGH", (5, 5, 12, 5, 20, 6, 16, 7), strict=True):
        ws.column_dimensions[col].width = width
    for k in range(n_rounds):
        ws.column_dimensions[get_column_letter(len(LEAD) + 1 + k)].width = 7
    ws.column_dimensions[get_column_letter(len(LEAD) + n_rounds + 1)].width = 6  # 积分
    ws.column_dimensions[get_column_letter(remark_col)].width = 30  # 备注
    ws.freeze_panes = "D3"
    last = get_column_letter(remark_col)
    _page_setup(ws, landscape=True, title_rows="1:2", title_cols="A:C", area=f"A1:{last}{legend_row}")
    if _teams(t):
        _team_sheet(wb, t)
    _category_sheet(wb, t, ranks)
    _details_sheet(wb, t)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()



CATEGORY_SHEET = "组别名次"


def _category_sheet(wb, t: Tournament, ranks: dict[int, int]) -> None:
    """组别名次: each prize category's players in the event's order, with their place in it."""
    from openpyxl.styles import Font

    cats = cat.categories(t)
    if not cats:
        return
    by = {e.number: e for e in t.entrants}
    rows = [StandingRow(ranks[n], n, by[n].name, score(by[n], t.points), ())
            for n in sorted(ranks, key=lambda n: (ranks[n], n))]
    ws = wb.create_sheet(CATEGORY_SHEET)
    ws["A1"] = f"{t.name} 组别名次"
    ws["A1"].font = Font(bold=True, size=14)
    r = 2
    for c in cats:
        r += 1
        ws.cell(r, 1, c.label()).font = Font(bold=True)
        r += 1
        for j, h in enumerate(["组别名次", "总名次", "签号", "姓名", "积分"], start=1):
            ws.cell(r, j, h).font = Font(bold=True)
        for place, row in cat.ranked(t, c, rows):
            r += 1
            for j, v in enumerate([place, row.rank, row.number, row.name, _num(row.score)], start=1):
                ws.cell(r, j, v)
        r += 1
    ws.column_dimensions["D"].width = 14
    _page_setup(ws, landscape=False, title_rows="1:1", title_cols=None)


DETAILS_SHEET = "棋手资料"
DETAILS_HEADS = ["签号", "姓名", "出生日期", "证件类型", "国籍"]
_DOCUMENT_ZH = {"resident": "居民身份证", "passport": "护照", "other": "其他证件"}
_DOCUMENT_BACK = {v: k for k, v in _DOCUMENT_ZH.items()}


def _details_sheet(wb, t: Tournament) -> None:
    """棋手资料: what the office registers a new player with beyond the 成绩 sheet — the birth date, the document
    the ID number is from and the nationality (国籍) — for the players any of these is known of (the sheet is left
    out when there are none).  Read back by ``read_report``; older reports have no such sheet."""
    from openpyxl.styles import Font

    rows = [e for e in t.entrants if e.birth or e.nationality or (e.id_number and e.id_type != "resident")]
    if not rows:
        return
    ws = wb.create_sheet(DETAILS_SHEET)
    for j, h in enumerate(DETAILS_HEADS, start=1):
        ws.cell(1, j, h).font = Font(bold=True)
    for r, e in enumerate(rows, start=2):
        born = birth_iso(e.birth)
        for j, v in enumerate([e.number, e.name, born, _DOCUMENT_ZH.get(e.id_type, e.id_type) if e.id_number else None,
                               e.nationality or None], start=1):
            ws.cell(r, j, v)
    ws.column_dimensions["B"].width = 16
    ws.column_dimensions["C"].width = 12
    _page_setup(ws, landscape=False, title_rows="1:1", title_cols=None)


def birth_iso(text: str) -> str | None:
    """A birth date as the file holds it (``2010/03/04``) in ISO form, or None."""
    born = birth_date(text) if text else None
    return born.isoformat() if born else None


def _read_details(wb, fname: str, problems: list[Problem], entrants: dict[int, Entrant]) -> None:
    """The 棋手资料 sheet, when there is one, onto the entrants read from 成绩 (by draw number)."""
    if DETAILS_SHEET not in wb.sheetnames:
        return
    ws = _Sheet(wb[DETAILS_SHEET], fname, problems)
    for j, h in enumerate(DETAILS_HEADS, start=1):
        if ws.text(1, j) != h:
            ws.cell_problem(1, j, "expected the heading {heading!r}, found {found!r} (wrong template?)", heading=h,
                            found=ws.text(1, j))
            return
    r = 2
    while ws.text(r, 1) or ws.text(r, 2):
        number = ws.integer(r, 1, problem("签号 (draw number)"), required=True)
        e = entrants.get(number) if number is not None else None
        if number is not None and e is None:
            ws.cell_problem(r, 1, "draw number {number} has no row in sheet {sheet}", number=number, sheet=RESULTS_SHEET)
        born = ws.date(r, 3, problem("出生日期 (birth date)"))
        document, nationality = ws.text(r, 4), ws.text(r, 5).upper()
        if document and document not in _DOCUMENT_BACK:
            ws.cell_problem(r, 4, "证件类型 must be {choices}, found {found!r}", choices="、".join(_DOCUMENT_BACK),
                            found=document)
        if nationality and not is_country_code(nationality):
            ws.cell_problem(r, 5, "国籍 must be a 3-letter country code (CHN, KOR, JPN), found {found!r}", found=nationality)
        if e is not None:
            e.birth = trf_date(born) if born else e.birth
            e.id_type = _DOCUMENT_BACK.get(document, e.id_type)
            e.nationality = nationality if is_country_code(nationality) else ""
        r += 1


def _teams(t: Tournament) -> list:
    return teams(t) if system_of(t).team_boards else []


def _team_sheet(wb, t: Tournament) -> None:
    """团体成绩: the teams by match points (胜 2, 和 1, 负 0), then board points (局分)."""
    from openpyxl.styles import Font

    names = {e.number: e.name for e in t.entrants}
    ws = wb.create_sheet(TEAM_SHEET)
    ws["A1"] = f"{t.name} 团体成绩（场分：胜 2、和 1、负 0；同场分比局分）"
    ws["A1"].font = Font(bold=True, size=14)
    for j, h in enumerate(TEAM_HEADS, start=1):
        ws.cell(2, j, h).font = Font(bold=True)
    for i, row in enumerate(team_standings(t), start=FIRST_ROW):
        members = "、".join(names.get(n, str(n)) for n in row.team.members)
        for j, v in enumerate([row.rank, row.team.number, row.team.name, row.match_points,
                               _num(row.board_points), row.won, row.drawn, row.lost, members], start=1):
            ws.cell(i, j, v)
    ws.column_dimensions["C"].width = 20
    ws.column_dimensions["I"].width = 40


def _iso(d: date | None) -> str | None:
    return d.isoformat() if d else None


def _num(d: Decimal) -> int | float:
    """A point value for a spreadsheet cell (halves are exact in binary)."""
    return int(d) if d == d.to_integral_value() else float(d)


# -- reader ------------------------------------------------------------------------------


def cell_place(sheet: str, row: int, col: int) -> Problem:
    """Where a cell is, as a translatable place: ``Sheet 成绩, cell F7``."""
    from openpyxl.utils import get_column_letter

    return problem("Sheet {sheet}, cell {cell}", sheet=sheet, cell=f"{get_column_letter(col)}{row}")


class _Sheet:
    def __init__(self, ws, fname: str, problems: list[Problem]):
        self.ws, self.fname, self.problems = ws, fname, problems

    def cell_problem(self, row: int, col: int, message: str | Problem, /, **params) -> None:
        """A problem of one cell: ``message`` is a template filled from ``params`` (``qiyuan.errors.problem``),
        or a problem phrased elsewhere, placed here."""
        place = cell_place(self.ws.title, row, col)
        self.problems.append(replace(message, file=self.fname, column=place) if isinstance(message, Problem)
                             else problem(message, file=self.fname, column=place, **params))

    def text(self, row: int, col: int) -> str:
        v = self.ws.cell(row, col).value
        if v is None:
            return ""
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, datetime):
            return v.date().isoformat()
        return str(v).strip()

    def integer(self, row: int, col: int, what: str, required: bool = False, high: int = 9999) -> int | None:
        """A whole number 0..``high`` (draw numbers, places, ratings and rounds fit 9999)."""
        s = self.text(row, col)
        if not s:
            if required:
                self.cell_problem(row, col, "{what} is missing", what=what)
            return None
        if not (s.isascii() and s.isdigit()):
            self.cell_problem(row, col, "{what} must be a whole number, found {value!r}", what=what, value=s)
            return None
        if int(s) > high:
            self.cell_problem(row, col, "{what} must be at most {high}, found {value}", what=what, high=high, value=s)
            return None
        return int(s)

    def decimal(self, row: int, col: int, what: str) -> Decimal | None:
        s = self.text(row, col).replace("½", ".5")
        try:
            d = Decimal(s)
        except InvalidOperation:
            d = None
        if d is None or not d.is_finite() or abs(d) >= 10000 or d != d.quantize(Decimal("0.01")):
            self.cell_problem(row, col, "{what} must be a number like 4.5 (0..9999, two decimals at most), found {value!r}",
                     what=what, value=s)
            return None
        return d

    def date(self, row: int, col: int, what: str) -> date | None:
        s = self.text(row, col)
        if not s:
            return None
        try:
            return date.fromisoformat(s)
        except ValueError:
            self.cell_problem(row, col, "{what} must be a date like 2026-05-01, found {value!r}", what=what, value=s)
            return None


def read_report(path: str | Path) -> tuple[Tournament, ReportMeta]:
    """Read a competition report written from our template; every problem at once,
    each naming its sheet and cell (``Sheet 成绩, cell F7: …``)."""
    from openpyxl import load_workbook

    fname = str(path)
    try:
        wb = load_workbook(fname, read_only=False, data_only=True)
    except Exception as exc:  # openpyxl raises several types for a non-workbook
        raise InputError(problem("not an Excel workbook (.xlsx): {why}", file=fname, why=str(exc))) from None
    missing = [s for s in (INFO_SHEET, RESULTS_SHEET) if s not in wb.sheetnames]
    if missing:
        raise InputError(problem("not a qiyuan competition report: sheet {missing} missing (found {found})",
                                 file=fname, missing="、".join(missing), found=", ".join(wb.sheetnames)))
    problems: list[Problem] = []
    info = _Sheet(wb[INFO_SHEET], fname, problems)
    res = _Sheet(wb[RESULTS_SHEET], fname, problems)
    for key, (row, label) in INFO_ROWS.items():
        if info.text(row, 1) != label:
            info.cell_problem(row, 1, "expected the label {label!r}, found {found!r} (wrong template?)", label=label,
                     found=info.text(row, 1))
    n_rounds = 0
    while res.text(2, len(LEAD) + n_rounds + 1) == f"第{n_rounds + 1}轮":
        n_rounds += 1
    heads = LEAD + [f"第{r}轮" for r in range(1, n_rounds + 1)] + TAIL
    for j, h in enumerate(heads, start=1):
        if res.text(2, j) != h:
            res.cell_problem(2, j, "expected the heading {heading!r}, found {found!r} (wrong template?)", heading=h,
                    found=res.text(2, j))
    if problems:
        raise InputError(problems)

    t, meta = _read_info(info)
    rows: dict[int, tuple[int, Entrant]] = {}
    declared: dict[int, tuple[int, Decimal | None]] = {}
    #: (draw number, round index) of each cell that could not be read: nothing that follows from it is reported
    unreadable: set[tuple[int, int]] = set()
    unnumbered = False  # a row without a readable draw number: opponents naming it are not "out of range"
    r = FIRST_ROW
    while res.text(r, 2) or res.text(r, 3):
        e, pts = _read_player(res, r, n_rounds, meta, unreadable)
        unnumbered = unnumbered or e is None
        if e is not None:
            if e.number in rows:
                res.cell_problem(r, 2, "draw number {number} is used twice (also row {row})", number=e.number,
                        row=rows[e.number][0])
            else:
                rows[e.number] = (r, e)
                declared[e.number] = (r, pts)
        r += 1
    n = r - FIRST_ROW
    for num, (row, _) in rows.items():
        if not 1 <= num <= n:
            res.cell_problem(row, 2, "draw number {number} is out of range: numbers run 1..{n}", number=num, n=n)
    entrants = {num: e for num, (_, e) in rows.items()}
    col_of = {"opponent": 0, "colour": 0, "result": 0}
    for num, i, fld, message in cross_check(entrants, n):
        c = entrants[num].rounds[i]
        if (num, i) in unreadable or (c.opponent, i) in unreadable or (
                unnumbered and c.opponent not in entrants):
            continue  # follows from a cell already reported: one error, not twenty
        res.cell_problem(rows[num][0], len(LEAD) + 1 + i + col_of[fld], message)
    for num, (row, pts) in declared.items():
        if any(k == num for k, _ in unreadable):
            continue  # a row with an unreadable cell: its points cannot be checked against it
        got = score(entrants[num], t.points)
        if pts is not None and pts != got:
            res.cell_problem(row, len(LEAD) + n_rounds + 1, "积分 {points} does not match the results, which give {got}",
                    points=str(pts), got=str(got))
    _read_details(wb, fname, problems, entrants)
    if problems:
        raise InputError(problems)
    t.entrants = [entrants[k] for k in sorted(entrants)]
    return t, meta


def _read_info(info: _Sheet) -> tuple[Tournament, ReportMeta]:
    row = {k: v[0] for k, v in INFO_ROWS.items()}
    t = Tournament(
        name=info.text(row["name"], 2),
        city=info.text(row["city"], 2),
        start_date=info.date(row["dates"], 2, problem("the start date")),
        end_date=info.date(row["dates"], 3, problem("the end date")),
        time_control=info.text(row["time_control"], 2),
        chief_arbiter=info.text(row["chief_arbiter"], 2),
        deputy_arbiters=[a for a in re.split(r"[、,，]\s*", info.text(row["arbiters"], 2)) if a],
        rounds_planned=info.integer(row["rounds"], 2, "轮数"),
    )
    pts = [info.decimal(row["points"], j, "积分") for j in range(2, 6)]
    if None not in pts:
        win, draw, loss, bye = pts
        t.points = PointSystem(win=win, draw=draw, loss=loss, forfeit_win=win, forfeit_loss=loss,
                               pairing_bye=bye, half_bye=draw, full_bye=win)
    back = {v: k for k, v in FORMATS.items()}
    fmt = info.text(row["format"], 2)
    if fmt not in back and fmt not in FORMATS:
        if fmt:
            info.cell_problem(row["format"], 2, "赛制 {value!r} is not one of {known}", value=fmt, known="、".join(FORMATS.values()))
        else:
            info.cell_problem(row["format"], 2, "赛制 is blank: write one of {known}", known="、".join(FORMATS.values()))
    meta = ReportMeta(
        format=back.get(fmt, fmt if fmt in FORMATS else "swiss"),
        desk_code=info.text(DESK_CODE_ROW, 2) if info.text(DESK_CODE_ROW, 1) == DESK_CODE_LABEL else "",
        organizer=info.text(row["organizer"], 2),
        host=info.text(row["host"], 2),
        notes=info.text(row["notes"], 2),
        report_date=info.date(row["report_date"], 2, "填报日期"),
        facts=_read_facts(info),
    )
    return t, meta


def _read_facts(info: _Sheet) -> dict:
    """The facts the report declares (``FACT_ROWS``): a row with its label and a value; a bad value is a
    problem of its cell."""
    out: dict = {}
    back = {v: k for k, v in LEVELS_ZH.items()}
    for key, (row, label) in FACT_ROWS.items():
        if info.text(row, 1) != label:
            continue
        v = info.text(row, 2)
        if not v:
            continue
        if key == "organiser_level":
            if v in back or v in LEVELS_ZH:
                out[key] = back.get(v, v)
            else:
                info.cell_problem(row, 2, "{label} {value!r} is not one of {known}", label=label, value=v,
                         known="、".join(LEVELS_ZH.values()))
        elif v in (YES, NO):
            out[key] = v == YES
        else:
            info.cell_problem(row, 2, "{label}: write {yes} or {no}, found {value!r}", label=label, yes=YES, no=NO, value=v)
    return out


def _read_player(res: _Sheet, r: int, n_rounds: int, meta: ReportMeta, unreadable: set[tuple[int, int]]
                 ) -> tuple[Entrant | None, Decimal | None]:
    """One row of the results sheet. A row with a bad cell is still read whole (so the crosstable is checked
    for everything else); the rounds whose cells could not be read go into ``unreadable``."""
    number = res.integer(r, 2, problem("签号 (draw number)"), required=True)
    res.integer(r, 1, problem("名次 (rank)"))
    name = res.text(r, 3)
    if not name:
        res.cell_problem(r, 3, "{what} is missing", what=problem("姓名 (name)"))
    sex = res.text(r, 4)
    if sex not in _SEX_BACK:
        res.cell_problem(r, 4, "性别 must be 男 or 女, found {value!r}", value=sex)
    rating = res.integer(r, 8, problem("等级分 (rating)"))
    cells = []
    for k in range(n_rounds):
        col = len(LEAD) + 1 + k
        before = len(res.problems)
        cells.append(_read_cell(res, r, col, k + 1))
        if len(res.problems) > before and number is not None:
            unreadable.add((number, k))
    while cells and cells[-1] is None:
        cells.pop()
    pts_col = len(LEAD) + n_rounds + 1
    pts = res.decimal(r, pts_col, "积分") if res.text(r, pts_col) else None
    if number is None:
        return None, None
    e = Entrant(number=number, name=name, sex=_SEX_BACK.get(sex, ""), title=title_code(res.text(r, 6)), rating=rating,
                federation=res.text(r, 7), id_number=res.text(r, 5), rank=res.integer(r, 1, "名次"),
                rounds=[c or RoundCell(None, "-", "Z") for c in cells])
    rests = meta.format in ("round_robin", "double_round_robin")
    remark = res.text(r, pts_col + 1)
    withdrawn = re.search(r"第(\d+)轮后退赛", remark)
    if withdrawn:
        e.withdrawn_after = int(withdrawn[1])
    late = re.search(r"第(\d+)轮后报名", remark)
    if late:
        e.late_after = int(late[1])
    auto = auto_remarks(e, rests=rests)
    own = [part for part in remark.split("；") if part and part not in auto and not _MATCH_REMARK.match(part)]
    if own:
        meta.remarks[number] = "；".join(own)
    return e, pts


def _read_cell(res: _Sheet, r: int, col: int, rnd: int) -> RoundCell | None:
    s = res.text(r, col).replace(" ", "")
    if not s:
        return None
    if s in _BYES_BACK:
        return RoundCell(None, "-", _BYES_BACK[s])
    if s in ("+", "−", "-", "—"):
        return RoundCell(None, "-", _READ[s])
    if s in ("1*", "0*"):
        return RoundCell(None, "-", "+" if s == "1*" else "-")
    m = _CELL_RE.fullmatch(s)
    if not m:
        res.cell_problem(r, col, "round {round}: cannot read {value!r}; write e.g. 12先1, 7后½, 3先+ (or 3先1*), 轮空", round=rnd,
                value=s)
        return RoundCell(None, "-", "Z")
    result = {"1*": "+", "0*": "-"}.get(m[3] or "") or _READ[m[3] or ""]
    colour = _ROLE_BACK[m[2] or ""]
    if colour == "-" and result not in ("+", "-"):
        res.cell_problem(r, col, "round {round}: a game needs 先 or 后 (who opened), found {value!r}", round=rnd, value=s)
    return RoundCell(int(m[1]), colour, result)
