"""A Go round's pairing list as the director posts it (对阵表): board, black (黑) and white (白), handicap (让子), komi (贴目).

Beside ``tournament.sheets`` (the Gomoku wording: 先 opener): the same boards,
in Go's words, with each player's rank and McMahon score before the round.
"""

from __future__ import annotations

from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import compute, shown
from qiyuan.tournament.sheets import UNPAIRED, pad, pairing_sheet, plain, text_width
from qiyuan.tournament.model import Tournament


def go_round_table(t: Tournament, rnd: int, lang: str = "en") -> str:
    """Round ``rnd``: board, black and white (number, name, rank, MMS before the round), stones, result.

    ``lang``: ``zh`` writes the heads and ranks in Chinese (黑, 白, 让子, 贴目, 五段), ``en`` in English."""
    s, ps = go.settings(t), go.players(t)
    mms = compute(t, s, ps, upto=rnd - 1)["MMS"]
    sheet = pairing_sheet(t, rnd)
    width = max([text_width(e.name) for e in t.entrants] + [4])
    zh = lang == "zh"

    def seat(n: int, name: str) -> str:
        r = ps[n].rank
        rank = "" if r is None else go.grade_words(r, lang)
        return f"{n:>4} {pad(name, width)} {pad(rank, 8)} {plain(shown(mms[n])):>5}"

    komi = plain(s.komi)
    if zh:
        lines = [f"第{rnd}轮  （黑先；让子：黑方先摆的子数；平手贴目{komi}；麦分 = 本轮前的麦克马洪分）",
                 f"{'台':>4} {pad('黑', width + 20)}  {pad('白', width + 20)}  让子  结果"]
    else:
        lines = [f"Round {rnd}  (black 黑 moves first; stones 让子 = handicap; even games komi 贴目 {komi}; "
                 "MMS = McMahon score before the round)",
                 f"{'Bd':>4} {pad('black 黑', width + 20)}  {pad('white 白', width + 20)}  stones  result"]
    for b in sheet.boards:  # numbered as the pairing numbered them (``go_tiebreaks.board_key``)
        i = b.board
        h = ps[b.opener.number].handicaps.get(rnd, 0)
        lines.append(f"{i:>4} {seat(b.opener.number, b.opener.name)}  {seat(b.other.number, b.other.name)}  "
                     f"{h:>5}  {b.result}".rstrip())
    words = {"U": "轮空", "H": "请假（半分）", "F": "请假（整分）", "Z": "缺席", "withdrawn": "退赛"} if zh else UNPAIRED
    for u in sheet.unpaired:
        lines.append(f"     {seat(u.seat.number, u.seat.name)}  {words[u.why]}")
    return "\n".join(lines) + "\n"
