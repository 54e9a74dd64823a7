"""A small list's chain as the office publishes it since issue 32: signed bundles with their canonical text,
their place in the chain and the Merkle root of their lines, the signed head, a witness — built without the
office, for the kit's tests and the fuzzing of the verifier."""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime
from pathlib import Path

from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import merkle, signing
from qiyuan.formats.rules_toml import rules_toml
from qiyuan.kit.build import build
from qiyuan.kit.states import states_bytes
from qiyuan.kit.verify import recompute_outputs
from qiyuan.rating.rules import BUILTIN_RULES

from tests.kit.test_verify_edition import _period_inputs
from tests.rating.test_cli_rate import EVENTS, GAMES, PLAYERS

RULES = "cga-gomoku-2011"
DATES = (date(2011, 7, 1), date(2012, 1, 1), date(2012, 7, 1))
SIGNED_AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def editions(key, dates=DATES, places: bool = True) -> list[tuple[str, bytes, B.Manifest]]:
    """(file name, bundle bytes, manifest) of each edition, in publication order."""
    rules = rules_toml(BUILTIN_RULES[RULES], RULES).encode()
    start = states_bytes(None, {})
    previous_digest, since = "", None
    out = []
    for place, on in enumerate(dates, start=1):
        ev, gm = _period_inputs(EVENTS, GAMES, since, on)
        files = {"inputs/players.csv": PLAYERS.encode(), "inputs/events.csv": ev.encode(),
                 "inputs/games.csv": gm.encode(), "inputs/standings.csv": b"event_id,player_id,rank\n",
                 "inputs/rules.toml": rules, "inputs/states.json": start}
        files.update(recompute_outputs(files, on, canonical_version=1))
        digest = hashlib.sha256(files[B.CANONICAL]).hexdigest()
        data = build(files, private_key=key, list_code="CGA", list_date=on.isoformat(), number=1,
                     edition_digest=digest, previous_digest=previous_digest, rules_name=RULES, canonical_version=1,
                     chain_place=place if places else 0, signed_at=SIGNED_AT)
        out.append((f"CGA-{on.isoformat()}-1.zip", data, B.read(data).manifest))
        start, previous_digest, since = files["outputs/states.json"], digest, on
    return out


def head_of(key, manifests: list[B.Manifest], signed_at: datetime = SIGNED_AT) -> tuple[bytes, bytes]:
    """head.json and head.sig naming the last of ``manifests`` as the newest of that many editions."""
    newest = manifests[-1]
    head = H.Head(list_code=newest.list_code, editions=len(manifests), newest_date=newest.list_date,
                  newest_number=newest.number, newest_digest=newest.edition_digest, merkle_root=newest.merkle_root,
                  signed_at=H.time_text(signed_at), key_fingerprint=signing.fingerprint(key.public_key()))
    text = head.text()
    return text, H.signature_text(signing.sign(key, text))


def countersign(witness_key, head_text: bytes, name: str = "省棋类协会") -> bytes:
    return H.Countersignature(head_text, H.read_head(head_text), name, signing.public_pem(witness_key.public_key()),
                              signing.sign(witness_key, head_text)).text()


def write_folder(folder: Path, bundles: list[tuple[str, bytes]], head: tuple[bytes, bytes] | None,
                 witnesses: list[bytes] = ()) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in bundles:
        (folder / name).write_bytes(data)
    if head is not None:
        (folder / H.HEAD_JSON).write_bytes(head[0])
        (folder / H.HEAD_SIG).write_bytes(head[1])
    if witnesses:
        (folder / H.WITNESSES).mkdir(exist_ok=True)
        for i, w in enumerate(witnesses):
            (folder / H.WITNESSES / f"w{i}.json").write_bytes(w)
    return folder


def new_key():
    private_pem, public_pem = signing.new_key()
    return signing.load_private(private_pem), public_pem


def player_ids(canonical: bytes) -> list[str]:
    return sorted(merkle.player_lines(canonical))
