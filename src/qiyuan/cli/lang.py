"""The command line's language (命令行的语言): Chinese or English, from the same catalogue the desk uses.

The language is chosen once per run: ``QIYUAN_LANG`` (``zh-hans``, ``zh``, ``en``) wins; otherwise the first
of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set (``zh_CN.UTF-8`` → Chinese); English when none says
Chinese.  Messages are English ids translated by the ``zh_Hans`` catalogue (``locale/zh_Hans/…/django.mo``),
so the desk and the terminal say the same sentence the same way.

What is translated where:

* ``_()`` / ``ngettext()`` — the commands' own messages;
* :func:`problem_line` — a refusal's ``Problem`` (its template, and where it is: file, line, column);
* :func:`localize` — the ``--help`` texts of a built command tree (commands, options, arguments, their value
  names), walked once before the command runs;
* :func:`activate` — Typer's and its bundled Click's own texts (``Usage:``, the panel titles, ``Show this
  message and exit.``, ``[default: …]``) and its error lines (a missing option, an unknown command, a bad value),
  which are English literals in their source: they are replaced by translated ones here, in one place.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Mapping
from pathlib import Path

import typer

from qiyuan.errors import N_, Problem

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
CHINESE, ENGLISH = "zh_Hans", "en"


def choose_language(environ: Mapping[str, str] | None = None) -> str:
    """``zh_Hans`` or ``en``: ``QIYUAN_LANG`` first, then the POSIX order ``LC_ALL``, ``LC_MESSAGES``, ``LANG``."""
    env = os.environ if environ is None else environ
    for name in ("QIYUAN_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = (env.get(name) or "").strip()
        if value:
            return CHINESE if value.lower().replace("-", "_").startswith("zh") else ENGLISH
    return ENGLISH


_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = ENGLISH


def _load(language: str) -> _gettext.NullTranslations:
    if language == ENGLISH:
        return _gettext.NullTranslations()
    mo = LOCALE_DIR / language / "LC_MESSAGES" / "django.mo"
    try:
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    except OSError:  # an installation without catalogues still runs, in English
        return _gettext.NullTranslations()


def language() -> str:
    return _language


def _(message: str) -> str:
    """``message`` (an English id) in the run's language."""
    return _translation.gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


# ------------------------------------------------------------------------------------------ refusals (Problems)


def file_error(exc: Exception) -> str:
    """Why a file could not be read, in the run's language (the system's own wording is English)."""
    if isinstance(exc, FileNotFoundError):
        return _("no such file")
    if isinstance(exc, IsADirectoryError):
        return _("a directory, not a file")
    if isinstance(exc, PermissionError):
        return _("permission denied")
    if isinstance(exc, UnicodeDecodeError):
        return _("not UTF-8 text")
    return _("the file cannot be read")


def where(p: Problem) -> str:
    """Where a problem is, in the run's language: ``file, line 3, column F`` / ``file，第 3 行，F 列``."""
    if not (p.file or p.line is not None or p.column is not None):
        return ""
    parts = [p.file or _("<input>")]
    if p.line is not None:
        parts.append(_("line {line}").format(line=p.line))
    if p.column is not None:
        parts.append(_("column {column}").format(column=p.column) if isinstance(p.column, int) else
                     p.column.text(_) if isinstance(p.column, Problem) else str(p.column))  # a cell: 工作表 成绩，单元格 H4
    return ("，" if _language == CHINESE else ", ").join(parts)


def problem_line(p: Problem | str) -> str:
    """One refusal line: where, then what is wrong (its template translated, then filled)."""
    if isinstance(p, str):
        return _(p)
    here = where(p)
    return _("{where}: {what}").format(where=here, what=p.text(_)) if here else p.text(_)


def print_problems(problems, heading: str, *, stderr: bool = True) -> None:
    """A heading line (bold red), then each problem indented — how every command reports a refusal."""
    from rich.console import Console

    console = Console(stderr=stderr, highlight=False, soft_wrap=True)
    console.print(f"[bold red]{heading}[/]")
    for problem in problems:
        console.print(f"  {problem_line(problem)}", markup=False)


# ------------------------------------------------------------------------------------------ --help texts

#: Typer's names of value types, as the help shows them (``<int>``, ``<path>``; compared in lower case) and as
#: people read them
TYPE_NAMES = {
    "<str>": N_("<text>"), "<text>": N_("<text>"), "<int>": N_("<integer>"), "<int range>": N_("<integer>"),
    "<integer>": N_("<integer>"), "<path>": N_("<path>"), "<file>": N_("<path>"), "<directory>": N_("<path>"), "<list[path]>": N_("<path>") + "...",
    "<float>": N_("<number>"), "<float range>": N_("<number>"), "<date>": N_("<date>"),
    "<datetime>": N_("<date and time>"), "<list[str]>": N_("<text>") + "...", "<list[int]>": N_("<integer>") + "...",
}


