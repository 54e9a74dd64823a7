"""Printouts for the tournament hall (赛场张贴): A4 PDF, legible at arm's length.

* ``entries`` — the entry list (参赛名单): draw number, name, sex, grade, association,
  rating, and how the numbers were drawn (never an ID number);
* ``schedule`` — a round robin's schedule of all rounds before round 1 (赛程表): per round
  every board, who opens (先) and who rests;
* ``pairings`` — a round's pairing list by board (台次): each player's draw number, name,
  score before the round, rating, who opens (先), the result once entered; then the
  players without a game and why.  With ``alphabetical`` a second list follows, by name
  in pinyin order (for the notice board: find your name, read your board);
* ``slips`` — result slips to cut (one per board, eight to a page): event, round, board,
  both players, boxes for the result and lines for both players' and the arbiter's
  signatures;
* ``standings`` — the standings after any round with the tie-breaks 辅分一…七, and each
  prize category ranked on its own;
* ``crosstable`` — the wall chart (交叉表), A4 landscape: per player every round's
  opponent, role and result, the score and the place.

The CJK font is embedded (a subset: only the characters used; ``formats.pdf_font``), so the
PDF reads the same on any machine.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from qiyuan.errors import InputError, problem
from qiyuan.formats.hall_qr import draw_qr, player_cards
from qiyuan.formats.pdf_font import FONT, font_name
from qiyuan.formats.report_xlsx import cell_text, knockout_marks, title_text
from qiyuan.people.pinyin import sort_key
from qiyuan.tournament import categories as cat
from qiyuan.tournament.berger import berger_rounds, resting_player
from qiyuan.tournament.knockout import (bracket_rounds, knockout_places, knockout_reached, mini_match_rule_zh,
                                        played_matches)
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.scoring import score
from qiyuan.tournament.sheets import (UNPAIRED, PairingSheet, as_of, pairing_sheet, plain, rounds_with_cells,
                                     shown_names, team_match_rows)
from qiyuan.tournament.standings import ROUND_ROBIN_TIEBREAKS, final_places, standings, tiebreak_names
from qiyuan.tournament.state import rounds_paired
from qiyuan.tournament.systems import event_format, system_of
from qiyuan.tournament.teams import team_matches, team_standings

WHATS = ("entries", "schedule", "pairings", "slips", "standings", "crosstable", "bracket", "cards")

#: why a player has no game, as the hall reads it
UNPAIRED_ZH = {"U": "轮空（计胜）", "H": "请假（计半分）", "F": "请假（计全分）", "Z": "缺席", "withdrawn": "退赛",
               "out": "淘汰", "waiting": "待赛（已晋级）"}
assert set(UNPAIRED_ZH) == set(UNPAIRED)
_RESULT_ZH = {"": "", "1-0": "1 : 0", "0-1": "0 : 1", "½-½": "½ : ½", "+-": "+ : −", "-+": "− : +", "--": "− : −",
              "++": "1 : 1", "0-0": "0 : 0"}


#: a player's personal link (his credential) for the QR code on his half of a slip and on his entry card:
#: his draw number → URL
SlipLink = Callable[[int], str]


def document(t: Tournament, what: str, *, round_no: int | None = None, after: int | None = None,
             alphabetical: bool = False, links: SlipLink | None = None) -> bytes:
    """The PDF of one printout (``what``: pairings, slips, standings, crosstable, cards); ``links``: each
    player's personal link — on his half of each slip and on his entry card (``cards``, which need them),
    where his phone reports his results and checks him in."""
    faults = []
    if what not in WHATS:
        faults.append(problem("unknown printout {what!r}: choose one of {choices}", what=what,
                              choices=", ".join(WHATS)))
    paired = rounds_paired(t)
    if what in ("pairings", "slips"):
        rnd = round_no or paired
        if not 1 <= rnd <= max(paired, rounds_with_cells(t)):
            faults.append(problem("round {round} is not paired ({paired} rounds are)", round=rnd, paired=paired))
    if what in ("schedule", "bracket"):
        system = system_of(t)
        if not (system.round_robin if what == "schedule" else system.bracket):
            faults.append(problem("{what} is printed for a {kind}; this event is {format}", what=what,
                                  kind="round robin" if what == "schedule" else "knock-out", format=event_format(t)))
        elif len(t.entrants) < 2:
            faults.append(problem("{what}: enter at least 2 players first", what=what))
    if what == "cards" and links is None:
        faults.append(problem("cards carry each player's personal link: give the hall's address (--hall-url)"))
    if after is not None and not 0 <= after <= rounds_with_cells(t):
        faults.append(problem("--after {after}: the event has rounds 1..{last}", after=after,
                              last=rounds_with_cells(t)))
    if faults:
        raise InputError(faults)
    font_name()
    if what == "entries":
        return _entries(t)
    if what == "cards":
        return player_cards(t, links)
    if what == "schedule":
        return _schedule(t)
    if what == "bracket":
        return _bracket(t)
    if what == "pairings":
        return _pairings(t, pairing_sheet(t, rnd), alphabetical)
    if what == "slips":
        return _slips(t, pairing_sheet(t, rnd), links)
    if what == "standings":
        return _standings(t, after)
    return _crosstable(t)


# -- layout helpers -------------------------------------------------------------------------------------


def _styles():
    from reportlab.lib.styles import ParagraphStyle

    return {
        "title": ParagraphStyle("title", fontName=FONT, fontSize=18, leading=24, spaceAfter=4),
        "sub": ParagraphStyle("sub", fontName=FONT, fontSize=12, leading=16, spaceAfter=8),
        "head": ParagraphStyle("head", fontName=FONT, fontSize=14, leading=20, spaceBefore=10, spaceAfter=4),
        "small": ParagraphStyle("small", fontName=FONT, fontSize=9, leading=12),
    }


def _doc(buf: io.BytesIO, t: Tournament, title: str, *, landscape: bool = False):
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.pagesizes import landscape as turned
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate

    size = turned(A4) if landscape else A4

    def footer(canvas, doc):
        canvas.saveState()
        canvas.setFont(FONT, 8)
        canvas.drawString(12 * mm, 8 * mm, f"{t.name} · {title}")
        canvas.drawRightString(size[0] - 12 * mm, 8 * mm, f"第 {doc.page} 页")
        canvas.restoreState()

    doc = SimpleDocTemplate(buf, pagesize=size, leftMargin=12 * mm, rightMargin=12 * mm, topMargin=12 * mm,
                            bottomMargin=14 * mm, title=f"{t.name} {title}", author="qiyuan",
                            initialFontName=FONT)
    return doc, footer


def _table(rows: list[list[str]], widths: list[float], *, size: float = 12, head_rows: int = 1,
           align_left: tuple[int, ...] = ()):
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    table = Table(rows, colWidths=widths, repeatRows=head_rows)
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, size),
        ("LEADING", (0, 0), (-1, -1), size * 1.25),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("BACKGROUND", (0, 0), (-1, head_rows - 1), colors.Color(0.88, 0.88, 0.88)),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    for col in align_left:
        style.append(("ALIGN", (col, head_rows), (col, -1), "LEFT"))
    for i in range(head_rows, len(rows)):
        if (i - head_rows) % 2:
            style.append(("BACKGROUND", (0, i), (-1, i), colors.Color(0.96, 0.96, 0.96)))
    table.setStyle(TableStyle(style))
    return table


def round_date(t: Tournament, rnd: int) -> date | None:
    """The day round ``rnd`` is played: the file's record of it (TRF line 132, written when the round is
    paired), else the event's one day; None when neither says."""
    dates = t.round_dates
    if 1 <= rnd <= len(dates) and dates[rnd - 1].strip():
        m = re.fullmatch(r"(\d{2}|\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", dates[rnd - 1].strip())
        if m:
            year = int(m[1]) + (2000 if len(m[1]) == 2 else 0)
            try:
                return date(year, int(m[2]), int(m[3]))
            except ValueError:
                return None
    if t.start_date and (t.end_date is None or t.end_date == t.start_date):
        return t.start_date
    return None


