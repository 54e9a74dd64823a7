"""Issue 22, item 3: entrants from the registry by federation ID (``event add-players --registry``)."""

from __future__ import annotations

import pytest

from qiyuan.errors import NotFound
from qiyuan.office.events.entries import registry_entrants


def test_registry_players_become_entrants_in_the_order_given_with_their_latest_rating(published):
    a, b, c, d = published["players"]
    rows = registry_entrants([c.federation_id, a.federation_id.lower()])
    assert [(k, e.name, e.player_id) for k, e in rows] == [(1, c.name, c.federation_id), (2, a.name, a.federation_id)]
    assert rows[1][1].rating == 2012  # the newest edition's rating
    with pytest.raises(NotFound) as exc:
        registry_entrants([a.federation_id, "CN999998", "CN999999"])
    assert [p.params["id"] for p in exc.value.problems] == ["CN999998", "CN999999"]
