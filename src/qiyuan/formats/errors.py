"""Problems found in an input file, reported all at once.

Every reader in ``qiyuan.formats`` collects a ``Problem`` per fault (file,
line or row, column or cell, what is wrong) and raises one ``InputError``
holding them all, so the user fixes a file in one pass.  Both types are the
project's own (``qiyuan.errors``); they are named here for the readers.
"""

from __future__ import annotations

from qiyuan.errors import InputError, Problem

__all__ = ["InputError", "Problem"]
