"""A small pure-Python ``msgfmt``: compile a gettext ``.po`` file into ``.mo``.

The site does not need GNU gettext on the machine: the ``.mo`` files are
committed, and ``python -m qiyuan.locale.msgfmt`` rebuilds them from the
``.po`` sources (a test checks they agree). Handles what our catalogues use:
``msgctxt``, ``msgid``, ``msgstr``, ``msgid_plural``/``msgstr[n]``,
continued strings, comments, and skips ``#, fuzzy`` entries.
"""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path


class PoError(ValueError):
    """A ``.po`` file that cannot be read: file, line, what is wrong."""


def parse_po(text: str, source: str = "<po>") -> dict[str, str]:
    """Return the catalogue ``{key: translation}`` in ``.mo`` key form
    (context + ``\\x04`` + msgid; plural ids and forms joined by ``\\x00``)."""
    catalog: dict[str, str] = {}
    entry: dict[str, list[str]] = {}
    current: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy, current
        if "msgid" in entry and (not fuzzy or "".join(entry["msgid"]) == ""):  # the header counts even if fuzzy
            msgid = "".join(entry["msgid"])
            if "msgid_plural" in entry:
                msgid += "\x00" + "".join(entry["msgid_plural"])
                forms = sorted(k for k in entry if k.startswith("msgstr["))
                msgstr = "\x00".join("".join(entry[k]) for k in forms)
            else:
                msgstr = "".join(entry.get("msgstr", []))
            if "msgctxt" in entry:
                msgid = "".join(entry["msgctxt"]) + "\x04" + msgid
            if msgstr or msgid == "":
                catalog[msgid] = msgstr
        entry, current, fuzzy = {}, None, False

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    flush()
                fuzzy = True
            continue
        if line.startswith('"'):
            if current is None:
                raise PoError(f"{source}, line {lineno}: continued string outside an entry")
            entry[current].append(_unquote(line, source, lineno))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and ("msgstr" in entry or any(k.startswith("msgstr[") for k in entry)):
            flush()
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not keyword.startswith("msgstr["):
            raise PoError(f"{source}, line {lineno}: unknown keyword {keyword!r}")
        current = keyword
        entry[current] = [_unquote(rest.strip(), source, lineno)]
    flush()
    return catalog


def _unquote(token: str, source: str, lineno: int) -> str:
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise PoError(f"{source}, line {lineno}: expected a quoted string, got {token!r}")
    try:
        return ast.literal_eval(token)
    except (ValueError, SyntaxError) as exc:
        raise PoError(f"{source}, line {lineno}: bad string {token!r}: {exc}") from None


def mo_bytes(catalog: dict[str, str]) -> bytes:
    """The GNU ``.mo`` image of a catalogue (little-endian, no hash table)."""
    keys = sorted(catalog)
    ids = [k.encode("utf-8") for k in keys]
    strs = [catalog[k].encode("utf-8") for k in keys]
    n = len(keys)
    header_size = 7 * 4
    ids_table = header_size
    strs_table = ids_table + n * 8
    data_start = strs_table + n * 8
    offsets_ids, offsets_strs, blob = [], [], b""
    for s in ids:
        offsets_ids.append((len(s), data_start + len(blob)))
        blob += s + b"\0"
    for s in strs:
        offsets_strs.append((len(s), data_start + len(blob)))
        blob += s + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, n, ids_table, strs_table, 0, 0)
    out += b"".join(struct.pack("<2I", *p) for p in offsets_ids)
    out += b"".join(struct.pack("<2I", *p) for p in offsets_strs)
    return out + blob


def compile_file(po_path: Path, mo_path: Path | None = None) -> Path:
    """Compile one ``.po`` file next to itself (or to ``mo_path``)."""
    mo_path = mo_path or po_path.with_suffix(".mo")
    mo_path.write_bytes(mo_bytes(parse_po(po_path.read_text(encoding="utf-8"), str(po_path))))
    return mo_path


def compile_all(root: Path = Path(__file__).resolve().parent) -> list[Path]:
    """Compile every ``.po`` under ``root`` (default: this package)."""
    return [compile_file(p) for p in sorted(root.rglob("*.po"))]


if __name__ == "__main__":  # python -m qiyuan.locale.msgfmt [FILE.po ...]
    paths = [compile_file(Path(a)) for a in sys.argv[1:]] or compile_all()
    for p in paths:
        print(p)