#: the arguments' names as usage lines show them (``localize`` translates the upper-case name, or the metavar)
ARGUMENT_NAMES = (N_("EVENT"), N_("NUMBER"), N_("OTHER"), N_("OUTPUT"), N_("PLAYER"), N_("PLAYERS"), N_("RESULTS"),
                  N_("ROUND"), N_("ROUNDS"), N_("WHAT"), N_("[FILE]"), N_("[ROUND]"), N_("BOARDS"), N_("CATEGORY"),
                  N_("FILE"), N_("CODE"), N_("REF"), N_("NEW_NAME"), N_("ASSOCIATION"), N_("STATUS"), N_("KEEP"),
                  N_("DUPLICATE"), N_("QUERY"), N_("PERIOD"), N_("LIST_CODE"), N_("EDITION"), N_("RULES"),
                  N_("DIRECTORY"), N_("RULE_SET"), N_("PATH"), N_("FLAG_ID"), N_("A"), N_("B"), N_("TARGET"), N_("GRADE"),
                  N_("SERIAL"), N_("EVENT_NAME"), N_("[GRADE]"), N_("TIEBREAK-TIME-CONTROL"))


def localize(command) -> None:
    """Translate the help texts of a built (Click) command tree in place: help, short help, epilog, each
    option's and argument's help, an argument's name as the usage line shows it, and the type names."""
    if _language == ENGLISH:
        return
    for attr in ("help", "short_help", "epilog"):
        value = getattr(command, attr, None)
        if value:
            setattr(command, attr, _(value))
    if getattr(command, "options_metavar", None) == "[OPTIONS]":
        command.options_metavar = _("[OPTIONS]")
    if getattr(command, "subcommand_metavar", None) == "COMMAND [ARGS]...":
        command.subcommand_metavar = _("COMMAND [ARGS]...")
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = _(param.help)
        if param.param_type_name == "option" and param.metavar and _(param.metavar) != param.metavar:
            param.metavar = _(param.metavar)
        if param.param_type_name == "argument":
            name = param.metavar or (param.name or "").upper()
            if name and _(name) != name:
                param.metavar = _(name)
    for sub in getattr(command, "commands", {}).values():
        localize(sub)


def _type_name(original):
    """Typer's ``display_type_rich`` naming the value's type in the run's language (a switch: no type)."""

    def display_type_rich(self, ctx):
        shown = original(self, ctx)
        if getattr(self, "is_flag", False) and not self.metavar:
            return ""
        name = TYPE_NAMES.get((shown or "").lower())
        if name is None:
            return shown
        return _(name.removesuffix("...")) + ("..." if name.endswith("...") else "")

    return display_type_rich


# ------------------------------------------------------------------------------------------ Typer's and Click's texts

#: Typer's fixed strings (typer.rich_utils) → their ids here
_RICH_CONSTANTS = {
    "DEPRECATED_STRING": N_("(deprecated) "), "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"), "REQUIRED_LONG_STRING": N_("[required]"),
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"), "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"), "ERRORS_PANEL_TITLE": N_("Error"), "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}
_USAGE = N_("Usage: ")
#: help texts of options other modules define and the translated commands use (``--actor``: cli/office.py)
SHARED_HELP = (N_("Who does this, for the audit log (default: $QIYUAN_ACTOR or the login name)."),)
_HELP_OPTION = N_("Show this message and exit.")

