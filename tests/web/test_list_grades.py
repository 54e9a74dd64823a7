"""A list page and its API entries show the grade on the player's record now, also when the page was cached
before a grant (docs/decisions.md: the list's grade column after a grant)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from qiyuan.office.grades.grants import grant_grade

pytestmark = pytest.mark.django_db

URL = "/lists/gomoku/2026-01-01/"
API = "/api/v1/lists/gomoku/editions/2026-01-01/2/entries"


def _api_dan(client, query: str, name: str) -> str | None:
    rows = json.loads(client.get(API + query).content)["results"]
    return next((r["player"]["dan"] for r in rows if r["player"]["name"] == name), "absent")


def test_a_grant_after_the_list_page_was_cached_shows_on_it(client, published):
    c = published["players"][2]  # 王芳, registered 2k
    assert "王芳" in client.get(URL + "?dan=2k").content.decode()  # cached now, page and table
    assert "王芳" not in client.get(URL + "?dan=1d").content.decode()
    assert _api_dan(client, "", "王芳") == "2k" and _api_dan(client, "?dan=2k", "王芳") == "2k"
    grant_grade(c, "1d", granted_on=date(2026, 2, 1), granted_by="中国棋院", actor="officer")
    assert "王芳" not in client.get(URL + "?dan=2k").content.decode()
    assert "王芳" in client.get(URL + "?dan=1d").content.decode()
    assert "王芳" in client.get(URL + "?dan=dan").content.decode()
    assert _api_dan(client, "", "王芳") == "1d"
    assert _api_dan(client, "?dan=2k", "王芳") == "absent" and _api_dan(client, "?dan=1d", "王芳") == "1d"


def test_a_grant_changes_the_filtered_download(client, published):
    c = published["players"][2]
    url = "/lists/gomoku/2026-01-01/2/download.csv?dan=1d"
    assert "王芳" not in client.get(url).content.decode()
    grant_grade(c, "1d", granted_on=date(2026, 2, 1), granted_by="中国棋院", actor="officer")
    assert "王芳" in client.get(url).content.decode()
