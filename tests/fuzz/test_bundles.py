"""Issue 32 (1): the verifier trusts nothing it is given — an edition bundle, a chain listing, a signed head, a
witness's countersignature or a player's proof, however mangled, is checked or refused by name; never an
internal error.  A few hundred of each kind in ``make test``; the slow sweep runs 3,000 and more."""

from __future__ import annotations

import functools
import io
import json
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.cli.lang import problem_line
from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.kit.chain import check_chain, read_listing, read_witness_list
from qiyuan.kit.entry import check_proof, make_proof
from qiyuan.kit.verify import check

from tests.kit import chains

from .mutations import mutate_bytes

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.data_too_large])
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.data_too_large])
ORIGIN = "https://ratings.example.cn"
LISTING_URL = f"{ORIGIN}/api/v1/lists/CGA/chain"
#: values of every JSON kind, and strings a careless or hostile writer puts in a field
ODD_VALUES = [None, True, False, 0, -1, 2**70, 1.5, "", "x", "2024-02-30", "../../etc/passwd", "/dev/zero",
              "file:///dev/zero", "http://elsewhere.example/x.zip", [], [1], {}, {"a": 1}, "0" * 64, "张三" * 50]


@functools.cache
def seeds():
    key, public_pem = chains.new_key()
    eds = chains.editions(key)
    head = chains.head_of(key, [m for *_, m in eds])
    witness, _ = chains.new_key()
    canonical = B.read(eds[-1][1]).files[B.CANONICAL]
    who = chains.player_ids(canonical)[0]
    return {"key": key, "bundles": [d for _, d, _ in eds], "names": [n for n, _, _ in eds], "head": head,
            "countersignature": chains.countersign(witness, head[0]), "witness": witness,
            "proof": make_proof(canonical, who, *head[0:1], H.read_signature(head[1]))}


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def rezip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            with z.open(zipfile.ZipInfo(name), "w") as f:  # (writestr refuses the name "")
                f.write(data)
    return buf.getvalue()


def _said(problems) -> None:
    for p in problems:
        assert problem_line(p)


def checked_or_refused(data: bytes, previous: bytes | None = None) -> None:
    """Read and check a bundle: a named refusal, or a report whose every problem reads."""
    s = seeds()
    try:
        bundle = B.read(data, label="b.zip")
    except B.BadBundle as exc:
        assert problem_line(exc.problem)
        return
    report = check(bundle, key=s["key"].public_key(), previous=B.read(previous) if previous else None)
    for layer in report.problems.values():
        _said(layer)
    _said(report.notes)


@st.composite
def mangled_bundle(draw) -> bytes:
    s = seeds()
    data = draw(st.sampled_from(s["bundles"]))
    kind = draw(st.sampled_from(["archive", "member", "member", "manifest", "name", "truncate", "states"]))
    if kind == "archive":  # the archive's own bytes: a flipped byte in compressed data, a damaged directory
        return draw(mutate_bytes(data))
    if kind == "truncate":
        return data[:draw(st.integers(0, len(data) - 1))]
    files = members(data)
    if kind == "member":
        name = draw(st.sampled_from(sorted(files)))
        files[name] = draw(mutate_bytes(files[name] or b"x"))
    elif kind == "manifest":
        raw = json.loads(files[B.MANIFEST_JSON])
        for _ in range(draw(st.integers(1, 3))):
            raw[draw(st.sampled_from(sorted(raw) + ["extra", "chain_place"]))] = draw(st.sampled_from(ODD_VALUES))
        files[B.MANIFEST_JSON] = json.dumps(raw).encode()
    elif kind == "states":
        name = draw(st.sampled_from(["inputs/states.json", "outputs/states.json"]))
        raw = json.loads(files[name])
        states = raw.get("states") or {}
        if states:
            pid = draw(st.sampled_from(sorted(states)))
            states[pid][draw(st.sampled_from(["g", "r", "x", "n", "l", "s", "rs", "is", "a", "nc"]))] = draw(
                st.sampled_from(ODD_VALUES + ["NaN", "1/0", "Infinity", [["2011-01-01", "x"]]]))
        else:
            raw["date"] = draw(st.sampled_from(ODD_VALUES))
        files[name] = json.dumps(raw).encode()
    else:  # a member with a name no bundle has
        files[draw(st.sampled_from(["", "/", "/etc/passwd", "../x", "a\\b", "inputs//x", "\x00", "outputs/"]))] = b"x"
    return rezip(files)