def event_line(t: Tournament, rnd: int | None = None) -> str:
    """The line under a sheet's title: the city, the round and its day (the event's dates on a sheet of no one
    round), the chief arbiter."""
    if rnd:
        day = round_date(t, rnd)
        when = f"第 {rnd} 轮 {day.isoformat()}" if day else f"第 {rnd} 轮"
    else:
        when = t.start_date.isoformat() if t.start_date else ""
        if t.start_date and t.end_date and t.end_date != t.start_date:
            when += f" 至 {t.end_date.isoformat()}"
    parts = [t.city, when, f"裁判长 {t.chief_arbiter}" if t.chief_arbiter else ""]
    return " · ".join(p for p in parts if p)


def _event_line(t: Tournament, rnd: int | None = None) -> str:
    return event_line(t, rnd)


def _rating(r: int | None) -> str:
    return "" if r is None else str(r)


# -- pairing lists -------------------------------------------------------------------------------------


def pinyin_key(name: str) -> tuple[str, str]:
    """Sort key of a name by its pinyin (拼音顺序), surname read as a surname, then by the characters
    (``people.pinyin.sort_key``)."""
    return sort_key(name)


def _pairings(t: Tournament, sheet: PairingSheet, alphabetical: bool) -> bytes:
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, Paragraph

    st = _styles()
    buf = io.BytesIO()
    title = f"第 {sheet.round} 轮对阵表"
    doc, footer = _doc(buf, t, title)
    story = [Paragraph(t.name, st["title"]), Paragraph(f"{title}　{_event_line(t, sheet.round)}", st["sub"])]
    head = ["台次", "签号", "先手（假先）", "积分", "等级分", "结果", "签号", "后手", "积分", "等级分"]

    def board_row(k: int, b) -> list[str]:
        return [str(k), str(b.opener.number), b.opener.name, plain(b.opener.score), _rating(b.opener.rating),
                _RESULT_ZH.get(b.result, b.result), str(b.other.number), b.other.name, plain(b.other.score),
                _rating(b.other.rating)]

    widths = [w * mm for w in (13, 13, 38, 13, 17, 20, 13, 38, 13, 17)]
    matches = team_match_rows(t, sheet)  # a team event: each match under its heading, 北京队 – 上海队
    for m in matches:
        story += [Paragraph(f"{m.home} – {m.away}", st["head"]),
                  _table([head] + [board_row(k, b) for k, b in enumerate(m.boards, 1)], widths, align_left=(2, 7))]
    if not matches:
        story.append(_table([head] + [board_row(b.board, b) for b in sheet.boards], widths, align_left=(2, 7)))
    if not sheet.boards or all(b.known_opener for b in sheet.boards):
        story.append(Paragraph("先手 = 假先，先行；积分 = 本轮前积分", st["small"]))
    if sheet.unpaired:
        story.append(Paragraph("本轮无对局", st["head"]))
        rows = [["签号", "姓名", "积分", "等级分", "说明"]]
        rows += [[str(u.seat.number), u.seat.name, plain(u.seat.score), _rating(u.seat.rating),
                  UNPAIRED_ZH[u.why]] for u in sheet.unpaired]
        story.append(_table(rows, [w * mm for w in (15, 45, 15, 20, 50)], align_left=(1,)))
    if alphabetical:
        story += [PageBreak(), Paragraph(t.name, st["title"]),
                  Paragraph(f"第 {sheet.round} 轮对阵表（按姓名拼音排列）", st["sub"])]
        entries = []
        for b in sheet.boards:
            entries.append((b.opener, str(b.board), "先", f"{b.other.number} {b.other.name}"))
            entries.append((b.other, str(b.board), "后", f"{b.opener.number} {b.opener.name}"))
        entries += [(u.seat, "", "", UNPAIRED_ZH[u.why]) for u in sheet.unpaired]
        entries.sort(key=lambda x: pinyin_key(x[0].name))
        rows = [["姓名", "签号", "台次", "先/后", "对手", "积分"]]
        rows += [[s.name, str(s.number), board, role, other, plain(s.score)] for s, board, role, other in entries]
        story.append(_table(rows, [w * mm for w in (42, 15, 15, 15, 72, 16)], align_left=(0, 4)))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


