"""``qiyuan rules list`` and ``qiyuan rules show NAME|FILE.toml``: the rule sets and their settings."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from qiyuan.rating.rules import BUILTIN_RULES, SETTING_HELP, RulesError, base_name, load_rules, rules_as_dict

rules_app = typer.Typer(help="Rating rule sets (等级分制度) and their settings.", no_args_is_help=True)


@rules_app.command("list")
def list_rules() -> None:
    """List the built-in rule sets."""
    table = Table("name", "title", "lists on the 1st of", box=None)
    for name, rules in BUILTIN_RULES.items():
        table.add_row(name, rules.title, ", ".join(f"{m:02d}" for m in rules.publication_months))
    Console().print(table)


@rules_app.command("show")
def show_rules(
    name: str = typer.Argument(..., help="A built-in rule set name, or a TOML variant file."),
    toml: bool = typer.Option(False, "--toml", help="Print as a TOML variant file (base plus every setting): a starting point for a variant."),
) -> None:
    """Print every setting of a rule set."""
    try:
        rules = load_rules(name)
        base = base_name(name)
    except RulesError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    settings = rules_as_dict(rules)
    if toml:  # a variant file: its base, then every setting (overriding all of the base's)
        typer.echo(f"base = {_toml_value(base)}")
        for key, value in settings.items():
            typer.echo(f"{key} = {_toml_value(value)}")
        return
    table = Table("setting", "value", "meaning", title=f"{rules.name} — {rules.title}", box=None)
    for key, value in settings.items():
        table.add_row(key, ", ".join(map(str, value)) if isinstance(value, list) else str(value),
                      SETTING_HELP.get(key, ""))
    Console().print(table)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def register_rules(app: typer.Typer) -> None:
    """Add the ``rules`` command group to the qiyuan app."""
    app.add_typer(rules_app, name="rules")
