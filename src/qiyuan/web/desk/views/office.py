"""The rating officer's desk (等级分管理): import reports, resolve player
matches, see eligibility problems, compute a period, review, publish, correct.

Thin: every step calls the office services (``qiyuan.office.services``) the
command line uses too; nothing here computes a rating.
"""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from qiyuan.office.events.models import Event, ImportBatch, RejectedReport
from qiyuan.office.ratings.models import RatingList

from ..permissions import OFFICER, role_required


def _list_status(rl: RatingList) -> dict:
    from qiyuan.office.services import periods as P

    rules = rl.rules()
    try:
        due = P.due_date(rl, rules)
    except P.OfficeError as exc:
        due, problem = None, str(exc)
    else:
        problem = ""
    return {
        "list": rl,
        "due": due,
        "problem": problem,
        "latest": P.latest_edition(rl),
        "pending": Event.objects.filter(rating_list=rl, status=Event.Status.PENDING).order_by("end_date")[:100],
        "editions": rl.editions.order_by("-list_date", "-number")[:24],
    }


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def periods(request):
    from qiyuan.office.services import periods as P

    review = None
    if request.method == "POST":
        rl = get_object_or_404(RatingList, code=request.POST.get("list", ""))
        action = request.POST.get("action")
        actor = request.user.get_username()
        try:
            if action == "compute":
                day = _date(request.POST.get("date")) or P.due_date(rl, rl.rules())
                if day is None:
                    raise P.OfficeError(_("该榜单没有待计算的比赛。"))
                review = _review(P.compute_period(rl, day))
            elif action == "publish":
                ed = P.publish_period(rl, _date(request.POST.get("date")), actor)
                _audit(request, "period.publish", ed, list=rl.code, date=ed.list_date)
                messages.success(request, _("已发布 %(list)s %(date)s。") % {"list": rl.code, "date": ed.list_date})
                return redirect("desk:periods")
            elif action == "correct":
                day = _date(request.POST.get("date"))
                if day is None:
                    raise P.OfficeError(_("请给出要更正的榜单日期。"))
                eds = P.correct_period(rl, day, request.POST.get("reason", ""), actor)
                for ed in eds:
                    _audit(request, "period.correct", ed, list=rl.code, date=ed.list_date, number=ed.number)
                messages.success(request, _("已发布 %(n)d 个更正版。") % {"n": len(eds)})
                return redirect("desk:periods")
            else:
                messages.error(request, _("未知操作。"))
        except P.OfficeError as exc:
            messages.error(request, str(exc))
    lists = [_list_status(rl) for rl in RatingList.objects.order_by("code")]
    return render(request, "desk/periods.html", {"lists": lists, "review": review})


def _audit(request, action: str, obj, **detail) -> None:
    from qiyuan.office.audit.models import record

    record(request.user, action, obj, **detail)


def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat((text or "").strip())
    except ValueError:
        return None


def _review(comp) -> dict:
    """A computed, unpublished period for review: the new list and every change, per player."""
    from qiyuan.office.federation.models import Player

    names = dict(Player.objects.filter(pk__in=comp.pk_of.values()).values_list("federation_id", "name"))
    by_player: dict[str, list] = {}
    for c in comp.changes:
        by_player.setdefault(c.player_id, []).append(c)
    events = {e.code: e for e in comp.events}
    rows = []
    for e in comp.entries:
        rows.append({"e": e, "name": names.get(e.federation_id, ""), "changes": by_player.get(e.federation_id, [])})
    return {"comp": comp, "rows": rows, "events": events}


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def imports(request):
    return render(
        request,
        "desk/imports.html",
        {
            "batches": ImportBatch.objects.select_related("rating_list")[:50],
            "rejected": RejectedReport.objects.select_related("rating_list")[:50],
            "problems": Event.objects.exclude(eligibility__failures=[]).exclude(eligibility={})
            .select_related("rating_list").order_by("-end_date")[:50],
        },
    )


@role_required(OFFICER)
@require_http_methods(["GET"])
def import_detail(request, batch_id: int):
    batch = get_object_or_404(ImportBatch, pk=batch_id)
    return render(request, "desk/import_detail.html", {"batch": batch, "events": batch.events.all()})