# -- result slips --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SlipWords:
    """What a result slip calls the two players and the results: Gomoku's 先手/后手, Go's 黑方/白方 (with the
    board's stones or komi under the players)."""

    first: str = "先手"
    second: str = "后手"
    boxes: tuple[str, ...] = ("先手胜", "和棋", "后手胜")
    signatures: tuple[str, ...] = ("先手签名", "后手签名", "裁判签名")
    board_note: Callable[[int, object], str] | None = None  # (round, board row) → a line under the players
    #: (round, board row) → the board's result boxes, when they differ by board (a Go jigo only where komi allows)
    board_boxes: Callable[[int, object], tuple[str, ...]] | None = None
    #: (round, seat) → what the slip says beside a player's name (Gomoku: his score and rating)
    seat_line: Callable[[int, object], str] | None = None


GOMOKU_SLIP = SlipWords()


def _slips(t: Tournament, sheet: PairingSheet, links: SlipLink | None = None,
           words: SlipWords = GOMOKU_SLIP) -> bytes:
    """Eight slips to an A4 page (2 × 4), cut along the dashed lines."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, initialFontName=FONT)
    c.setTitle(f"{t.name} 第 {sheet.round} 轮记录单")
    width, height = A4
    cols, rows_per_page = 2, 4
    w, h = width / cols, height / rows_per_page
    for i, b in enumerate(sheet.boards):
        k = i % (cols * rows_per_page)
        if i and k == 0:
            c.showPage()
        if k == 0:
            _cut_lines(c, width, height, cols, rows_per_page)
        x0 = (k % cols) * w
        y0 = height - (k // cols + 1) * h
        own = (links(b.opener.number), links(b.other.number)) if links else None
        _slip(c, t, sheet.round, b, x0 + 6 * mm, y0 + 6 * mm, w - 12 * mm, h - 12 * mm, own, words)
    if not sheet.boards:
        c.setFont(FONT, 14)
        c.drawString(20 * mm, height - 30 * mm, f"{t.name} 第 {sheet.round} 轮：没有对局")
    c.save()
    return buf.getvalue()


def _cut_lines(c, width: float, height: float, cols: int, rows: int) -> None:
    c.saveState()
    c.setDash(4, 4)
    c.setLineWidth(0.4)
    for j in range(1, cols):
        c.line(width * j / cols, 0, width * j / cols, height)
    for j in range(1, rows):
        c.line(0, height * j / rows, width, height * j / rows)
    c.restoreState()


def _slip(c, t: Tournament, rnd: int, b, x: float, y: float, w: float, h: float,
          links: tuple[str, str] | None = None, words: SlipWords = GOMOKU_SLIP) -> None:
    from reportlab.lib.units import mm

    top = y + h
    qr = 17 * mm if links else 0
    room = 2 * qr + 2 * mm if links else 0
    c.setFont(FONT, 9)
    c.drawString(x, top - 4 * mm, _fit(t.name, 9, w - room))
    c.setFont(FONT, 15)
    day = round_date(t, rnd)
    c.drawString(x, top - 12 * mm, f"第 {rnd} 轮　第 {b.board} 台" + (f"　{day.isoformat()}" if day else ""))
    c.setFont(FONT, 9)
    c.drawString(x, top - 17 * mm, "各扫本人的码报分" if links else "对局记录单")
    if links:  # each player's own code on his half: his phone reports, the other player's confirms
        for k, (seat, link) in enumerate(zip((b.opener, b.other), links)):
            qx = x + w - (2 - k) * qr - (1 - k) * 2 * mm
            draw_qr(c, link, qx, top - qr + 1 * mm, qr)
            c.setFont(FONT, 7)
            c.drawCentredString(qx + qr / 2, top - qr - 1 * mm, f"{seat.number} 号本人")
    line_y = top - 22 * mm
    for label, seat in ((words.first, b.opener), (words.second, b.other)):
        c.setFont(FONT, 10)
        c.drawString(x, line_y, label)
        c.setFont(FONT, 14)
        c.drawString(x + 11 * mm, line_y, _fit(f"{seat.number}  {seat.name}", 14, w - 40 * mm))
        c.setFont(FONT, 9)
        c.drawRightString(x + w, line_y, words.seat_line(rnd, seat) if words.seat_line else
                          f"积分 {plain(seat.score)}　等级分 {_rating(seat.rating) or '—'}")
        line_y -= 9 * mm
    note = words.board_note(rnd, b) if words.board_note else ""
    if note:
        c.setFont(FONT, 9)
        c.drawString(x, line_y + 2 * mm, note)
        line_y -= 4 * mm
    c.setFont(FONT, 11)
    boxes = list(words.board_boxes(rnd, b) if words.board_boxes else words.boxes)
    bx = x
    for label in boxes:
        c.rect(bx, line_y - 1 * mm, 4.5 * mm, 4.5 * mm)
        c.drawString(bx + 6.5 * mm, line_y, label)
        bx += w / 3
    line_y -= 13 * mm
    c.setFont(FONT, 9)
    third = w / 3
    for j, who in enumerate(words.signatures):
        lx = x + j * third
        c.line(lx, line_y, lx + third - 4 * mm, line_y)
        c.drawString(lx, line_y - 4 * mm, who)


def _fit(text: str, size: float, width: float) -> str:
    """``text`` cut (with …) to fit ``width`` points at ``size``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if stringWidth(text, FONT, size) <= width:
        return text
    while text and stringWidth(text + "…", FONT, size) > width:
        text = text[:-1]
    return text + "…"


