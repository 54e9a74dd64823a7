"""The hall's printouts of a Go event (围棋): the pairing list with black 黑, white 白, stones 让子 and komi 贴目,
and the standings by the event's placement criteria (麦克马洪分, 对手分 …). A4 PDF, the CJK font embedded,
laid out as ``formats.hall_pdf`` lays out the Gomoku ones (its helpers)."""

from __future__ import annotations

import io

from qiyuan.formats import hall_pdf
from qiyuan.formats.hall_pdf import _RESULT_ZH, UNPAIRED_ZH, _doc, _event_line, _styles, _table
from qiyuan.formats.report_xlsx import _GO_ROLE, cell_text
from qiyuan.people.pinyin import sort_key
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import CRITERIA, compute, criterion, pairing_scores, shown, standings
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.sheets import as_of, pairing_sheet, plain
from qiyuan.tournament.state import rounds_paired


def _rank(ps: dict[int, go.GoPlayer], n: int) -> str:
    r = ps[n].rank if n in ps else None
    return "" if r is None else go.grade_words(r, "zh")


def go_pairings(t: Tournament, rnd: int, alphabetical: bool = False) -> bytes:
    """Round ``rnd``'s pairing list: 台次, 黑方 (number, name, 段级位, 麦分), 让子, 结果, 白方; with ``alphabetical``
    a second list follows, every player by his name's pinyin (``people.pinyin.sort_key``: surnames read as
    surnames) with his board, colour, opponent and stones — the notice board's: find your name, read your board."""
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, Paragraph

    s, ps = go.settings(t), go.players(t)
    mms = compute(t, s, ps, upto=rnd - 1)["MMS"]
    sheet = pairing_sheet(t, rnd)
    st = _styles()
    buf = io.BytesIO()
    title = f"第 {rnd} 轮对阵表"
    doc, footer = _doc(buf, t, title)
    story = [Paragraph(t.name, st["title"]), Paragraph(f"{title}　{_event_line(t)}", st["sub"])]
    rows = [["台次", "签号", "黑方", "段级位", "麦分", "让子", "结果", "签号", "白方", "段级位", "麦分"]]
    for b in sheet.boards:  # numbered as the pairing numbered them (``go_tiebreaks.board_key``)
        i = b.board
        h = go.board_terms(s, ps, rnd, b.opener.number).stones
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
    if alphabetical:
        story += [PageBreak(), Paragraph(t.name, st["title"]), Paragraph(f"{title}（按姓名拼音排列）", st["sub"])]
        entries = []
        for b in sheet.boards:
            h = go.board_terms(s, ps, rnd, b.opener.number).stones
            stones = f"让 {h} 子" if h else "分先"
            entries.append((b.opener, str(b.board), "黑", f"{b.other.number} {b.other.name}", stones))
            entries.append((b.other, str(b.board), "白", f"{b.opener.number} {b.opener.name}", stones))
        entries += [(u.seat, "", "", UNPAIRED_ZH[u.why], "") for u in sheet.unpaired]
        entries.sort(key=lambda x: sort_key(x[0].name))
        rows = [["姓名", "签号", "台次", "执", "对手", "让子", "麦分"]]
        rows += [[p.name, str(p.number), board, colour, other, stones, plain(shown(mms[p.number]))]
                 for p, board, colour, other, stones in entries]
        story.append(_table(rows, [w * mm for w in (40, 13, 13, 11, 62, 20, 13)], align_left=(0, 4)))
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


