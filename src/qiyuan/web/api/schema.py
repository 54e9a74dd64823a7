"""The OpenAPI 3.1 description of ``/api/v1/`` (served at ``/api/v1/openapi.json``).

Written by hand beside the views: the field names are the API's promise (stable within v1). The tests validate
the document with openapi-spec-validator and every response of a demo crawl against these schemas.
"""

from __future__ import annotations

from functools import cache

from ..portal.filters import AGE_GROUPS, CITY_MAX, EVENT_FORMATS, EVENT_STATUSES, LIST_ORDERS, STATUSES

STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
DATE = {"type": "string", "format": "date"}
DECIMAL = {"type": "string", "pattern": r"^-?\d+(\.\d+)?$", "description": "an exact decimal, as text"}


def nullable(schema: dict) -> dict:
    return {"oneOf": [schema, {"type": "null"}]} if "$ref" in schema else {
        **schema, "type": [schema["type"], "null"]}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def obj(properties: dict, *, required: list[str] | None = None) -> dict:
    return {"type": "object", "properties": properties, "required": required or list(properties),
            "additionalProperties": False}


def page_of(item: str) -> dict:
    return obj({"count": INT, "page": INT, "page_size": INT, "pages": INT, "next": nullable(STR),
                "previous": nullable(STR), "results": {"type": "array", "items": ref(item)}})


def extend(base: dict, properties: dict) -> dict:
    """``base`` with more properties (all required), closed like every schema here."""
    return obj({**base["properties"], **properties}, required=base["required"] + list(properties))


STATUS = {"type": "string", "enum": list(STATUSES)}

