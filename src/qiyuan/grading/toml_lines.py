"""Where a key stands in a TOML text: line numbers for the problems of a settings file.

``tomllib`` gives values, not positions. ``key_lines`` reads the text's table
headers (``[a.b]``, ``[[a]]``) and key lines (``key = …``, quoted keys too) and
maps each key's path — ``("class", 1, "open", "4-8")``, array-of-tables entries
counted from 0 — to its 1-based line. Enough for the flat shape of a settings
file (no multi-line inline tables); a path it cannot find has no line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")


def _parts(dotted: str) -> list[str]:
    """``a."b.c".d`` → ``["a", "b.c", "d"]``."""
    return [p.strip().strip("\"'") for p in re.findall(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^.]+)\s*\.?""", dotted)
            if p.strip()]


def key_lines(text: str) -> dict[Path, int]:
    """Every table and key of ``text`` with its line (see the module's docstring)."""
    lines: dict[Path, int] = {}
    counts: dict[tuple[str, ...], int] = {}  # array-of-tables name → index of its latest entry
    table: Path = ()
    in_multiline = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if in_multiline:  # inside a ''' or """ string: nothing here is a key
            if line.count('"""') % 2 or line.count("'''") % 2:
                in_multiline = False
            continue
        if not line or line.startswith("#"):
            continue
        if m := _HEADER.match(line):
            names = _parts(m.group(2))
            if m.group(1) == "[[":
                counts[tuple(names)] = counts.get(tuple(names), -1) + 1
            table = _resolve(names, counts)
            lines.setdefault(table, number)
            continue
        if m := _KEY.match(line):
            key = m.group(1)
            path = table + tuple([key.strip("\"'")] if key[0] in "\"'" else _parts(key))
            lines.setdefault(path, number)
            rest = line[m.end():]
            if rest.count('"""') % 2 or rest.count("'''") % 2:
                in_multiline = True
    return lines


def _resolve(names: Sequence[str], counts: dict[tuple[str, ...], int]) -> Path:
    """A header's path with the index of every array of tables it passes through."""
    path: list[str | int] = []
    for i, name in enumerate(names):
        path.append(name)
        prefix = tuple(names[: i + 1])
        if prefix in counts:
            path.append(counts[prefix])
    return tuple(path)


def line_of(lines: dict[Path, int], path: Path) -> int | None:
    """The line of ``path``, else of its nearest enclosing table or key that has one."""
    for n in range(len(path), 0, -1):
        if path[:n] in lines:
            return lines[path[:n]]
    return None


def path_text(path: Path) -> str:
    """``("class", 1, "open", "4-8")`` → ``class[2].open."4-8"`` (entries counted from 1, as people count)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", part):
            out += ("." if out else "") + part
        else:
            out += ("." if out else "") + f'"{part}"'
    return out
