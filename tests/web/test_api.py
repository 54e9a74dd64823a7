"""The open-data API (issue 10, item 4): a valid OpenAPI 3.1 document, every response checked against it,
filters as the pages have them, public fields only, CORS for GET, ETags, clear 400s and JSON 404s."""

from __future__ import annotations

import json

import pytest
from jsonschema.validators import Draft202012Validator
from openapi_spec_validator import validate as validate_spec

from qiyuan.web.api.schema import openapi

pytestmark = pytest.mark.django_db

#: the schema of each API path (the part after /api/v1/) for the response checks
ROUTES = [
    (r"^$", "Index"), (r"^lists$", "RatingLists"), (r"^lists/[^/]+$", "RatingListDetail"),
    (r"^lists/[^/]+/editions/[^/]+$", "Edition"), (r"^lists/[^/]+/editions/[^/]+/\d+$", "Edition"),
    (r"^lists/[^/]+/editions/[^/]+/\d+/entries$", "EntryPage"),
    (r"^lists/[^/]+/editions/[^/]+/\d+/changes$", "ChangePage"), (r"^players$", "PlayerSearch"),
    (r"^players/[^/]+$", "PlayerDetail"), (r"^players/[^/]+/history$", "History"), (r"^events$", "EventPage"),
    (r"^events/[^/]+$", "EventDetail"), (r"^calendar/?$", "CalendarPage"),
    (r"^lists/[^/]+/editions/[^/]+/\d+/distribution$", "Distribution"), (r"^changes$", "ChangeFeed"),
    (r"^dump$", "Dump"), (r"^lists/[^/]+/chain$", "Chain"),
]


def check(data: dict, schema: str, status: int = 200) -> None:
    """``data`` conforms to the named component schema (``Errors`` for an error status)."""
    spec = openapi()
    Draft202012Validator({"$ref": f"#/components/schemas/{'Errors' if status >= 400 else schema}",
                          "components": spec["components"]}).validate(data)


def get(client, url: str, status: int = 200, **headers):
    import re

    r = client.get(url, **headers)
    assert r.status_code == status, (url, r.status_code, r.content[:300])
    assert r["Content-Type"].startswith("application/json") and r["Access-Control-Allow-Origin"] == "*"
    data = json.loads(r.content)
    path = url.split("?")[0].removeprefix("/api/v1/")
    schema = next((s for pattern, s in ROUTES if re.match(pattern, path)), None)
    check(data, schema, status)
    return data


def test_the_openapi_document_is_valid_and_served():
    validate_spec(openapi())
    from django.test import Client

    r = Client().get("/api/v1/openapi.json")
    assert r.status_code == 200 and json.loads(r.content)["openapi"].startswith("3.1")


def test_lists_editions_and_entries_follow_the_schema(client, published):
    lists = get(client, "/api/v1/lists")
    assert [x["code"] for x in lists["results"]] == ["gomoku"]
    detail = get(client, "/api/v1/lists/gomoku")
    assert [(e["list_date"], e["number"], e["superseded"]) for e in detail["editions"]] == [
        ("2026-01-01", 2, False), ("2026-01-01", 1, True), ("2025-07-01", 1, False)]
    ed = get(client, "/api/v1/lists/gomoku/editions/2026-01-01")
    assert ed["number"] == 2 and ed["is_correction"] and ed["reason"] == "结果录入错误" and ed["entries_count"] == 4
    page = get(client, ed["entries_url"])
    assert page["count"] == 4 and [e["player"]["name"] for e in page["results"]] == ["李四", "张三", "王芳", "吕小军"]
    first = page["results"][0]
    assert first["rating"] == 2019 and first["rating_change"] == 19 and first["rank_change"] == 1
    assert first["player"]["name_latin"] == "Li Si" and first["player"]["birth_year"] == 2012


def test_entries_filter_and_paginate_as_the_list_page(client, published):
    url = "/api/v1/lists/gomoku/editions/2026-01-01/2/entries"
    women = get(client, url + "?gender=F")
    assert [e["player"]["name"] for e in women["results"]] == ["王芳"]
    assert [e["player"]["name"] for e in get(client, url + "?q=zs")["results"]] == ["张三"]
    two = get(client, url + "?page_size=2")
    assert two["pages"] == 2 and two["next"].endswith("page=2") and len(two["results"]) == 2
    second = get(client, two["next"])
    assert second["previous"] and len(second["results"]) == 2
    everyone = get(client, url + "?status=all&order=-change")
    assert [e["rating_change"] for e in everyone["results"]][0] == 19


@pytest.mark.parametrize("query, parameter", [
    ("gender=X", "gender"), ("age=U99", "age"), ("born_from=abc", "born_from"), ("status=gone", "status"),
    ("dan=zz", "dan"), ("page=0", "page"), ("page_size=5000", "page_size"), ("association=NOPE", "association"),
    ("colour=red", "colour"), ("page=9", "page"), ("order=random", "order"),
])
def test_a_bad_parameter_is_a_400_naming_it(client, published, query, parameter):
    data = get(client, f"/api/v1/lists/gomoku/editions/2026-01-01/2/entries?{query}", 400)
    assert parameter in [e["parameter"] for e in data["errors"]], data
    assert all(e["message"] and e["code"] for e in data["errors"])


