"""The hall's printouts of a Go event (围棋): the pairing list with black 黑, white 白, stones 让子 and komi 贴目,
and the standings by the event's placement criteria (麦克马洪分, 对手分 …). A4 PDF, the CJK font embedded,
laid out as ``formats.hall_pdf`` lays out the Gomoku ones (its helpers)."""

from __future__ import annotations

import io

from qiyuan.formats import hall_pdf
from qiyuan.formats.hall_pdf import _RESULT_ZH, UNPAIRED_ZH, _doc, _event_line, _styles, _table
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import CRITERIA, compute, criterion, shown, standings
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.sheets import as_of, pairing_sheet, plain
from qiyuan.tournament.state import rounds_paired


def _rank(ps: dict[int, go.GoPlayer], n: int) -> str:
    r = ps[n].rank if n in ps else None
    return "" if r is None else go.grade_words(r, "zh")


def go_pairings(t: Tournament, rnd: int) -> bytes:
    """Round ``rnd``'s pairing list: 台次, 黑方 (number, name, 段级位, 麦分), 让子, 结果, 白方."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    s, ps = go.settings(t), go.players(t)
    mms = compute(t, s, ps, upto=rnd - 1)["MMS"]
    sheet = pairing_sheet(t, rnd)
    st = _styles()
    buf = io.BytesIO()
    title = f"第 {rnd} 轮对阵表"
    doc, footer = _doc(buf, t, title)
    story = [Paragraph(t.name, st["title"]), Paragraph(f"{title}　{_event_line(t)}", st["sub"])]
    rows = [["台次", "签号", "黑方", "段级位", "麦分", "让子", "结果", "签号", "白方", "段级位", "麦分"]]
    boards = sorted(sheet.boards, key=lambda b: (-max(mms[b.opener.number], mms[b.other.number]),
                                                 -(mms[b.opener.number] + mms[b.other.number]), b.opener.number))
    for i, b in enumerate(boards, start=1):
        h = ps[b.opener.number].handicaps.get(rnd, 0) if b.opener.number in ps else 0
        rows.append([str(i), str(b.opener.number), b.opener.name, _rank(ps, b.opener.number),
                     plain(shown(mms[b.opener.number])), str(h) if h else "—", _RESULT_ZH.get(b.result, b.result),
                     str(b.other.number), b.other.name, _rank(ps, b.other.number), plain(shown(mms[b.other.number]))])
    widths = [w * mm for w in (10, 10, 37, 15, 11, 11, 15, 10, 37, 15, 11)]
    story.append(_table(rows, widths, size=11, align_left=(2, 8)))
    story.append(Paragraph(f"黑先；让子 = 黑方先摆的子数（让子局不贴目）；分先局黑贴 {plain(s.komi)} 目；"
                           f"{'中国规则（数子）' if s.rules == 'chinese' else '日本规则（数目）'}；麦分 = 本轮前的麦克马洪分",
                           st["small"]))
    if sheet.unpaired:
        story.append(Paragraph("本轮无对局", st["head"]))
        rows = [["签号", "姓名", "段级位", "麦分", "说明"]]
        rows += [[str(u.seat.number), u.seat.name, _rank(ps, u.seat.number), plain(shown(mms[u.seat.number])),
                  UNPAIRED_ZH[u.why]] for u in sheet.unpaired]
        story.append(_table(rows, [w * mm for w in (15, 45, 20, 15, 50)], align_left=(1,)))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


def go_standings(t: Tournament, after: int | None) -> bytes:
    """The standings after a round by the event's placement criteria, in Chinese (名次, 麦克马洪分, 对手分 …)."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    last = after if after is not None else rounds_paired(t)
    s, ps = go.settings(t), go.players(t)
    crit = [c for c in (criterion(x) for x in s.criteria) if c]
    rows = standings(as_of(t, last), s, ps)
    st = _styles()
    buf = io.BytesIO()
    title = f"第 {last} 轮后名次" if last else "名次"
    doc, footer = _doc(buf, t, title, landscape=True)
    story = [Paragraph(t.name, st["title"]), Paragraph(f"{title}　{_event_line(t)}", st["sub"])]
    clubs = {e.number: e.club or e.federation for e in t.entrants}
    head = ["名次", "签号", "姓名", "段级位", "单位", *(CRITERIA[c][0] for c in crit)]
    body = [[str(r.place), str(r.number), r.name, _rank(ps, r.number), clubs[r.number],
             *(plain(shown(r.values[c], c)) for c in crit)] for r in rows]
    widths = [w * mm for w in (14, 14, 40, 18, 48, *([26] * len(crit)))]
    story.append(_table([head] + body, widths, size=11, align_left=(2, 4)))
    story.append(Paragraph("名次依据：" + "，".join(f"{CRITERIA[c][0]}（{c}）" for c in crit), st["small"]))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


def go_slip_words(t: Tournament) -> hall_pdf.SlipWords:
    """A Go event's slips: 黑方/白方, 黑胜/白胜, and under the players the board's stones or komi."""
    s, ps = go.settings(t), go.players(t)

    def note(rnd: int, b) -> str:
        stones = ps[b.opener.number].handicaps.get(rnd, 0) if b.opener.number in ps else 0
        return f"让 {stones} 子（不贴目）" if stones else f"分先，黑贴 {plain(s.komi)} 目"

    return hall_pdf.SlipWords(first="黑方", second="白方", boxes=("黑胜", "白胜"),
                              signatures=("黑方签名", "白方签名", "裁判签名"), board_note=note)


def document(t: Tournament, what: str, *, round_no: int | None = None, after: int | None = None,
             alphabetical: bool = False, links: hall_pdf.SlipLink | None = None) -> bytes:
    """``hall_pdf.document``, with a Go event's pairing list and standings in Go's words."""
    if go.is_go(t) and what == "slips":
        hall_pdf.document(t, what, round_no=round_no)  # its checks of the round
        return hall_pdf._slips(t, pairing_sheet(t, round_no or rounds_paired(t)), links, go_slip_words(t))
    if go.is_go(t) and what in ("pairings", "standings"):
        hall_pdf.document(t, what, round_no=round_no, after=after)  # its checks of the round and --after
        return go_pairings(t, round_no or rounds_paired(t)) if what == "pairings" else go_standings(t, after)
    return hall_pdf.document(t, what, round_no=round_no, after=after, alphabetical=alphabetical, links=links)
