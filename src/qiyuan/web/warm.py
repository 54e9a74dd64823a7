"""What a server process would otherwise do on its first request, done once before the workers are forked
(``qiyuan serve --production`` and ``--hall`` load the site with gunicorn's ``preload_app``: the workers share it):
every view imported, every template of the site compiled, the URL names reversed in each language with its
translation catalogue loaded, the pinyin dictionaries read (an English page's names are written in pinyin)
(``warm``); then each worker, before it takes its first request, decodes the columns of the current editions the
public pages read (``warm_sheets``: the columns are decoded by polars, whose threads do not survive a fork, so
each worker decodes its own). The first visitor after a restart then waits only for his own page's work."""

from __future__ import annotations

import gc
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError
from django.template.loader import get_template
from django.urls import get_resolver, reverse
from django.utils import translation

from qiyuan.formats import edition_sheet as S
from qiyuan.formats.edition_sheet import SheetError
from qiyuan.office import sheets
from qiyuan.people.pinyin import latin_name
from qiyuan.web.portal.editions import current_edition_ids, editions_by_id

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: the newest current editions of each list whose changes' numbers and explanations are decoded at the start (a
#: player page's calculations are of his newest events: most of them published on these)
EXPLAINED_EDITIONS = 10


def warm_sheets() -> None:
    """The columns the public pages read of the current editions (``sheets``' per-process cache, never stale):
    a player page's of each one, with its players' sorted keys and its changes' keys and ratings before; a list page's of the newest
    edition of each list, and its previous edition's ratings and ranks. A sheet that cannot be read is left to
    the page that reads it (which says so)."""
    try:
        _warm_sheets()
    except DatabaseError:  # (a database not there yet: the pages will say so)
        pass


def _warm_sheets() -> None:
    editions = editions_by_id()
    current = [editions[pk] for pk in sorted(current_edition_ids())]
    newest: dict[int, object] = {}
    for ed in current:
        top = newest.get(ed.rating_list_id)
        if top is None or (ed.list_date, ed.number) > (top.list_date, top.number):
            newest[ed.rating_list_id] = ed
    _keep(current, "entries", ("player", *sheets.PUBLISHED_COLUMNS), index=True)
    _keep(current, "changes", ("player", "event", "before"))  # (before: his opponents' under averaging methods)
    _keep(list(newest.values()), "entries", ("player", "status", *sheets.ROW_COLUMNS))
    _keep([editions[ed.previous_id] for ed in newest.values() if ed.previous_id is not None], "entries",
          ("player", "rating", "rank"), index=True)
    by_list: dict[int, list] = {}
    for ed in sorted(current, key=lambda ed: (ed.list_date, ed.number), reverse=True):
        by_list.setdefault(ed.rating_list_id, []).append(ed)
    _keep([ed for eds in by_list.values() for ed in eds[:EXPLAINED_EDITIONS]], "changes",
          (*S.CHANGE_NUMBER_COLUMNS, "explanation"))


def _keep(eds: list, part: str, names: tuple[str, ...], *, index: bool = False) -> None:
    """``sheets.keep`` of the editions together, or — one of them not readable — of each other one alone."""
    try:
        sheets.keep(eds, part, names, index=index)
    except (sheets.MissingSheet, SheetError):
        for ed in eds:
            try:
                sheets.keep([ed], part, names, index=index)
            except (sheets.MissingSheet, SheetError):
                continue


def warm() -> list[str]:
    """Load what the first requests would (idempotent); the names of the templates compiled."""
    get_resolver().url_patterns  # import every view
    names = [path.relative_to(TEMPLATES).as_posix() for path in sorted(TEMPLATES.rglob("*.html"))]
    for name in names:
        get_template(name)  # (kept compiled by Django's cached template loader)
    for code, _label in settings.LANGUAGES:
        with translation.override(code):
            reverse("portal:home")  # (the resolver's names, per language)
    latin_name("王")
    # what is loaded stays for the process's life: out of the collector's sight, so that a worker's collections
    # neither walk it nor — writing to each object they visit — copy the pages it shares with the others
    gc.collect()
    gc.freeze()
    return names
