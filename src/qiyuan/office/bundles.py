"""Edition bundles (等级分核对包): each published edition as a signed archive anyone can recompute.

A bundle is built from what the office stored — the edition's events, games and standings, its members'
public facts, the rule settings it was computed with, the states it started from — and its canonical text
written from its stored sheet, whose SHA-256 is the digest the office published. Its outputs (the list and
the changes as ``qiyuan rate`` writes them, the states after it) are computed from the bundle's own inputs by
the same code ``qiyuan verify-edition`` runs, and the office signs a bundle only when that recomputation
gives the published canonical text back: a bundle that would not verify is never published.

Bundles are kept under ``var/bundles/`` (or ``QIYUAN_BUNDLE_DIR``) (built once, when first asked for, or all at once by ``qiyuan office
bundles build``); an edition published before the key existed is signed when its bundle is first built, the
signing date in its manifest. Personal data never enters a bundle: a player is his federation ID, name, sex,
registration date and grade; no ID number, passport or birth date.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from qiyuan.errors import Conflict, NotFound, problem
from qiyuan.formats import edition_bundle as B
from qiyuan.formats.history_csv import GRADES
from qiyuan.formats.rules_toml import rules_toml
from qiyuan.kit.build import build
from qiyuan.kit.states import states_bytes
from qiyuan.kit.verify import recompute_outputs
from qiyuan.office.canonical import extra_input_files
from qiyuan.office.merged import aliases_for_edition
from qiyuan.office.periods import compute_period, member_facts, rules_of_edition
from qiyuan.office import sheets
from qiyuan.office.ratings.models import Edition
from qiyuan.office.signing_key import private_key

#: a player's public facts; ``rating`` is his published rating at the edition's start (the reader asks a player
#: without one for his sex), his start state itself being in ``inputs/states.json``
PLAYER_HEADER = ("id", "name", "gender", "rating", "dan", "dan_granted_by", "registered_on")
EVENT_HEADER = ("id", "name", "start_date", "end_date", "format", "international", "days", "national")
GAME_HEADER = ("event_id", "round", "player1", "player2", "result", "board")
STANDING_HEADER = ("event_id", "player_id", "rank")


def bundle_dir() -> Path:
    """``QIYUAN_BUNDLE_DIR`` when set, else the office's ``var/bundles``."""
    return Path(os.environ.get("QIYUAN_BUNDLE_DIR") or Path(settings.VAR_DIR) / "bundles")


def bundle_name(edition) -> str:
    """The bundle's file name: ``CGA-2024-07-01-1.zip`` (list code, list date, edition number)."""
    return f"{edition.rating_list.code}-{edition.list_date.isoformat()}-{edition.number}.zip"


def bundle_path(edition) -> Path:
    return bundle_dir() / bundle_name(edition)


def _csv(header: tuple[str, ...], rows) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue().encode("utf-8")


def _bit(flag: bool) -> str:
    return "1" if flag else "0"


def _text(x) -> str:
    return "" if x is None else str(x)


def edition_inputs(edition) -> tuple[dict[str, bytes], bytes, str]:
    """The inputs of a published edition as the bundle holds them, its stored canonical text, and its rule
    set's name: what the office computed it from, taken the way ``verify`` takes it (the members who had
    joined by it, the events it rated, its own rule settings, merged records under the IDs it published)."""
    canonical = sheets.text(edition)
    published = sheets.entries(edition, "federation_id", "name")
    names = dict(zip(published["federation_id"], published["name"]))
    entries = set(names)
    rules = rules_of_edition(edition)
    evs = list(edition.events.order_by("end_date", "start_date", "code"))
    comp = compute_period(edition.rating_list, edition.list_date, previous=edition.previous, events=evs,
                          rules=rules, as_of=edition, names=names, aliases=aliases_for_edition(entries))
    facts = member_facts(edition.rating_list, edition)
    players = []
    for fid in sorted(comp.prior):
        _, name, registered_on = comp.members[fid]
        m = facts.get(fid)
        dan = m.dan if m is not None and m.dan in GRADES else ""
        state = comp.prior[fid]
        players.append((fid, name, state.gender.value if state.gender is not None else "", _text(state.rating), dan,
                        (m.dan_granted_by or "") if dan else "", _text(registered_on)))
    files = {
        "inputs/players.csv": _csv(PLAYER_HEADER, players),
        "inputs/events.csv": _csv(EVENT_HEADER, [
            (e.code, e.name, e.start_date.isoformat(), e.end_date.isoformat(), e.format, _bit(e.international),
             _text(e.days), _bit(e.national)) for e in evs]),
        "inputs/games.csv": _csv(GAME_HEADER, [
            (g.event_id, g.round, g.player1, g.player2, g.result.value, _text(g.board)) for g in comp.games]),
        "inputs/standings.csv": _csv(STANDING_HEADER, [(s.event_id, s.player_id, s.rank) for s in comp.standings]),
        "inputs/rules.toml": rules_toml(rules, edition.rating_list.rules_name).encode("utf-8"),
        "inputs/states.json": states_bytes(comp.start, comp.prior),
        **extra_input_files(edition, entries),  # (canonical version 3: provenance.csv, audit_head.json)
    }
    return files, canonical, edition.rating_list.rules_name


