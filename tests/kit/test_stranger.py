"""Issue 32 (6): docs/verification.md is enough to verify a bundle, a chain head and a player's proof — the
stranger's verifier (tests/kit/stranger.py) imports nothing from qiyuan; the fingerprint's shell command
gives the fingerprint the office prints."""

from __future__ import annotations

import ast
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing
from qiyuan.kit.entry import make_proof

from tests.kit import chains, stranger

DOC = Path(__file__).resolve().parents[2] / "docs" / "verification.md"


def test_the_strangers_verifier_imports_nothing_of_the_project():
    tree = ast.parse(Path(stranger.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    assert names and not [n for n in names if n.startswith(("qiyuan", "tests"))]


def test_a_chain_verifies_from_the_document_alone_and_a_change_is_seen():
    key, public = chains.new_key()
    eds = chains.editions(key)
    for _, data, _ in eds:
        assert stranger.verify_bundle(data, public) == []
    manifests = [json.loads(B.read(d).manifest_bytes) for _, d, _ in eds]
    head, sig = chains.head_of(key, [m for *_, m in eds])
    assert stranger.verify_head(head, sig, public, manifests) == []
    assert "count" in stranger.verify_head(head, sig, public, manifests[1:])
    canonical = B.read(eds[-1][1]).files[B.CANONICAL]
    for who in chains.player_ids(canonical):
        assert stranger.verify_proof(make_proof(canonical, who, head, H.read_signature(sig)), public)
    with zipfile.ZipFile(io.BytesIO(eds[0][1])) as z:
        files = {n: z.read(n) for n in z.namelist()}
    files["outputs/canonical.txt"] = files["outputs/canonical.txt"].replace(b'"active"', b'"inactive"', 1)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, d in files.items():
            z.writestr(n, d)
    assert {"outputs/canonical.txt", "edition digest", "merkle root"} <= set(stranger.verify_bundle(buf.getvalue(),
                                                                                                   public))


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_the_fingerprint_command_in_the_document_gives_the_fingerprint(tmp_path):
    command = next(line.strip() for line in DOC.read_text().splitlines() if line.strip().startswith("openssl pkey"))
    _, public = chains.new_key()
    (tmp_path / "federation.pub.pem").write_bytes(public)
    out = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert out.strip() == signing.fingerprint(signing.load_public(public))


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_a_witness_key_made_as_the_document_says_countersigns_a_head(tmp_path):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    for line in DOC.read_text().splitlines():
        if line.strip().startswith(("openssl genpkey", "openssl pkey -in witness.key")):
            subprocess.run(["bash", "-c", line.strip()], cwd=tmp_path, check=True, capture_output=True)
    key, _ = chains.new_key()
    eds = chains.editions(key)
    head, _sig = chains.head_of(key, [m for *_, m in eds])
    (tmp_path / "head.json").write_bytes(head)
    out = CliRunner().invoke(app, ["witness", "sign", str(tmp_path / "head.json"), "--key", str(tmp_path / "witness.key"),
                                   "--name", "某省棋类协会", "-o", str(tmp_path / "w.json")])
    assert out.exit_code == 0, out.stdout + out.stderr
    c = H.read_countersignature((tmp_path / "w.json").read_bytes())
    witness_public = signing.load_public((tmp_path / "witness.pub.pem").read_bytes())
    assert signing.verifies(witness_public, head, c.signature) and c.witness == "某省棋类协会"
