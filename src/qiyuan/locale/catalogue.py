"""What the translation catalogues must hold (翻译目录检查), and what they lack.

Message ids are of two kinds: the Chinese text of the templates (translated by the ``en`` catalogue) and the
English templates of ``Problem`` messages and other Python strings (translated by the ``zh_Hans`` catalogue).
This module finds every id the portal and the API use — ``{% translate %}`` / ``{% blocktranslate %}`` in their
templates, ``gettext``-family calls and ``problem(...)`` templates in their Python code — and says, per
catalogue, which are missing or empty and which translations use a placeholder their id does not have.

    python -m qiyuan.locale.catalogue            # report; exit 1 when something is missing
    python -m qiyuan.locale.catalogue --add      # append the missing ids (empty) under a marked section

The staff desk (templates/desk, web/desk) is checked like the portal, and so is the command line: every
``_()``/``N_()``/``problem()`` id of its modules, and in the modules listed in ``CLI_TRANSLATED`` also the
``--help`` texts (``help=`` of options, arguments and groups, the commands' docstrings) — the ids
``qiyuan.cli.lang`` translates at run time.
No GNU gettext is needed (``makemessages`` remains an option where xgettext exists).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .msgfmt import parse_po

LOCALE = Path(__file__).resolve().parent
SRC = LOCALE.parent
WEB = SRC / "web"

#: template and Python sources whose strings must be translated both ways
TEMPLATE_DIRS = (WEB / "templates" / "portal", WEB / "templates" / "registration", WEB / "templates" / "api",
                 WEB / "templates" / "desk", WEB / "templates" / "hall")
TEMPLATE_FILES = (WEB / "templates" / "base.html", WEB / "templates" / "403.html", WEB / "templates" / "404.html")
PYTHON_EXCLUDED = ()
#: the readers of what enters the office and the import's steps: their refusals and notes are shown on the desk
IMPORT_MODULES = tuple(SRC / "formats" / f"{m}.py" for m in (
    "report_xlsx", "trf", "trf26", "opengotha", "h9", "history_csv", "registration_csv", "entries", "seed_list")) + (
    SRC / "office" / "imports", SRC / "office" / "backup.py", SRC / "office" / "backup_checks.py",
    SRC / "office" / "registry" / "lists.py", SRC / "tournament" / "eventfile.py", SRC / "rating" / "eligibility.py",
    SRC / "office" / "event_registration" / "results.py", SRC / "people" / "idnumber.py")
#: refusals shown on the phones and the desk from outside the web package (the hall's rules and use cases)
PYTHON_EXTRA = (SRC / "tournament" / "hall.py", SRC / "tournament" / "sheets.py", SRC / "tournament" / "check",
                SRC / "tournament" / "systems",
                SRC / "tournament" / "knockout.py", SRC / "tournament" / "minimatch.py", SRC / "office" / "hall", SRC / "kit",
                SRC / "office" / "signing_key.py", SRC / "office" / "heads.py", SRC / "office" / "event_registration", SRC / "grading",
                SRC / "formats" / "edition_bundle.py", SRC / "formats" / "chain_head.py",
                SRC / "office" / "grades", SRC / "sandbox", SRC / "office" / "registry",
                *(SRC / "office" / f"{m}.py" for m in ("exports", "merged", "lists", "verify", "records", "setup",
                                                       "secret_key", "plausibility", "sheets", "periods")),
                SRC / "office" / "audit" / "chain.py", *IMPORT_MODULES)
CLI = SRC / "cli"
#: command-line modules whose --help texts are translated (the others: their messages only, where marked)
CLI_TRANSLATED = ("__init__.py", "lang.py", "rating.py", "web.py", "users.py", "kit.py", "office_key.py", "tournament.py", "go.py", "office.py", "office_data.py", "rules_cmd.py", "audit_flags.py", "calendar.py", "dan.py", "event_check.py")

GETTEXT = {"_", "N_", "gettext", "gettext_lazy", "gettext_noop", "pgettext", "pgettext_lazy", "ngettext",
           "ngettext_lazy", "npgettext", "npgettext_lazy"}
#: Chinese characters and Chinese punctuation (、，：（）…)
_CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
_TAG = re.compile(r"{%\s*(?:translate|trans)\s+(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')(?:\s+[^%]*)?%}")
_BLOCK = re.compile(r"{%\s*blocktrans(?:late)?\b([^%]*)%}(.*?){%\s*endblocktrans(?:late)?\s*%}", re.S)
_VAR = re.compile(r"{{\s*(\w+)\s*}}")
_PERCENT = re.compile(r"%\((\w+)\)[sd]")
_BRACE = re.compile(r"{(\w+)}")


@dataclass(frozen=True)
class Msgid:
    text: str
    plural: str = ""

    @property
    def chinese(self) -> bool:
        """A Chinese id (the en catalogue translates it); else an English one (the zh_Hans catalogue does)."""
        return bool(_CHINESE.search(self.text))

    @property
    def key(self) -> str:
        """The id as the compiled catalogue keys it."""
        return self.text + ("\x00" + self.plural if self.plural else "")


def _block_text(body: str, trimmed: bool) -> str:
    text = _VAR.sub(lambda m: f"%({m.group(1)})s", body.replace("%", "%%"))
    if trimmed:
        text = " ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return text


def template_msgids(text: str) -> list[Msgid]:
    """The ids of one Django template."""
    out = [Msgid(ast.literal_eval(m.group(1))) for m in _TAG.finditer(text)]
    for m in _BLOCK.finditer(text):
        options, body = m.group(1), m.group(2)
        trimmed = "trimmed" in options.split()
        parts = re.split(r"{%\s*plural\s*%}", body, maxsplit=1)
        singular, plural = parts[0], parts[1] if len(parts) > 1 else ""
        out.append(Msgid(_block_text(singular, trimmed), _block_text(plural, trimmed) if plural else ""))
    return out


def python_msgids(text: str, filename: str = "<python>") -> list[Msgid]:
    """The ids of one Python module: gettext-family calls, and the templates of ``problem()`` (and of any function
    whose name ends in ``problem``: its first argument, or else its last positional text, is a template) and of
    ``Problem(message=…)``."""
    out: list[Msgid] = []
    for node in ast.walk(ast.parse(text, filename)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if name in GETTEXT and args:
            if name.startswith(("np", "p")):
                args = args[1:]
            if name.startswith(("n", "np")) and len(args) >= 2:
                out.append(Msgid(args[0], args[1]))
            elif args:
                out.append(Msgid(args[0]))
        elif name.endswith("problem") and args:
            # the template: the first argument when it is a text (problem("…", …)), else the last positional text
            # (a reader's self.problem(line, column, "…", …))
            first = node.args[0]
            out.append(Msgid(first.value if isinstance(first, ast.Constant) and isinstance(first.value, str)
                             else args[-1]))
        elif name == "Problem":
            for kw in node.keywords:
                if kw.arg == "message" and isinstance(kw.value, ast.Constant) and kw.value.value:
                    out.append(Msgid(kw.value.value))
    return out


def _is_typer_param(node: ast.AST | None) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in ("Option", "Argument") for n in ast.walk(node)) \
        if node is not None else False


def cli_help_msgids(text: str, filename: str = "<python>") -> list[Msgid]:
    """The --help ids of one command-line module: every ``help=`` text, and the docstring of every function
    taking Typer options or arguments or decorated as a command (Typer shows its docstring, cleaned as
    ``inspect.getdoc``)."""
    import inspect

    out: list[Msgid] = []
    for node in ast.walk(ast.parse(text, filename)):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "help" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    out.append(Msgid(kw.value.value))
        elif isinstance(node, ast.FunctionDef):
            args = node.args.args + node.args.kwonlyargs
            defaults = node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
            command = any(isinstance(d, ast.Call) and getattr(d.func, "attr", "") in ("command", "callback")
                          for d in node.decorator_list)
            if command or any(_is_typer_param(a.annotation) for a in args) or any(_is_typer_param(d) for d in defaults):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    out.append(Msgid(inspect.cleandoc(doc)))
    return out


def sources() -> tuple[list[Path], list[Path]]:
    """(templates, Python modules) whose strings must be translated."""
    templates = [p for d in TEMPLATE_DIRS if d.exists() for p in sorted(d.rglob("*.html"))]
    templates += [p for p in TEMPLATE_FILES if p.exists()]
    python = [p for p in sorted(WEB.rglob("*.py")) if not any(p.is_relative_to(x) for x in PYTHON_EXCLUDED)
              and "migrations" not in p.parts]
    for extra in PYTHON_EXTRA:
        python += sorted(p for p in extra.rglob("*.py") if "migrations" not in p.parts) if extra.is_dir() else [extra]
    python += sorted(CLI.glob("*.py"))
    return templates, python


def used_msgids() -> dict[Msgid, set[str]]:
    """Every id the portal and the API use, with the files using it."""
    found: dict[Msgid, set[str]] = {}
    templates, python = sources()
    for path in templates:
        for m in template_msgids(path.read_text(encoding="utf-8")):
            found.setdefault(m, set()).add(str(path.relative_to(SRC)))
    for path in python:
        text = path.read_text(encoding="utf-8")
        ids = python_msgids(text, str(path))
        if path.parent == CLI and path.name in CLI_TRANSLATED:
            ids += cli_help_msgids(text, str(path))
        for m in ids:
            found.setdefault(m, set()).add(str(path.relative_to(SRC)))
    return found


def catalogue_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def read_catalogue(language: str) -> dict[str, str]:
    path = catalogue_path(language)
    return parse_po(path.read_text(encoding="utf-8"), str(path)) if path.exists() else {}


def placeholders(text: str) -> set[str]:
    return set(_PERCENT.findall(text)) | set(_BRACE.findall(text))


@dataclass
class Report:
    missing: dict[str, list[Msgid]]  # language → ids without a translation
    empty: dict[str, list[str]]  # language → catalogue entries with an empty translation
    broken: dict[str, list[str]]  # language → entries whose translation has a placeholder its id lacks

    @property
    def ok(self) -> bool:
        return not any(self.missing.values()) and not any(self.empty.values()) and not any(self.broken.values())


def check(used: Iterable[Msgid] | None = None) -> Report:
    used = list(used_msgids() if used is None else used)
    report = Report({}, {}, {})
    for language, wants_chinese in (("en", True), ("zh_Hans", False)):
        cat = read_catalogue(language)
        report.missing[language] = sorted(
            (m for m in used if m.chinese == wants_chinese and not cat.get(m.key, "").strip("\x00")),
            key=lambda m: m.text)
        report.empty[language] = sorted(k for k, v in cat.items() if k and not v.replace("\x00", "").strip())
        # a translation may leave out a value (the codes a Chinese message need not list), never add one
        report.broken[language] = sorted(
            k for k, v in cat.items() if k and v and any(not placeholders(form) <= placeholders(k.split("\x00")[0])
                                                         for form in v.split("\x00")))
    return report


def _po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def add_missing(report: Report, section: str = "portal and API") -> dict[str, int]:
    """Append each catalogue's missing ids with empty translations under a ``# ---- section`` comment."""
    added = {}
    for language, ids in report.missing.items():
        if not ids:
            continue
        path = catalogue_path(language)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(
                'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                f'"Language: {language}\\n"\n"Plural-Forms: nplurals=1; plural=0;\\n"\n', encoding="utf-8")
        chunks = [f"\n# ---- {section}"]
        for m in ids:
            flag = "#, python-format\n" if _PERCENT.search(m.text) else ""
            if m.plural:
                chunks.append(f"{flag}msgid {_po_string(m.text)}\nmsgid_plural {_po_string(m.plural)}\n"
                              'msgstr[0] ""\nmsgstr[1] ""')
            else:
                chunks.append(f"{flag}msgid {_po_string(m.text)}\nmsgstr \"\"")
        with path.open("a", encoding="utf-8") as f:
            f.write("\n\n".join(chunks) + "\n")
        added[language] = len(ids)
    return added


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    report = check()
    if "--add" in argv:
        for language, n in add_missing(report).items():
            print(f"{catalogue_path(language)}: {n} id(s) added, to be translated")
        return 0
    for language in ("en", "zh_Hans"):
        for m in report.missing[language]:
            print(f"{language}: missing: {m.text!r}" + (f" / {m.plural!r}" if m.plural else ""))
        for k in report.empty[language]:
            print(f"{language}: empty translation: {k!r}")
        for k in report.broken[language]:
            print(f"{language}: placeholders differ: {k!r}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
