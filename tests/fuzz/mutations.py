"""Mutating real inputs: what a file from the field may look like after e-mail, Excel and a tired hand.

``mutate_bytes`` applies a few edits to a text file's bytes (a byte changed, bytes inserted — bare CR, NUL,
quotes, separators, Chinese text in UTF-8 and GB18030, huge numbers — a range deleted, a line duplicated,
dropped or swapped, a number replaced, the file cut short). ``mutate_workbook`` does the same to a workbook's
cells (a value replaced by blank, text, a huge or negative number, a date, a long string, another cell's value),
or, now and then, to the zip's bytes.
"""

from __future__ import annotations

import io
import re
from datetime import date

from hypothesis import strategies as st

INSERTS = [b"\r", b"\n", b"\r\n", b"\x00", b",", b'"', b"\t", b" ", b"\xef\xbb\xbf", b"\xff\xfe", "张三".encode(),
           "瑞士".encode("gb18030"), b"99999999999999999999", b"-1", b"1e20", b"0", b"NaN", b"2024-02-30", b"x" * 300,
           b"=", b"+", b"-", b"001", b";", b"\xc3", b"\\"]

CELL_VALUES = [None, "", " ", "abc", "瑞士", "积分编排制", "循环", "99999999999999999999", 99999999999999999999, -5, 0,
               1.5, "1-0", "½", "=", "+", "--", date(1900, 1, 1), date(2099, 12, 31), "x" * 500, "\r", "\x00", "男",
               "女", "X", "11010519491231002X", "1" * 18, "=1+1", True]


@st.composite
def mutate_bytes(draw, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["byte", "insert", "delete", "line", "number", "truncate"]))
        n = len(out)
        if kind == "byte" and n:
            out[draw(st.integers(0, n - 1))] = draw(st.integers(0, 255))
        elif kind == "insert":
            at = draw(st.integers(0, n))
            out[at:at] = draw(st.sampled_from(INSERTS))
        elif kind == "delete" and n:
            a = draw(st.integers(0, n - 1))
            del out[a:a + draw(st.integers(1, 40))]
        elif kind == "line":
            lines = bytes(out).split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            op = draw(st.sampled_from(["dup", "drop", "swap"]))
            if op == "dup":
                lines.insert(i, lines[i])
            elif op == "drop" and len(lines) > 1:
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            out = bytearray(b"\n".join(lines))
        elif kind == "number":
            numbers = list(re.finditer(rb"\d+", bytes(out)))
            if numbers:
                m = numbers[draw(st.integers(0, len(numbers) - 1))]
                out[m.start():m.end()] = draw(st.sampled_from([b"99999999999999999999", b"", b"-7", b"0", b"3.5",
                                                               b"1e9", "五".encode()]))
        elif kind == "truncate" and n:
            del out[draw(st.integers(0, n - 1)):]
    return bytes(out)


@st.composite
def mutate_workbook(draw, data: bytes) -> bytes:
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import IllegalCharacterError

    if draw(st.integers(0, 9)) == 0:  # the zip itself damaged
        return draw(mutate_bytes(data))
    wb = load_workbook(io.BytesIO(data))
    for _ in range(draw(st.integers(1, 5))):
        ws = wb[draw(st.sampled_from(wb.sheetnames))]
        row = draw(st.integers(1, max(1, ws.max_row + 1)))
        col = draw(st.integers(1, max(1, ws.max_column + 1)))
        if draw(st.booleans()):
            value = draw(st.sampled_from(CELL_VALUES))
        else:  # another cell's value: a column shifted by a hand
            value = ws.cell(draw(st.integers(1, max(1, ws.max_row))), draw(st.integers(1, max(1, ws.max_column)))).value
        try:
            ws.cell(row, col).value = value
        except (ValueError, TypeError, AttributeError, IllegalCharacterError):  # a value openpyxl cannot hold
            pass
    buf = io.BytesIO()
    try:
        wb.save(buf)
    except (TypeError, ValueError, AttributeError):  # a value openpyxl accepted but cannot write (a huge int)
        return data
    return buf.getvalue()