def go_crosstable(t: Tournament) -> bytes:
    """The crosstable in Go's words: each round ``12黑1`` (opponent 12, black, won), then the wins, the first
    placement criterion (the McMahon score) and the place by the event's criteria."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph

    n = rounds_paired(t)
    t = as_of(t, n)  # a next round's excuse already entered is not shown yet
    s, ps = go.settings(t), go.players(t)
    crit = [c for c in (criterion(x) for x in s.criteria) if c] or ["MMS"]
    places = {r.number: r.place for r in standings(t, s, ps)}
    values = compute(t, s, ps)
    st = _styles()
    buf = io.BytesIO()
    doc, footer = _doc(buf, t, "交叉表", landscape=True)
    story = [Paragraph(t.name, st["title"]), Paragraph(f"交叉表（{n} 轮）　{_event_line(t)}", st["sub"])]
    table = [["签号", "姓名", "段级位", *[f"第{r}轮" for r in range(1, n + 1)], "胜局", CRITERIA[crit[0]][0], "名次"]]
    for e in t.entrants:
        cells = [cell_text(c, roles=_GO_ROLE) for c in e.rounds] + [""] * (n - len(e.rounds))
        first = values[crit[0]].get(e.number) if crit[0] in values else None
        table.append([str(e.number), e.name + ("（退赛）" if e.withdrawn_after is not None else ""),
                      _rank(ps, e.number), *cells, plain(shown(values["NBW"][e.number])),
                      "" if first is None else plain(shown(first)), str(places.get(e.number, ""))])
    cell = max(10 * mm, min(22 * mm, (273 * mm - (13 + 40 + 16 + 13 + 22 + 13) * mm) / max(n, 1)))
    widths = [13 * mm, 40 * mm, 16 * mm, *([cell] * n), 13 * mm, 22 * mm, 13 * mm]
    story.append(_table(table, widths, size=11 if cell >= 16 * mm else 9 if cell >= 12 * mm else 7.5,
                        align_left=(1,)))
    story.append(Paragraph("12黑1：对手签号 12，本方执黑（先行），胜；白 = 执白；½ 和棋，0 负；+ / − 未对弈判胜 / 判负；"
                           "轮空 编排轮空；请假½ / 请假1 请假计半分 / 全分；缺席 计 0 分；让子与贴目见各轮对阵表", st["small"]))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


def go_slip_words(t: Tournament) -> hall_pdf.SlipWords:
    """A Go event's slips: 黑方/白方, 黑胜/白胜 (和棋 too where the game's komi allows a jigo: a whole komi, or
    none in a handicap game), and under the players the board's stones or komi."""
    s, ps = go.settings(t), go.players(t)

    def note(rnd: int, b) -> str:
        terms = go.board_terms(s, ps, rnd, b.opener.number)
        return f"让 {terms.stones} 子（不贴目）" if terms.stones else f"分先，黑贴 {plain(s.komi)} 目"

    def boxes(rnd: int, b) -> tuple[str, ...]:
        return ("黑胜", "和棋", "白胜") if go.board_terms(s, ps, rnd, b.opener.number).jigo else ("黑胜", "白胜")

    known: dict[int, dict[int, int]] = {}

    def seat_line(rnd: int, seat) -> str:  # the McMahon score before the round (wins in a Go Swiss), the rank
        if rnd not in known:
            known[rnd] = pairing_scores(t, s, ps, rnd)
        scores = known[rnd]
        name = "胜局" if go.is_go_swiss(t) else "麦分"
        return f"{name} {plain(shown(scores[seat.number]))}　{_rank(ps, seat.number) or '—'}"

    return hall_pdf.SlipWords(first="黑方", second="白方", boxes=("黑胜", "白胜"),
                              signatures=("黑方签名", "白方签名", "裁判签名"), board_note=note, board_boxes=boxes,
                              seat_line=seat_line)


def document(t: Tournament, what: str, *, round_no: int | None = None, after: int | None = None,
             alphabetical: bool = False, links: hall_pdf.SlipLink | None = None) -> bytes:
    """``hall_pdf.document``, with a Go event's pairing list and standings in Go's words."""
    if go.is_go(t) and what == "slips":
        hall_pdf.document(t, what, round_no=round_no)  # its checks of the round
        return hall_pdf._slips(t, pairing_sheet(t, round_no or rounds_paired(t)), links, go_slip_words(t))
    if go.is_go(t) and what == "crosstable":
        hall_pdf.font_name()  # the CJK font registered
        return go_crosstable(t)
    if go.is_go(t) and what in ("pairings", "standings"):
        hall_pdf.document(t, what, round_no=round_no, after=after)  # its checks of the round and --after
        return go_pairings(t, round_no or rounds_paired(t), alphabetical) if what == "pairings" \
            else go_standings(t, after)
    return hall_pdf.document(t, what, round_no=round_no, after=after, alphabetical=alphabetical, links=links)