@FAST
@given(mangled_bundle())
def test_a_mangled_bundle_is_checked_or_refused_by_name(data):
    checked_or_refused(data)


@FAST
@given(mangled_bundle(), st.sampled_from([0, 1]))
def test_a_mangled_previous_bundle_is_checked_or_refused_by_name(data, which):
    checked_or_refused(seeds()["bundles"][which + 1], previous=data) if _readable(data) else None


def _readable(data: bytes) -> bool:
    try:
        B.read(data)
    except B.BadBundle:
        return False
    return True


@st.composite
def mangled_listing(draw) -> bytes:
    s = seeds()
    listing = {"list": "CGA", "head": s["head"][0].decode(), "head_signature": s["head"][1].decode().strip(),
               "witnesses": f"{ORIGIN}/api/v1/lists/CGA/witnesses",
               "editions": [{"file": n, "bundle": f"{ORIGIN}/lists/CGA/{n}"} for n in s["names"]]}
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["top", "edition", "bytes"]))
        if where == "top":
            listing[draw(st.sampled_from(["list", "head", "head_signature", "witnesses", "editions"]))] = draw(
                st.sampled_from(ODD_VALUES))
        elif where == "edition" and isinstance(listing.get("editions"), list) and listing["editions"]:
            e = listing["editions"][draw(st.integers(0, len(listing["editions"]) - 1))]
            if isinstance(e, dict):
                e[draw(st.sampled_from(["file", "bundle"]))] = draw(st.sampled_from(ODD_VALUES))
    data = json.dumps(listing).encode()
    return draw(mutate_bytes(data)) if draw(st.booleans()) else data


@FAST
@given(mangled_listing())
def test_a_mangled_chain_listing_is_read_or_refused_by_name_and_never_points_elsewhere(data):
    try:
        listing = read_listing(data, LISTING_URL)
    except B.BadBundle as exc:
        assert problem_line(exc.problem)
        return
    assert all(url.startswith(ORIGIN + "/") for _, url in listing.bundles)
    assert not listing.witnesses or listing.witnesses.startswith(ORIGIN + "/")


@FAST
@given(st.data())
def test_a_mangled_head_countersignature_or_proof_is_checked_or_refused_by_name(data):
    s = seeds()
    kind = data.draw(st.sampled_from(["head", "sig", "witness", "witnesses", "proof"]))
    head, sig = s["head"]
    try:
        if kind in ("head", "sig"):
            if kind == "head":
                head = data.draw(mutate_bytes(head))
            else:
                sig = data.draw(mutate_bytes(sig))
            report = check_chain([B.read(b) for b in s["bundles"]], head, sig, key=s["key"].public_key())
            _said(report.problems)
        elif kind == "witness":
            report = check_chain([B.read(b) for b in s["bundles"]], head, sig, key=s["key"].public_key(),
                                 countersignatures=[data.draw(mutate_bytes(s["countersignature"]))],
                                 witness_keys=[s["witness"].public_key()])
            _said(report.problems)
        elif kind == "witnesses":
            read_witness_list(data.draw(mutate_bytes(b'{"countersignatures": [' + s["countersignature"] + b"]}")),
                              "w")
        else:
            result = check_proof(data.draw(mutate_bytes(s["proof"])), s["key"].public_key())
            _said(result.problems)
    except B.BadBundle as exc:
        assert problem_line(exc.problem)


CLI = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.data_too_large])


@CLI
@given(mangled_bundle())
def test_verify_edition_on_a_mangled_bundle_exits_0_1_or_2_and_never_says_internal_error(data):
    """The command itself, as a user runs it: exit 0, 1 or 2, never an exception, never "internal error"."""
    import tempfile
    from pathlib import Path

    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.formats import signing

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "b.zip").write_bytes(data)
        (Path(tmp) / "k.pem").write_bytes(signing.public_pem(seeds()["key"].public_key()))
        result = CliRunner().invoke(app, ["verify-edition", f"{tmp}/b.zip", "--key", f"{tmp}/k.pem"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2) and "internal error" not in result.stdout + result.stderr


@pytest.mark.slow
@SLOW
@given(mangled_bundle())
def test_sweep_mangled_bundles(data):
    checked_or_refused(data)


@pytest.mark.slow
@SLOW
@given(mangled_listing())
def test_sweep_mangled_listings(data):
    test_a_mangled_chain_listing_is_read_or_refused_by_name_and_never_points_elsewhere.hypothesis.inner_test(data)
