"""Refused files are kept (退回的报告): the file's bytes and every reason, so nothing is silently dropped."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from qiyuan.office.audit.models import record
from qiyuan.office.events.models import RejectedReport

#: files larger than this are recorded without their bytes
KEEP_CONTENT_BYTES = 5 * 1024 * 1024


def reject(kind: str, path: Path, sha: str, actor: str, rating_list, event_name: str, reasons: list[str]):
    """Keep the refused file with every reason (in its own transaction: the import stored nothing)."""
    rej = RejectedReport.objects.create(kind=kind[:12], filename=path.name, sha256=sha, actor=actor,
                                        rating_list=rating_list, event_name=event_name[:200], reasons=reasons,
                                        content=content(path))
    record(actor, "report.reject", rej, filename=path.name, reasons=len(reasons))
    return rej


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
