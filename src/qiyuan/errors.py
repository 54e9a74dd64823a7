"""Refusals as data: every layer reports what is wrong the same way.

A ``Problem`` is one fault: where it is (file, line or row, column or cell —
any of them may be unknown) and what is wrong.  Its ``message`` is an English
sentence; when it has ``params`` the message is a template (``str.format``
fields) and also the translation key, so a page can show it in the reader's
language (``Problem.text(gettext)``) while the command line prints English.

``QiyuanError`` carries every problem of one refusal at once.  Its kinds say
what the caller should do, never how to parse a message:

* ``InputError`` — a file or an option is bad (fix the input);
* ``Refused`` — the rules or the current state forbid the action;
* ``NotFound`` — a named record does not exist;
* ``Conflict`` — someone else did it first (an import already stored, a row
  changed meanwhile): the ordinary refusal of a lost race.

The command line prints the problems and exits 2 for all of them; the desk
shows them as messages.  Nothing else about an error is meant to be read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Problem:
    """One fault. ``line``/``column`` are 1-based; ``column`` may also name a spreadsheet cell
    (``"F7"``) or a field; ``None`` when unknown.  ``code`` names the kind of fault for programs
    (``"import.duplicate"``); ``params`` fill the message template."""

    file: str = ""
    line: int | None = None
    column: int | str | None = None
    message: str = ""
    params: Mapping[str, object] | None = field(default=None, compare=False)
    code: str = ""

    def where(self, translate: Callable[[str], str] | None = None) -> str:
        """``file, line 3, column 5`` (empty when nothing is known); in the reader's language with ``translate``.
        A ``column`` that is itself a ``Problem`` (``Sheet 成绩, cell F7``) is a translatable place."""
        if not (self.file or self.line is not None or self.column is not None):
            return ""
        t = translate or _same
        where = self.file or t("<input>")
        if self.line is not None:
            where += ", " + t("line {line}").format(line=self.line)
        if isinstance(self.column, int):
            where += ", " + t("column {column}").format(column=self.column)
        elif isinstance(self.column, Problem):
            where += ", " + self.column.text(translate)
        elif self.column is not None:
            where += f", {self.column}"
        return where

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The message alone, translated by ``translate`` (e.g. ``gettext``) when given. A parameter that is
        itself a ``Problem`` (a place, a reason another module phrased) is filled in translated too."""
        template = translate(self.message) if translate is not None else self.message
        if not self.params:
            return template
        params = {k: v.text(translate) if isinstance(v, Problem) else v for k, v in self.params.items()}
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation: the English text
            try:
                return self.message.format(**{k: v.text() if isinstance(v, Problem) else v
                                              for k, v in self.params.items()})
            except (KeyError, IndexError, ValueError, AttributeError):  # a template without its value: as written
                return self.message

    def located(self, translate: Callable[[str], str] | None = None) -> str:
        """Where it is, then what is wrong — in the reader's language with ``translate`` (``str()``: English)."""
        where = self.where(translate)
        return f"{where}: {self.text(translate)}" if where else self.text(translate)

    def as_json(self) -> dict:
        """The problem as JSON data (a template and its parameters, so it can be shown later in any language)."""
        def value(v):
            if isinstance(v, Problem):
                return {"problem": v.as_json()}
            return v if isinstance(v, (int, float, str, bool)) or v is None else str(v)

        out: dict = {"message": self.message}
        if self.file:
            out["file"] = self.file
        if self.line is not None:
            out["line"] = self.line
        if self.column is not None:
            out["column"] = value(self.column)
        if self.params:
            out["params"] = {k: value(v) for k, v in self.params.items()}
        if self.code:
            out["code"] = self.code
        return out

    @classmethod
    def from_json(cls, data) -> Problem:
        """A problem from ``as_json``'s data; a plain string (how older records kept a reason) as it is."""
        if isinstance(data, str):
            return cls(message=data)

        def value(v):
            return cls.from_json(v["problem"]) if isinstance(v, dict) and "problem" in v else v

        params = {k: value(v) for k, v in (data.get("params") or {}).items()}
        return cls(data.get("file", ""), data.get("line"), value(data.get("column")), data.get("message", ""),
                   MappingProxyType(params) if params else None, data.get("code", ""))

    def __str__(self) -> str:
        return self.located()


def _same(text: str) -> str:
    return text


def N_(message: str) -> str:  # noqa: N802 - the usual name of a marker the catalogue check reads
    """Mark a message for the catalogue without translating it here (translated where it is shown, by the
    ``gettext`` the caller passes or the command line's ``_``)."""
    return message


def problem(message: str, *, file: str = "", line: int | None = None, column: int | str | None = None,
            code: str = "", **params: object) -> Problem:
    """A ``Problem`` whose message is a template filled from ``params``."""
    return Problem(file, line, column, message, MappingProxyType(dict(params)) if params else None, code)


def joined(parts: Iterable[Problem | str], separator: str = ", ") -> Problem | str:
    """Several phrases (translatable ``Problem``s or plain text) as one value of a message, each translated when
    it is shown."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    return problem(separator.join(f"{{p{i}}}" for i in range(len(parts))), **{f"p{i}": p for i, p in enumerate(parts)})


def as_problems(items: Iterable[Problem | str] | Problem | str) -> list[Problem]:
    """Problems from problems or plain English sentences (kept as they are)."""
    if isinstance(items, (Problem, str)):
        items = [items]
    return [p if isinstance(p, Problem) else Problem(message=str(p)) for p in items]


class QiyuanError(Exception):
    """A refusal with every problem at once (``problems``); ``str()`` lists them one per line."""

    #: the command line's exit status for this kind of refusal
    exit_code = 2

    def __init__(self, problems: Iterable[Problem | str] | Problem | str):
        self.problems: list[Problem] = as_problems(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def messages(self) -> list[str]:
        """Each problem as one English line (where it is, then what is wrong)."""
        return [str(p) for p in self.problems]


class InputError(QiyuanError, ValueError):
    """A bad input file or option: fix the input and try again."""


class Refused(QiyuanError):
    """The rules or the current state forbid the action."""


class NotFound(Refused):
    """A named record (player, list, edition, event) does not exist."""


class Conflict(Refused):
    """Someone else did it first (e.g. the same report imported at the same moment)."""
