"""The event file as the arbiter's store (赛事文件): changed under a lock, written atomically.

:class:`TrfFileStore` is the command line's implementation of
``qiyuan.tournament.arbiter.EventStore``.  A change

1. takes an exclusive lock (``fcntl.flock``) on a lock file beside the event file
   (``open.trf.lock``), so two commands changing one event queue instead of
   overwriting each other — ten ``qiyuan event result`` commands for ten boards
   started at once all keep their result;
2. reads the file (fresh, under the lock);
3. on success writes the new text to a temporary file beside it, flushes it to the
   disk (``fsync``), renames it over the event file (atomic: a reader sees the old
   file or the new one, never half of one) and syncs the directory;
4. appends one line to the event's audit trail beside it (``open.trf.audit``: JSON per
   line — when, who (the login running the command), the action and its details: a result
   changed names the board, from what to what);
5. unlocks (also on a refusal, when nothing is written: the event file stays byte for byte).

Reading without changing (show, standings, print) takes no lock: the rename makes
every read whole.
"""

from __future__ import annotations

import fcntl
import json
import os
from datetime import UTC, datetime
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from qiyuan.errors import InputError, Problem
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.formats.trf26 import is_trf26
from qiyuan.tournament.arbiter import Change
from qiyuan.tournament.model import Tournament


class TrfFileStore:
    """An event kept in one TRF file: TRF-16, or TRF26 when the file read is TRF26 (or ``trf26`` asks for it):
    a file is written back in the version it was read in."""

    def __init__(self, path: str | Path, *, notes: list[Problem] | None = None, overwrite: bool = False,
                 trf26: bool = False):
        self.path = Path(path)
        self.trf26 = trf26
        self.label = str(path)
        #: what the reader said about the file's encoding (shown by the command line)
        self.notes = notes if notes is not None else []
        self.overwrite = overwrite

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    @property
    def audit_path(self) -> Path:
        return self.path.with_name(self.path.name + ".audit")

    def audit(self) -> list[dict[str, Any]]:
        """The event's audit trail, oldest first (empty when there is none)."""
        try:
            lines = self.audit_path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        out = []
        for line in lines:
            try:
                out.append(json.loads(line))
            except ValueError:
                continue  # a line cut by a full disk: the others still read
        return out

    def _record(self, actor: object, action: str, detail: dict[str, Any]) -> None:
        entry = {"at": datetime.now(UTC).isoformat(timespec="seconds"), "actor": str(actor or ""),
                 "action": f"event.{action}", **detail}
        try:
            with open(self.audit_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")
        except OSError as exc:
            raise InputError(Problem(self.label, None, None,
                                     f"written, but its audit trail cannot be: {exc.strerror or exc}")) from None

    def read(self) -> Tournament:
        t = read_trf(self.path, notes=self.notes)
        self.trf26 = is_trf26(self.path.read_bytes().decode("utf-8", errors="replace"))
        return t

    @contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise InputError(Problem(self.label, None, None,
                                     f"cannot write (its lock file): {exc.strerror or exc}")) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def create(self, t: Tournament, actor: object, **detail: Any) -> None:
        with self._locked():
            if self.path.exists() and not self.overwrite:
                raise InputError(Problem(self.label, None, None, "the file exists (use --force to overwrite)"))
            self._write(t)
            if actor is not None and detail:
                self._record(actor, "create", detail)

    @contextmanager
    def change(self, actor: object, action: str, **detail: Any) -> Iterator[Change]:
        with self._locked():
            ch = Change(self.read(), dict(detail))
            yield ch
            self._write(ch.t)
            self._record(actor, action, ch.detail)

    def write_copy(self, t: Tournament, *, id_numbers: bool, trf26: bool | None = None) -> None:
        """Write ``t`` to this path (a copy for others: ``event export``), atomically; ``trf26`` True/False
        for TRF26/TRF-16 (None: the store's own version)."""
        if trf26 is not None:
            self.trf26 = trf26
        with self._locked():
            self._write(t, id_numbers=id_numbers)

    def _write(self, t: Tournament, *, id_numbers: bool = True) -> None:
        for e in t.entrants:
            e.points = None  # the writer puts the score the results give
        try:
            text = write_trf(t, id_numbers=id_numbers, trf26=self.trf26)
        except ValueError as exc:
            raise InputError(Problem(self.label, None, None, f"cannot write: {exc}")) from None
        write_atomically(self.path, text.encode("utf-8"), label=self.label)


def write_atomically(path: Path, data: bytes, *, label: str = "") -> None:
    """Write ``data`` to ``path`` by a synced temporary file renamed over it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(Problem(label or str(path), None, None, f"cannot write: {exc.strerror or exc}")) from None
