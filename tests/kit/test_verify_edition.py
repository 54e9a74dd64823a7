"""Issue 20: an edition bundle checked by anyone — `qiyuan verify-edition` with no office and no database: the
signature against the key the verifier trusts, every file's digest, the edition recomputed from its own inputs
(each differing number named), the chain link and a whole chain; unreadable input exit 2, a failure exit 1."""

from __future__ import annotations

import csv
import hashlib
import io
import zipfile
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing
from qiyuan.formats.rules_toml import rules_toml
from qiyuan.kit.build import build
from qiyuan.kit.states import states_bytes
from qiyuan.kit.verify import recompute_outputs
from qiyuan.rating.rules import BUILTIN_RULES

from tests.rating.test_cli_rate import EVENTS, GAMES, PLAYERS

RULES = "cga-gomoku-2011"


def _period_inputs(events_text: str, games_text: str, since: date | None, until: date) -> tuple[str, str]:
    """events.csv and games.csv of the events ending in [since, until)."""
    rows = list(csv.DictReader(io.StringIO(events_text)))
    keep = {r["id"] for r in rows if (since is None or date.fromisoformat(r["end_date"]) >= since)
            and date.fromisoformat(r["end_date"]) < until}
    head, *lines = events_text.strip().splitlines()
    ev = "\n".join([head] + [ln for ln in lines if ln.split(",")[0] in keep]) + "\n"
    ghead, *glines = games_text.strip().splitlines()
    gm = "\n".join([ghead] + [ln for ln in glines if ln.split(",")[0] in keep]) + "\n"
    return ev, gm


@pytest.fixture(scope="module")
def federation(tmp_path_factory):
    """Three consecutive editions' bundles of a small CGA history, signed, and the key pair."""
    private_pem, public_pem = signing.new_key()
    key = signing.load_private(private_pem)
    folder = tmp_path_factory.mktemp("chain")
    (folder.parent / "federation.pub.pem").write_bytes(public_pem)
    rules = rules_toml(BUILTIN_RULES[RULES], RULES).encode()
    start = states_bytes(None, {})
    previous_digest, since = "", None
    bundles = []
    for number, on in enumerate((date(2011, 7, 1), date(2012, 1, 1), date(2012, 7, 1)), start=1):
        ev, gm = _period_inputs(EVENTS, GAMES, since, on)
        files = {"inputs/players.csv": PLAYERS.encode(), "inputs/events.csv": ev.encode(),
                 "inputs/games.csv": gm.encode(), "inputs/standings.csv": b"event_id,player_id,rank\n",
                 "inputs/rules.toml": rules, "inputs/states.json": start}
        files.update(recompute_outputs(files, on))
        digest = hashlib.sha256(b"".join(files[n] for n in B.OUTPUTS)).hexdigest()
        data = build(files, private_key=key, list_code="CGA", list_date=on.isoformat(), number=1,
                     edition_digest=digest, previous_digest=previous_digest, rules_name=RULES)
        path = folder / f"CGA-{on.isoformat()}-1.zip"
        path.write_bytes(data)
        bundles.append(path)
        start, previous_digest, since = files["outputs/states.json"], digest, on
    return {"bundles": bundles, "folder": folder, "public": folder.parent / "federation.pub.pem", "key": key}


def run(*args, code=0):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result


def _edited(path: Path, out: Path, name: str, change) -> Path:
    """A copy of the bundle with one member changed (the rest byte for byte)."""
    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    members[name] = change(members[name])
    with zipfile.ZipFile(out, "w") as z:
        for n, data in members.items():
            z.writestr(n, data)
    return out


def test_every_edition_verifies_identical_with_the_trusted_key(federation):
    for path in federation["bundles"]:
        out = run("verify-edition", path, "--key", federation["public"]).stdout
        assert "identical" in out and "FAILED" not in out and "signature: ok" in out


def test_the_reference_engine_agrees(federation):
    out = run("verify-edition", federation["bundles"][1], "--engine", "reference").stdout
    assert "identical" in out


def test_without_a_key_it_says_the_signature_was_not_checked(federation):
    out = run("verify-edition", federation["bundles"][0]).stdout
    assert "not checked against a known key" in out and "identical" in out


def test_a_changed_game_result_is_named_even_though_its_digest_fails(federation, tmp_path):
    bad = _edited(federation["bundles"][1], tmp_path / "b.zip", "inputs/games.csv",
                  lambda d: d.replace(b"E2,1,P1,P2,1-0", b"E2,1,P1,P2,0-1"))
    out = run("verify-edition", bad, "--key", federation["public"], code=1).stdout
    assert "inputs/games.csv: its digest differs" in out
    assert "outputs/changes.csv: E2 P1, delta" in out  # the recomputation names the player, event and field
    assert "differs" in out


def test_a_changed_rating_is_named(federation, tmp_path):
    def lower(data: bytes) -> bytes:
        rows = data.decode().splitlines()
        head = rows[0].split(",")
        first = rows[1].split(",")
        first[head.index("rating")] = str(int(first[head.index("rating")]) - 1)
        rows[1] = ",".join(first)
        return ("\n".join(rows) + "\n").encode()

    bad = _edited(federation["bundles"][0], tmp_path / "r.zip", "outputs/list.csv", lower)
    out = run("verify-edition", bad, code=1).stdout
    assert "outputs/list.csv:" in out and ", rating: the bundle says" in out


def test_a_changed_manifest_line_breaks_the_signature(federation, tmp_path):
    bad = _edited(federation["bundles"][0], tmp_path / "m.zip", "manifest.json",
                  lambda d: d.replace(b'"number": 1', b'"number": 2'))
    out = run("verify-edition", bad, "--key", federation["public"], code=1).stdout
    assert "signature: FAILED" in out


def test_a_bundle_signed_by_another_key_is_refused(federation, tmp_path):
    _, other = signing.new_key()
    (tmp_path / "other.pem").write_bytes(other)
    out = run("verify-edition", federation["bundles"][0], "--key", tmp_path / "other.pem", code=1).stdout
    assert "signature: FAILED" in out and "does not match" in out


def test_the_chain_link_and_the_whole_chain(federation, tmp_path):
    first, second, third = federation["bundles"]
    assert "chain link: ok" in run("verify-edition", second, "--previous", first).stdout
    out = run("verify-edition", third, "--previous", first, code=1).stdout
    assert "chain link: FAILED" in out
    assert "no signed head" in run("verify-edition", "--chain", federation["folder"], code=2).stderr
    from tests.kit.chains import head_of

    chain = tmp_path / "chain"
    chain.mkdir()
    for path in federation["bundles"]:
        (chain / path.name).write_bytes(path.read_bytes())
    head, sig = head_of(federation["key"], [B.read(p.read_bytes()).manifest for p in federation["bundles"]])
    (chain / "head.json").write_bytes(head)
    (chain / "head.sig").write_bytes(sig)
    out = run("verify-edition", "--chain", chain, "--key", federation["public"]).stdout
    assert "chain of 3 edition(s): identical" in out


def test_unreadable_input_exits_2(federation, tmp_path):
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    assert "not a ZIP archive" in run("verify-edition", tmp_path / "junk.zip", code=2).stderr
    assert "cannot read (no such file)" in run("verify-edition", tmp_path / "missing.zip", code=2).stderr
    (tmp_path / "bad.pem").write_bytes(b"-----BEGIN PUBLIC KEY-----\nxx\n")
    assert "not a public key" in run("verify-edition", federation["bundles"][0], "--key", tmp_path / "bad.pem",
                                     code=2).stderr
    run("verify-edition", code=2)
