"""The registry's refusal: every reason at once."""

from __future__ import annotations


class RegistryError(Exception):
    """A registry action refused; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))
