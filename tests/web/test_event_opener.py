"""Who opened each game (先/后) on the public page of an imported event: the crosstable marks the opener ``b``
and the other ``w``, and each round's pairings name the opener first; a game whose opener is unknown stays ``-``."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LICHESS = REPO.parent / "shared" / "data" / "trf" / "lichess-swiss-2020-05-29.trf"

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported():
    from qiyuan.formats.trf import read_trf
    from qiyuan.office.events.models import Event
    from qiyuan.office.ratings.models import RatingList
    from qiyuan.office.imports import Options, import_file

    rl = RatingList.objects.create(code="GO", title="围棋", rules_name="cn-go-1995", game="go")
    import_file(LICHESS, rl, "officer", options=Options(confirm_all=True, organiser_level="state", national=True,
                                                        international=False, format="swiss"))
    return Event.objects.get(), read_trf(LICHESS)


def _section(html: str, start: str, end: str) -> str:
    i = html.index(start)
    return html[i:html.index(end, i)]


def _boards(section: str) -> list[tuple[str, str]]:
    """(first-named, second-named) player of each board of a round section."""
    rows = re.findall(r'<tr><td class="num">\d+</td><td>\d+\. ([^<]*)</td><td class="c">[^<]*</td>'
                      r'<td>\d+\. ([^<]*)</td></tr>', section)
    return [(htmllib.unescape(a), htmllib.unescape(b)) for a, b in rows]


def test_imported_event_pairings_name_the_opener_first(client, imported):
    event, t = imported
    html = client.get(f"/events/{event.code}/").content.decode()
    name = {e.number: e.name for e in t.entrants}
    expected = {(name[e.number], name[c.opponent]) for e in t.entrants for c in e.rounds[:1]
                if c.opponent and c.colour == "b"}
    assert len(expected) == 5  # round 1 of the file: five boards, every colour known
    section = _section(html, 'id="round-1"', "</section>")
    assert "黑方" in section and "先手" not in section  # an event of a Go list speaks Go (issue 31): black first
    assert set(_boards(section)) == expected


def test_imported_event_crosstable_marks_opener_and_other(client, imported):
    event, t = imported
    html = client.get(f"/events/{event.code}/").content.decode()
    table = _section(html, 'id="crosstable-table"', "</table>")
    first = t.entrants[0]  # mattderkuerschner: round 1 opened against 13, round 2 second against 4
    assert (first.rounds[0].opponent, first.rounds[0].colour) == (13, "b")
    assert (first.rounds[1].opponent, first.rounds[1].colour) == (4, "w")
    assert ">13b 1<" in table and ">4w 1<" in table and ">1b 0<" in table


def test_imported_event_unknown_opener_is_not_guessed(client, imported):
    from qiyuan.office.events.models import Game

    event, _t = imported
    Game.objects.filter(event=event, round=1).update(opener=None)
    html = client.get(f"/events/{event.code}/").content.decode()
    section = _section(html, 'id="round-1"', "</section>")
    assert "先手（假先）" not in section and "对手" in section
    table = _section(html, 'id="crosstable-table"', "</table>")
    assert ">13 1<" in table and ">4w 1<" in table
