"""What an arbiter types (录入格式): boards, results and result keys, read in one place.

The command line (``qiyuan event set-pairing 7 "1 5"``, ``qiyuan event result 7 "12 1-0"``)
and the desk (a pairing typed one board a line, a result key per board) read the same
syntaxes with these functions, so a board or a result the terminal takes the desk takes too,
and a fault is named the same way (the item, the player, what was expected).

* a board: two draw numbers, opener first, separated by a space, ``-``, ``:`` or ``,``
  (``1 5``, ``1-5``); the bye is ``N 0``;
* a result from one player's side: ``1-0``, ``0-1``, ``½-½`` (``=-=``, ``1/2-1/2``,
  Gomoku's ``2-0``/``1-1``), forfeits ``+-``, ``-+``, ``--``; blank clears it;
* a result item: ``PLAYER RESULT`` (``12 1-0``; ``12`` alone clears);
* a result key at the desk: one keystroke per board (``1`` ``0`` ``=`` ``+`` ``-`` ``--``,
  ``x`` clears) or a whole result.

Pure: returns values and ``Problem`` lists, raises nothing.
"""

from __future__ import annotations

import re

from qiyuan.tournament.errors import Problem, problem

#: a result written from one player's side -> (his TRF code, the other's)
RESULTS = {
    "1-0": ("1", "0"), "0-1": ("0", "1"), "½-½": ("=", "="), "=-=": ("=", "="), "1/2-1/2": ("=", "="),
    "0.5-0.5": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"), "--": ("-", "-"), "+--": ("+", "-"),
    "--+": ("-", "+"), "2-0": ("1", "0"), "0-2": ("0", "1"), "1-1": ("=", "="), "": (" ", " "),
    "++": ("1", "1"), "0-0": ("0", "0"),  # the arbiter's decision: both win, both lose (never rated)
}

#: the desk's fast keys (one keystroke per board) -> a result as the first-named player sees it
RESULT_KEYS = {
    "1": "1-0", "0": "0-1", "=": "½-½", "5": "½-½", "½": "½-½", "+": "+-", "-": "-+", "--": "--",
    "1-0": "1-0", "0-1": "0-1", "½-½": "½-½", "=-=": "½-½", "0.5-0.5": "½-½", "+-": "+-", "-+": "-+",
    "x": "", "X": "",
}

_DASHES = str.maketrans({"－": "-", "—": "-", "–": "-"})
_BOARD = re.compile(r"\s*(\d+)\s*(?:[-–:,，：]\s*|\s+)(\d+)\s*")
_ITEM = re.compile(r"\s*(\d+)(?:\s+(.*?))?\s*")


def result_codes(text: str) -> tuple[str, str] | None:
    """``(mine, theirs)`` TRF codes of a result from one player's side; None if unknown."""
    return RESULTS.get(text.replace(" ", "").translate(_DASHES))


def unknown_result(text: str, number: int | None = None) -> Problem:
    if number is None:
        return problem("unknown result {result!r}: write 1-0, 0-1, ½-½ (=-=), +-, -+ or --", result=text.strip())
    return problem("player {number}: unknown result {result!r}: write 1-0, 0-1, ½-½ (=-=), +-, -+ or --",
                   number=number, result=text.strip())


def result_text(mine: str, theirs: str) -> str:
    """A result as the arbiter writes it, from the side whose code is ``mine`` (``" "``: no result)."""
    if mine == " ":
        return "no result"
    if mine == theirs and mine in ("1", "0"):
        return {"1": "++", "0": "0-0"}[mine]  # both win / both lose
    if mine in "+-" and theirs in "+-":
        return f"{mine}{theirs}"
    return {"1": "1-0", "W": "1-0", "0": "0-1", "L": "0-1", "=": "½-½", "D": "½-½"}.get(mine, mine)


def parse_board(text: str) -> tuple[int, int] | None:
    """``(opener, other)`` of a board typed ``1 5`` / ``1-5``; ``(n, 0)`` is the bye; None if unreadable."""
    m = _BOARD.fullmatch(text)
    return (int(m[1]), int(m[2])) if m else None


def parse_boards(lines: list[str], *, numbered: bool = True) -> tuple[list[tuple[int, int]], int | None,
                                                                     list[Problem]]:
    """A hand-made pairing, one board per item (blank items skipped): the boards, the bye
    (``N 0``, or given apart), and every item that does not read — named by its place and text."""
    boards: list[tuple[int, int]] = []
    bye: int | None = None
    faults: list[Problem] = []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        pair = parse_board(line)
        where = {"line": no} if numbered else {}
        if pair is None:
            faults.append(problem("board {board!r}: write two draw numbers, opener first (\"1 5\"; the bye \"N 0\")",
                                  board=line.strip(), **where))
        elif pair[1] == 0:
            if bye is not None:
                faults.append(problem("board {board!r}: only one player gets the bye", board=line.strip(), **where))
            else:
                bye = pair[0]
        else:
            boards.append(pair)
    return boards, bye, faults


def parse_result_item(text: str) -> tuple[int, str] | Problem:
    """``(player, result)`` of an item ``"12 1-0"`` (``"12"`` / ``"12 "``: clear), or the problem
    naming the player when the result is unknown."""
    m = _ITEM.fullmatch(text)
    if m is None:
        return problem("{item!r}: write the player's draw number and the result, e.g. \"12 1-0\" "
                       "(\"12 \" clears it)", item=text)
    number, result = int(m[1]), m[2] or ""
    if result_codes(result) is None:
        return unknown_result(result, number)
    return number, result


def parse_result_key(text: str) -> str | None | Problem:
    """A result key typed at the desk as a result (``""`` clears), None if blank (the board is
    left as it is), or the problem."""
    key = text.strip().replace(" ", "")
    if not key:
        return None
    if key not in RESULT_KEYS:
        return problem("unknown result {key!r}: type 1, 0, =, +, -, -- or x (clear)", key=text.strip())
    return RESULT_KEYS[key]
