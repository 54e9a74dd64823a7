"""The desk's new-player form takes a passport (护照) as the CLI's ``--passport`` does (the same use case): the
number goes to the report, never onto the public event page; a registry player with a passport is entered with it."""

from __future__ import annotations

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.federation.models import Player
from tests.web.test_desk import flash, live  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

URL = "/desk/events/club-2026/"


def _entrant(name: str):
    t = read_trf(LiveEvent.objects.get(code="club-2026").trf_text)
    return next(e for e in t.entrants if e.name == name)


def test_the_form_offers_the_document_type_and_takes_a_passport(live, staff, login, client):  # noqa: F811
    c = login(staff["arbiter"])
    html = c.get(URL).content.decode()
    assert 'name="id_type"' in html and "护照" in html
    r = c.post(URL + "players/", {"name": "John Smith", "sex": "m", "id_type": "passport", "id_number": "E12345678"})
    assert r.status_code == 302
    e = _entrant("John Smith")
    assert (e.id_type, e.id_number) == ("passport", "E12345678")
    assert "E12345678" not in client.get("/events/club-2026/").content.decode()


def test_a_bad_passport_is_refused_in_the_readers_language(live, staff, login):  # noqa: F811
    c = login(staff["arbiter"])
    r = c.post(URL + "players/", {"name": "Jane Roe", "sex": "w", "id_type": "passport", "id_number": "E1"})
    html = r.content.decode()  # the form comes back with the values typed and the reason beside them
    assert "护照号码" in html and 'value="E1"' in html
    assert not any(e.name == "Jane Roe" for e in read_trf(LiveEvent.objects.get(code="club-2026").trf_text).entrants)


def test_a_registry_player_with_a_passport_is_entered_with_it(live, staff, login, make_player):  # noqa: F811
    p = make_player("Hans Meier", "M", "BJ", id_type="passport", id_number="C01X00T47", nationality="DEU")
    assert Player.objects.get(pk=p.pk).id_type == "passport"
    c = login(staff["arbiter"])
    assert c.post(URL + "players/", {"federation_id": p.federation_id}).status_code == 302
    e = _entrant("Hans Meier")
    assert (e.id_type, e.id_number) == ("passport", "C01X00T47")
