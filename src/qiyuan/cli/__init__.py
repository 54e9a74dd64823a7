"""The ``qiyuan`` command line.

Each module below registers its own commands on the one Typer app; they are
thin: read files or the office, call the domain core, print or write.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
import sys

import typer

from qiyuan.cli.lang import _, command, print_problems
from qiyuan.errors import QiyuanError

app = typer.Typer(
    name="qiyuan",
    help="qiyuan: ratings, tournaments and the federation's rating office.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Modules that register commands: rating (rate, rules), tournament (pair,
# standings, report, event), go (event import-opengotha, export-h9, go-settings …), office (office group: registry, backup), office_data
# (import, period, list, verify, demo), dan (office dan: grades), calendar (office calendar), users (office user),
# web (serve).
_COMMAND_MODULES = ("rating", "tournament", "go", "office", "office_data", "audit_flags", "integrity", "dan", "calendar",
                    "users", "web", "kit", "office_key", "event_check")

for _name in _COMMAND_MODULES:
    importlib.import_module(f"qiyuan.cli.{_name}").register(app)


def main() -> None:
    """Run the command line in the user's language (``QIYUAN_LANG``, else the locale: ``qiyuan.cli.lang``).
    A refusal nobody caught still prints its problems (exit 2); anything unforeseen is an internal error, said
    in one line without a traceback (exit 1) — ``QIYUAN_DEBUG=1`` shows it."""
    try:
        command(app)(prog_name="qiyuan")
    except QiyuanError as exc:
        print_problems(exc.problems, _("refused: {count} problem(s); nothing changed:").format(
            count=len(exc.problems)))
        sys.exit(exc.exit_code)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: a message, never a traceback
        if os.environ.get("QIYUAN_DEBUG") == "1":
            raise
        if isinstance(exc, sqlite3.DatabaseError) or isinstance(exc.__cause__, sqlite3.DatabaseError):
            from qiyuan.office.db import damaged  # only on this path: Django stays out of the pure commands

            refusal = damaged(exc)
            if refusal is not None:
                for line in refusal.messages:
                    sys.stderr.write(f"{line}\n")
                sys.exit(refusal.exit_code)
        sys.stderr.write(_("qiyuan: internal error ({kind}: {detail}). Nothing more was done; run again with "
                           "QIYUAN_DEBUG=1 to see where, and report it with the input that caused it.").format(
            kind=type(exc).__name__, detail=exc) + "\n")
        sys.exit(1)
