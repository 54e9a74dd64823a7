"""The event calendar in the JSON API (issue 14, item 4): ``/api/v1/calendar`` lists the approved
registrations only, public fields only (never who registered or decided, reasons or arbiters), filtered by list,
city and month as the portal's /calendar/ page, paginated like the other endpoints, and follows its schema."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from qiyuan.web.api.schema import openapi
from tests.web.test_api import get
from tests.web.test_calendar_portal import SOON, calendar  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

URL = "/api/v1/calendar"


def names(data: dict) -> list[str]:
    return [r["name"] for r in data["results"]]


def test_the_calendar_lists_approved_events_only_with_public_fields(client, calendar):  # noqa: F811
    data = get(client, URL)
    assert names(data) == ["2024年全国五子棋锦标赛", "2027年全国五子棋锦标赛", "上海五子棋公开赛"]  # by start date
    body = json.dumps(data, ensure_ascii=False)
    assert "待批准的比赛" not in body and "被拒绝的比赛" not in body
    for private in ("officer", "周裁判", "吴裁判", "test", "registered_by", "decided", "reason", "assessment"):
        assert private not in body, private
    past, national, _sh = data["results"]
    assert past["result"] == {"code": "CGA-20240813-abc", "name": "2024年全国五子棋锦标赛", "name_en": None,
                              "end_date": past["end_date"], "url": "/api/v1/events/CGA-20240813-abc"}
    assert past["upcoming"] is False and national["upcoming"] is True and national["result"] is None
    assert national["name_en"] == "2027 National Gomoku Championship" and national["list"] == "CGA"
    assert national["time_minutes"] == 60 and national["rounds"] == 7 and national["city"] == "北京"
    assert get(client, URL + "/")["count"] == 3  # with or without the slash


def test_filters_as_the_calendar_page(client, calendar):  # noqa: F811
    assert "上海五子棋公开赛" not in names(get(client, URL + "?list=CGA"))
    assert names(get(client, URL + "?city=上海")) == ["上海五子棋公开赛"]
    assert names(get(client, f"{URL}?month={SOON:%Y-%m}")) == ["2027年全国五子棋锦标赛"] + (
        ["上海五子棋公开赛"] if f"{SOON + timedelta(days=35):%Y-%m}" == f"{SOON:%Y-%m}" else [])
    assert get(client, f"{URL}?month={SOON:%Y-%m}&list=BJSH")["count"] == (
        1 if f"{SOON + timedelta(days=35):%Y-%m}" == f"{SOON:%Y-%m}" else 0)


def test_paginated_like_the_other_endpoints(client, calendar):  # noqa: F811
    first = get(client, URL + "?page_size=2")
    assert first["count"] == 3 and first["pages"] == 2 and len(first["results"]) == 2 and first["previous"] is None
    second = get(client, first["next"])
    assert names(second) == ["上海五子棋公开赛"] and second["next"] is None


@pytest.mark.parametrize("query, parameter", [
    ("month=2027-13", "month"), ("month=abc", "month"), ("month=1%002", "month"), ("list=NOPE", "list"),
    ("page=9", "page"), ("page_size=0", "page_size"), ("who=1", "who"), ("list=%E4%00", "list")])
def test_a_bad_parameter_is_a_400_naming_it(client, calendar, query, parameter):  # noqa: F811
    data = get(client, f"{URL}?{query}", 400)
    assert parameter in [e["parameter"] for e in data["errors"]]


def test_the_calendar_is_in_the_schema_and_the_index(client, calendar):  # noqa: F811
    op = openapi()["paths"]["/api/v1/calendar"]["get"]
    assert {p["name"] for p in op["parameters"]} == {"list", "city", "month", "page", "page_size"}
    assert get(client, "/api/v1/")["calendar"] == URL
