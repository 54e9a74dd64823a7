"""A grant's certificate (段位证书 / 级位证书): what it says, from the records, and its PDF.

Every grant the federation itself makes carries a serial number (``DanGrant.serial``,
given once when the grant is recorded, unique): the certificate is found by it and
prints the same every time — an event's grant cites the policy its standard was
recorded under. Grants of other bodies (中国棋院, RIF, …) have no serial here: their
certificates are those bodies' to issue.
"""

from __future__ import annotations

from qiyuan.errors import NotFound, problem
from qiyuan.formats.certificate_pdf import Certificate
from qiyuan.formats.certificate_pdf import certificate_pdf as render
from qiyuan.formats.pdf_font import font_name
from qiyuan.office.events.models import Entry
from qiyuan.office.federation.models import DanGrant
from qiyuan.office.grades.policies import policy_in_force, version_policy
from qiyuan.office.grades.standards import standard_for


def certificate_for(serial: str) -> Certificate:
    """The certificate of the grant with this serial number (``NotFound`` otherwise)."""
    grant = (DanGrant.objects.filter(serial=(serial or "").strip()).exclude(serial="")
             .select_related("player", "event").first())
    if grant is None:
        raise NotFound([problem("no certificate {serial!r}: certificates are numbered like DEMO-2024-00001 "
                                "(`qiyuan office dan history PLAYER` lists a player's)", serial=serial)])
    p, ev = grant.player, grant.event
    # the policy the grant was made under: an event's, that of its standard (what was published); else the one
    # in force now
    standard = standard_for(ev) if ev is not None and grant.clause != "by hand" else None
    policy = version_policy(standard.policy) if standard is not None else policy_in_force().policy
    rank = (Entry.objects.filter(event=ev, player=p).values_list("rank", flat=True).first() if ev else None)
    return Certificate(
        serial=grant.serial, federation=grant.granted_by,
        federation_en=policy.federation_en if grant.granted_by == policy.federation else "",
        player_name=p.name, player_latin=p.name_latin, federation_id=p.federation_id,
        grade=grant.grade, granted_on=grant.granted_on, event_name=ev.name if ev else "",
        event_name_en=(ev.name_en or "") if ev else "", placing=rank if grant.clause != "by hand" else None,
        policy_title=policy.title if grant.granted_by == policy.federation and standard is not None else "",
    )


def certificate_pdf(serial: str) -> bytes:
    """The certificate's A4 PDF, with the embedded CJK font."""
    return render(certificate_for(serial), font=font_name())
