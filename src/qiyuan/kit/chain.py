"""Checking a list's whole chain (整条链的核对): every bundle, their links, and the signed head that says how many
editions there are and which is the newest — so an edition removed, an old edition served again, a listing
older than one already seen or a head left unsigned for too long is named, not passed as "identical".

Pure but for ``Memory`` (the heads this user has verified, a JSON file under his data folder) and nothing
downloads here (``qiyuan.kit.fetch`` does): bundles, the head, its signature and the witnesses' files come in
as bytes.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from qiyuan.errors import Problem, problem
from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing
from qiyuan.kit.fetch import same_origin
from qiyuan.kit.verify import Report, check

#: a chain listing is small; more editions than this is no listing
MAX_EDITIONS = 20000
MAX_LISTING_BYTES = 8 << 20
_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}\.zip")


@dataclass(frozen=True)
class Listing:
    """A list's chain as the portal serves it (``/api/v1/lists/CODE/chain``): the bundles' file names and
    addresses, the signed head, where the witnesses' countersignatures are."""

    list_code: str
    bundles: list[tuple[str, str]]  # (file name, address)
    head: bytes
    head_sig: bytes
    witnesses: str  # address ("": none given)


def read_listing(data: bytes, where: str) -> Listing:
    """The chain listing at ``where``; ``BadBundle`` naming what is wrong, including an address of another
    origin than ``where``'s."""
    bad = problem("{where}: not a list's chain (…/api/v1/lists/CODE/chain)", where=where)
    if len(data) > MAX_LISTING_BYTES:
        raise B.BadBundle(problem("{where}: larger than a chain listing can be", where=where))
    try:
        raw = json.loads(data.decode("utf-8"))
        editions = raw["editions"]
        code = raw["list"]
        if not isinstance(editions, list) or not isinstance(code, str) or len(editions) > MAX_EDITIONS:
            raise TypeError
        links = [(e["file"], e["bundle"]) for e in editions]
    except (UnicodeDecodeError, ValueError, RecursionError, KeyError, TypeError):
        raise B.BadBundle(bad) from None
    if any(url is None for _name, url in links):
        raise B.BadBundle(problem("{where}: the federation has no signing key yet: no bundles", where=where))
    if not links:
        raise B.BadBundle(problem("{where}: no editions", where=where))
    for name, url in links:
        if not isinstance(name, str) or not _FILE.fullmatch(name) or not isinstance(url, str):
            raise B.BadBundle(bad)
        if not same_origin(url, where):
            raise B.BadBundle(problem("{where}: a bundle's address {url} is not on the listing's own site "
                                      "(only http(s) addresses of its origin are fetched)", where=where,
                                      url=url[:120]))
    if len({name for name, _url in links}) != len(links):
        raise B.BadBundle(problem("{where}: a file name listed twice", where=where))
    head, sig, witnesses = raw.get("head"), raw.get("head_signature"), raw.get("witnesses") or ""
    if not isinstance(head, str) or not isinstance(sig, str):
        raise B.BadBundle(problem("{where}: no signed head (head, head_signature)", where=where))
    if not isinstance(witnesses, str) or (witnesses and not same_origin(witnesses, where)):
        raise B.BadBundle(problem("{where}: the witnesses' address is not on the listing's own site", where=where))
    return Listing(code, links, head.encode("utf-8"), sig.encode("ascii", "replace"), witnesses)


def read_witness_list(data: bytes, where: str) -> list[bytes]:
    """The countersignatures the portal serves (``/api/v1/lists/CODE/witnesses``): each as its file's bytes."""
    try:
        raw = json.loads(data.decode("utf-8"))
        items = raw["countersignatures"]
        if not isinstance(items, list) or len(items) > 1000:
            raise TypeError
        return [json.dumps(item, ensure_ascii=False).encode("utf-8") for item in items]
    except (UnicodeDecodeError, ValueError, RecursionError, KeyError, TypeError):
        raise B.BadBundle(problem("{where}: not a list of countersignatures", where=where)) from None


# -- what this user has verified before --------------------------------------------------------------------