# -- standings ------------------------------------------------------------------------------------------


def _standings(t: Tournament, after: int | None) -> bytes:
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    last = after if after is not None else rounds_paired(t)
    shown = as_of(t, last)
    st = _styles()
    buf = io.BytesIO()
    title = f"第 {last} 轮后名次" if last else "名次"
    doc, footer = _doc(buf, t, title, landscape=True)
    story = [Paragraph(t.name, st["title"]), Paragraph(f"{title}　{_event_line(t, last or None)}", st["sub"])]
    ranking = system_of(t).ranking
    rows = standings(shown)
    by = {e.number: e for e in shown.entrants}
    names = tiebreak_names(t)
    head = ["名次", "签号", "姓名", "所属单位", "等级分", "积分", *names]
    widths = [w * mm for w in (14, 14, 36, 48, 17, 15, *([19 * 7 / len(names)] * len(names)))]

    shown_as = shown_names(shown)  # players of the same name told apart

    def line(place: int, r) -> list[str]:
        e = by[r.number]
        name = shown_as[r.number] + (f"（第{e.withdrawn_after}轮后退赛）" if e.withdrawn_after is not None else "")
        return [f"{place}*" if r.decision else str(place), str(r.number), _fit(name, 11, 35 * mm),
                _fit(e.federation, 10, 46 * mm), _rating(e.rating), plain(r.score), *[plain(x) for x in r.tiebreaks]]

    if ranking == "bracket":  # placed by the round reached, no Swiss tie-breaks; then the mini-matches' scores
        story += _knockout_places(shown, st) + _mini_match_scores(t, shown, rows, by, st)
        doc.build(story, onFirstPage=footer, onLaterPages=footer)
        return buf.getvalue()
    if ranking == "teams":  # the teams by match points, then board points; their matches; then the boards' players
        story += _team_places(shown, st)
        story.append(Paragraph("各台棋手（积分与辅分）", st["head"]))
    elif ranking != "standings":
        story.append(Paragraph("此赛制的名次见成绩表（对抗赛不用辅分）；下表为积分与辅分。", st["small"]))
    if names == ROUND_ROBIN_TIEBREAKS:
        story.append(Paragraph("循环赛名次：积分，再依次比直胜（同分者之间的积分）、胜局数、索分（所胜对手积分 + 所和对手积分之半），"
                               "仍相同者加赛或抽签。", st["small"]))
    story.append(_table([head] + [line(r.rank, r) for r in rows], widths, size=11, align_left=(2, 3)))
    story += [Paragraph(x, st["small"]) for x in decision_notes(rows)]
    story += _mini_match_scores(t, shown, rows, by, st)
    for c in cat.categories(t):
        story.append(Paragraph(c.label(), st["head"]))
        ranked = cat.ranked(shown, c, rows)
        if ranked:
            story.append(_table([head] + [line(place, r) for place, r in ranked], widths, size=11,
                                align_left=(2, 3)))
        else:
            story.append(Paragraph("（无）", st["small"]))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


