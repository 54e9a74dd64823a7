"""Who opened each game (先/后) is kept on import: report and TRF colours (``b`` = the opener), OpenGotha black."""

from __future__ import annotations

import pytest

from ._o2_fixtures import SHARED, confirm_all, make_list, stated
from .test_import_report import _ranks, field_of, office, write  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

LICHESS = SHARED / "data" / "trf" / "lichess-swiss-2020-05-29.trf"
JUVISY = SHARED / "data" / "opengotha" / "tournoi-de-juvisy-2019.xml"


def _openers_in_file(t) -> dict[tuple[int, frozenset], int]:
    """(round, {draw numbers}) → the draw number of the opener, from the file's colours."""
    out = {}
    for e in t.entrants:
        for rnd, cell in enumerate(e.rounds, start=1):
            if cell.opponent and cell.colour == "b":
                out[(rnd, frozenset((e.number, cell.opponent)))] = e.number
    return out


def _openers_stored() -> dict[tuple[int, frozenset], int | None]:
    from qiyuan.office.events.models import Entry, Game

    number = {(en.event_id, en.player_id): en.number for en in Entry.objects.all()}
    out = {}
    for g in Game.objects.all():
        a, b = number[(g.event_id, g.player1_id)], number[(g.event_id, g.player2_id)]
        out[(g.round, frozenset((a, b)))] = {1: a, 2: b, None: None}[g.opener]
    return out


def test_report_colours_give_the_opener(office, tmp_path, resident_id):
    from qiyuan.formats.report_xlsx import read_report
    from qiyuan.office.imports import import_file

    path = write(tmp_path / "r.xlsx", field_of(resident_id))
    import_file(path, office, "officer", options=confirm_all())
    expected = _openers_in_file(read_report(path)[0])
    stored = _openers_stored()
    assert expected and stored == expected


def test_trf_colours_give_the_opener():
    from qiyuan.formats.trf import read_trf
    from qiyuan.office.imports import Options, import_file

    rl = make_list(code="GO", rules="cn-go-1995", game="go")  # a list whose rules take the file as it is
    import_file(LICHESS, rl, "officer", options=stated(confirm_all=True))
    expected = _openers_in_file(read_trf(LICHESS))
    stored = _openers_stored()
    assert expected
    assert {k: v for k, v in stored.items() if k in expected} == expected
    assert all(v is None for k, v in stored.items() if k not in expected)  # no colour in the file: unknown


def test_opengotha_black_opens():
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file

    import_file(JUVISY, make_list(code="GO", rules="cn-go-1995", game="go"), "officer", options=stated(confirm_all=True))
    assert Game.objects.exists() and set(Game.objects.values_list("opener", flat=True)) == {1}
