"""Issue 20: every edition the office publishes becomes a signed bundle that anyone recomputes with
``qiyuan verify-edition`` — its canonical text hashing to the published digest, its inputs giving that text
back, chained to the edition it started from; a changed game, rating or manifest line is named."""

from __future__ import annotations

import io
import uuid
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing
from qiyuan.kit.verify import check

from ._o2_fixtures import make_list
from .test_import_facts import RULE_SETS, _history_folder, _national_team_match, histories

pytestmark = pytest.mark.django_db


@pytest.fixture
def key(tmp_path, monkeypatch):
    """The office's signing key, made in a folder of the test's own."""
    from qiyuan.office.signing_key import init_key, private_key

    monkeypatch.setenv("QIYUAN_KEY_DIR", str(tmp_path / "keys"))
    info = init_key("tester")
    return private_key(), signing.load_public(info.public_pem)


def _published(src: Path, rules_name: str):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list(code=rules_name.upper()[:8] + uuid.uuid4().hex[:4], rules=rules_name)
    import_file(src, rl, "tester")
    publish_due(rl, "tester")
    return rl


def _bundles(rl, private):
    from qiyuan.office.bundles import build_bundle

    return {ed.pk: B.read(build_bundle(ed, key=private)) for ed in rl.editions.order_by("list_date", "number")}


def _assert_chain_verifies(rl, private, public) -> None:
    bundles = _bundles(rl, private)
    assert bundles
    for ed in rl.editions.order_by("list_date", "number"):
        b = bundles[ed.pk]
        assert b.manifest.edition_digest == ed.digest and b.manifest.canonical_version == ed.canonical_version
        previous = bundles[ed.previous_id] if ed.previous_id else None
        report = check(b, key=public, previous=previous)
        assert report.identical, (ed.label, {k: [p.message for p in v] for k, v in report.problems.items()})
        assert report.ok["signature"] and report.ok["files"] and report.ok["recomputation"]
        assert report.ok["chain"] is (True if previous is not None else None)


def test_a_national_team_match_bundle_recomputes_to_the_published_digest(tmp_path, key):
    rl = _published(_national_team_match(tmp_path), "cga-gomoku-2011")
    _assert_chain_verifies(rl, *key)


_QUIET = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


def _generated(tmp_path, key, rules_name, data) -> None:
    from django.db import transaction

    src = _history_folder(tmp_path / uuid.uuid4().hex / "h", data)
    with transaction.atomic():
        _assert_chain_verifies(_published(src, rules_name), *key)
        transaction.set_rollback(True)


@pytest.mark.parametrize("rules_name", RULE_SETS)
@settings(max_examples=3, deadline=None, suppress_health_check=_QUIET)
@given(data=histories())
def test_every_published_edition_of_a_generated_history_verifies_from_its_bundle(tmp_path, key, rules_name, data):
    _generated(tmp_path, key, rules_name, data)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_SETS)
@settings(max_examples=300, deadline=None, suppress_health_check=_QUIET)
@given(data=histories())
def test_many_generated_histories_verify_from_their_bundles(tmp_path, key, rules_name, data):
    _generated(tmp_path, key, rules_name, data)


def _edit(data: bytes, name: str, change) -> B.Bundle:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    members[name] = change(members[name])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n, d in members.items():
            z.writestr(n, d)
    return B.read(out.getvalue())


def test_a_changed_game_rating_or_manifest_line_is_named(tmp_path, key):
    from qiyuan.office.bundles import build_bundle

    private, public = key
    rl = _published(_national_team_match(tmp_path), "cga-gomoku-2011")
    data = build_bundle(rl.editions.get(), key=private)
    game = _edit(data, "inputs/games.csv", lambda d: d.replace(b"a2,b2,0-1", b"a2,b2,1-0", 1))
    report = check(game, key=public)
    assert report.ok["files"] is False and report.ok["recomputation"] is False
    said = " ".join(p.message.format(**p.params) for p in report.problems["recomputation"])
    assert "a2" in said and "b2" in said
    rating = _edit(data, "outputs/canonical.txt", lambda d: d.replace(b'"a1","\xe7\x94\xb2\xe4\xb8\x80",1,1,2400',
                                                                       b'"a1","\xe7\x94\xb2\xe4\xb8\x80",1,1,2410', 1))
    report = check(rating, key=public)
    said = " ".join(p.message.format(**p.params) for p in report.problems["files"] + report.problems["recomputation"])
    assert "published digest" in said and "a1" in said
    manifest = _edit(data, B.MANIFEST_JSON, lambda d: d.replace(b'"number": 1', b'"number": 2', 1))
    assert check(manifest, key=public).ok["signature"] is False
    other = signing.load_public(signing.new_key()[1])
    assert check(B.read(data), key=other).ok["signature"] is False


def test_a_bundle_is_refused_when_the_stored_edition_no_longer_recomputes(tmp_path, key):
    from qiyuan.errors import Conflict
    from qiyuan.office.bundles import build_bundle
    from qiyuan.office.events.models import Game

    rl = _published(_national_team_match(tmp_path), "cga-gomoku-2011")
    Game.objects.filter(event__code="T1", round=1, board=2).update(result="1-0")  # tampered after publication
    with pytest.raises(Conflict):
        build_bundle(rl.editions.get(), key=key[0])


def test_bundles_are_built_once_kept_and_need_a_key(tmp_path, settings, monkeypatch):
    from qiyuan.errors import NotFound
    from qiyuan.office.bundles import build_all, bundle_bytes
    from qiyuan.office.signing_key import init_key

    settings.VAR_DIR = tmp_path / "var"
    monkeypatch.setenv("QIYUAN_KEY_DIR", str(tmp_path / "keys"))
    rl = _published(_national_team_match(tmp_path), "cga-gomoku-2011")
    with pytest.raises(NotFound):
        build_all()
    init_key("tester")
    first = build_all(rl)
    assert [b.built for b in first] == [True] and first[0].path.name == f"{rl.code}-2020-07-01-1.zip"
    assert [b.built for b in build_all(rl)] == [False]
    assert bundle_bytes(rl.editions.get()) == first[0].path.read_bytes()
    assert not list(first[0].path.parent.glob(".building-*"))
