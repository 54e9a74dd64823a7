"""Checking an edition bundle (核对): each layer on its own, so one failure never hides another.

1. **signature** — the manifest signed by the key the verifier trusts (``--key``); without a key, said plainly
   that it was not checked;
2. **files** — SHA256SUMS is the one the manifest names, and every file has the digest SHA256SUMS gives;
3. **recomputation** — the edition computed again from the bundle's inputs (its history files, its rule
   settings, the previous edition's states) with the chosen engine, and compared number by number with its
   outputs (the list, the changes, the states after it): each difference named by player, event and field;
4. **chain** — given the previous bundle: its edition digest is the one this manifest names as previous, and
   the states it ended with are the ones this edition starts from.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import tempfile
import tomllib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from qiyuan.errors import InputError, Problem, problem
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import canonical_text as C
from qiyuan.formats import merkle, signing
from qiyuan.formats.edition_entries import edition_entries
from qiyuan.formats.history_csv import read_history
from qiyuan.formats.rating_lists_csv import write_history
from qiyuan.kit.provenance import input_problems
from qiyuan.kit.states import read_states, states_bytes
from qiyuan.rating.history import compute_history
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.rules import RulesError, rules_from_mapping

LAYERS = ("signature", "files", "recomputation", "chain")
CANONICAL = B.CANONICAL


@dataclass
class Report:
    """What each layer found: ``ok`` per layer (None: not checked), and the problems it names."""

    edition: str
    ok: dict[str, bool | None] = field(default_factory=lambda: dict.fromkeys(LAYERS))
    problems: dict[str, list[Problem]] = field(default_factory=lambda: {k: [] for k in LAYERS})
    notes: list[Problem] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return all(v is not False for v in self.ok.values()) and self.ok["recomputation"] is True

    def fail(self, layer: str, p: Problem) -> None:
        self.ok[layer] = False
        self.problems[layer].append(p)


def check(bundle: B.Bundle, *, key=None, previous: B.Bundle | None = None, engine: str = "fast") -> Report:
    m = bundle.manifest
    report = Report(f"{m.list_code} {m.list_date} #{m.number}")
    _signature(bundle, key, report)
    _files(bundle, report)
    for p in input_problems(bundle.files, bundle.manifest.canonical_version):  # (version 3's added inputs)
        report.fail("files", p)
    _recompute(bundle, engine, report)
    if previous is not None:
        _chain(bundle, previous, report)
    return report


def _signature(bundle: B.Bundle, key, report: Report) -> None:
    if key is None:
        report.notes.append(problem("the signature was not checked against a known key: give the federation's "
                                    "public key with --key KEYFILE"))
        return
    if not bundle.signature:
        report.fail("signature", problem("the bundle carries no signature"))
        return
    if signing.verifies(key, bundle.manifest_bytes, bundle.signature):
        report.ok["signature"] = True
    else:
        report.fail("signature", problem("the signature does not match the manifest with this key (key {mine}; "
                                         "the bundle names {theirs})", mine=signing.fingerprint(key),
                                         theirs=bundle.manifest.key_fingerprint or "none"))


def _files(bundle: B.Bundle, report: Report) -> None:
    try:
        listed = B.listed_digests(bundle)
    except B.BadBundle as exc:
        report.fail("files", problem("{what}", what=str(exc)))
        return
    sums = bundle.files[B.MANIFEST]
    if hashlib.sha256(sums).hexdigest() != bundle.manifest.files_digest:
        report.fail("files", problem("SHA256SUMS is not the one the manifest names"))
    for name in (*B.inputs_of(bundle.manifest.canonical_version), *B.OUTPUTS):
        if name not in listed:
            report.fail("files", problem("{name}: not listed in SHA256SUMS", name=name))
    for name, digest in sorted(listed.items()):
        data = bundle.files.get(name)
        if data is None:
            report.fail("files", problem("{name}: missing", name=name))
        elif hashlib.sha256(data).hexdigest() != digest:
            report.fail("files", problem("{name}: its digest differs from SHA256SUMS", name=name))
    if bundle.manifest.canonical_version:
        text = bundle.files.get(CANONICAL)
        if text is None or CANONICAL not in listed:
            report.fail("files", problem("{name}: missing", name=CANONICAL))
        elif hashlib.sha256(text).hexdigest() != bundle.manifest.edition_digest:
            report.fail("files", problem("{name}: its SHA-256 is not the edition's published digest {digest}",
                                         name=CANONICAL, digest=bundle.manifest.edition_digest[:16]))
    if bundle.manifest.merkle_root:
        try:
            root = merkle.root_of(bundle.files.get(CANONICAL, b""))
        except (UnicodeDecodeError, ValueError, RecursionError):
            root = ""
        if root != bundle.manifest.merkle_root:
            report.fail("files", problem("{name}: its lines' Merkle root is not the one the manifest names",
                                         name=CANONICAL))
    extra = sorted(set(bundle.files) - set(listed) - {B.MANIFEST})
    for name in extra:
        report.fail("files", problem("{name}: not listed in SHA256SUMS", name=name))
    if report.ok["files"] is None:
        report.ok["files"] = True


def recompute_outputs(files: dict[str, bytes], list_date: date, engine: str = "fast",
                      canonical_version: int | None = None) -> dict[str, bytes]:
    """The outputs (``outputs/list.csv``, ``changes.csv``, ``states.json``, and with ``canonical_version`` the
    edition's canonical text ``outputs/canonical.txt``) computed from a bundle's inputs. ``InputError`` naming
    the file when an input cannot be read."""
    problems: list[Problem] = []
    try:
        data = tomllib.loads(files["inputs/rules.toml"].decode("utf-8"))
        rules = rules_from_mapping(data, source="inputs/rules.toml")
    except (KeyError, UnicodeDecodeError, tomllib.TOMLDecodeError, RulesError, ValueError) as exc:
        problems.append(problem("inputs/rules.toml: {what}", what=str(exc) or "missing"))
    try:
        start = read_states(files["inputs/states.json"])
    except (KeyError, UnicodeDecodeError, ValueError, TypeError, RecursionError) as exc:
        problems.append(problem("inputs/states.json: {what}", what=str(exc) or "missing"))
    with tempfile.TemporaryDirectory(prefix="qiyuan-kit-") as tmp:
        d = Path(tmp)
        for name in ("players", "events", "games", "standings"):
            (d / f"{name}.csv").write_bytes(files.get(f"inputs/{name}.csv", b""))
        try:
            history_in = read_history(d / "players.csv", d / "events.csv", d / "games.csv", d / "standings.csv")
        except InputError as exc:
            problems += [Problem(f"inputs/{Path(p.file).name}" if p.file else "inputs", p.line, p.column, p.message,
                                 p.params, p.code) for p in exc.problems]
        if problems:
            raise InputError(problems)
        try:
            history = compute_history(rules, history_in.players, history_in.events, history_in.games,
                                      history_in.standings, start=start, until=list_date, engine=engine,
                                      full_changes=canonical_version is not None)
        except ValueError as exc:  # the inputs do not fit together (e.g. states of a player not in players.csv)
            raise InputError([problem("inputs: {what}", what=str(exc))]) from None
        out = d / "out"
        out.mkdir()
        write_history(out, history, history_in.players)
        listed = out / f"{list_date.isoformat()}.csv"
        outputs = {"outputs/list.csv": listed.read_bytes() if listed.exists() else b"",
                   "outputs/changes.csv": (out / "changes.csv").read_bytes(),
                   "outputs/states.json": states_bytes(list_date, history.final_states)}
    if canonical_version is not None:
        outputs[CANONICAL] = canonical_text(rules, history, history_in, start, canonical_version,
                                            files.get(CANONICAL, b""))
    return outputs


def canonical_text(rules, history, history_in, start, version: int, published: bytes) -> bytes:
    """The edition's canonical text recomputed: its entries (order, ranks, K, states) as the office publishes
    them, its changes with their explanations, its events. A member never rated and untouched since he joined
    is not shown on a list; which of those the office left out is read from the published text (any other
    difference changes the digest)."""
    try:
        shown = {json.loads(line.split("\t", 1)[0])[0] for line in C.read_text(published)[0]}
    except (UnicodeDecodeError, ValueError, IndexError, TypeError, KeyError, RecursionError):
        shown = set()
    members = {p.id: (0, p.name, p.registered_on) for p in history_in.players}
    before = ListStates.from_states(start.states if start is not None else {})
    entries = edition_entries(rules, ListStates.from_states(history.final_states), before, members,
                              lambda fid, text: fid not in shown)
    w = C.writer(version)
    changes = [w.change_line(c.event_id, c.player_id, w.change_text(c)) for c in history.changes]
    return w.text_of((e.line() for e in entries), changes, [e.id for e in history_in.events])


def _rows(data: bytes, key: tuple[str, ...]) -> dict[tuple, dict[str, str]]:
    """A CSV file's rows by ``key``: each cell as text (a row longer than the header keeps its extra cells
    under ``…``, a shorter one its missing cells as "")."""
    rows = {}
    for row in csv.DictReader(io.StringIO(data.decode("utf-8")), restkey="…", restval=""):
        if "…" in row:
            row["…"] = ",".join(row["…"])
        rows[tuple(row.get(k) or "" for k in key)] = {str(k): v or "" for k, v in row.items()}
    return rows


def _compare_csv(report: Report, name: str, mine: bytes, theirs: bytes, key: tuple[str, ...]) -> None:
    try:
        a, b = _rows(mine, key), _rows(theirs, key)
    except (UnicodeDecodeError, csv.Error):
        report.fail("recomputation", problem("{name}: not UTF-8 CSV text", name=name))
        return
    for k in sorted(set(a) | set(b)):
        who = " ".join(x for x in k if x)
        if k not in b:
            report.fail("recomputation", problem("{name}: {who} is missing from the bundle (recomputed: {row})",
                                                 name=name, who=who, row=",".join(a[k].values())))
        elif k not in a:
            report.fail("recomputation", problem("{name}: {who} is in the bundle but not in the recomputation",
                                                 name=name, who=who))
        else:
            for col in a[k]:
                if col not in key and a[k][col] != b[k].get(col):
                    report.fail("recomputation", problem("{name}: {who}, {field}: the bundle says {theirs}, "
                                                         "recomputed {mine}", name=name, who=who, field=col,
                                                         theirs=b[k].get(col), mine=a[k][col]))
    order_a = [r.get("player_id") for r in a.values()] if "player_id" in key and len(key) == 1 else None
    order_b = [r.get("player_id") for r in b.values()] if order_a is not None else None
    if order_a is not None and set(order_a) == set(order_b) and order_a != order_b:
        report.fail("recomputation", problem("{name}: the list's order differs", name=name))


def _compare_states(report: Report, mine: bytes, theirs: bytes) -> None:
    try:
        a = json.loads(mine.decode("utf-8"))["states"]
        b = json.loads(theirs.decode("utf-8"))["states"]
        if not isinstance(b, dict):
            raise TypeError
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError):
        report.fail("recomputation", problem("outputs/states.json: not a states file"))
        return
    for pid in sorted(set(a) | set(b)):
        if a.get(pid) != b.get(pid):
            mine_s, theirs_s = a.get(pid), b.get(pid)
            mine_s = mine_s if isinstance(mine_s, dict) else {}
            theirs_s = theirs_s if isinstance(theirs_s, dict) else {}
            fields = sorted(str(k) for k in set(mine_s) | set(theirs_s) if mine_s.get(k) != theirs_s.get(k))
            report.fail("recomputation", problem("outputs/states.json: {who}: {fields} differ", who=pid,
                                                 fields=", ".join(fields) or "the whole state"))


def _recompute(bundle: B.Bundle, engine: str, report: Report) -> None:
    try:
        list_date = date.fromisoformat(bundle.manifest.list_date)
        mine = recompute_outputs(bundle.files, list_date, engine, bundle.manifest.canonical_version or None)
    except InputError as exc:
        for p in exc.problems:
            report.fail("recomputation", p)
        return
    except ValueError as exc:
        report.fail("recomputation", problem("the manifest's list date: {what}", what=str(exc)))
        return
    _compare_csv(report, "outputs/list.csv", mine["outputs/list.csv"], bundle.files.get("outputs/list.csv", b""),
                 ("player_id",))
    _compare_csv(report, "outputs/changes.csv", mine["outputs/changes.csv"],
                 bundle.files.get("outputs/changes.csv", b""), ("event_id", "player_id"))
    _compare_states(report, mine["outputs/states.json"], bundle.files.get("outputs/states.json", b"{}"))
    if CANONICAL in mine:
        _compare_canonical(report, mine[CANONICAL], bundle.files.get(CANONICAL, b""))
    if report.ok["recomputation"] is None:
        report.ok["recomputation"] = True


def _keyed(data: bytes) -> dict[str, str]:
    """A canonical text's lines by who they are about (``CN000123``, ``EV01 CN000123``, ``events``)."""
    entries, changes, events = C.read_text(data)
    out = {json.loads(line.split("\t", 1)[0])[0]: line for line in entries}
    out.update({" ".join(json.loads(line.split("\t", 1)[0])): line for line in changes})
    out["events"] = json.dumps(events, ensure_ascii=False)
    return out


