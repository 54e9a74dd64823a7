"""The ``qiyuan`` command line.

Each module below registers its own commands on the one Typer app; they are
thin: read files or the office, call the domain core, print or write.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="qiyuan",
    help="qiyuan 棋院: ratings (等级分), tournaments (竞赛) and the federation's rating office.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Modules that register commands: rating (rate, rules), tournament (pair,
# standings, report, event), office (office group: registry, backup), office_data
# (import, period, list, verify, demo), users (office user), web (serve).
_COMMAND_MODULES = ("rating", "tournament", "office", "office_data", "users", "web")

for _name in _COMMAND_MODULES:
    importlib.import_module(f"qiyuan.cli.{_name}").register(app)


def main() -> None:
    app()
