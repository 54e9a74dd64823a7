"""Edition bundles (等级分核对包): each published edition as a signed archive anyone can recompute.

A bundle holds what the office stored — the edition's events, games and standings, its members' public facts,
the rule settings it was computed with, the states it started from — and its outputs (the list and the changes
as ``qiyuan rate`` writes them, the states after it, its canonical text whose SHA-256 is the digest the office
published), written from its stored sheet without rating anything again (``bundle_files``); ``qiyuan
verify-edition`` recomputes the outputs from the inputs. A bundle is refused when the stored data no longer
gives the edition's digest or its inputs digest: a bundle that would not verify is never published.

Bundles are kept under ``var/bundles/`` (or ``QIYUAN_BUNDLE_DIR``). Publishing (and ``period correct``) writes
each new edition's bundle with it once the office has a signing key; ``qiyuan office bundles build`` builds
those still missing (an edition published before the key existed is signed then, the signing date in its
manifest). A web request never builds one: the portal says it is being prepared. Personal data never enters a
bundle: a player is his federation ID, name, sex, registration date and grade; no ID number, passport or birth
date.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from qiyuan.errors import NotFound, problem
from qiyuan.formats import edition_bundle as B
from qiyuan.office import bundle_files, sheets
from qiyuan.office.bundle_files import bundle_dir, bundle_name, bundle_path, input_files, source_of  # noqa: F401
from qiyuan.office.engine import state_from_json
from qiyuan.office.periods import MemberTable, published_inputs
from qiyuan.office.ratings.models import Edition
from qiyuan.office.signing_key import key_exists, private_key


class BundlePending(NotFound):
    """An edition whose bundle is not built yet: publishing writes it, or ``office bundles build`` (the portal's
    "being prepared" page)."""

    def __init__(self, edition):
        super().__init__(problem("the bundle of {list} {edition} is being prepared: qiyuan office bundles build",
                                 list=edition.rating_list.code, edition=edition.label))


def edition_inputs(edition) -> tuple[dict[str, bytes], bytes, str]:
    """The inputs of a published edition as the bundle holds them, its stored canonical text, and its rule
    set's name: what the office computed it from, taken the way ``verify`` takes it."""
    source = source_of(published_inputs(edition))
    return input_files(edition, source), bundle_files.check_stored(edition, source), edition.rating_list.rules_name


@dataclass(frozen=True)
class BuiltBundle:
    edition_pk: int
    path: Path
    size: int
    built: bool  # False: it existed already


def build_bundle(edition, *, key=None, signed_at=None, table: MemberTable | None = None,
                 kept: bundle_files.Kept | None = None) -> bytes:
    """The signed bundle of ``edition`` (not stored), written from its sheet. Refused (``Conflict``) when the
    stored data no longer gives its published digest or inputs digest — the office's ``verify`` names what
    differs. ``table``: its list's members read once for many editions; ``kept``: what their bundles reuse."""
    prior = None
    if edition.previous is not None:  # its start: the previous edition's states, their texts as stored
        stored = sheets.states(edition.previous)
        texts = kept.texts if kept is not None else {}
        prior = {}
        for fid, text in stored.items():
            known = texts.get(fid)
            if known is not None and known[2] == text:  # (the same text: the state the last bundle read, reused)
                prior[fid] = known[0]
            else:
                prior[fid] = state_from_json(fid, json.loads(text))
                texts[fid] = (prior[fid], None, text)
    source = source_of(published_inputs(edition, table=table, prior=prior), kept)
    return bundle_files.bundle_of(edition, source, key=key or private_key(), signed_at=signed_at)


def stored_bundle(edition) -> bytes:
    """The stored bundle of ``edition`` — never built here (a web request serves it): ``BundlePending`` while it
    is not built yet, ``NotFound`` while the office has no signing key."""
    try:
        return bundle_path(edition).read_bytes()
    except FileNotFoundError:
        pass
    if not key_exists():
        raise NotFound(problem("the office has no signing key yet: qiyuan office key init"))
    raise BundlePending(edition)


def bundle_bytes(edition) -> bytes:
    """The stored bundle of ``edition``, built, signed and kept when it has none (the office's commands; a web
    request reads ``stored_bundle``). ``NotFound`` while the office has no signing key."""
    path = bundle_path(edition)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    data = build_bundle(edition)
    bundle_files.store(path, data)
    return data


def build_all(rating_list=None, *, rebuild: bool = False,
              progress: Callable[[int, int, str], None] | None = None) -> list[BuiltBundle]:
    """Build the bundle of every published edition (of one list, or all) that has none yet (``rebuild``: all
    again, newly signed), each from its sheet. The key is read once; ``NotFound`` before ``office key init``."""
    key = private_key()
    editions = Edition.objects.select_related("rating_list", "previous").order_by("rating_list__code", "list_date",
                                                                                 "number")
    if rating_list is not None:
        editions = editions.filter(rating_list=rating_list)
    editions = list(editions)
    if not editions:
        raise NotFound(problem("no published edition to build a bundle for"))
    done = []
    tables: dict[int, MemberTable] = {}  # (each list's members read once)
    kept = bundle_files.Kept()
    for i, edition in enumerate(editions, start=1):
        path = bundle_path(edition)
        if progress:
            progress(i, len(editions), f"{edition.rating_list.code} {edition.label}")
        if path.exists() and not rebuild:
            done.append(BuiltBundle(edition.pk, path, path.stat().st_size, False))
            continue
        table = tables.get(edition.rating_list_id)
        if table is None:
            table = tables[edition.rating_list_id] = MemberTable(edition.rating_list)
        data = build_bundle(edition, key=key, table=table, kept=kept)
        bundle_files.store(path, data)
        done.append(BuiltBundle(edition.pk, path, len(data), True))
    return done


def chain(rating_list) -> list[dict]:
    """The list's editions in publication order (ids only grow) with their links: what the API lists."""
    editions = list(Edition.objects.filter(rating_list=rating_list).select_related("previous").order_by("pk"))
    digest_of = {(e.list_date, e.number): e.digest for e in editions}
    return [{"list_date": e.list_date.isoformat(), "number": e.number, "digest": e.digest,
             "previous_digest": e.previous.digest if e.previous_id else "",
             "supersedes": digest_of.get((e.list_date, e.number - 1), "") if e.number > 1 else "",
             "is_correction": e.is_correction, "file": bundle_name(e)} for e in editions]


def manifest_of(data: bytes) -> dict:
    """A stored bundle's manifest as plain data (for the portal's page)."""
    return json.loads(B.read(data).manifest_bytes.decode("utf-8"))