def _compare_canonical(report: Report, mine: bytes, theirs: bytes) -> None:
    """The recomputed canonical text against the bundle's: identical, or each differing line named."""
    if mine == theirs:
        return
    try:
        a, b = _keyed(mine), _keyed(theirs)
    except (UnicodeDecodeError, ValueError, IndexError, TypeError, RecursionError):
        report.fail("recomputation", problem("{name}: not a canonical text", name=CANONICAL))
        return
    named = False
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            named = True
            report.fail("recomputation", problem("{name}: {who}: the bundle says {theirs}, recomputed {mine}",
                                                 name=CANONICAL, who=k, theirs=(b.get(k) or "—").strip()[:300],
                                                 mine=(a.get(k) or "—").strip()[:300]))
    if not named:
        report.fail("recomputation", problem("{name}: the list's order differs", name=CANONICAL))


def _states_of(data: bytes | None) -> tuple[str | None, dict]:
    raw = json.loads((data or b"").decode("utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("states"), dict):
        raise ValueError("not a states file")
    return raw.get("date"), raw["states"]


def _chain(bundle: B.Bundle, previous: B.Bundle, report: Report) -> None:
    if bundle.manifest.previous_digest != previous.manifest.edition_digest:
        report.fail("chain", problem("the previous edition's digest is {theirs}, this bundle names {mine}",
                                     theirs=previous.manifest.edition_digest[:16],
                                     mine=bundle.manifest.previous_digest[:16] or "none"))
    try:
        ended_on, ended = _states_of(previous.files.get("outputs/states.json"))
        starts_on, starts = _states_of(bundle.files.get("inputs/states.json"))
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        report.fail("chain", problem("this edition does not start from the states the previous one ended with"))
        starts_on, starts, ended_on, ended = None, {}, None, {}
    if ended_on != starts_on or any(starts.get(pid) != s for pid, s in ended.items()):
        changed = sorted(pid for pid, s in ended.items() if starts.get(pid) != s)
        report.fail("chain", problem("this edition does not start from the states the previous one ended with"
                                     "{who}", who=(": " + ", ".join(changed[:10])) if changed else ""))
    joined = len(set(starts) - set(ended))
    if joined:  # members who joined the list since: they start from the start states the rules give them
        report.notes.append(problem("{n} member(s) joined the list since the previous edition", n=joined))
    if report.ok["chain"] is None:
        report.ok["chain"] = True
