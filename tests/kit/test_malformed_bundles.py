"""Issue 32 (1): the inputs that ended in "internal error" — each a named refusal (exit 2, in the reader's
language) or a named failure of its layer (exit 1) that still shows the signature's verdict."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.formats import edition_bundle as B

from tests.fuzz.test_bundles import members, rezip
from tests.kit import chains


@pytest.fixture(scope="module")
def good():
    key, public = chains.new_key()
    return chains.editions(key)[1][1], public


def verify(tmp_path, data: bytes, public: bytes, code: int):
    (tmp_path / "b.zip").write_bytes(data)
    (tmp_path / "k.pem").write_bytes(public)
    result = CliRunner().invoke(app, ["verify-edition", str(tmp_path / "b.zip"), "--key", str(tmp_path / "k.pem")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "internal error" not in result.stdout + result.stderr
    return result


def _compressed_byte_flipped(data: bytes) -> bytes:
    """A byte inside a member's deflate stream changed (its CRC then fails, or zlib refuses the stream)."""
    z = zipfile.ZipFile(io.BytesIO(data))
    info = z.getinfo("outputs/canonical.txt")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra) + 5
    out = bytearray(data)
    out[start] ^= 0xFF
    return bytes(out)


def test_a_member_named_empty_is_refused(tmp_path, good):
    files = members(good[0])
    files[""] = b"x"
    assert "a member with a name no bundle has" in verify(tmp_path, rezip(files), good[1], 2).stderr


def test_a_flipped_byte_in_compressed_data_is_refused(tmp_path, good):
    assert "is damaged" in verify(tmp_path, _compressed_byte_flipped(good[0]), good[1], 2).stderr


@pytest.mark.parametrize("cut", [0, 10, 100, 1000, -22, -1])
def test_a_truncated_archive_is_refused(tmp_path, good, cut):
    err = verify(tmp_path, good[0][:cut], good[1], 2).stderr
    assert "not a ZIP archive" in err or "is damaged" in err


@pytest.mark.parametrize("change, said", [
    (lambda m: b"{not json", "is not JSON"),
    (lambda m: json.dumps({**json.loads(m), "number": "1"}).encode(), "number is not of the right kind"),
    (lambda m: json.dumps({**json.loads(m), "list_date": 20240701}).encode(), "list_date is not of the right kind"),
    (lambda m: json.dumps({**json.loads(m), "list_date": "2024-02-30"}).encode(), "list_date is not a date"),
    (lambda m: json.dumps({**json.loads(m), "edition_digest": "../x"}).encode(), "edition_digest is not a SHA-256"),
    (lambda m: json.dumps([1, 2]).encode(), "not a JSON object"),
    (lambda m: json.dumps({k: v for k, v in json.loads(m).items() if k != "list_code"}).encode(), "no list_code"),
])
def test_a_malformed_manifest_is_refused_by_name(tmp_path, good, change, said):
    files = members(good[0])
    files[B.MANIFEST_JSON] = change(files[B.MANIFEST_JSON])
    assert said in verify(tmp_path, rezip(files), good[1], 2).stderr


def test_a_state_of_the_wrong_kind_fails_recomputation_and_the_signature_verdict_still_shows(tmp_path, good):
    files = members(good[0])
    raw = json.loads(files["inputs/states.json"])
    pid = sorted(raw["states"])[0]
    raw["states"][pid]["r"] = "2100"
    files["inputs/states.json"] = json.dumps(raw).encode()
    out = verify(tmp_path, rezip(files), good[1], 1).stdout
    assert "signature: ok" in out and "files' digests: FAILED" in out
    assert f"inputs/states.json: {pid}: r: not of the form docs/verification.md gives" in out


def test_refusals_read_in_chinese(tmp_path, good):
    from tests.web.test_cli_languages import run

    files = members(good[0])
    files[""] = b"x"
    (tmp_path / "b.zip").write_bytes(rezip(files))
    result = run(["verify-edition", str(tmp_path / "b.zip")], "zh_Hans")
    assert result.exit_code == 2 and "包内有核对包不会有的文件名" in result.stderr, result.stderr
