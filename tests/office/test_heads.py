"""Issue 32 (2): the office signs each list's chain head, states each bundle's place in the chain, and serves
its witnesses' countersignatures; the chain the API lists verifies against the head, and a witness added is
required by ``verify-edition --witness``."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from qiyuan.errors import InputError
from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing
from qiyuan.kit.chain import check_chain, read_listing, read_witness_list

from tests.kit import chains

from .test_bundles import _published, key  # noqa: F401 - the fixture
from .test_import_facts import _national_team_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(tmp_path, key, monkeypatch):  # noqa: F811
    monkeypatch.setenv("QIYUAN_BUNDLE_DIR", str(tmp_path / "bundles"))
    return _published(_national_team_match(tmp_path), "cga-gomoku-2011"), key


def _get(client, url) -> bytes:
    path = url.split("://", 1)[1].split("/", 1)[1]
    answer = client.get("/" + path)
    assert answer.status_code == 200, url
    return b"".join(answer.streaming_content) if answer.streaming else answer.content


def test_the_api_chain_carries_a_signed_head_the_bundles_match(published):
    from qiyuan.office.ratings.models import Edition

    rl, (private, public) = published
    client = Client()
    where = "http://testserver/api/v1/lists/%s/chain" % rl.code
    listing = read_listing(_get(client, where), where)
    bundles = [B.read(_get(client, url)) for _, url in listing.bundles]
    assert [b.manifest.chain_place for b in bundles] == list(range(1, len(bundles) + 1))
    assert all(b.manifest.merkle_root for b in bundles)
    report = check_chain(bundles, listing.head, listing.head_sig, key=public)
    assert report.identical, report.problems
    head = H.read_head(listing.head)
    assert head.editions == Edition.objects.filter(rating_list=rl).count() and head.merkle_root


def test_head_sign_signs_again_and_a_witness_is_stored_and_served(published):
    from qiyuan.office.heads import add_witness, current_head, sign_head

    rl, (private, public) = published
    first, _ = current_head(rl)
    again, sig = sign_head(rl)
    assert H.read_head(again).same_chain(H.read_head(first))
    assert current_head(rl) == (again, sig)
    witness, witness_pem = chains.new_key()
    add_witness(chains.countersign(witness, again, "某大学"))
    served = Client().get(f"/api/v1/lists/{rl.code}/witnesses")
    items = read_witness_list(served.content, "w")
    assert len(items) == 1 and json.loads(items[0])["witness"] == "某大学"
    report = check_chain([B.read(_bundle(e)) for e in rl.editions.order_by("pk")], again, sig, key=public,
                         countersignatures=items, witness_keys=[signing.load_public(witness_pem)])
    assert report.identical, report.problems


def _bundle(edition) -> bytes:
    from qiyuan.office.bundles import bundle_bytes

    return bundle_bytes(edition)


def test_a_forged_or_foreign_countersignature_is_refused(published):
    from qiyuan.office.heads import add_witness, current_head

    rl, (private, public) = published
    head, _ = current_head(rl)
    witness, _ = chains.new_key()
    forged = json.loads(chains.countersign(witness, head))
    other, _ = chains.new_key()
    forged["public_key"] = signing.public_pem(other.public_key()).decode()
    with pytest.raises(InputError, match="does not verify"):
        add_witness(json.dumps(forged).encode())
    foreign = H.read_head(head).__class__(**{**H.read_head(head).__dict__, "list_code": "NOSUCH"}).text()
    with pytest.raises(InputError, match="not one of this office's lists"):
        add_witness(chains.countersign(witness, foreign))
    with pytest.raises(InputError, match="not a witness's countersignature"):
        add_witness(b"{}")


def test_a_player_downloads_his_proof_and_checks_it_offline(published, tmp_path):
    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.kit.entry import proof_size
    from qiyuan.office.signing_key import key_info

    from tests.support.sheets import entries

    rl, _ = published
    newest = rl.editions.order_by("-pk").first()
    fid = entries(newest)[0]["federation_id"]
    page = Client().get(f"/players/{fid}/")
    assert f"/lists/{rl.code}/players/{fid}/proof.json" in page.content.decode()
    answer = Client().get(f"/lists/{rl.code}/players/{fid}/proof.json")
    assert answer.status_code == 200 and proof_size(answer.content) <= 2048
    (tmp_path / "proof.json").write_bytes(answer.content)
    (tmp_path / "fed.pem").write_bytes(key_info().public_pem)
    out = CliRunner().invoke(app, ["verify-entry", str(tmp_path / "proof.json"), "--key", str(tmp_path / "fed.pem")])
    assert out.exit_code == 0 and fid in out.stdout, out.stdout
    assert Client().get(f"/lists/{rl.code}/players/NOSUCH/proof.json").status_code == 404


def test_office_head_sign_and_witness_add_on_the_command_line(published, tmp_path):
    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.office.heads import current_head

    rl, _ = published
    out = CliRunner().invoke(app, ["office", "head", "sign", "--list", rl.code])
    assert out.exit_code == 0 and f"{rl.code}: head signed" in out.stdout, out.stdout + out.stderr
    head, _ = current_head(rl)
    witness, _ = chains.new_key()
    (tmp_path / "w.json").write_bytes(chains.countersign(witness, head, "某大学"))
    out = CliRunner().invoke(app, ["office", "witness", "add", str(tmp_path / "w.json")])
    assert out.exit_code == 0 and "某大学" in out.stdout and "stored" in out.stdout, out.stdout + out.stderr
    (tmp_path / "bad.json").write_bytes(b"[1]")
    out = CliRunner().invoke(app, ["office", "witness", "add", str(tmp_path / "bad.json")])
    assert out.exit_code == 2 and "not a witness's countersignature" in out.stderr
    out = CliRunner().invoke(app, ["office", "witness", "add", str(tmp_path / "missing.json")])
    assert out.exit_code == 2 and "cannot read" in out.stderr