SCHEMAS = {
    "Error": obj({"code": STR, "parameter": nullable(STR), "message": STR}),
    "Errors": obj({"errors": {"type": "array", "items": ref("Error"), "minItems": 1}}),
    "Association": obj({"code": STR, "name": STR, "name_en": nullable(STR)}),
    "PlayerRef": obj({"federation_id": STR, "name": STR, "name_latin": nullable(STR)}),
    "Player": obj({
        "federation_id": STR, "name": STR, "name_latin": nullable(STR),
        "gender": nullable({"type": "string", "enum": ["M", "F"]}), "birth_year": nullable(INT),
        "association": nullable(ref("Association")), "dan": nullable(STR),
        "registration_status": {"type": "string", "enum": ["active", "suspended", "retired"]}, "url": STR}),
    "Rating": obj({"list": STR, "list_date": DATE, "edition": INT, "rating": nullable(INT), "rank": nullable(INT),
                   "status": STATUS}),
    "PlayerSearch": extend(page_of("PlayerFound"), {"limit": INT}),
    "EditionRef": obj({"list_date": DATE, "number": INT, "url": STR}),
    "RatingList": obj({"code": STR, "title": STR, "title_en": nullable(STR),
                       "game": {"type": "string", "enum": ["gomoku", "go"]}, "rules": STR, "url": STR,
                       "latest_edition": nullable(ref("EditionRef"))}),
    "RatingLists": obj({"results": {"type": "array", "items": ref("RatingList")}}),
    "Edition": obj({"list_date": DATE, "number": INT, "url": STR, "list": STR, "is_correction": BOOL,
                    "reason": nullable(STR), "published_at": {"type": "string", "format": "date-time"},
                    "superseded": BOOL, "digest": STR, "previous": nullable(ref("EditionRef")),
                    "entries_count": INT, "entries_url": STR, "changes_url": STR, "distribution_url": STR}),
    "EntryPlayer": obj({"federation_id": STR, "name": STR, "name_latin": nullable(STR),
                        "gender": nullable({"type": "string", "enum": ["M", "F"]}), "birth_year": nullable(INT),
                        "association": nullable(ref("Association")), "dan": nullable(STR)}),
    "Entry": obj({"position": INT, "rank": nullable(INT), "player": ref("EntryPlayer"), "name_published": STR,
                  "rating": nullable(INT), "exact": nullable(STR), "games": INT, "k": nullable(INT),
                  "status": STATUS, "is_new": BOOL, "rating_change": nullable(INT), "rank_change": nullable(INT)}),
    "EntryPage": extend(page_of("Entry"), {"edition": ref("EditionRef")}),
    "EventRef": obj({"code": STR, "name": STR, "name_en": nullable(STR), "end_date": DATE, "url": STR}),
    "Change": obj({"games": INT, "W": DECIMAL, "We": nullable(DECIMAL), "K": nullable(INT),
                   "before": nullable(DECIMAL), "after": nullable(DECIMAL), "delta": DECIMAL, "method": STR,
                   "notes": {"type": "array", "items": STR}, "edition": ref("EditionRef"),
                   "player": ref("PlayerRef"), "event": ref("EventRef")}, required=[
        "games", "W", "We", "K", "before", "after", "delta", "method", "notes", "edition"]),
    "ChangePage": extend(page_of("Change"), {"edition": ref("EditionRef")}),
    "Event": obj({"code": STR, "name": STR, "name_en": nullable(STR), "end_date": DATE, "url": STR,
                  "start_date": DATE, "format": {"type": "string", "enum": list(EVENT_FORMATS)}, "rounds": INT,
                  "players": nullable(INT), "city": nullable(STR), "time_control": nullable(STR),
                  "organiser": nullable(STR), "list": STR,
                  "status": {"type": "string", "enum": list(EVENT_STATUSES)}, "national": BOOL,
                  "international": BOOL}),
    "EventPage": page_of("Event"),
    "Game": obj({"round": INT, "player1": STR, "player2": STR,
                 "result": {"type": "string", "enum": ["1-0", "0-1", "0.5-0.5", "+-", "-+", "--", "++", "0-0"]},
                 "opener": nullable(STR)}),
    "History": obj({"player": ref("PlayerRef"), "lists": {"type": "array", "items": obj({
        "list": STR,
        "ratings": {"type": "array", "items": obj({"list_date": DATE, "edition": INT, "rating": nullable(INT),
                                                   "exact": nullable(STR), "rank": nullable(INT), "games": INT,
                                                   "k": nullable(INT), "status": STATUS})},
        "changes": {"type": "array", "items": ref("Change")}})}}),
    "Index": obj({"name": STR, "version": STR, "schema": STR, "lists": STR, "players": STR, "events": STR,
                  "calendar": STR, "changes": STR, "dump": STR,
                  "docs": {"type": "string", "format": "uri", "description": "the open-data page (absolute URL)"}}),
    "ChangeFeed": extend(page_of("Change"), {"since": DATE}),
    "ChainLink": obj({"list_date": DATE, "number": INT, "digest": STR, "previous_digest": STR, "supersedes": STR,
                      "is_correction": BOOL, "file": STR, "bundle": nullable(STR)}),
    "Chain": obj({"list": STR, "public_key": nullable(ref("PublicKey")),
                  "editions": {"type": "array", "items": ref("ChainLink")},
                  "head": STR, "head_signature": STR, "witnesses": STR},
                 required=["list", "public_key", "editions"]),
    "Countersignature": obj({"format": INT, "head": STR, "witness": STR, "public_key": STR, "signature": STR}),
    "Witnesses": obj({"list": STR, "countersignatures": {"type": "array", "items": ref("Countersignature")}}),
    "PublicKey": obj({"url": STR, "fingerprint": STR}),
    "Distribution": obj({
        "edition": ref("EditionRef"), "list": STR, "count": INT, "width": INT, "lowest": nullable(INT),
        "highest": nullable(INT),
        "bins": {"type": "array", "items": obj({"from": INT, "to": INT, "count": INT})},
        "percentiles": {"type": "object", "additionalProperties": INT,
                        "description": "p10, p25, p50, p75, p90, p99 by nearest rank (a rating somebody has)"}}),
    "Dump": obj({"version": STR, "manifest": STR, "formats": STR, "files": {"type": "array", "items": obj({
        "name": STR, "url": STR, "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}, "bytes": INT})}}),
    "CalendarEntry": obj({
        "code": STR, "name": STR, "name_en": nullable(STR), "start_date": DATE, "end_date": DATE, "city": STR,
        "list": STR, "format": {"type": "string", "enum": list(EVENT_FORMATS)}, "rounds": INT,
        "time_control": STR, "time_minutes": INT, "time_increment": INT, "organiser": nullable(STR),
        "national": BOOL, "international": BOOL, "grants_grades": BOOL,
        "upcoming": {"type": "boolean", "description": "not over yet (its last day is today or later)"},
        "result": nullable(ref("EventRef"))}),
    "CalendarPage": page_of("CalendarEntry"),
}

SCHEMAS["PlayerDetail"] = extend(SCHEMAS["Player"], {
    "merged_into": nullable(STR), "ratings": {"type": "array", "items": ref("Rating")}, "history_url": STR})
SCHEMAS["PlayerFound"] = extend(SCHEMAS["Player"], {"ratings": {"type": "array", "items": ref("Rating")}})
SCHEMAS["RatingListDetail"] = extend(SCHEMAS["RatingList"], {
    "editions": {"type": "array", "items": obj({"list_date": DATE, "number": INT, "url": STR,
                                                "is_correction": BOOL, "superseded": BOOL})},
    "history_csv": STR})
SCHEMAS["EventDetail"] = extend(SCHEMAS["Event"], {
    "entrants": {"type": "array", "items": obj({"number": nullable(INT), "rank": nullable(INT),
                                                "score": nullable(DECIMAL), "rating": nullable(INT),
                                                "name_reported": STR, "player": ref("PlayerRef")})},
    "games": {"type": "array", "items": ref("Game")},
    "rating_changes": {"type": "array", "items": ref("Change")}})


def _param(name: str, where: str, schema: dict, description: str, required: bool = False) -> dict:
    return {"name": name, "in": where, "schema": schema, "description": description, "required": required}


PATH = {
    "code": _param("code", "path", STR, "the list's code", True),
    "date": _param("date", "path", DATE, "the list date (YYYY-MM-DD)", True),
    "number": _param("number", "path", {"type": "integer", "minimum": 1}, "the edition number (1, then corrections)",
                     True),
    "federation_id": _param("federation_id", "path", STR, "the player's federation ID (e.g. CN000123)", True),
    "event": _param("event", "path", STR, "the event's code", True),
}
PAGE = [_param("page", "query", {"type": "integer", "minimum": 1}, "page number (from 1)"),
        _param("page_size", "query", {"type": "integer", "minimum": 1, "maximum": 500}, "rows per page (100)")]
LIST_FILTERS = [
    _param("q", "query", {"type": "string", "maxLength": 50}, "name, pinyin, initials, Latin name or federation ID"),
    _param("gender", "query", {"type": "string", "enum": ["M", "F"]}, "M or F"),
    _param("age", "query", {"type": "string", "enum": [f"U{a}" for a in AGE_GROUPS]},
           "age group: born in the list's year minus N or later"),
    _param("born_from", "query", {"type": "integer"}, "born in this year or later"),
    _param("born_to", "query", {"type": "integer"}, "born in this year or earlier"),
    _param("association", "query", STR, "association code"),
    _param("status", "query", {"type": "string", "enum": [*STATUSES, "all"]},
           "status (default: active and inactive)"),
    _param("dan", "query", STR, "dan, kyu or a grade such as 3d"),
    _param("order", "query", {"type": "string", "enum": list(LIST_ORDERS)},
           "position (default) or by rating change (-change: largest rise first)"),
]
EVENT_FILTERS = [
    _param("list", "query", STR, "the list's code"),
    _param("format", "query", {"type": "string", "enum": list(EVENT_FORMATS)}, "event format"),
    _param("year", "query", {"type": "integer"}, "year of the end date"),
    _param("status", "query", {"type": "string", "enum": list(EVENT_STATUSES)}, "pending or rated"),
    _param("q", "query", {"type": "string", "maxLength": 50}, "name, code or city"),
]
CALENDAR_FILTERS = [
    _param("list", "query", STR, "the list's code"),
    _param("city", "query", {"type": "string", "maxLength": CITY_MAX}, "the city, as registered (e.g. 北京)"),
    _param("month", "query", {"type": "string", "pattern": r"^\d{4}-\d{2}$"},
           "YYYY-MM: events with a day in that month"),
]


def _op(summary: str, schema: str, params: list[dict], *, immutable: bool = False) -> dict:
    ok = {"description": "OK" + (" (immutable: ETag, cached for a year)" if immutable else ""),
          "content": {"application/json": {"schema": ref(schema)}}}
    errors = {"description": "error", "content": {"application/json": {"schema": ref("Errors")}}}
    responses = {"200": ok, "404": errors}
    if any(p["in"] == "query" for p in params):
        responses["400"] = errors
    if immutable:
        responses["304"] = {"description": "not modified (If-None-Match)"}
    return {"get": {"summary": summary, "parameters": params, "responses": responses}}


@cache
def openapi() -> dict:
    """The OpenAPI document."""
    ed = [PATH["code"], PATH["date"], PATH["number"]]
    return {
        "openapi": "3.1.0",
        "info": {"title": "qiyuan open data", "version": "1",
                 "description": "Published rating lists, players, events and rating changes of the federation "
                                "(read-only). No ID numbers, birth years only. Decimals are strings."},
        "paths": {
            "/api/v1/": _op("links to the resources", "Index", []),
            "/api/v1/lists": _op("every rating list with its latest edition", "RatingLists", []),
            "/api/v1/lists/{code}": _op("a list and its editions", "RatingListDetail", [PATH["code"]]),
            "/api/v1/lists/{code}/chain": _op(
                "the list's editions as a chain (digests, links, signed bundles, the federation's public key)",
                "Chain", [PATH["code"]]),
            "/api/v1/lists/{code}/witnesses": _op(
                "the witnesses' countersignatures of the list's signed heads", "Witnesses", [PATH["code"]]),
            "/api/v1/lists/{code}/editions/{date}": _op("the current edition of a list date", "Edition",
                                                        [PATH["code"], PATH["date"]]),
            "/api/v1/lists/{code}/editions/{date}/{number}": _op("one edition", "Edition", ed),
            "/api/v1/lists/{code}/editions/{date}/{number}/entries": _op(
                "the edition's entries, filtered as the list page", "EntryPage", ed + LIST_FILTERS + PAGE,
                immutable=True),
            "/api/v1/lists/{code}/editions/{date}/{number}/changes": _op(
                "the rating changes the edition published", "ChangePage",
                ed + PAGE + [_param("event", "query", STR, "only this event (code)"),
                             _param("player", "query", STR, "only this player (federation ID)")], immutable=True),
            "/api/v1/lists/{code}/editions/{date}/{number}/distribution": _op(
                "the edition's rating distribution (histogram, percentiles)", "Distribution", ed, immutable=True),
            "/api/v1/changes": _op("rating changes published on or after a date (the changes feed)", "ChangeFeed", [
                _param("since", "query", DATE, "first publication date (YYYY-MM-DD)", True),
                _param("list", "query", STR, "only this list (code)"), *PAGE]),
            "/api/v1/dump": _op("the whole public record as files with SHA-256 digests", "Dump", []),
            "/api/v1/players": _op("players by name or ID", "PlayerSearch", [
                _param("q", "query", {"type": "string", "maxLength": 50}, "name, pinyin or federation ID", True),
                *PAGE]),
            "/api/v1/players/{federation_id}": _op("a player's public record and ratings", "PlayerDetail",
                                                   [PATH["federation_id"]]),
            "/api/v1/players/{federation_id}/history": _op(
                "a player's ratings on every list date and every rating change", "History", [PATH["federation_id"]]),
            "/api/v1/events": _op("events, newest first", "EventPage", EVENT_FILTERS + PAGE),
            "/api/v1/events/{event}": _op("an event with its entrants, games and rating changes", "EventDetail",
                                          [PATH["event"]]),
            "/api/v1/calendar": _op("the approved registered events (赛事日历), by start date", "CalendarPage",
                                    CALENDAR_FILTERS + PAGE),
        },
        "components": {"schemas": SCHEMAS},
    }