def data_folder() -> Path:
    """The user's data folder for qiyuan: ``$XDG_DATA_HOME/qiyuan`` (``~/.local/share/qiyuan``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "qiyuan"


class Memory:
    """The newest head verified per list and key (``heads.json`` in the data folder)."""

    def __init__(self, path: Path | None = None):
        self.path = path or data_folder() / "heads.json"
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            self.heads = {k: H.read_head(v.encode("utf-8"), str(self.path)) for k, v in raw.items()}
        except (FileNotFoundError, NotADirectoryError):  # nothing verified yet (or no folder to keep it in)
            self.heads = {}
        except (OSError, UnicodeDecodeError, ValueError, AttributeError, RecursionError):
            raise B.BadBundle(problem("{path}: not the heads this program remembers; move it away to start anew",
                                      path=str(self.path))) from None

    @staticmethod
    def key_of(head: H.Head, fingerprint: str) -> str:
        return f"{fingerprint} {head.list_code}"

    def seen(self, head: H.Head, fingerprint: str) -> H.Head | None:
        return self.heads.get(self.key_of(head, fingerprint))

    def remember(self, head: H.Head, fingerprint: str) -> bool:
        """Keep ``head`` as the newest verified; False when the data folder cannot be written."""
        self.heads[self.key_of(head, fingerprint)] = head
        text = json.dumps({k: h.text().decode("utf-8") for k, h in sorted(self.heads.items())}, ensure_ascii=False,
                          indent=1)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".heads-")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text + "\n")
            os.replace(tmp, self.path)
        except OSError:
            return False
        return True


# -- the chain -------------------------------------------------------------------------------------------


@dataclass
class ChainReport:
    reports: list[Report]
    problems: list[Problem] = field(default_factory=list)  # the chain's own (head, count, order, witnesses)
    notes: list[Problem] = field(default_factory=list)
    head: H.Head | None = None

    @property
    def identical(self) -> bool:
        return not self.problems and all(r.identical for r in self.reports)


def _order(bundles: list[B.Bundle]) -> list[B.Bundle]:
    """Publication order: by chain place when every bundle states it, else by list date and number."""
    if all(b.manifest.chain_place for b in bundles):
        return sorted(bundles, key=lambda b: b.manifest.chain_place)
    return sorted(bundles, key=lambda b: (b.manifest.list_date, b.manifest.number, b.manifest.chain_place))


def check_head(head: H.Head, head_text: bytes, sig: bytes, key, report: ChainReport) -> bool:
    """The head's signature; True when it was verified with the trusted key."""
    if key is None:
        report.notes.append(problem("the head's signature was not checked against a known key"))
        return False
    if not signing.verifies(key, head_text, sig):
        report.problems.append(problem("the chain's head: its signature does not match with this key"))
        return False
    return True


def check_witnesses(head: H.Head, countersignatures: list[bytes], witness_keys: list, report: ChainReport) -> None:
    """Each trusted witness has countersigned this head (or the same chain re-signed at another time)."""
    read = []
    for i, data in enumerate(countersignatures, 1):
        try:
            read.append(H.read_countersignature(data, f"witness #{i}"))
        except B.BadBundle as exc:
            report.problems.append(exc.problem)
    for wkey in witness_keys:
        fp = signing.fingerprint(wkey)
        valid = [c for c in read if signing.verifies(wkey, c.head_text, c.signature)]
        claimed = [c for c in read if _fingerprint_of(c.public_key) == fp]
        if any(c.head.same_chain(head) for c in valid):
            continue
        if any(c not in valid for c in claimed):
            report.problems.append(problem("witness {key}: a countersignature in its name does not verify (forged)",
                                           key=fp))
        elif valid:
            report.problems.append(problem("witness {key}: countersigned another head ({n} editions), not this one",
                                           key=fp, n=max(c.head.editions for c in valid)))
        else:
            report.problems.append(problem("witness {key}: no countersignature of this head", key=fp))


def _fingerprint_of(pem: bytes) -> str:
    try:
        return signing.fingerprint(signing.load_public(pem))
    except signing.BadKey:
        return ""


