"""Backup → restore round trip of the whole office, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import gzip
import json
from datetime import date
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command

from qiyuan.office.audit.models import AuditLog
from qiyuan.office import backup
from qiyuan.office import registry as services
from qiyuan.office.federation.models import Arbiter, NameChange, Player
from qiyuan.office.grades.grants import grant_grade

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every office table (auto-created content types and permissions aside)."""
    out = {}
    for model in backup.office_models():
        label = model._meta.label_lower
        if label in backup.AUTO_CREATED:
            continue
        names = [f.attname for f in model._meta.concrete_fields]
        out[label] = list(model._base_manager.order_by("pk").values_list(*names))
    return out


@pytest.fixture
def office(make_player, make_association, resident_id):
    make_association("CN", "中国")
    make_association("BJ", "北京五子棋协会", name_en="Beijing")
    a = make_player("张三", id_number=resident_id(date(2008, 7, 1), "M"), dan="1d")
    b = make_player("李娜", gender="F", association="SH", name_latin="Li Na",
                    reference_rating=Decimal("2123.45"), reference_rating_source="RIF")
    services.rename_player(a, "张叁", actor="officer", changed_on=date(2024, 1, 2), reason="更名")
    services.change_association(b, "BJ", actor="officer", changed_on=date(2025, 3, 4))
    grant_grade(a, "2d", granted_on=date(2025, 1, 1), granted_by="中国棋院", actor="officer")
    Arbiter.objects.create(player=a, name="张叁", level="national", recognised_national=True)
    dup = make_player("李娜", gender="F")
    services.merge_players(b, dup, "officer")
    user = get_user_model().objects.create_user("arbiter1", password="x")
    AuditLog.objects.create(user=user, actor="arbiter1", action="test.detail", detail={"d": "2026-01-01", "n": [1, 2]})
    # a binary column and a JSON list, from another app
    rejected = apps.get_model("events", "RejectedReport")
    rejected.objects.create(kind="report", filename="坏报告.xlsx", sha256="0" * 64, actor="officer",
                            reasons=["bad check digit", {"row": 3}], content=bytes(range(256)))
    return snapshot()


@pytest.mark.parametrize("name", ["office.jsonl.gz", "office.jsonl"])
def test_backup_restore_round_trip_is_exact(office, tmp_path, name):
    path = tmp_path / name
    seen = []
    made = backup.backup(path, progress=lambda label, done, total: seen.append((label, done, total)))
    assert made.counts["federation.player"] == 3 and ("federation.player", 3, 3) in seen
    assert (gzip.open(path).read(2) if name.endswith(".gz") else path.read_bytes()[:1]) in (b'{"', b"{")
    call_command("flush", interactive=False, verbosity=0)
    assert Player.objects.count() == 0
    restored = backup.restore(path)
    assert restored.counts == made.counts
    assert snapshot() == office
    # sequences continue after the restored rows
    assert services.register_player(name="王五", gender="M", actor="t").federation_id == "CN000004"
    assert Player.objects.latest("pk").pk > max(p[0] for p in office["federation.player"])


def test_restore_refuses_an_office_that_is_not_empty_unless_replaced(office, tmp_path):
    path = tmp_path / "b.jsonl.gz"
    backup.backup(path)
    with pytest.raises(backup.BackupError, match=r"not empty: audit.auditlog \(\d+\), .* and \d+ more tables"):
        backup.restore(path)
    services.rename_player(Player.objects.get(name="张叁"), "张三三", actor="t")
    from django.contrib.sessions.backends.db import SessionStore

    stale = SessionStore()
    stale["_auth_user_id"] = "1"
    stale.create()
    backup.restore(path, replace=True)
    assert not SessionStore().exists(stale.session_key)  # nobody stays logged in across a replace
    assert snapshot() == office
    assert not NameChange.objects.filter(new_name="张三三").exists()


