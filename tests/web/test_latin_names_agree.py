"""One Latin spelling (people.pinyin) everywhere a name or place is written in Latin letters: the office's
public export, the portal's download, its English pages and the API write "Ouyang Yaoxin" (never "ou yang yao
xin"), and the English calendar writes a city as place_latin does (西安 → Xi'an)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.utils import translation

from qiyuan.office.exports import export_edition
from qiyuan.office.federation.models import Player
from qiyuan.people.pinyin import latin_name, place_latin
from qiyuan.web.calendar_labels import city_label
from tests.support import sheets

pytestmark = pytest.mark.django_db


def _row(text: str, fid: str) -> dict:
    return next(r for r in csv.DictReader(io.StringIO(text.lstrip("\ufeff"))) if r["federation_id"] == fid)


def test_an_office_export_row_spells_the_name_as_the_portal_and_the_api(client, published, tmp_path):
    p = published["players"][0]
    Player.objects.filter(pk=p.pk).update(name="欧阳耀新", name_latin="")
    for ed in published["editions"]:  # (published without a name of its own)
        sheets.edit_row(ed, "entries", lambda e: e["player"] == p.pk, name="")
    ed = published["editions"][2]
    out = tmp_path / "list.csv"
    export_edition(ed, "csv", out)
    office = _row(out.read_text(encoding="utf-8"), p.federation_id)
    assert office["name_latin"] == "Ouyang Yaoxin" == latin_name("欧阳耀新")
    portal = _row(client.get("/lists/gomoku/2026-01-01/2/download.csv").content.decode(), p.federation_id)
    assert portal["name_latin"] == office["name_latin"] and portal["name"] == office["name"] == "欧阳耀新"
    api = json.loads(client.get(f"/api/v1/players/{p.federation_id}").content)
    assert api["name_latin"] == "Ouyang Yaoxin"
    client.get("/language/en/")
    assert "Ouyang Yaoxin" in client.get("/lists/gomoku/2026-01-01/").content.decode()


def test_a_registry_latin_spelling_wins_everywhere(client, published, tmp_path):
    p = published["players"][1]
    Player.objects.filter(pk=p.pk).update(name_latin="Lee Sze")
    out = tmp_path / "list.csv"
    export_edition(published["editions"][2], "csv", out)
    assert _row(out.read_text(encoding="utf-8"), p.federation_id)["name_latin"] == "Lee Sze"
    assert _row(client.get("/lists/gomoku/2026-01-01/2/download.csv").content.decode(),
                p.federation_id)["name_latin"] == "Lee Sze"


def test_the_english_calendar_spells_a_city_as_place_latin():
    with translation.override("en"):
        assert city_label("西安") == place_latin("西安") == "Xi'an"
        assert city_label("吕梁") == "Lüliang" and city_label("北京") == "Beijing"
    with translation.override("zh-hans"):
        assert city_label("西安") == "西安"