def check_chain(bundles: list[B.Bundle], head_text: bytes, head_sig: bytes, *, key=None, engine: str = "fast",
                countersignatures: list[bytes] = (), witness_keys: list = (), memory: Memory | None = None,
                max_age: timedelta | None = None, now: datetime | None = None) -> ChainReport:
    """Every bundle checked (``kit.verify.check``) with its predecessor, and the chain against its signed head.
    ``BadBundle`` when the head or its signature cannot be read."""
    head = H.read_head(head_text)
    sig = H.read_signature(head_sig)
    report = ChainReport([], head=head)
    trusted = check_head(head, head_text, sig, key, report)
    ordered = _order(bundles)
    by_digest = {b.manifest.edition_digest: b for b in ordered}
    for digest, n in Counter(b.manifest.edition_digest for b in ordered).items():
        if n > 1:
            report.problems.append(problem("the edition {digest} is in the chain {n} times (an edition served "
                                           "again)", digest=digest[:16], n=n))
    others = sorted({b.manifest.list_code for b in ordered} - {head.list_code})
    if others:
        report.problems.append(problem("bundles of another list than the head's {list}: {others}",
                                       list=head.list_code, others=", ".join(others)))
    places = [b.manifest.chain_place for b in ordered if b.manifest.chain_place]
    missing = sorted(set(range(1, head.editions + 1)) - set(places)) if places else []
    if places and len(places) == len(ordered) and missing:
        report.problems.append(problem("edition(s) missing from the chain: place {places}",
                                       places=", ".join(map(str, missing[:20]))))
    if len(ordered) != head.editions:
        report.problems.append(problem("the signed head counts {n} editions; the chain has {m}", n=head.editions,
                                       m=len(ordered)))
    # the newest by place; bundles from before places are in date order, which a late correction breaks: then
    # the head's newest need only be in the chain (the count still catches an edition left out)
    placed = all(b.manifest.chain_place for b in ordered)
    newest = ordered[-1] if placed else by_digest.get(head.newest_digest)
    if newest is None or newest.manifest.edition_digest != head.newest_digest:
        report.problems.append(problem("the newest edition is not the one the signed head names ({digest})",
                                       digest=head.newest_digest[:16]))
    elif head.merkle_root and newest.manifest.merkle_root != head.merkle_root:
        report.problems.append(problem("the newest edition's Merkle root is not the one the signed head names"))
    firsts = [b for b in ordered if not b.manifest.previous_digest and not b.manifest.supersedes]
    if len(firsts) > 1:
        report.problems.append(problem("{list}: {n} editions claim to be the first", list=head.list_code,
                                       n=len(firsts)))
    for b in ordered:
        prev = by_digest.get(b.manifest.previous_digest) if b.manifest.previous_digest else None
        r = check(b, key=key, previous=prev, engine=engine)
        if b.manifest.previous_digest and prev is None:
            r.fail("chain", problem("the previous edition ({digest}) is not in the chain",
                                    digest=b.manifest.previous_digest[:16]))
        report.reports.append(r)
    now = now or datetime.now(head.time.tzinfo)
    if max_age is not None and now - head.time > max_age:
        report.problems.append(problem("the head was signed {time}, longer ago than --max-age allows (a list "
                                       "served stale)", time=head.signed_at))
    if witness_keys:
        check_witnesses(head, list(countersignatures), list(witness_keys), report)
    if memory is not None and trusted:
        fp = signing.fingerprint(key)
        seen = memory.seen(head, fp)
        if seen is not None and (seen.editions > head.editions or seen.time > head.time):
            report.problems.append(problem("this listing is older than one verified before ({n} editions, signed "
                                           "{time}): a list rolled back", n=seen.editions, time=seen.signed_at))
        elif seen is not None and seen.editions == head.editions and seen.newest_digest != head.newest_digest:
            report.problems.append(problem("this listing's newest edition differs from the one verified before "
                                           "with as many editions: a history rewritten"))
        elif report.identical and not memory.remember(head, fp):
            report.notes.append(problem("{path}: cannot be written; this head is not remembered for the next check",
                                        path=str(memory.path)))
    return report
