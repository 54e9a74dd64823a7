"""A line of a pairing's explanation (编排说明): English text that also keeps the templates it was made from.

A ``Line`` is a ``str`` (the command line prints it, tests search it) made of one or more parts, each an English
template with its values; ``text(gettext)`` puts each part into a page's language (the templates are msgids of
the zh_Hans catalogue), ``parts`` carries it through a session as plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class Line(str):
    """One explanation line: ``Line("{a}–{b}: entered by hand", a=1, b=2)``; ``+`` appends a part."""

    parts: tuple[tuple[str, dict], ...]

    def __new__(cls, template: str = "", **params: object) -> Line:
        return cls._of(((template, dict(params)),) if template else ())

    @classmethod
    def _of(cls, parts: Iterable[tuple[str, dict]]) -> Line:
        parts = tuple(parts)
        line = super().__new__(cls, "".join(t.format(**p) for t, p in parts))
        line.parts = parts
        return line

    def __add__(self, other: object) -> Line:
        more = other.parts if isinstance(other, Line) else ((str(other).replace("{", "{{").replace("}", "}}"), {}),)
        return Line._of(self.parts + more)

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The line in the language of ``translate`` (e.g. ``gettext``); English without it."""
        out = []
        for template, params in self.parts:
            local = translate(template) if translate is not None else template
            try:
                out.append(local.format(**params))
            except (KeyError, IndexError, ValueError):  # a broken translation: the English part
                out.append(template.format(**params))
        return "".join(out)


def from_parts(parts: Iterable[Iterable]) -> Line:
    """A line back from its ``parts`` (as stored in a session: lists of [template, params])."""
    return Line._of((str(t), dict(p)) for t, p in parts)