#: how far a knock-out's player got, as the sheets say it (``knockout.REACHED``)
_REACHED_ZH = {"winner": "冠军", "final": "决赛", "semi-final": "半决赛", "quarter-final": "四分之一决赛",
               "round {round}": "第 {round} 轮", "{reached} (still in)": "{reached}（仍在赛）"}


def _mini_match_scores(t: Tournament, shown: Tournament, rows, by, st) -> list:
    """A knock-out of mini-matches: each player's match scores (none for other events)."""
    from reportlab.platypus import Paragraph

    rule = mini_match_rule_zh(t)
    if not rule:
        return []
    played = played_matches(shown)
    return [Paragraph(f"小场比分（{rule}）：", st["small"])] + [
        Paragraph(f"{r.number} {by[r.number].name}：" + "；".join(m.text_zh() for m in played[r.number]), st["small"])
        for r in rows if played.get(r.number)]


def _knockout_places(t: Tournament, st) -> list:
    """A knock-out's standings: the place by the round reached (losers of one round share it), no tie-breaks."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    places, reached = knockout_places(t), knockout_reached(t, lambda s: _REACHED_ZH.get(s, s))
    names = shown_names(t)
    order = sorted(t.entrants, key=lambda e: (places[e.number], e.number))
    rows = [["名次", "签号", "姓名", "所属单位", "等级分", "积分", "止步"]]
    rows += [[str(places[e.number]), str(e.number), _fit(names[e.number], 11, 44 * mm), _fit(e.federation, 10, 46 * mm),
              _rating(e.rating), plain(score(e, t.points)), reached[e.number]] for e in order]
    return [Paragraph("单淘汰：按止步的轮次排名（同轮负者名次并列），不用辅分", st["small"]),
            _table(rows, [w * mm for w in (15, 15, 46, 48, 18, 15, 40)], size=11, align_left=(2, 3, 6))]


def _team_places(t: Tournament, st) -> list:
    """A team event's standings as the report's 团体成绩 sheet: by 场分 (胜 2、和 1、负 0), then 局分; then the team
    table (团体交叉表): each match's 局分 by round."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    ranked = team_standings(t)
    rows = [["名次", "队号", "队名", "场分", "局分", "胜", "和", "负"]]
    rows += [[str(r.rank), str(r.team.number), _fit(r.team.name, 11, 56 * mm), str(r.match_points),
              plain(r.board_points), str(r.won), str(r.drawn), str(r.lost)] for r in ranked]
    out = [Paragraph("团体名次：场分（胜 2、和 1、负 0），同场分比局分", st["small"]),
           _table(rows, [w * mm for w in (15, 15, 58, 18, 18, 14, 14, 14)], size=11, align_left=(2,))]
    order = [r.team for r in sorted(ranked, key=lambda r: r.team.number)]
    cells = {}
    for rnd, a, b, pa, pb in team_matches(t):
        cells.setdefault((a.number, b.number), []).append(f"{plain(pa)}:{plain(pb)}")
        cells.setdefault((b.number, a.number), []).append(f"{plain(pb)}:{plain(pa)}")
    grid = [["队号", "队名"] + [str(x.number) for x in order] + ["场分", "局分"]]
    standing = {r.team.number: r for r in ranked}
    for x in order:
        grid.append([str(x.number), _fit(x.name, 10, 40 * mm)]
                    + ["×" if x.number == y.number else " ".join(cells.get((x.number, y.number), [])) for y in order]
                    + [str(standing[x.number].match_points), plain(standing[x.number].board_points)])
    side = max(12.0, min(24.0, 160 / max(1, len(order))))
    out += [Paragraph("团体交叉表（局分，本队在前）", st["head"]),
            _table(grid, [w * mm for w in (13, 42, *([side] * len(order)), 15, 15)], size=10, align_left=(1,))]
    return out


