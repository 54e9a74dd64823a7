"""The rating officer's dan and kyu desk (段级位授予): the policy in force, grading standards, an imported event's
proposals to confirm, grants by hand, certificates.

Thin: each form calls the grades use case the command line calls too (``qiyuan.office.grades``) — it checks,
locks, writes and audits; a refusal's problems are shown in the page's language (``Problem.text(gettext)``).
"""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from qiyuan.errors import QiyuanError
from qiyuan.office.events.models import Event
from qiyuan.office.grades.certificates import certificate_pdf
from qiyuan.office.grades.grants import confirm_proposals, grant_grade
from qiyuan.office.grades.models import GradingStandard
from qiyuan.office.grades.policies import policy_in_force
from qiyuan.office.grades.proposals import event_proposal, find_event
from qiyuan.office.grades.standards import record_standard, standard_for
from qiyuan.office.ratings.models import RatingList
from qiyuan.office.registry import find_player
from qiyuan.people.grades import DAN_GRADES
from qiyuan.web.portal.templatetags.qiyuan_grades import grade_name, problem_text

from ..permissions import OFFICER, role_required

#: recent events shown on the grades page
RECENT_EVENTS = 30


def _say(request, exc: QiyuanError) -> None:
    """Each problem of a refusal as an error message, in the page's language, at its place (a player's ID)."""
    for p in exc.problems:  # its grades in words (六段, not 6d) and its clauses as the texts name them
        where = p.where(_)
        text = problem_text(p)
        messages.error(request, f"{where}: {text}" if where else text)


def _day(text: str | None, what: str, problems: list[str]) -> date | None:
    try:
        return date.fromisoformat((text or "").strip())
    except ValueError:
        problems.append(_("%(what)s：%(value)s 不是日期（YYYY-MM-DD）。") % {"what": what, "value": text or "—"})
        return None


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def grades(request):
    """The policy in force, recent events and their standards, the forms to record a standard or a grant."""
    actor = request.user
    if request.method == "POST":
        action = request.POST.get("action")
        problems: list[str] = []
        try:
            if action == "standard":
                start = _day(request.POST.get("start"), _("开始日期"), problems)
                if not problems:
                    s = record_standard(request.POST.get("event_name", ""), start, request.POST.get("event_class", ""),
                                        rating_list=request.POST.get("rating_list") or None,
                                        note=request.POST.get("note", ""), actor=actor)
                    messages.success(request, _("已登记等级赛标准 #%(id)s：%(event)s（%(start)s 开始）。") % {
                        "id": s.pk, "event": s.event_name, "start": s.start_date.isoformat()})
                    return redirect("desk:grades")
            elif action == "grant":
                on = _day(request.POST.get("granted_on"), _("授予日期"), problems)
                if not problems:
                    player = find_player(request.POST.get("player", ""))
                    code = (request.POST.get("event") or "").strip()
                    g = grant_grade(player, request.POST.get("grade", ""), granted_on=on,
                                    granted_by=request.POST.get("granted_by", ""),
                                    event=find_event(code) if code else None,
                                    demote=bool(request.POST.get("demote")), reason=request.POST.get("reason", ""),
                                    actor=actor)
                    messages.success(request, _("已授予 %(player)s %(grade)s（%(body)s，%(date)s）。") % {
                        "player": f"{player.federation_id} {player.name}", "grade": grade_name(g.grade), "body": g.granted_by,
                        "date": g.granted_on.isoformat()})
                    return redirect("desk:grades")
            else:
                problems.append(_("未知操作。"))
        except QiyuanError as exc:
            _say(request, exc)
        for text in problems:
            messages.error(request, text)
    in_force = policy_in_force()
    events = list(Event.objects.select_related("rating_list").annotate(grants=Count("dan_grants"))
                  .order_by("-end_date", "-id")[:RECENT_EVENTS])
    policy = in_force.policy
    english = (get_language() or "").startswith("en")
    # the classes and the policy in words of the page's language (their names are the policy file's codes)
    classes = [{"name": c.name, "title": (c.title_en if english else c.title) or c.title or c.title_en or c.name}
               for c in policy.classes]
    titles = {c["name"]: c["title"] for c in classes}
    standards = list(GradingStandard.objects.select_related("rating_list").order_by("-start_date", "-id")[:50])
    for e in events:
        e.standard = standard_for(e)
    for s in standards + [e.standard for e in events if e.standard]:
        s.class_title = titles.get(s.event_class, s.event_class)
    return render(request, "desk/grades.html", {
        "policy": policy, "version": in_force.version, "events": events, "classes": classes,
        "policy_title": (policy.title_en if english else policy.title) or policy.title or policy.title_en,
        "federation": (policy.federation_en if english else policy.federation) or policy.federation,
        "standards": standards,
        "lists": RatingList.objects.order_by("code"), "grades": DAN_GRADES, "today": date.today(),
        "post": request.POST if request.method == "POST" else {},
    })


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def grade_event(request, code: str):
    """One event's proposals: who earns what and why the others do not; the officer confirms all or some."""
    try:
        event = find_event(code)
    except QiyuanError as exc:
        _say(request, exc)
        return redirect("desk:grades")
    standard_id = request.POST.get("standard") or request.GET.get("standard") or None
    standard_id = int(standard_id) if standard_id and str(standard_id).isdigit() else None
    if request.method == "POST":
        chosen = request.POST.getlist("player")
        try:
            if request.POST.get("action") == "all":
                grants = confirm_proposals(event, standard_id=standard_id, actor=request.user)
            elif chosen:
                grants = confirm_proposals(event, players=chosen, standard_id=standard_id, actor=request.user)
            else:
                grants = None
                messages.error(request, _("请选择要授予的棋手。"))
            if grants is not None:
                messages.success(request, _("已授予 %(n)d 人。") % {"n": len(grants)})
                return redirect(reverse("desk:grade_event", args=[event.code]))
        except QiyuanError as exc:
            _say(request, exc)
    try:
        ep = event_proposal(event, standard_id=standard_id)
    except QiyuanError as exc:
        _say(request, exc)
        ep = event_proposal(event)
    serials = dict(event.dan_grants.values_list("player__federation_id", "serial"))
    return render(request, "desk/grade_event.html", {"ep": ep, "event": event, "prop": ep.proposal,
                                                     "serials": serials, "standard_id": standard_id})


@role_required(OFFICER)
@require_http_methods(["GET"])
def certificate(request, serial: str):
    """The certificate (段位证书) of one grant, as an A4 PDF."""
    try:
        pdf = certificate_pdf(serial)
    except QiyuanError as exc:
        _say(request, exc)
        return redirect("desk:grades")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{serial}.pdf"'
    return response
