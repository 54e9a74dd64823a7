"""Issue 32 (1–3): a chain that cannot be rewritten silently, fetched without trusting the listing, and a
player's own lines checked offline.

--chain DIR needs the signed head; an edition removed, an old edition served again, a listing older than one
verified before and a head older than --max-age are each named (exit 1); a witness's countersignature is
required with --witness (missing or forged: exit 1); --chain URL fetches only http(s) addresses of the
listing's own origin (a listing naming /dev/zero, file://, another site: refused by name, exit 2);
verify-entry checks a player's proof (≤ 2 KB beside his lines) against the signed head's Merkle root."""

from __future__ import annotations

import http.server
import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.kit.entry import make_proof, proof_size

from tests.kit import chains


@pytest.fixture(scope="module")
def chain():
    key, public = chains.new_key()
    eds = chains.editions(key)
    witness, witness_public = chains.new_key()
    return {"key": key, "public": public, "eds": eds, "witness": witness, "witness_public": witness_public}


def run(*args, code=0):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (args, result.stdout, result.stderr, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def _files(chain, tmp_path):
    (tmp_path / "fed.pem").write_bytes(chain["public"])
    (tmp_path / "witness.pem").write_bytes(chain["witness_public"])
    return tmp_path / "fed.pem", tmp_path / "witness.pem"


def folder(chain, path, upto=3, bundles=None, head_at=None, signed_at=chains.SIGNED_AT, witnesses=()):
    eds = chain["eds"][:upto]
    head = chains.head_of(chain["key"], [m for *_, m in (chain["eds"][:head_at] if head_at else eds)], signed_at)
    chosen = bundles if bundles is not None else [(n, d) for n, d, _ in eds]
    return chains.write_folder(path, chosen, head, [w(head[0]) for w in witnesses])


def test_a_whole_chain_with_its_signed_head_is_identical_and_remembered(chain, tmp_path, data_home):
    pem, _ = _files(chain, tmp_path)
    out = run("verify-edition", "--chain", folder(chain, tmp_path / "c"), "--key", pem).stdout
    assert "chain of 3 edition(s): identical" in out and "signed head: CGA, 3 edition(s)" in out
    assert "CGA" in (data_home / "qiyuan" / "heads.json").read_text()


def test_a_folder_without_its_signed_head_is_refused(chain, tmp_path):
    path = chains.write_folder(tmp_path / "c", [(n, d) for n, d, _ in chain["eds"]], None)
    assert "no signed head" in run("verify-edition", "--chain", path, code=2).stderr


def test_removal_of_the_newest_edition_is_caught(chain, tmp_path):
    """The newest bundle removed, the head kept: the head counts 3."""
    pem, _ = _files(chain, tmp_path)
    eds = chain["eds"]
    path = folder(chain, tmp_path / "c", bundles=[(n, d) for n, d, _ in eds[:2]])
    out = run("verify-edition", "--chain", path, "--key", pem, code=1).stdout
    assert "the signed head counts 3 editions; the chain has 2" in out and "not the one the signed head names" in out


def test_removal_of_an_edition_in_the_middle_is_caught(chain, tmp_path):
    pem, _ = _files(chain, tmp_path)
    eds = chain["eds"]
    path = folder(chain, tmp_path / "c", bundles=[(n, d) for n, d, _ in (eds[0], eds[2])])
    out = run("verify-edition", "--chain", path, "--key", pem, code=1).stdout
    assert "edition(s) missing from the chain: place 2" in out


def test_replay_of_an_old_edition_is_caught(chain, tmp_path):
    """The second edition served again in the place of the third (under the third's name)."""
    pem, _ = _files(chain, tmp_path)
    eds = chain["eds"]
    path = folder(chain, tmp_path / "c", bundles=[(eds[0][0], eds[0][1]), (eds[1][0], eds[1][1]),
                                                   (eds[2][0], eds[1][1])])
    out = run("verify-edition", "--chain", path, "--key", pem, code=1).stdout
    assert "is in the chain 2 times (an edition served again)" in out


def test_rollback_to_an_older_signed_listing_is_caught(chain, tmp_path):
    """After the 3-edition head was verified, a genuine older head (2 editions, signed earlier) is served."""
    pem, _ = _files(chain, tmp_path)
    run("verify-edition", "--chain", folder(chain, tmp_path / "new"), "--key", pem)
    old = folder(chain, tmp_path / "old", upto=2, signed_at=chains.SIGNED_AT - timedelta(days=180))
    out = run("verify-edition", "--chain", old, "--key", pem, code=1).stdout
    assert "older than one verified before (3 editions" in out and "rolled back" in out


def test_bundles_from_before_places_verify_by_count_and_newest_digest(chain, tmp_path):
    """Old bundles (no chain place, not re-signed): the head covers them; in date order a late correction is not
    last, so the head's newest need only be in the chain — an edition left out is still caught by the count."""
    pem, _ = _files(chain, tmp_path)
    eds = chains.editions(chain["key"], places=False)
    manifests = [m for *_, m in eds]
    head = chains.head_of(chain["key"], [manifests[0], manifests[2], manifests[1]])  # the 2nd published last
    path = chains.write_folder(tmp_path / "c", [(n, d) for n, d, _ in eds], head)
    assert "chain of 3 edition(s): identical" in run("verify-edition", "--chain", path, "--key", pem).stdout
    short = chains.write_folder(tmp_path / "s", [(n, d) for n, d, _ in eds[:2]], head)
    assert "the signed head counts 3 editions; the chain has 2" in run("verify-edition", "--chain", short, "--key",
                                                                       pem, code=1).stdout


def test_a_damaged_or_unwritable_memory_is_named_never_an_internal_error(chain, tmp_path, data_home,
                                                                        monkeypatch):
    pem, _ = _files(chain, tmp_path)
    path = folder(chain, tmp_path / "c")
    (data_home / "qiyuan").mkdir(parents=True)
    (data_home / "qiyuan" / "heads.json").write_text("{not json")
    assert "not the heads this program remembers" in run("verify-edition", "--chain", path, "--key", pem,
                                                         code=2).stderr
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the data folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    out = run("verify-edition", "--chain", path, "--key", pem).stdout
    assert "cannot be written; this head is not remembered" in out and "identical" in out


def test_a_head_older_than_max_age_is_flagged(chain, tmp_path):
    pem, _ = _files(chain, tmp_path)
    stale = datetime.now(UTC) - timedelta(days=10)
    path = folder(chain, tmp_path / "c", signed_at=stale)
    assert "longer ago than --max-age" in run("verify-edition", "--chain", path, "--key", pem, "--max-age", 7,
                                              code=1).stdout
    run("verify-edition", "--chain", path, "--key", pem, "--max-age", 30)


def test_a_forged_head_fails(chain, tmp_path):
    pem, _ = _files(chain, tmp_path)
    path = folder(chain, tmp_path / "c")
    other, _ = chains.new_key()
    (path / H.HEAD_SIG).write_bytes(chains.head_of(other, [m for *_, m in chain["eds"]])[1])
    assert "its signature does not match" in run("verify-edition", "--chain", path, "--key", pem, code=1).stdout


def test_a_witness_is_required_with_witness(chain, tmp_path):
    pem, wpem = _files(chain, tmp_path)
    signed = folder(chain, tmp_path / "ok", witnesses=[lambda h: chains.countersign(chain["witness"], h)])
    assert "identical" in run("verify-edition", "--chain", signed, "--key", pem, "--witness", wpem).stdout
    bare = folder(chain, tmp_path / "bare")
    assert "no countersignature of this head" in run("verify-edition", "--chain", bare, "--key", pem, "--witness",
                                                     wpem, code=1).stdout

    def forged(head_text):  # the witness's name and public key, another key's signature
        other, _ = chains.new_key()
        c = json.loads(chains.countersign(other, head_text))
        c["public_key"] = chain["witness_public"].decode()
        return json.dumps(c).encode()

    fake = folder(chain, tmp_path / "fake", witnesses=[forged])
    assert "does not verify (forged)" in run("verify-edition", "--chain", fake, "--key", pem, "--witness", wpem,
                                             code=1).stdout
    old_head = folder(chain, tmp_path / "old", witnesses=[
        lambda h: chains.countersign(chain["witness"], chains.head_of(chain["key"], [m for *_, m in
                                                                                     chain["eds"][:2]])[0])])
    assert "countersigned another head (2 editions)" in run("verify-edition", "--chain", old_head, "--key", pem,
                                                            "--witness", wpem, code=1).stdout


def test_witness_sign_writes_a_countersignature_the_verifier_accepts(chain, tmp_path):
    pem, wpem = _files(chain, tmp_path)
    path = folder(chain, tmp_path / "c")
    from qiyuan.formats import signing

    private = tmp_path / "witness.key"
    private.write_bytes(chain["witness"].private_bytes(*_pkcs8()))
    (path / H.WITNESSES).mkdir()
    out = run("witness", "sign", path / H.HEAD_JSON, "--key", private, "--name", "某大学", "-o",
              path / H.WITNESSES / "uni.json").stdout
    assert "countersigned CGA (3 editions)" in out and signing.fingerprint(chain["witness"].public_key()) in out
    assert "identical" in run("verify-edition", "--chain", path, "--key", pem, "--witness", wpem).stdout


def _pkcs8():
    from cryptography.hazmat.primitives import serialization

    return serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()


# -- --chain URL: only the listing's own origin ------------------------------------------------------------


class _Site:
    def __init__(self, pages: dict[str, bytes]):
        self.pages = pages
        pages_ = pages

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                body = pages_.get(self.path)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site(chain):
    s = _Site({})
    eds = chain["eds"]
    head, sig = chains.head_of(chain["key"], [m for *_, m in eds])
    for name, data, _ in eds:
        s.pages[f"/b/{name}"] = data
    s.pages["/api/v1/lists/CGA/witnesses"] = json.dumps(
        {"countersignatures": [json.loads(chains.countersign(chain["witness"], head))]}).encode()

    def listing(**change):
        body = {"list": "CGA", "head": head.decode(), "head_signature": sig.decode().strip(),
                "witnesses": f"{s.base}/api/v1/lists/CGA/witnesses",
                "editions": [{"file": n, "bundle": f"{s.base}/b/{n}"} for n, _, _ in eds]}
        body.update(change)
        s.pages["/api/v1/lists/CGA/chain"] = json.dumps(body).encode()
        return f"{s.base}/api/v1/lists/CGA/chain"

    s.listing = listing
    yield s
    s.close()


def test_a_chain_fetched_from_its_listing_with_its_witnesses(chain, site, tmp_path):
    pem, wpem = _files(chain, tmp_path)
    out = run("verify-edition", "--chain", site.listing(), "--key", pem, "--witness", wpem).stdout
    assert "chain of 3 edition(s): identical" in out


@pytest.mark.parametrize("where", ["/dev/zero", "file:///dev/zero", "file:///etc/passwd", "../../etc/passwd",
                                   "http://elsewhere.invalid/b/x.zip", "ftp://127.0.0.1/x.zip"])
def test_a_listing_naming_a_local_file_or_another_site_is_refused(chain, site, where):
    editions = [{"file": "CGA-x.zip", "bundle": where}]
    err = run("verify-edition", "--chain", site.listing(editions=editions), code=2).stderr
    assert "not on the listing's own site" in err


def test_a_bundle_larger_than_the_cap_is_not_downloaded(chain, site, monkeypatch):
    from qiyuan.kit import fetch

    monkeypatch.setattr(fetch, "MAX_BUNDLE_BYTES", 1000)
    monkeypatch.setattr(fetch.fetch, "__kwdefaults__", {**fetch.fetch.__kwdefaults__, "limit": 1000})
    assert "larger than" in run("verify-edition", "--chain", site.listing(), code=2).stderr


def test_a_server_that_never_answers_times_out(monkeypatch):
    import socket

    from qiyuan.kit import fetch

    quiet = socket.socket()
    quiet.bind(("127.0.0.1", 0))
    quiet.listen(1)  # accepts the connection, never answers
    try:
        with pytest.raises(B.BadBundle, match="cannot download"):
            fetch.fetch(f"http://127.0.0.1:{quiet.getsockname()[1]}/x.zip", idle=0.5)
    finally:
        quiet.close()


def _raw_server(answer):
    """A socket server that answers each connection with ``answer(connection)`` (in a thread)."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return server, f"http://127.0.0.1:{server.getsockname()[1]}/x.zip"


def _dribble(conn):
    import time

    try:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\n\r\n")
        while True:
            conn.sendall(b"x")
            time.sleep(0.05)
    except OSError:
        conn.close()


def _dribbled_headers(conn):
    import time

    try:
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        while True:
            conn.sendall(b"x")
            time.sleep(0.05)
    except OSError:
        conn.close()


def test_a_server_that_dribbles_its_headers_is_left_behind():
    from qiyuan.kit import fetch

    server, url = _raw_server(_dribbled_headers)
    try:
        with pytest.raises(B.BadBundle, match="took longer than"):
            fetch.fetch(url, idle=5, total=1)
    finally:
        server.close()


def _endless(conn):
    try:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\n\r\n")
        while True:
            conn.sendall(b"\0" * 65536)
    except OSError:
        conn.close()


def test_a_server_that_sends_slowly_for_ever_is_stopped():
    from qiyuan.kit import fetch

    server, url = _raw_server(_dribble)
    try:
        with pytest.raises(B.BadBundle, match="took longer than"):
            fetch.fetch(url, idle=5, total=1)
    finally:
        server.close()


def test_a_server_that_sends_without_end_is_cut_at_the_cap():
    from qiyuan.kit import fetch

    server, url = _raw_server(_endless)
    try:
        with pytest.raises(B.BadBundle, match="larger than 1 MiB"):
            fetch.fetch(url, limit=1 << 20)
    finally:
        server.close()


def test_a_local_device_given_as_a_bundle_is_refused(tmp_path):
    assert "/dev/zero: not a regular file" in run("verify-edition", "/dev/zero", code=2).stderr


# -- verify-entry ------------------------------------------------------------------------------------------


def test_a_player_checks_his_own_lines_with_a_small_proof(chain, tmp_path):
    pem, _ = _files(chain, tmp_path)
    eds = chain["eds"]
    head, sig = chains.head_of(chain["key"], [m for *_, m in eds])
    canonical = B.read(eds[-1][1]).files[B.CANONICAL]
    for who in chains.player_ids(canonical):
        proof = make_proof(canonical, who, head, H.read_signature(sig))
        assert proof_size(proof) <= 2048
        (tmp_path / "proof.json").write_bytes(proof)
        out = run("verify-entry", tmp_path / "proof.json", "--key", pem).stdout
        assert "identical" in out and who in out
    raw = json.loads(proof)
    raw["lines"] = raw["lines"].replace('"active"', '"inactive"', 1) if '"active"' in raw["lines"] else raw[
        "lines"].replace("1", "2", 1)
    (tmp_path / "bad.json").write_bytes(json.dumps(raw).encode())
    assert "does not lead to the head's Merkle root" in run("verify-entry", tmp_path / "bad.json", "--key", pem,
                                                            code=1).stdout
    (tmp_path / "junk.json").write_bytes(b"{}")
    assert "not a player's proof" in run("verify-entry", tmp_path / "junk.json", "--key", pem, code=2).stderr


def test_a_proof_with_the_longest_path_of_a_list_up_to_262144_players_stays_under_2_kb(chain):
    """131,073 players: the first one's path has 18 sibling hashes, as long as any in a list of up to 2^18
    players (200,000 included); with the signed head and the fields, under 2 KB beside his own lines."""
    rows = "".join(f'["CN{i:06d}","某",{i + 1},{i + 1},2000,"2000",10,"active",false,15]\t{{}}\n'
                   for i in range(2**17 + 1))
    head, sig = chains.head_of(chain["key"], [m for *_, m in chain["eds"]])
    proof = make_proof((rows + "[]").encode(), "CN000000", head, H.read_signature(sig))
    assert len(json.loads(proof)["path"]) == 18 and proof_size(proof) <= 2048