#: Click's error messages (English literals in its source) → the id that says the same; named groups fill it
CLICK_MESSAGES: list[tuple[re.Pattern, str]] = [(re.compile(rx, re.S), msgid) for rx, msgid in (
    (r"Missing option (?P<name>.+)\.$", N_("Missing option {name}.")),
    (r"Missing argument (?P<name>.+)\.$", N_("Missing argument {name}.")),
    (r"Missing parameter (?P<name>.+)\.$", N_("Missing parameter {name}.")),
    (r"Missing command\.$", N_("Missing command.")),
    (r"No such command '(?P<name>.*)'\.$", N_("No such command '{name}'.")),
    (r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.*)\)$",
     N_("No such option: {name} (did you mean {options}?)")),
    (r"No such option: (?P<name>\S+)$", N_("No such option: {name}")),
    (r"Option '(?P<name>.+)' requires an argument\.$", N_("Option '{name}' requires a value.")),
    (r"Option '(?P<name>.+)' requires (?P<n>\d+) arguments\.$", N_("Option '{name}' requires {n} values.")),
    (r"Option '(?P<name>.+)' does not take a value\.$", N_("Option '{name}' does not take a value.")),
    (r"Got unexpected extra argument(?:s|\(s\))? \((?P<args>.*)\)$", N_("Unexpected extra arguments ({args}).")),
    (r"Invalid value for (?P<name>[^:]+): (?P<detail>.*)$", N_("Invalid value for {name}: {detail}")),
    (r"Invalid value: (?P<detail>.*)$", N_("Invalid value: {detail}")),
)]
#: the details of a bad value (Click's, Typer's and pydantic's wording) → their ids
VALUE_MESSAGES: list[tuple[re.Pattern, str]] = [(re.compile(rx, re.S), msgid) for rx, msgid in (
    (r"(?:Value error, )?'(?P<value>.*)' is not one of (?P<choices>.*)\.$", N_("'{value}' is not one of {choices}.")),
    (r"(?P<value>.*) is not in the range (?P<range>.*)\.$", N_("{value} is not in the range {range}.")),
    (r"Input should be a valid integer.*", N_("a whole number is needed")),
    (r"Input should be a valid number.*", N_("a number is needed")),
    (r"Input should be a valid date.*", N_("a date (YYYY-MM-DD) is needed")),
    (r"Input should be greater than or equal to (?P<min>\S+?)\.?$", N_("at least {min} is needed")),
    (r"Input should be less than or equal to (?P<max>\S+?)\.?$", N_("at most {max} is allowed")),
    (r"Input should be (?P<choices>'.*')$", N_("one of {choices} is needed")),
    (r"(?P<label>File|Directory|Path) '(?P<value>.*)' does not exist\.$", N_("'{value}' does not exist.")),
    (r"Value '(?P<value>.*)' is not a valid (?P<label>\w+)\.$", N_("'{value}' is not valid here.")),
)]
_BAD_VALUE = N_("the value is not valid")


def click_message(text: str, table: list[tuple[re.Pattern, str]] | None = None) -> str:
    """One of Click's (or Typer's) English error messages in the run's language; a wording it does not know says
    only that the value is bad (never an English sentence on a Chinese terminal)."""
    if _language == ENGLISH:
        return text
    for pattern, msgid in table or CLICK_MESSAGES:
        m = pattern.match(text.strip())
        if m:
            fields = dict(m.groupdict())
            if "choices" in fields:
                fields["choices"] = _(", ").join(c.strip() for c in fields["choices"].split(","))
            if "detail" in fields:
                fields["detail"] = click_message(fields["detail"], VALUE_MESSAGES)
            return _(msgid).format(**fields)
    return _(_BAD_VALUE) if table is VALUE_MESSAGES else _(text)


_patched: dict[tuple[object, str], object] = {}


def _patch(owner, name: str, value) -> None:
    _patched.setdefault((owner, name), getattr(owner, name))
    setattr(owner, name, value)


def _restore() -> None:
    for (owner, name), value in _patched.items():
        setattr(owner, name, value)
    _patched.clear()


def activate(lang: str | None = None) -> str:
    """Choose the run's language (``lang``, else :func:`choose_language`) and put Typer's and Click's own texts
    in it. Returns the language."""
    global _translation, _language
    _language = lang or choose_language()
    _translation = _load(_language)
    _restore()
    if _language == ENGLISH:
        return _language
    from typer import core as typer_core
    from typer import rich_utils
    from typer._click import core as click_core
    from typer._click import formatting

    for name, msgid in _RICH_CONSTANTS.items():
        if hasattr(rich_utils, name):
            _patch(rich_utils, name, _(msgid))
    # the highlighter colours the (translated) usage prefix as it did the English one
    rich_utils.OptionHighlighter.highlights = [*rich_utils.OptionHighlighter.highlights,
                                               f"(?P<usage>{re.escape(_(_USAGE))})"]

    write_usage = formatting.HelpFormatter.write_usage

    def translated_usage(self, prog, args="", prefix=None):
        return write_usage(self, prog, args, _(_USAGE) if prefix is None else prefix)

    _patch(formatting.HelpFormatter, "write_usage", translated_usage)

    get_help_option = click_core.Command.get_help_option

    def translated_help_option(self, ctx):
        option = get_help_option(self, ctx)
        if option is not None and option.help == _HELP_OPTION:
            option.help = _(_HELP_OPTION)
        return option

    _patch(click_core.Command, "get_help_option", translated_help_option)

    for cls in (typer_core.TyperOption, typer_core.TyperArgument):
        _patch(cls, "display_type_rich", _type_name(cls.display_type_rich))

    format_error = rich_utils.rich_format_error

    def translated_error(exc):
        if exc.__class__.__name__ != "NoArgsIsHelpError":
            message = click_message(exc.format_message())
            exc.format_message = lambda: message
        return format_error(exc)

    _patch(rich_utils, "rich_format_error", translated_error)
    return _language


def command(app: typer.Typer, lang: str | None = None):
    """The app's Click command in the run's language (a fresh tree each time, so nothing leaks between runs)."""
    activate(lang)
    built = typer.main.get_command(app)
    localize(built)
    return built

