"""Which bytes of an Arrow IPC file some of its columns are read from, so a reader fetches only those.

An edition's sheet (``edition_sheet``) is an Arrow IPC file whose columns are stored as separate (lz4) buffers:
a page that needs five small columns of an edition need not fetch its long texts. ``needed_ranges`` reads the
file's footer and its record batches' headers through ``read(offset, length)`` and gives the byte ranges the
columns asked for are decoded from (the file's head, its footer, each batch's header and those columns'
buffers); ``sparse_copy`` puts them into a file of the same size whose other bytes are zeros, which an IPC
reader decodes those columns from as it would from the whole file. Plain bytes in and out: no Django.

Anything unexpected — a footer that does not parse, an offset outside the file, a type whose buffers are not
known here — is a ``ValueError``: ``decode_columns`` then reads the whole file (and ``edition_sheet``'s reader
names what is wrong).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Collection, Sequence

import polars as pl
from polars.exceptions import PanicException

from qiyuan.formats.edition_sheet import NULLABLE, SheetError, decode_frame

MAGIC = b"ARROW1"

#: buffers of a column of each Arrow type (``Type`` union of Schema.fbs): Int, Bool: validity and values; Binary,
#: Utf8 and their Large forms: validity, offsets, data; the views (BinaryView, Utf8View): validity and views, then
#: as many data buffers as the batch's ``variadicBufferCounts`` says
TYPE_BUFFERS = {2: 2, 3: 2, 6: 2, 4: 3, 5: 3, 19: 3, 20: 3, 23: 2, 24: 2}
VIEW_TYPES = frozenset({23, 24})
RECORD_BATCH = 3  # MessageHeader.RecordBatch


class _Table:
    """A flatbuffer table: its fields by index (scalars, tables, vectors of structs or tables, strings)."""

    def __init__(self, buf: bytes, pos: int):
        self.buf, self.pos = buf, pos
        self.vtable = pos - struct.unpack_from("<i", buf, pos)[0]
        self.vtable_size = struct.unpack_from("<H", buf, self.vtable)[0]

    def _field(self, i: int) -> int:
        at = 4 + 2 * i
        return 0 if at >= self.vtable_size else struct.unpack_from("<H", self.buf, self.vtable + at)[0]

    def scalar(self, i: int, fmt: str, default=0):
        at = self._field(i)
        return default if not at else struct.unpack_from("<" + fmt, self.buf, self.pos + at)[0]

    def _target(self, i: int) -> int | None:
        at = self._field(i)
        if not at:
            return None
        p = self.pos + at
        return p + struct.unpack_from("<I", self.buf, p)[0]

    def table(self, i: int) -> _Table | None:
        p = self._target(i)
        return None if p is None else _Table(self.buf, p)

    def string(self, i: int) -> str | None:
        p = self._target(i)
        if p is None:
            return None
        n = struct.unpack_from("<I", self.buf, p)[0]
        return self.buf[p + 4:p + 4 + n].decode("utf-8")

    def structs(self, i: int, fmt: str) -> list[tuple]:
        p = self._target(i)
        if p is None:
            return []
        n = struct.unpack_from("<I", self.buf, p)[0]
        size = struct.calcsize("<" + fmt)
        if p + 4 + n * size > len(self.buf):
            raise ValueError("a vector runs past its buffer")
        return [struct.unpack_from("<" + fmt, self.buf, p + 4 + k * size) for k in range(n)]

    def tables(self, i: int) -> list[_Table]:
        p = self._target(i)
        if p is None:
            return []
        n = struct.unpack_from("<I", self.buf, p)[0]
        if p + 4 + 4 * n > len(self.buf):
            raise ValueError("a vector runs past its buffer")
        return [_Table(self.buf, q + struct.unpack_from("<I", self.buf, q)[0]) for q in range(p + 4, p + 4 + 4 * n, 4)]


def _root(buf: bytes) -> _Table:
    return _Table(buf, struct.unpack_from("<I", buf, 0)[0])


def needed_ranges(read: Callable[[int, int], bytes], size: int, columns: Collection[str]) -> list[tuple[int, int]]:
    """The (offset, length) ranges of an IPC file of ``size`` bytes that ``columns`` are decoded from."""
    return _layout(read, size, columns)[0]


def _layout(read, size: int, columns: Collection[str]) -> tuple[list[tuple[int, int]], int]:
    """``needed_ranges`` and the file's number of rows."""
    try:
        return _ranges(read, size, set(columns))
    except (struct.error, IndexError, UnicodeDecodeError, StopIteration, OverflowError) as exc:
        raise ValueError(f"not an Arrow IPC file this reader knows: {exc}") from None


