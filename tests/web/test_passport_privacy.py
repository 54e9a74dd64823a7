"""A foreign player's passport number (护照) is personal data like a resident ID: never on a public page, a
public download or the API (the existing checks cover resident IDs; this one a passport)."""

from __future__ import annotations

import pytest

from qiyuan.office.federation.models import Player

pytestmark = pytest.mark.django_db

PASSPORT = "E98765432"


def test_a_passport_number_is_on_no_public_page_download_or_api_answer(client, published):
    p = published["players"][3]
    Player.objects.filter(pk=p.pk).update(id_type="passport", id_number=PASSPORT, nationality="FRA")
    p.refresh_from_db()
    urls = [
        f"/players/{p.federation_id}/", "/lists/gomoku/2026-01-01/", "/lists/gomoku/2026-01-01/?q=吕小军",
        "/lists/gomoku/2026-01-01/2/download.csv", "/lists/gomoku/2026-01-01/2/download.txt",
        "/lists/gomoku/history.csv", f"/events/{published['event'].code}/", f"/players/?q={p.name}",
        f"/api/v1/players/{p.federation_id}", f"/api/v1/players/{p.federation_id}/history",
        f"/api/v1/players?q={p.name}", "/api/v1/lists/gomoku/editions/2026-01-01/2/entries",
        f"/api/v1/events/{published['event'].code}",
    ]
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, url
        body = r.content.decode("utf-8", "replace")
        assert p.name in body or url.endswith((".csv", ".txt")), url
        assert PASSPORT not in body and p.masked_id_number not in body and "E987" not in body, url