def decision_notes(rows) -> list[str]:
    """Per tied group placed by a play-off or lot: its places, players in order, and how (``*`` in the table)."""
    seen, out = [], []
    for r in rows:
        d = r.decision
        if d is None or d in seen:
            continue
        seen.append(d)
        group = sorted((x for x in rows if x.decision == d), key=lambda x: x.rank)
        out.append(f"* 第{group[0].rank}至{group[-1].rank}名同分，{d.how_zh()}：" + "、".join(
            f"{x.number} {x.name}（第{x.rank}名）" for x in group))
    return out


# -- entry list ----------------------------------------------------------------------------------------


def _draw_text(t: Tournament) -> str:
    how = (t.extra.get("XQD") or [""])[0].split()
    if how[:2] == ["lot", "seed"] and len(how) == 3:
        return f"签号由抽签决定（随机种子 {how[2]}，可复核）"
    if how[:1] == ["given"]:
        return "签号按裁判长给定的顺序"
    return "签号按报名顺序（尚未抽签）"


def _entries(t: Tournament) -> bytes:
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    st = _styles()
    buf = io.BytesIO()
    doc, footer = _doc(buf, t, "参赛名单")
    sexes = {"m": "男", "w": "女"}
    story = [Paragraph(t.name, st["title"]),
             Paragraph(f"参赛名单（{len(t.entrants)} 人）　{_event_line(t)}", st["sub"]),
             Paragraph(_draw_text(t), st["small"])]
    rows = [["签号", "姓名", "性别", "段级位", "所属棋协", "等级分"]]
    for e in t.entrants:
        name = e.name + ("（退赛）" if e.withdrawn_after is not None else "")
        rows.append([str(e.number), name, sexes.get(e.sex, ""), title_text(e.title),
                     _fit(e.federation, 12, 58 * mm), _rating(e.rating)])
    story.append(_table(rows, [w * mm for w in (16, 48, 16, 22, 62, 22)], size=12, align_left=(1, 4)))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