def test_restore_refuses_a_damaged_or_truncated_file_and_writes_nothing(office, tmp_path):
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    call_command("flush", interactive=False, verbosity=0)
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text("".join(lines[:-3]), encoding="utf-8")
    with pytest.raises(backup.BackupError, match="truncated"):
        backup.restore(truncated)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(lines).replace("张叁", "张飞"), encoding="utf-8")
    with pytest.raises(backup.BackupError, match="checksum"):
        backup.restore(edited)
    assert Player.objects.count() == 0 and NameChange.objects.count() == 0


def test_restore_refuses_files_that_are_not_backups(tmp_path, db):
    other = tmp_path / "x.csv"
    other.write_text("name,rating\n", encoding="utf-8")
    with pytest.raises(backup.BackupError, match="not a qiyuan office backup"):
        backup.restore(other)
    with pytest.raises(backup.BackupError, match="no such file"):
        backup.restore(tmp_path / "missing.gz")


def test_restore_refuses_a_backup_from_a_newer_version(office, tmp_path):
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["migrations"]["federation"].append("0999_future")
    lines[0] = json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"
    future = tmp_path / "future.jsonl"
    future.write_text("".join(reseal(lines[:-1], json.loads(lines[-1])["counts"])), encoding="utf-8")
    with pytest.raises(backup.BackupError, match="newer qiyuan .*federation.0999_future"):
        backup.restore(future)


def test_backup_holds_every_table_and_the_migrations(office, tmp_path):
    path = tmp_path / "b.jsonl"
    made = backup.backup(path)
    header = backup.read_header(path)
    assert header["vendor"] in ("sqlite", "postgresql")
    assert "0001_initial" in header["migrations"]["federation"]
    assert {"federation.player", "federation.namechange", "audit.auditlog", "auth.user"} <= set(made.counts)
    assert "sessions.session" not in made.counts  # a leaked backup opens nobody's session
    decimals = [line for line in path.read_text(encoding="utf-8").splitlines() if "2123.45" in line]
    assert decimals and '"2123.45"' in decimals[0]  # exact, as a string, never a float


