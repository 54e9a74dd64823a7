"""Open data (issue 24, item 4): the API's defects fixed (scores, /players paginated, no unknown parameter
anywhere, the root's docs a URL and its dump link), the dump of the whole record with a SHA-256 manifest that
rebuilds every API answer about an edition, the rating distribution, and the changes feed (``since=DATE``)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from qiyuan.formats import manifest as M
from qiyuan.web.portal.distribution import distribution, nearest_rank

from .test_api import get

pytestmark = pytest.mark.django_db


def test_root_links_the_dump_and_its_docs_are_a_url(client, published):
    root = get(client, "/api/v1/")
    assert root["docs"].startswith("http://") and root["docs"].endswith("/data/")
    assert root["dump"] == "/api/v1/dump" and root["changes"] == "/api/v1/changes"
    assert client.get("/data/").status_code == 200


@pytest.mark.parametrize("url", ["/api/v1/lists?x=1", "/api/v1/?x=1", "/api/v1/lists/gomoku?x=1",
                                 "/api/v1/events/E1?foo=bar", "/api/v1/dump?x=1"])
def test_every_endpoint_refuses_an_unknown_parameter(client, published, url):
    data = get(client, url, 400)
    assert data["errors"][0]["code"] == "filter.unknown"


def test_players_are_paginated_like_the_other_collections(client, published):
    page = get(client, "/api/v1/players?q=l&page_size=1")
    assert page["page"] == 1 and page["page_size"] == 1 and page["pages"] == page["count"] >= 2
    assert page["next"] and page["previous"] is None and len(page["results"]) == 1
    second = get(client, page["next"])
    assert second["previous"] and second["results"][0]["federation_id"] != page["results"][0]["federation_id"]


def test_event_entrants_have_their_scores(client, published):
    from qiyuan.office.events.models import Entry

    Entry.objects.update(score=None)  # a report that gave ranks only: the scores are counted from the games
    events = get(client, "/api/v1/events")["results"]
    for e in events:
        detail = get(client, e["url"])
        if detail["games"]:
            scores = [x["score"] for x in detail["entrants"]]
            assert None not in scores
            points = {}
            for g in detail["games"]:
                a, b = {"1-0": (1, 0), "0-1": (0, 1), "0.5-0.5": (0.5, 0.5), "+-": (1, 0), "-+": (0, 1)}.get(g["result"], (0, 0))
                points[g["player1"]] = points.get(g["player1"], 0) + a
                points[g["player2"]] = points.get(g["player2"], 0) + b
            # counted under the event's point system (a win 2 points in many Chinese events): one factor for all
            factors = {float(x["score"]) / points[x["player"]["federation_id"]] for x in detail["entrants"]
                       if points.get(x["player"]["federation_id"])}
            assert len(factors) == 1 and factors <= {1.0, 2.0}
            return
    pytest.fail("no event with games")


def text(value) -> str:
    """A value as the CSV writes it."""
    return "" if value is None else str(value)


def _files(client, dump) -> dict[str, bytes]:
    out = {}
    for f in dump["files"]:
        r = client.get(f["url"])
        assert r.status_code == 200 and r["ETag"] and "immutable" in r["Cache-Control"]
        out[f["name"]] = b"".join(r.streaming_content)
    return out


def test_the_dump_has_a_manifest_and_rebuilds_every_answer_about_an_edition(client, published, tmp_path):
    dump = get(client, "/api/v1/dump")
    files = _files(client, dump)
    for name, body in files.items():
        (tmp_path / name).write_bytes(body)
    manifest = b"".join(client.get(dump["manifest"]).streaming_content)
    (tmp_path / M.MANIFEST).write_bytes(manifest)
    assert M.check_manifest(tmp_path) == []  # what sha256sum -c says
    assert {f["name"]: f["sha256"] for f in dump["files"]} == M.read_manifest(manifest.decode())

    editions = json.loads(files["editions.json"])["results"]
    entries = list(csv.DictReader(io.StringIO(files["entries.csv"].decode())))
    changes = list(csv.DictReader(io.StringIO(files["changes.csv"].decode())))
    assert len(editions) >= 3
    for ed in editions:
        assert get(client, ed["url"]) == ed
        api = get(client, ed["entries_url"] + "?status=all&page_size=500")["results"]
        mine = [r for r in entries if (r["list"], r["list_date"], r["edition"]) ==
                (ed["list"], ed["list_date"], str(ed["number"]))]
        assert [tuple(text(x) for x in (a["position"], a["player"]["federation_id"], a["rating"], a["exact"],
                                        a["games"], a["k"], a["status"], a["rating_change"], a["rank_change"]))
                for a in api] == [
            (r["position"], r["federation_id"], r["rating"], r["exact"], r["games"], r["k"], r["status"],
             r["rating_change"], r["rank_change"]) for r in mine]
        api_changes = get(client, ed["changes_url"] + "?page_size=500")["results"]
        mine = [r for r in changes if (r["list"], r["list_date"], r["edition"]) ==
                (ed["list"], ed["list_date"], str(ed["number"]))]
        assert sorted((c["event"]["code"], c["player"]["federation_id"], c["delta"], c["W"]) for c in api_changes) == \
            sorted((r["event"], r["federation_id"], r["delta"], r["W"]) for r in mine)
    events = {e["code"]: e for e in json.loads(files["events.json"])["results"]}
    for code, e in events.items():
        api = get(client, e["url"])
        assert {k: v for k, v in api.items() if k not in ("games", "rating_changes")} == e
    players = json.loads(files["players.json"])["results"]
    assert players and all("id_number" not in p and "birth_date" not in p for p in players)
    assert b"110101" not in b"".join(files.values())  # no resident ID number anywhere


def test_sha256sum_checks_the_files_under_the_names_a_browser_saves(client, published, tmp_path):
    """Issue 32: each file is saved (Content-Disposition) under the name its SHA256SUMS lists."""
    import re
    import shutil
    import subprocess

    dump = get(client, "/api/v1/dump")
    for url in [f["url"] for f in dump["files"]] + [dump["manifest"]]:
        answer = client.get(url)
        saved = re.fullmatch(r'attachment; filename="([^"/]+)"', answer["Content-Disposition"]).group(1)
        (tmp_path / saved).write_bytes(b"".join(answer.streaming_content))
    assert M.check_manifest(tmp_path) == []
    if shutil.which("sha256sum"):
        subprocess.run(["sha256sum", "-c", "--quiet", M.MANIFEST], cwd=tmp_path, check=True)


def test_a_publication_rebuilds_the_dump(client, published, monkeypatch):
    import qiyuan.web.api.dump as dump_module

    first = get(client, "/api/v1/dump")
    assert get(client, "/api/v1/dump")["version"] == first["version"]  # kept until the next publication
    real = dump_module.dump_version
    monkeypatch.setattr(dump_module, "dump_version", lambda: real() + "-next")  # as a publication changes it
    second = get(client, "/api/v1/dump")
    assert second["version"] == first["version"] + "-next"
    assert client.get(first["files"][0]["url"]).status_code == 404  # the old build is gone
    assert client.get(second["files"][0]["url"]).status_code == 200


def test_distribution_histogram_and_percentiles(client, published):
    d = distribution([1500, 1550, 1620, 2010, 2090, 2100])
    assert [(b.low, b.count) for b in d.bins][:2] == [(1500, 2), (1600, 1)] and d.bins[-1].low == 2100
    assert d.percentiles[50] == 1620 and d.percentiles[99] == 2100 and d.percentiles[10] == 1500
    assert nearest_rank([1, 2, 3, 4], 25) == 1 and nearest_rank([1, 2, 3, 4], 26) == 2
    lst = get(client, "/api/v1/lists")["results"][0]
    ed = get(client, lst["latest_edition"]["url"])
    data = get(client, ed["distribution_url"])
    assert data["count"] == sum(b["count"] for b in data["bins"]) > 0
    page = client.get(f"/lists/{lst['code']}/{ed['list_date']}/{ed['number']}/distribution/")
    assert page.status_code == 200 and str(data["percentiles"]["p50"]).encode() in page.content


def test_changes_feed_since_a_date(client, published):
    everything = get(client, "/api/v1/changes?since=2000-01-01&page_size=500")
    assert everything["count"] > 0 and everything["since"] == "2000-01-01"
    assert get(client, "/api/v1/changes?since=2999-01-01")["count"] == 0
    assert get(client, "/api/v1/changes", 400)["errors"][0]["parameter"] == "since"
    assert get(client, "/api/v1/changes?since=yesterday", 400)["errors"][0]["parameter"] == "since"
    assert get(client, "/api/v1/changes?since=2000-01-01&list=nope", 400)["errors"][0]["parameter"] == "list"


def test_manifest_module_reports_a_changed_or_missing_file(tmp_path):
    (tmp_path / "a.csv").write_text("x\n")
    (tmp_path / "b.json").write_text("{}")
    digests = M.write_manifest(tmp_path)
    assert set(digests) == {"a.csv", "b.json"} and M.check_manifest(tmp_path) == []
    (tmp_path / "a.csv").write_text("y\n")
    (tmp_path / "b.json").unlink()
    assert M.check_manifest(tmp_path) == ["a.csv: digest differs", "b.json: missing"]
    (tmp_path / M.MANIFEST).write_text("nonsense\n")
    assert M.check_manifest(tmp_path)[0].startswith("SHA256SUMS: line 1")


def test_event_pages_are_cached_and_validated_like_list_pages(client, published):
    from qiyuan.office.audit.models import record

    url = "/events/2025-bj-open/"
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and "max-age=" in first["Cache-Control"] and "public" in first[
        "Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    again = client.get(url)
    assert again.content == first.content and again["ETag"] == etag
    record("officer", "test.touch", None)  # the office writes something: the page is built again
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code in (200, 304)
    assert client.get("/events/no-such-event/").status_code == 404
