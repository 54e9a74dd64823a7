"""The what-if shows one row per game for every format (issue 24, item 3): under the averaging methods (a Swiss
event under the CGA rules) each game's opponent, his rating, the result and D, then the event's W, We, K, ΔR."""

from __future__ import annotations

import re

import pytest

from tests.support import sheets

from .test_whatif import _office

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(tmp_path):
    return _office(tmp_path)


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_the_what_if_has_a_row_per_game(client, office, fmt):
    from qiyuan.office.federation.models import Player

    last = office.editions.order_by("-list_date", "-number").first()
    a, b = [Player.objects.get(pk=e["player"]) for e in sheets.entries(last) if e["rating"] is not None][:2]
    html = client.get(f"/players/{a.federation_id}/what-if/?list={office.code}&format={fmt}&opp={b.federation_id}"
                      "&res=1&opp=2100&res=0.5&opp=1900&res=0").content.decode()
    assert "what-if-result" in html, re.findall(r'<ul class="problems".*?</ul>', html, re.S)
    section = html[html.index('id="what-if-result"'):]
    body = section[section.index("<tbody>"):section.index("</tbody>")]
    rows = re.findall(r"<tr>.*?</tr>", body)
    assert len(rows) == 3, body
    assert b.federation_id in rows[0] and "2100" in rows[1] and "1900" in rows[2]
    assert '"c">1<' in rows[0] and '"c">½<' in rows[1] and '"c">0<' in rows[2]
    assert "<tfoot>" in section and "W = 1.5" in section


def test_the_player_page_adds_up_the_events_of_one_period(client, office):
    """Two events in one period start from the same rating: the page says their total and the published rating
    it rounds to (issue 24, item 3)."""
    from collections import Counter
    from decimal import ROUND_HALF_UP, Decimal

    from qiyuan.office.events.models import Event

    editions = {ed.pk: ed for ed in office.editions.all()}
    rows = {pk: sheets.changes(ed) for pk, ed in editions.items()}
    counts = Counter((c["player"], pk) for pk, found in rows.items() for c in found if c["before"] is not None)
    (player_id, edition_id), n = counts.most_common(1)[0]
    assert n >= 2
    end = dict(Event.objects.values_list("pk", "end_date"))
    changes = sorted((c for c in rows[edition_id] if c["player"] == player_id),
                     key=lambda c: (end[c["event"]], c["event"]))
    total = changes[0]["before"] + sum(c["delta"] for c in changes)
    published = next(e["rating"] for e in sheets.entries(editions[edition_id]) if e["player"] == player_id)
    assert published == int(total.quantize(Decimal(1), ROUND_HALF_UP))
    html = client.get(f"/players/{changes[0]['federation_id']}/?calc=all").content.decode()
    day = editions[edition_id].list_date.isoformat()
    line = next(x for x in re.findall(r'<p class="period-total">.*?</p>', html) if day in x)
    assert f"= {total.quantize(Decimal('0.01'))}" in line and f"<strong>{published}</strong>" in line
