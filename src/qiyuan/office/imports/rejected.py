"""Refused files are kept (退回的报告): the file's bytes and every reason, so nothing is silently dropped."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path, PurePath

from qiyuan.errors import Problem, as_problems
from qiyuan.office.audit.models import record
from qiyuan.office.events.models import RejectedReport

#: files larger than this are recorded without their bytes
KEEP_CONTENT_BYTES = 5 * 1024 * 1024


def reject(kind: str, path: Path, sha: str, actor: str, rating_list, event_name: str,
           reasons: Iterable[Problem | str]):
    """Keep the refused file with every reason (in its own transaction: the import stored nothing): as English
    lines and as templates with their values (shown later in the reader's language), each naming the file by its
    own name, never by a path on the server."""
    problems = [_own_name(p) for p in as_problems(list(reasons))]
    rej = RejectedReport.objects.create(kind=kind[:12], filename=path.name, sha256=sha, actor=actor,
                                        rating_list=rating_list, event_name=event_name[:200],
                                        reasons=[str(p) for p in problems],
                                        reason_data=[p.as_json() for p in problems], content=content(path))
    record(actor, "report.reject", rej, filename=path.name, reasons=len(reasons))
    return rej


def _own_name(p: Problem) -> Problem:
    """The problem naming its file by the file's own name (an upload's folder on the server is nobody's business;
    a history folder's ``hist/events.csv`` is kept)."""
    where = PurePath(p.file.replace("\\", "/"))
    return replace(p, file=where.name) if where.is_absolute() or len(where.parts) > 2 else p


def content(path: Path) -> bytes | None:
    """The refused file's bytes (a history directory: its CSV files zipped), when small enough to keep."""
    if path.is_file():
        return path.read_bytes() if path.stat().st_size <= KEEP_CONTENT_BYTES else None
    files = [f for f in sorted(path.iterdir()) if f.is_file() and f.suffix.lower() == ".csv"] if path.is_dir() else []
    if not files or sum(f.stat().st_size for f in files) > KEEP_CONTENT_BYTES:
        return None
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(f, f.name)
    return buf.getvalue()
