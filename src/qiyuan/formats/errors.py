"""Problems found in an input file, reported all at once.

Every reader in ``qiyuan.formats`` collects a ``Problem`` per fault (file,
line or row, column or cell, what is wrong) and raises one ``InputError``
holding them all, so the user fixes a file in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One fault in an input file. ``line``/``column`` are 1-based; ``column``
    may also name a spreadsheet cell (``"F7"``) or a field; ``None`` when unknown."""

    file: str
    line: int | None
    column: int | str | None
    message: str

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f", line {self.line}"
        if self.column is not None:
            where += f", column {self.column}" if isinstance(self.column, int) else f", {self.column}"
        return f"{where}: {self.message}"


class InputError(ValueError):
    """Raised with every problem of a bad input; ``str()`` lists them one per line."""

    def __init__(self, problems: list[Problem] | Problem):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