def _ranges(read, size: int, columns: set[str]) -> tuple[list[tuple[int, int]], int]:
    if size < 2 * len(MAGIC) + 8 + 4:
        raise ValueError("too short for an Arrow IPC file")
    tail = read(size - 10, 10)
    if tail[4:] != MAGIC:
        raise ValueError("no Arrow IPC file end")
    footer_size = struct.unpack_from("<i", tail, 0)[0]
    footer_at = size - 10 - footer_size
    if not 8 <= footer_at < size - 10:
        raise ValueError("the footer is outside the file")
    footer = _root(read(footer_at, footer_size))
    schema = footer.table(1)
    if schema is None:
        raise ValueError("no schema")
    fields = [(f.string(0), f.scalar(2, "B")) for f in schema.tables(1)]
    if footer.structs(2, "qi4xq"):
        raise ValueError("dictionary batches are not read here")
    unknown = [t for _n, t in fields if t not in TYPE_BUFFERS]
    if unknown:
        raise ValueError(f"column type {unknown[0]} is not read here")
    blocks = footer.structs(3, "qi4xq")
    head_end = min([offset for offset, _m, _b in blocks] + [footer_at])
    out = [(0, head_end), (footer_at, size - footer_at)]
    rows = 0
    for offset, meta_size, body_size in blocks:
        if not (head_end <= offset and 0 < meta_size and 0 <= body_size and offset + meta_size + body_size <= footer_at):
            raise ValueError("a record batch is outside the file")
        meta = read(offset, meta_size)
        out.append((offset, meta_size))
        start = 8 if meta[:4] == b"\xff\xff\xff\xff" else 4  # (the continuation marker, then the length)
        message = _root(meta[start:])
        if message.scalar(1, "B") != RECORD_BATCH:
            raise ValueError("a block that is not a record batch")
        batch = message.table(2)
        if batch is None:
            raise ValueError("a record batch without its header")
        rows += batch.scalar(0, "q")
        buffers = batch.structs(2, "qq")
        variadic = iter(n for (n,) in batch.structs(4, "q"))
        body, k = offset + meta_size, 0
        for name, kind in fields:
            n = TYPE_BUFFERS[kind] + (next(variadic) if kind in VIEW_TYPES else 0)
            if name in columns:
                for at, length in buffers[k:k + n]:
                    if at < 0 or length < 0 or at + length > body_size:
                        raise ValueError("a buffer is outside its record batch")
                    if length:
                        out.append((body + at, length))
            k += n
        if k != len(buffers):
            raise ValueError("the batch's buffers are not its columns'")
    return out, rows


def sparse_copy(read: Callable[[int, int], bytes], size: int, columns: Collection[str]) -> bytes:
    """The file with only the bytes ``columns`` are decoded from (``needed_ranges``), zeros elsewhere."""
    return _sparse(read, size, columns)[0]


def _sparse(read, size: int, columns: Collection[str]) -> tuple[bytes, int]:
    """``sparse_copy`` and the file's number of rows."""
    ranges, rows = _layout(read, size, columns)
    out = bytearray(size)
    for offset, length in ranges:
        got = read(offset, length)
        if len(got) != length:
            raise ValueError("the file is shorter than it says")
        out[offset:offset + length] = got
    return bytes(out), rows


def decode_columns(read: Callable[[int, int], bytes], size: int, schema: dict[str, pl.DataType], part: str,
                   columns: Sequence[str]) -> pl.DataFrame:
    """``edition_sheet.decode_frame`` of ``columns`` of a sheet's blob of ``size`` bytes, fetching only the bytes
    they are decoded from (all of them when those cannot be told apart): its checks made, ``SheetError`` for bytes
    that are not such a blob — never another error."""
    try:
        data = sparse_copy(read, size, columns)
    except ValueError:
        data = read(0, size)
        if len(data) != size:
            raise SheetError(part, f"{len(data)} bytes where {size} were stored") from None
    return decode_frame(data, schema, part, columns)


def decode_many(sources: Sequence[tuple[Callable[[int, int], bytes], int]], schema: dict[str, pl.DataType], part: str,
                columns: Sequence[str]) -> list[pl.DataFrame]:
    """``decode_columns`` of several blobs ((read, size) each), decoded together — one pass of the reader over all
    of them, not one each (a player's page reads a few columns of every edition). When any of them is not such a
    blob, each is decoded alone: the one that is not is a ``SheetError`` as ``decode_columns`` says."""
    columns = list(columns)
    try:
        files = [_sparse(read, size, columns) for read, size in sources]
        for data, _rows in files:
            if dict(pl.read_ipc_schema(io.BytesIO(data))) != schema:
                raise ValueError("not this format's columns")
        frame = pl.scan_ipc([io.BytesIO(data) for data, _rows in files]).select(columns).collect()
        if frame.height != sum(rows for _data, rows in files) or any(
                frame[name].null_count() for name in columns if name not in NULLABLE[part]):
            raise ValueError("not as its layout says")
    except (Exception, PanicException):  # (a panic of the reader is a BaseException)
        return [decode_columns(read, size, schema, part, columns) for read, size in sources]
    out, at = [], 0
    for _data, rows in files:
        out.append(frame.slice(at, rows))
        at += rows
    return out