# -- round-robin schedule ------------------------------------------------------------------------------


def _schedule(t: Tournament) -> bytes:
    from reportlab.lib.units import mm
    from reportlab.platypus import KeepTogether, Paragraph

    st = _styles()
    buf = io.BytesIO()
    doc, footer = _doc(buf, t, "赛程表")
    n = len(t.entrants)
    double = system_of(t).cycles == 2
    table = berger_rounds(n, double=double)
    by = {e.number: e for e in t.entrants}
    kind = "双循环" if double else "单循环"
    story = [Paragraph(t.name, st["title"]),
             Paragraph(f"赛程表（{kind}，{n} 人，{len(table)} 轮，贝格尔编排）　{_event_line(t)}", st["sub"]),
             Paragraph("每台先列者先手（假先）。" + ("人数为奇数：每轮一人轮休，计 0 分。" if n % 2 else ""), st["small"])]
    dates = t.round_dates
    for r, games in enumerate(table, 1):
        when = f"　{dates[r - 1]}" if r - 1 < len(dates) and dates[r - 1].strip() else ""
        rows = [["台次", "先手", "", "后手", ""]]
        for k, (a, b) in enumerate(games, 1):
            rows.append([str(k), str(a), _fit(by[a].name, 12, 58 * mm), str(b), _fit(by[b].name, 12, 58 * mm)])
        rest = resting_player(n, games)
        block = [Paragraph(f"第 {r} 轮{when}", st["head"]),
                 _table(rows, [w * mm for w in (16, 16, 60, 16, 60)], size=12, align_left=(2, 4))]
        if rest is not None:
            block.append(Paragraph(f"轮休：{rest} {by[rest].name}", st["small"]))
        story.append(KeepTogether(block))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


# -- knock-out bracket -----------------------------------------------------------------------------------


def _bracket(t: Tournament) -> bytes:
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.units import mm

    buf = io.BytesIO()
    rounds = bracket_rounds(t)
    size = landscape(A4)
    doc, footer = _doc(buf, t, "对阵图", landscape=True)

    def draw(c, _doc) -> None:
        footer(c, _doc)
        c.setFont(FONT, 16)
        c.drawString(12 * mm, size[1] - 16 * mm, t.name)
        c.setFont(FONT, 10)
        rule = mini_match_rule_zh(t)
        c.drawString(12 * mm, size[1] - 23 * mm, f"对阵图（单淘汰，{len(t.entrants)} 人，按等级分排种子，{'第一局' if rule else ''}上方先手）　{_event_line(t)}")
        if rule:  # mini-matches: the rule, the tie-break game's time control, the lots
            c.drawString(12 * mm, size[1] - 28 * mm, _fit(rule, 10, size[0] - 24 * mm))
        top, bottom = size[1] - (36 if rule else 32) * mm, 20 * mm
        cols = len(rounds) + 1
        col_w = (size[0] - 24 * mm) / cols
        slots = len(rounds[0]) * 2 if rounds else 2
        step = (top - bottom) / slots
        font = 9 if slots <= 32 else 6
        ys = [top - step * (i + 0.5) for i in range(slots)]
        for j, matches in enumerate(rounds):
            x = 12 * mm + j * col_w
            c.setFont(FONT, 10)
            c.drawString(x, top + 3 * mm, matches[0].title if matches else "")
            new_ys = []
            for k, m in enumerate(matches):
                y1, y2 = ys[2 * k], ys[2 * k + 1]
                c.setFont(FONT, font)
                for y, name, won in ((y1, m.upper, m.winner == 0), (y2, m.lower, m.winner == 1)):
                    c.setFillGray(0 if won or m.winner is None else 0.45)
                    c.drawString(x + 1 * mm, y + 1 * mm, _fit(name, font, col_w - 12 * mm))
                    c.line(x, y, x + col_w - 6 * mm, y)
                c.setFillGray(0)
                if m.score:
                    c.drawRightString(x + col_w - 7 * mm, (y1 + y2) / 2 - 1 * mm, m.score)
                c.line(x + col_w - 6 * mm, y1, x + col_w - 6 * mm, y2)
                new_ys.append((y1 + y2) / 2)
            ys = new_ys
        if rounds and rounds[-1] and rounds[-1][0].winner is not None:
            final = rounds[-1][0]
            c.setFont(FONT, 12)
            x = 12 * mm + len(rounds) * col_w
            c.drawString(x, ys[0] + 1 * mm, "冠军：" + (final.upper if final.winner == 0 else final.lower))
            c.line(x, ys[0], x + col_w - 6 * mm, ys[0])

    from reportlab.platypus import Spacer

    doc.build([Spacer(1, 1)], onFirstPage=draw, onLaterPages=draw)
    return buf.getvalue()


