"""Issue 32: the backup's audit chain and signed trailer read whatever a file holds — any value in an audit row or
the trailer, its checksum recomputed — as a named refusal (``BackupError``), never another exception."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.office import backup

pytestmark = pytest.mark.django_db

_junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**20), st.text(max_size=30),
                  st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
                  st.sampled_from(["2026-13-40T00:00:00", "2026-01-01T00:00:00+00:00", "", "0" * 64]))


@pytest.fixture
def made(tmp_path, monkeypatch):
    from qiyuan.office.audit.models import record
    from qiyuan.office.signing_key import init_key

    monkeypatch.setenv("QIYUAN_KEY_DIR", str(tmp_path / "keys"))
    init_key("officer")  # a signing office: the signature is read too

    for i in range(4):
        record("officer", "test.step", None, n=i)
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _write(path, lines, trailer):
    trailer["sha256"] = hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()
    path.write_text("".join(lines) + json.dumps(trailer) + "\n", encoding="utf-8")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=st.integers(0, 3), column=st.integers(0, 11), value=_junk, audit=st.one_of(st.just("keep"), _junk),
       signature=st.one_of(st.just("keep"), _junk))
def test_any_audit_row_or_trailer_value_is_a_named_refusal_or_accepted(made, tmp_path, row, column, value, audit,
                                                                       signature):
    lines, trailer = list(made[:-1]), json.loads(made[-1])
    at = next(i for i, line in enumerate(lines) if '"model":"audit.auditlog"' in line)
    names = json.loads(lines[at])["fields"]
    cells = json.loads(lines[at + 1 + row])
    cells[column % len(names)] = value
    lines[at + 1 + row] = json.dumps(cells, ensure_ascii=False, separators=(",", ":")) + "\n"
    if audit != "keep":
        trailer["audit"] = audit
    if signature != "keep":
        trailer["signature"] = signature
    path = tmp_path / "f.jsonl"
    _write(path, lines, trailer)
    try:
        backup.verify_file(path)
    except backup.BackupError as exc:
        assert exc.problems