def test_players_their_history_and_search_never_show_id_numbers_or_birth_dates(client, published):
    a = published["players"][0]
    found = get(client, "/api/v1/players?q=zhangsan")
    assert [p["federation_id"] for p in found["results"]] == [a.federation_id]
    assert found["results"][0]["ratings"][0]["rating"] == 2012
    detail = get(client, f"/api/v1/players/{a.federation_id}")
    assert detail["birth_year"] == 1990 and detail["name_latin"] == "Zhang San"
    history = get(client, detail["history_url"])
    (gomoku,) = history["lists"]
    assert [r["list_date"] for r in gomoku["ratings"]] == ["2025-07-01", "2026-01-01"]
    (change,) = gomoku["changes"]
    assert change["delta"] == "11.8500" and change["before"] == "2050.0000" and change["event"]["code"] == "2025-bj-open"
    for url in ("/api/v1/players?q=zhangsan", f"/api/v1/players/{a.federation_id}", detail["history_url"],
                "/api/v1/events/2025-bj-open", "/api/v1/lists/gomoku/editions/2026-01-01/2/entries?status=all"):
        body = client.get(url).content.decode()
        for p in published["players"]:
            assert p.id_number not in body and p.birth_date.isoformat() not in body, url
        assert "id_number" not in body


def test_events_with_games_and_rating_changes(client, published):
    events = get(client, "/api/v1/events")
    assert [e["code"] for e in events["results"]] == ["2026-sh-cup", "2025-bj-open"]
    assert get(client, "/api/v1/events?status=rated&format=swiss")["count"] == 1
    assert get(client, "/api/v1/events?year=2026")["results"][0]["code"] == "2026-sh-cup"
    event = get(client, "/api/v1/events/2025-bj-open")
    assert event["rounds"] == 3 and len(event["games"]) == 6 and len(event["entrants"]) == 4
    assert event["games"][0] == {"round": 1, "player1": "CN000001", "player2": "CN000002", "result": "1-0",
                                 "opener": None}
    assert [c["delta"] for c in event["rating_changes"]] == ["11.8500"]
    changes = get(client, "/api/v1/lists/gomoku/editions/2026-01-01/2/changes?event=2025-bj-open")
    assert changes["count"] == 1 and changes["results"][0]["player"]["federation_id"] == "CN000001"


def test_unknown_things_are_json_404s_and_writes_are_refused(client, published):
    for url in ("/api/v1/lists/nope", "/api/v1/players/CN999999", "/api/v1/events/nope",
                "/api/v1/lists/gomoku/editions/2026-13-01/1", "/api/v1/lists/gomoku/editions/2020-01-01/1",
                "/api/v1/nothing/here", "/api/v2/lists"):
        get(client, url, 404)
    r = client.post("/api/v1/lists", {"x": "1"})
    assert r.status_code == 405 and r["Allow"] == "GET, HEAD, OPTIONS"
    check(json.loads(r.content), "Errors", 405)
    r = client.options("/api/v1/lists", HTTP_ORIGIN="https://example.org",
                       HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET")
    assert r.status_code == 204 and r["Access-Control-Allow-Origin"] == "*" and "GET" in r[
        "Access-Control-Allow-Methods"]


def test_a_numbered_editions_entries_are_immutable_with_an_etag(client, published):
    url = "/api/v1/lists/gomoku/editions/2026-01-01/2/entries?gender=F"
    r = client.get(url)
    assert "immutable" in r["Cache-Control"] and "max-age=31536000" in r["Cache-Control"] and r["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304 and again["ETag"] == r["ETag"]
    other = client.get(url.replace("gender=F", "gender=M"), HTTP_IF_NONE_MATCH=r["ETag"])
    assert other.status_code == 200 and other["ETag"] != r["ETag"]


def test_the_api_speaks_english_whatever_the_browser_asks(client, published):
    client.cookies["django_language"] = "zh-hans"
    data = get(client, "/api/v1/lists/gomoku/editions/2026-01-01/2/entries?gender=X", 400,
               HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert data["errors"][0]["message"] == "Sex: “X” is not one of the choices"


def test_every_response_of_a_demo_crawl_follows_the_schema(client):
    """The demo office: lists, every edition's first page, players, their histories and events."""
    from qiyuan.office.demo import build_demo

    build_demo(seed=7, bundles=False, verify=False)  # verified in tests/office/test_demo.py
    seen = 0
    lists = get(client, "/api/v1/lists")
    for rl in lists["results"]:
        detail = get(client, rl["url"])
        for ed in detail["editions"][:4]:
            edition = get(client, ed["url"])
            entries = get(client, edition["entries_url"] + "?status=all&page_size=50")
            get(client, edition["changes_url"] + "?page_size=50")
            for e in entries["results"][:5]:
                fid = e["player"]["federation_id"]
                get(client, f"/api/v1/players/{fid}")
                get(client, f"/api/v1/players/{fid}/history")
                seen += 1
    events = get(client, "/api/v1/events?page_size=20")
    for e in events["results"]:
        get(client, e["url"])
    assert seen >= 20 and events["count"] > 100
