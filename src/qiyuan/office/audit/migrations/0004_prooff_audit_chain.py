"""The audit log's hash chain (issue 32): every entry gets its place and hash (``qiyuan.office.audit.chain``).

Before the entries are chained, each dan grant that no audit entry records (a grade recorded at registration was
not audited until now) gets one, as it stands at the upgrade, so ``office verify`` finds any grade changed after."""

from django.db import migrations, models
from django.utils import timezone

from qiyuan.office.audit.chain import GENESIS, entry_hash, stored_detail

UPGRADE_ACTOR = "qiyuan upgrade"


def grants_recorded(apps, schema_editor):
    AuditLog = apps.get_model("audit", "AuditLog")
    DanGrant = apps.get_model("federation", "DanGrant")
    said: dict = {}
    for oid, detail in AuditLog.objects.filter(action="player.dan", object_type="federation.player").values_list(
            "object_id", "detail"):
        d = detail or {}
        key = (oid, d.get("grade"), d.get("granted_on"), d.get("granted_by"))
        said[key] = said.get(key, 0) + 1
    missing = []
    for pk, player, grade, on, by in DanGrant.objects.order_by("id").values_list(
            "pk", "player_id", "grade", "granted_on", "granted_by"):
        key = (str(player), grade, on.isoformat(), by)
        if said.get(key):
            said[key] -= 1
            continue
        missing.append(AuditLog(actor=UPGRADE_ACTOR, action="player.dan", object_type="federation.player",
                                object_id=str(player), at=timezone.now(),
                                detail={"grade": grade, "granted_on": on.isoformat(), "granted_by": by, "grant": pk,
                                        "recorded": "at the upgrade, as it stood"}))
    AuditLog.objects.bulk_create(missing, batch_size=2000)


def chain(apps, schema_editor):
    AuditLog = apps.get_model("audit", "AuditLog")
    previous, seq, batch = GENESIS, 0, []
    for entry in AuditLog.objects.order_by("id").iterator(chunk_size=2000):
        seq += 1
        entry.seq = seq
        entry.detail = stored_detail(entry.detail)  # stored as hashed (a NUL written on SQLite becomes ␀)
        entry.hash = previous = entry_hash(previous, seq, entry.at, entry.actor, entry.action, entry.object_type,
                                           entry.object_id, entry.detail)
        batch.append(entry)
        if len(batch) >= 2000:
            AuditLog.objects.bulk_update(batch, ["seq", "hash", "detail"])
            batch = []
    AuditLog.objects.bulk_update(batch, ["seq", "hash", "detail"])


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0003_prooff_flag_kinds'),
        ('federation', '0002_dangrant_event_serial'),
    ]

    operations = [
        migrations.AddField(
            model_name='auditlog',
            name='hash',
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name='auditlog',
            name='seq',
            field=models.PositiveBigIntegerField(blank=True, null=True, unique=True),
        ),
        migrations.RunPython(grants_recorded, migrations.RunPython.noop),
        migrations.RunPython(chain, migrations.RunPython.noop),
    ]