# -- crosstable -----------------------------------------------------------------------------------------


def _crosstable(t: Tournament) -> bytes:
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    st = _styles()
    buf = io.BytesIO()
    doc, footer = _doc(buf, t, "交叉表", landscape=True)
    n = rounds_paired(t)
    t = as_of(t, n)  # a next round's excuse already entered is not shown yet
    ranks = final_places(t) if t.entrants and n else {}
    story = [Paragraph(t.name, st["title"]), Paragraph(f"交叉表（{n} 轮）　{_event_line(t)}", st["sub"])]
    names = shown_names(t)  # players of the same name told apart
    if system_of(t).round_robin and t.entrants:
        story += _round_robin_grid(t, names, ranks, st)
    head = ["签号", "姓名", "等级分", *[f"第{r}轮" for r in range(1, n + 1)], "积分", "名次"]
    rows = [head]
    for e in t.entrants:
        marks = knockout_marks(t, e)  # a knock-out's 淘汰 (eliminated) and 待赛 (through, others play on)
        cells = [marks.get(i) or cell_text(c) for i, c in enumerate(e.rounds, 1)] + [""] * (n - len(e.rounds))
        name = names[e.number] + ("（退赛）" if e.withdrawn_after is not None else "")
        rows.append([str(e.number), name, _rating(e.rating), *cells, plain(score(e, t.points)),
                     str(ranks.get(e.number, ""))])
    usable = 273 * mm
    fixed = (13 + 40 + 16 + 14 + 13) * mm
    cell = max(10 * mm, min(22 * mm, (usable - fixed) / max(n, 1)))
    size = 11 if cell >= 16 * mm else 9 if cell >= 12 * mm else 7.5
    widths = [13 * mm, 40 * mm, 16 * mm, *([cell] * n), 14 * mm, 13 * mm]
    story.append(_table(rows, widths, size=size, align_left=(1,)))
    if t.entrants and n:
        if system_of(t).places is None:  # ranked by the standings: their play-offs and lots
            story += [Paragraph(x, st["small"]) for x in decision_notes(standings(t))]
    story.append(Paragraph("12先1：对手签号 12，本方先手（假先），胜；后 = 后手；½ 和，0 负；+ / − 未对弈判胜 / 判负；"
                           "轮空 编排轮空；请假½ / 请假1 请假计半分 / 全分；缺席 计 0 分", st["small"]))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


#: a game's result from one side, as the round-robin grid writes it
_GRID = {"1": "1", "0": "0", "=": "½", "W": "1", "L": "0", "D": "½", "+": "+", "-": "−"}


def _round_robin_grid(t: Tournament, names: dict[int, str], ranks: dict[int, int], st) -> list:
    """A round robin's square crosstable (循环赛成绩表): a row and a column per player, each cell his result
    against that opponent (a double round robin: both games), the diagonal crossed out; then the score and place."""
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, Paragraph

    met: dict[tuple[int, int], list[str]] = {}
    for e in t.entrants:
        for c in e.rounds:
            if c.opponent is not None and c.result.strip():
                met.setdefault((e.number, c.opponent), []).append(_GRID.get(c.result, c.result))
    numbers = [e.number for e in t.entrants]
    rows = [["签号", "姓名", *map(str, numbers), "积分", "名次"]]
    for e in t.entrants:
        rows.append([str(e.number), _fit(names[e.number], 10, 36 * mm),
                     *["×" if m == e.number else " ".join(met.get((e.number, m), [])) for m in numbers],
                     plain(score(e, t.points)), str(ranks.get(e.number, ""))])
    side = max(8.0, min(18.0, 200 / max(1, len(numbers))))
    size = 10 if side >= 12 else 8
    return [Paragraph("循环赛成绩表（行为本方，1 胜、½ 和、0 负）", st["head"]),
            _table(rows, [w * mm for w in (12, 38, *([side] * len(numbers)), 14, 12)], size=size, align_left=(1,)),
            PageBreak()]