def rewrite_backup(source, target, *, drop_app: str) -> None:
    """Write ``source`` again as if it came from a qiyuan without the app ``drop_app`` (an older version)."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["migrations"].pop(drop_app)
    out = [json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"]
    counts, skipping = {}, False
    for line in lines[1:-1]:
        item = json.loads(line)
        if isinstance(item, dict):
            skipping = item["model"].startswith(drop_app + ".")
            if not skipping:
                counts[item["model"]] = item["count"]
        if not skipping:
            out.append(line)
    target.write_text("".join(reseal(out, counts)), encoding="utf-8")


def reseal(lines: list[str], counts: dict, original: str | None = None) -> list[str]:
    """The lines with a new trailer: an edit a checksum cannot catch (made on purpose by these tests);
    ``original``: the trailer line it replaces, whose audit log head is kept (as one who edits on purpose would)."""
    import hashlib

    digest = hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()
    audit = json.loads(original).get("audit") if original else None
    return [*lines, json.dumps({"end": True, "counts": counts, "sha256": digest,
                                **({"audit": audit} if audit is not None else {})}) + "\n"]


def test_an_older_backup_restores_into_this_version(office, tmp_path):
    """A backup made before an app existed: restored at its schema, then migrated forward."""
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    older = tmp_path / "older.jsonl"
    rewrite_backup(path, older, drop_app="audit")
    call_command("flush", interactive=False, verbosity=0)
    restored = backup.restore(older)
    assert "audit.auditlog" not in restored.counts
    # the table exists again after migrating forward, holding only each dan grant as it stood at the upgrade
    # (issue 32: every grade stands in the audit log, for ``office verify``)
    upgrade = list(AuditLog.objects.values_list("actor", "action"))
    assert upgrade and set(upgrade) == {("qiyuan upgrade", "player.dan")}
    expected = {label: rows for label, rows in office.items() if not label.startswith("audit.")}
    assert {label: rows for label, rows in snapshot().items() if not label.startswith("audit.")} == expected
    services.register_player(name="王五", gender="M", actor="t")
    assert AuditLog.objects.filter(action="player.register").count() == 1
    from qiyuan.office.records import chain_check

    assert not chain_check().problems  # the upgrade's entries chained, the new one after them


def test_replace_with_a_damaged_file_keeps_the_office(office, tmp_path):
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text(path.read_text(encoding="utf-8").replace("李娜", "李那"), encoding="utf-8")
    with pytest.raises(backup.BackupError, match="checksum"):
        backup.restore(damaged, replace=True)
    assert snapshot() == office  # verified before anything was emptied


# -- issue 32, item 5: the audit log's head in the signed trailer ---------------------------------------------------


def _without_audit_log(source, target, *, trailer_edit=None) -> None:
    """``source`` with every audit entry deleted and its checksum recomputed (the trailer's other fields kept,
    or changed by ``trailer_edit``): what someone covering his tracks would do."""
    import hashlib

    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    trailer = json.loads(lines[-1])
    out, skipping = [], False
    for line in lines[:-1]:
        item = json.loads(line)
        if isinstance(item, dict) and "model" in item:
            skipping = item["model"] == "audit.auditlog"
            if skipping:
                out.append(json.dumps({**item, "count": 0}, ensure_ascii=False, separators=(",", ":")) + "\n")
                continue
        elif skipping:
            continue
        out.append(line)
    trailer["counts"]["audit.auditlog"] = 0
    trailer["sha256"] = hashlib.sha256("".join(out).encode("utf-8")).hexdigest()
    if trailer_edit:
        trailer_edit(trailer)
    target.write_text("".join(out) + json.dumps(trailer) + "\n", encoding="utf-8")


def test_a_backup_with_its_audit_log_deleted_and_checksum_recomputed_is_refused(office, tmp_path):
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["audit"]["entries"] > 0
    cut = tmp_path / "cut.jsonl"
    _without_audit_log(path, cut)
    with pytest.raises(backup.BackupError, match="audit log in the backup .0 entries.* is not the one it was made"):
        backup.restore(cut, replace=True)
    _without_audit_log(path, cut, trailer_edit=lambda t: t.pop("audit"))
    with pytest.raises(backup.BackupError, match="states no audit log head"):
        backup.restore(cut, replace=True)
    assert snapshot() == office  # refused before anything was emptied


def test_a_signed_backup_whose_trailer_was_rewritten_is_refused(office, tmp_path, monkeypatch):
    from qiyuan.office.signing_key import init_key

    monkeypatch.setenv("QIYUAN_KEY_DIR", str(tmp_path / "keys"))
    init_key("officer")
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    assert "signature" in json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    cut = tmp_path / "cut.jsonl"
    _without_audit_log(path, cut, trailer_edit=lambda t: t.update(audit={"entries": 0, "head": ""}))
    with pytest.raises(backup.BackupError, match="signature does not verify"):
        backup.restore(cut, replace=True)
    _without_audit_log(path, cut, trailer_edit=lambda t: [t.pop(k) for k in ("signature", "key", "audit")])
    with pytest.raises(backup.BackupError, match="not signed"):
        backup.restore(cut, replace=True)
    backup.restore(path, replace=True)  # the backup as made restores
    assert snapshot() == {**office, "audit.auditlog": snapshot()["audit.auditlog"]}


def test_an_unsigned_backup_restores_into_a_signing_office_only_when_accepted(office, tmp_path, monkeypatch):
    from qiyuan.office.signing_key import init_key

    path = tmp_path / "b.jsonl"
    backup.backup(path)  # made before the office had a key
    monkeypatch.setenv("QIYUAN_KEY_DIR", str(tmp_path / "keys"))
    init_key("officer")
    with pytest.raises(backup.BackupError, match="--accept-unsigned"):
        backup.restore(path, replace=True)
    backup.restore_office(path, actor="officer", replace=True, accept_unsigned=True)
    assert AuditLog.objects.filter(action="office.restore", detail__unsigned_accepted=True).exists()