@dataclass(frozen=True)
class BuiltBundle:
    edition_pk: int
    path: Path
    size: int
    built: bool  # False: it existed already


def build_bundle(edition, *, key=None, signed_at=None) -> bytes:
    """The signed bundle of ``edition`` (not stored). Refused (``Conflict``) when the bundle's own inputs do not
    give the published canonical text back — the office's ``verify`` names what differs."""
    files, canonical, rules_name = edition_inputs(edition)
    files[B.CANONICAL] = canonical
    outputs = recompute_outputs(files, edition.list_date, "fast", edition.canonical_version)
    if outputs.pop(B.CANONICAL) != canonical:
        raise Conflict(problem("the bundle of {list} {edition} does not recompute to its published digest; run "
                               "qiyuan office verify", list=edition.rating_list.code, edition=edition.label))
    files.update(outputs)
    previous = edition.previous.digest if edition.previous is not None else ""
    supersedes = ""
    if edition.number > 1:  # a correction names the edition it supersedes; nothing in the chain is replaced
        older = Edition.objects.filter(rating_list=edition.rating_list, list_date=edition.list_date,
                                       number=edition.number - 1).values_list("digest", flat=True).first()
        supersedes = older or ""
    place = Edition.objects.filter(rating_list=edition.rating_list, pk__lte=edition.pk).count()  # (chain order)
    return build(files, private_key=key or private_key(), list_code=edition.rating_list.code,
                 list_date=edition.list_date.isoformat(), number=edition.number, edition_digest=edition.digest,
                 previous_digest=previous, supersedes=supersedes, rules_name=rules_name,
                 canonical_version=edition.canonical_version, signed_at=signed_at, chain_place=place)


def _store(path: Path, data: bytes) -> None:
    """Write atomically (another worker may build the same bundle: either copy is a valid signed bundle)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".building-", suffix=".zip")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def bundle_bytes(edition) -> bytes:
    """The stored bundle of ``edition``, built and signed the first time it is asked for (``NotFound`` while
    the office has no signing key)."""
    path = bundle_path(edition)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    data = build_bundle(edition)
    _store(path, data)
    return data


def build_all(rating_list=None, *, rebuild: bool = False,
              progress: Callable[[int, int, str], None] | None = None) -> list[BuiltBundle]:
    """Build the bundle of every published edition (of one list, or all) that has none yet (``rebuild``: all
    again, newly signed). The key is read once; ``NotFound`` before ``office key init``."""
    key = private_key()
    editions = Edition.objects.select_related("rating_list", "previous").order_by("rating_list__code", "list_date",
                                                                                 "number")
    if rating_list is not None:
        editions = editions.filter(rating_list=rating_list)
    editions = list(editions)
    if not editions:
        raise NotFound(problem("no published edition to build a bundle for"))
    done = []
    for i, edition in enumerate(editions, start=1):
        path = bundle_path(edition)
        if progress:
            progress(i, len(editions), f"{edition.rating_list.code} {edition.label}")
        if path.exists() and not rebuild:
            done.append(BuiltBundle(edition.pk, path, path.stat().st_size, False))
            continue
        data = build_bundle(edition, key=key)
        _store(path, data)
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
