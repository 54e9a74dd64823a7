"""Issue 20, on the portal: each edition's page has "核对本期等级分 / Check this list yourself" — the bundle, its
digest, the chain link, the public key and its fingerprint, the commands to run; the API lists the chain; and a
whole chain downloaded from the served portal verifies with `qiyuan verify-edition` in an empty folder, with no
office and no database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing
from qiyuan.kit.verify import check

from tests.office.test_import_facts import _national_team_match
from tests.web.test_api import get

REPO = Path(__file__).resolve().parents[2]


def _two_editions(tmp_path: Path) -> Path:
    """The national team match, and a second event rated on the next list."""
    src = _national_team_match(tmp_path)
    (src / "events.csv").write_text(
        "id,name,start_date,end_date,format,national\nT1,全国团体赛,2020-05-01,2020-05-02,team,1\n"
        "S2,秋季赛,2020-09-01,2020-09-02,swiss,0\n", encoding="utf-8")
    with open(src / "games.csv", "a", encoding="utf-8") as f:
        f.write("S2,1,a1,b2,0-1,\nS2,1,a2,b1,1-0,\n")
    return src


@pytest.fixture
def office(tmp_path, settings, monkeypatch):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    from tests.office._o2_fixtures import make_list

    settings.VAR_DIR = tmp_path / "var"
    monkeypatch.setenv("QIYUAN_KEY_DIR", str(tmp_path / "keys"))
    rl = make_list(code="CGA", rules="cga-gomoku-2011")
    import_file(_two_editions(tmp_path), rl, "tester")
    publish_due(rl, "tester")
    return rl


def _key():
    from qiyuan.office.signing_key import init_key

    return init_key("tester")


@pytest.mark.django_db
def test_the_edition_page_offers_its_bundle_key_and_commands_in_both_languages(client, office):
    ed1, ed2 = office.editions.order_by("list_date")
    url = f"/lists/CGA/{ed2.list_date.isoformat()}/{ed2.number}/"
    html = client.get(url).content.decode()
    assert "核对本期等级分" in html and 'id="no-key"' in html and "bundle.zip" not in html
    assert client.get(f"/lists/CGA/{ed2.list_date.isoformat()}/{ed2.number}/bundle.zip").status_code == 404
    info = _key()
    from django.core.cache import cache

    cache.clear()
    html = client.get(url).content.decode()
    assert info.fingerprint in html and ed2.digest in html and ed1.digest in html
    assert f"/lists/CGA/{ed2.list_date.isoformat()}/{ed2.number}/bundle.zip" in html
    assert "qiyuan verify-edition http://testserver/lists/CGA/" in html and "--previous" in html
    assert "--chain http://testserver/api/v1/lists/CGA/chain" in html
    assert "openssl pkey -pubin -in federation.pub.pem" in html  # the fingerprint, computed by anyone (issue 32)
    assert "http://testserver/api/v1/lists/CGA/witnesses" in html
    client.get("/language/en/?next=/")
    cache.clear()
    english = client.get(url).content.decode()
    assert "Check this list yourself" in english and "核对" not in english.split("Check this list yourself")[1]

    # issue 34: the key came after publishing, so the bundles wait for ``office bundles build``: never built here
    from qiyuan.office.bundles import build_all, bundle_path

    pending = client.get(f"/lists/CGA/{ed2.list_date.isoformat()}/{ed2.number}/bundle.zip")
    assert pending.status_code == 503 and int(pending["Retry-After"]) > 0 and not bundle_path(ed2).exists()
    build_all()
    answer = client.get(f"/lists/CGA/{ed2.list_date.isoformat()}/{ed2.number}/bundle.zip")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    assert "immutable" in answer["Cache-Control"]
    again = client.get(answer.wsgi_request.path, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304
    pem = client.get("/data/federation.pub.pem")
    assert pem.status_code == 200 and pem.content == info.public_pem
    previous = B.read(client.get(f"/lists/CGA/{ed1.list_date.isoformat()}/1/bundle.zip").content)
    report = check(B.read(answer.content), key=signing.load_public(pem.content), previous=previous)
    assert report.identical, report.problems


@pytest.mark.django_db
def test_the_api_lists_the_chain(client, office):
    ed1, ed2 = office.editions.order_by("list_date")
    data = get(client, "/api/v1/lists/CGA/chain")
    assert data["public_key"] is None and all(e["bundle"] is None for e in data["editions"])
    info = _key()
    data = get(client, "/api/v1/lists/CGA/chain")
    assert data["public_key"]["fingerprint"] == info.fingerprint
    assert [(e["list_date"], e["digest"], e["previous_digest"]) for e in data["editions"]] == [
        (ed1.list_date.isoformat(), ed1.digest, ""), (ed2.list_date.isoformat(), ed2.digest, ed1.digest)]
    assert data["editions"][1]["bundle"].endswith(f"/lists/CGA/{ed2.list_date.isoformat()}/1/bundle.zip")
    get(client, "/api/v1/lists/NOPE/chain", 404)
    get(client, "/api/v1/lists/CGA/chain?x=1", 400)


@pytest.mark.django_db(transaction=True)
def test_a_chain_from_the_served_portal_verifies_in_an_empty_folder(live_server, office, tmp_path):
    from qiyuan.office.bundles import build_all

    _key()
    build_all()  # (the key came after publishing: the office builds the bundles, issue 34)
    empty = tmp_path / "anyone"
    empty.mkdir()
    key = empty / "federation.pub.pem"
    import urllib.request

    key.write_bytes(urllib.request.urlopen(f"{live_server.url}/data/federation.pub.pem").read())  # noqa: S310
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QIYUAN_", "DJANGO_", "DATABASE_"))}
    env["QIYUAN_LANG"] = "en"
    run = subprocess.run([str(Path(sys.executable).parent / "qiyuan"), "verify-edition", "--chain",
                          f"{live_server.url}/api/v1/lists/CGA/chain", "--key", str(key)],
                         cwd=empty, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "chain of 2 edition(s): identical" in run.stdout
    assert os.listdir(empty) == ["federation.pub.pem"]  # nothing written, no office made
    chain = json.loads(urllib.request.urlopen(f"{live_server.url}/api/v1/lists/CGA/chain").read())  # noqa: S310
    assert len(chain["editions"]) == 2


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_bundle_not_built_yet_gets_a_being_prepared_page_in_the_visitors_language(client, office, language):
    """Issue 34, item 6: a missing bundle is never built inside the request: 503 with Retry-After, a page in the
    visitor's language saying it is being prepared and that the office builds it (``office bundles build``)."""
    from tests.web.language_check import problems

    from qiyuan.office.bundles import bundle_path

    _key()
    ed1, ed2 = office.editions.order_by("list_date")
    client.get(f"/language/{'en' if language == 'en' else 'zh-hans'}/?next=/")
    answer = client.get(f"/lists/CGA/{ed2.list_date.isoformat()}/{ed2.number}/bundle.zip")
    assert answer.status_code == 503 and answer["Retry-After"] == "300" and "no-store" in answer["Cache-Control"]
    html = answer.content.decode()
    assert "qiyuan office bundles build" in html and 'id="bundle-pending"' in html
    if language == "en":
        assert "being prepared" in html and "核对包正在准备中" not in html
    else:
        assert "核对包正在准备中" in html and "being prepared" not in html
    assert not problems(html, language)
    assert not bundle_path(ed2).exists() and not bundle_path(ed1).exists()
