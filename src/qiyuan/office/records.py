"""The office's records checked against its audit log (``office verify``, after the editions):

* the audit log's hash chain (``office.audit.chain``): an entry edited, removed or written around it;
* each published edition has the audit entry of its publication (``edition.publish`` / ``edition.correct``,
  its digest): a log cut short or replaced is found even when what is left chains;
* each edition published with the audit log's head (canonical version 3) finds that head still in the chain — the
  entry of that place with that hash: a log deleted, cut short or rewritten since (its hashes recomputed) is found;
* each dan grant (段级位) stands in the log as it was granted (``player.dan``: the player, grade, date and
  granting body): a grade changed in the database afterwards is found.
"""

from __future__ import annotations

from collections import Counter

from django.db.models import F

from qiyuan.errors import Problem, problem
from qiyuan.formats.canonical_text import extra_inputs
from qiyuan.office.audit.chain import AUDIT_LOCK, CONTENT, ChainCheck, Head
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.db import writing
from qiyuan.office.federation.models import DanGrant
from qiyuan.office.ratings.models import Edition

PUBLISHED = ("edition.publish", "edition.correct")


def chain_check() -> ChainCheck:
    """The audit log walked in chain order (``ChainCheck``: its problems, the head reached)."""
    check = ChainCheck()
    rows = AuditLog.objects.order_by(F("seq").asc(nulls_last=True), "id").values_list("id", "seq", "hash", *CONTENT)
    for pk, seq, stored, *content in rows.iterator(chunk_size=5000):
        check.add(pk, seq, stored, content)
    return check


def audit_head() -> Head:
    """The chain's newest place as stored (what a backup's trailer states)."""
    last = AuditLog.objects.filter(seq__isnull=False).order_by("-seq").values_list("seq", "hash").first()
    return Head(*last) if last else Head(0, "")


def sealed_head(version: int) -> dict:
    """The audit log's head as a publication in canonical ``version`` records it (``Head.as_json``; {} for a
    version without it), read under the audit lock inside the caller's transaction: no entry is written between
    the head read and the publication's own entry."""
    if "audit_head" not in extra_inputs(version):
        return {}
    with writing(AUDIT_LOCK):
        return audit_head().as_json()


def head_problems() -> list[Problem]:
    """Each edition's recorded audit head (``Edition.audit_head``) that today's log no longer holds: the entry of
    its place must carry its hash (a prefix of today's chain)."""
    out = []
    recorded = [(code, day, number, head) for code, day, number, head in Edition.objects.exclude(audit_head={})
                .order_by("rating_list__code", "list_date", "number")
                .values_list("rating_list__code", "list_date", "number", "audit_head")]
    places = {h.get("entries") for *_, h in recorded if isinstance(h, dict)}
    today = dict(AuditLog.objects.filter(seq__in=[p for p in places if isinstance(p, int)])
                 .values_list("seq", "hash"))
    for code, day, number, head in recorded:
        entries = head.get("entries") if isinstance(head, dict) else None
        stated = head.get("head") if isinstance(head, dict) else None
        if not entries:
            continue  # (published on an empty log: nothing before it to hold)
        if today.get(entries) != stated:
            out.append(problem("{list} {date} edition {number}: the audit log held {entries} entries (head {head}) when "
                               "it was published, and today's log does not hold that entry with that hash: the log "
                               "was deleted, cut short or rewritten since", list=code, date=day, number=number,
                               entries=entries, head=str(stated or "-")[:12]))
    return out


def record_problems() -> list[Problem]:
    """What ``office verify`` finds in the audit log and the records it must hold (see the module's docstring)."""
    out = list(chain_check().problems) + head_problems()
    logged = {(oid, (d or {}).get("digest")) for oid, d in AuditLog.objects.filter(
        action__in=PUBLISHED, object_type="ratings.edition").values_list("object_id", "detail")}
    for pk, code, day, number, digest in Edition.objects.order_by("rating_list__code", "list_date", "number") \
            .values_list("pk", "rating_list__code", "list_date", "number", "digest"):
        if (str(pk), digest) not in logged:
            out.append(problem("{list} {date} edition {number}: the audit log holds no entry of its publication with "
                               "its digest (the log was cut short or edited)", list=code, date=day, number=number))
    said = Counter((oid, (d or {}).get("grade"), (d or {}).get("granted_on"), (d or {}).get("granted_by"))
                   for oid, d in AuditLog.objects.filter(action="player.dan", object_type="federation.player")
                   .values_list("object_id", "detail"))
    for player, fid, grade, on, body in DanGrant.objects.order_by("player__federation_id", "granted_on", "id") \
            .values_list("player_id", "player__federation_id", "grade", "granted_on", "granted_by"):
        key = (str(player), grade, on.isoformat(), body)
        if said[key]:
            said[key] -= 1
            continue
        out.append(problem("dan grant of {player}: {grade} of {date} by {body} is not the grant the audit log "
                           "records (changed after it was granted)", player=fid, grade=grade, date=on, body=body))
    return out
