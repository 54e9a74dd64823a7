"""The officer's calendar at the desk (赛事日历): register an upcoming event for its organiser, see its check,
amend it, approve it (with an override and its reason when the check finds problems), refuse or withdraw it.

Thin: the form's text becomes ``Details`` as typed and every action calls the
office's use case the command line calls (``qiyuan.office.event_registration``),
which validates, checks, locks, stores and audits; refusals are shown in the
page's language.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from qiyuan.errors import QiyuanError
from qiyuan.office.calendar.models import Registration
from qiyuan.office.event_registration import (
    AMENDABLE,
    Details,
    amend_registration,
    approve_registration,
    details_of,
    find_registration,
    findings,
    refuse_registration,
    register_event,
    registrations,
    set_entries,
    withdraw_registration,
)
from qiyuan.office.federation.models import Arbiter, Association
from qiyuan.office.ratings.models import RatingList
from qiyuan.rating.model import EventFormat

from ...calendar_labels import REGISTRATION_STATUS, RULES_OF_PLAY, status_label, translated
from ...display import person
from ...labels import EVENT_FORMATS, arbiter_level_label, organiser_level_choices
from ..permissions import OFFICER, role_required
from .events import list_problems

_REGION_CHOICES = [("", gettext_lazy("按城市判断")), ("inside", gettext_lazy("在京沪地区内")),
                   ("outside", gettext_lazy("在京沪地区以外"))]


class RegistrationForm(forms.Form):
    """What an organiser registers. Every field is read by the use case (dates, numbers, names), so its
    problems come back all at once in the page's language."""

    name = forms.CharField(label=gettext_lazy("赛事名称"), required=False)
    name_en = forms.CharField(label=gettext_lazy("英文名称"), required=False)
    list_code = forms.ChoiceField(label=gettext_lazy("榜单"), required=False)
    start_date = forms.CharField(label=gettext_lazy("开始日期"), required=False,
                                 widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))
    end_date = forms.CharField(label=gettext_lazy("结束日期"), required=False,
                               widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))
    city = forms.CharField(label=gettext_lazy("举办城市"), required=False)
    region = forms.ChoiceField(label=gettext_lazy("京沪地区（京沪规则 §3）"), required=False, choices=_REGION_CHOICES)
    organiser = forms.CharField(label=gettext_lazy("主办单位"), required=False)
    organiser_level = forms.ChoiceField(label=gettext_lazy("主办单位级别"), required=False,
                                        choices=organiser_level_choices())
    association = forms.ChoiceField(label=gettext_lazy("主办或批准的棋协"), required=False)
    national = forms.BooleanField(label=gettext_lazy("全国性赛事"), required=False)
    international = forms.BooleanField(label=gettext_lazy("国际性赛事"), required=False)
    agreed_by_parties = forms.BooleanField(label=gettext_lazy("经协商主体协商确定"), required=False)
    format = forms.ChoiceField(label=gettext_lazy("赛制"), required=False,
                               choices=[(f.value, EVENT_FORMATS.get(f.value, f.value)) for f in EventFormat])
    rounds = forms.CharField(label=gettext_lazy("计划轮数"), required=False)
    expected_players = forms.CharField(label=gettext_lazy("预计参赛人数"), required=False)
    time_control = forms.CharField(label=gettext_lazy("用时"), required=False,
                                   help_text=gettext_lazy("例如 每方60分钟 或 45 min + 30 s"))
    rules_of_play = forms.ChoiceField(label=gettext_lazy("竞赛规则"), required=False, choices=list(RULES_OF_PLAY.items()))
    rif_approved = forms.BooleanField(label=gettext_lazy("RIF 规则经本地区五子棋组织批准"), required=False)
    chief_arbiter = forms.ChoiceField(label=gettext_lazy("裁判长"), required=False)
    arbiters = forms.MultipleChoiceField(label=gettext_lazy("裁判员"), required=False,
                                         widget=forms.CheckboxSelectMultiple)
    grants_grades = forms.BooleanField(label=gettext_lazy("等级赛（授予段级位）"), required=False)
    standard_published_on = forms.CharField(label=gettext_lazy("等级和称号标准公布日期"), required=False,
                                            widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["list_code"].choices = [(r.code, f"{r.code} {r.title}") for r in RatingList.objects.order_by("code")]
        self.fields["association"].choices = [("", "—")] + [(a.code, f"{a.code} {a.name}")
                                                            for a in Association.objects.order_by("code")]
        names = [(a.name, f"{person(a)} · {arbiter_level_label(a.level)}") for a in Arbiter.objects.order_by("name")]
        self.fields["chief_arbiter"].choices = [("", "—")] + names
        self.fields["arbiters"].choices = names

    def details(self) -> dict:
        """The form's values as ``Details`` fields."""
        d = dict(self.cleaned_data)
        region = d.pop("region", "")
        d["inside_regions"] = {"inside": True, "outside": False}.get(region)
        d["arbiters"] = tuple(d.get("arbiters") or ())
        return d


def _initial(reg: Registration) -> dict:
    d = details_of(reg)
    values = {f: getattr(d, f) for f in AMENDABLE}
    values["list_code"] = d.list_code
    values["region"] = {True: "inside", False: "outside"}.get(reg.inside_regions, "")
    for f in ("start_date", "end_date", "standard_published_on"):
        values[f] = values[f].isoformat() if values[f] else ""
    values["arbiters"] = list(d.arbiters)
    return values


def _problems(request, exc: QiyuanError) -> None:
    for p in exc.problems:
        if p.code != "calendar.problem":  # the check's own findings are on the page already
            messages.error(request, p.text(_))


@role_required(OFFICER)
@require_http_methods(["GET"])
def index(request):
    status = request.GET.get("status") or None
    if status not in REGISTRATION_STATUS:
        status = None
    rows = [{"r": r, "status": status_label(r.status)} for r in registrations(status=status)]
    return render(request, "desk/calendar.html", {"rows": rows, "status": status,
                                                  "statuses": list(REGISTRATION_STATUS.items())})


@role_required(OFFICER)
@require_http_methods(["GET"])
def export(request, fmt: str):
    """The registration list (filtered by status as the page) as CSV or xlsx: one function writes both."""
    from django.http import HttpResponse

    from qiyuan.formats.calendar_export import FILE_FORMATS, registration_file
    from qiyuan.office.event_registration import registration_lines

    if fmt not in FILE_FORMATS:
        raise Http404(fmt)
    status = request.GET.get("status") or None
    data = registration_file(registration_lines(status=status if status in REGISTRATION_STATUS else None), fmt)
    types = {"csv": "text/csv; charset=utf-8",
             "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
    response = HttpResponse(data, content_type=types[fmt])
    response["Content-Disposition"] = f'attachment; filename="calendar-registrations.{fmt}"'
    return response


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def new(request):
    form = RegistrationForm(request.POST or None, initial={"organiser_level": "state", "format": "swiss"})
    if request.method == "POST" and form.is_valid():
        try:
            reg = register_event(Details(**form.details()), actor=request.user)
        except QiyuanError as exc:
            _problems(request, exc)
        else:
            messages.success(request, _("已注册 %(code)s。") % {"code": reg.code})
            return redirect("desk:calendar_detail", code=reg.code)
    return render(request, "desk/calendar_form.html", {"form": form, "registration": None})


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def amend(request, code: str):
    reg = _get(code)
    form = RegistrationForm(request.POST or None, initial=_initial(reg))
    if request.method == "POST" and form.is_valid():
        changes = {k: v for k, v in form.details().items() if k in AMENDABLE}  # the use case sees what changed
        try:
            reg = amend_registration(code, changes, actor=request.user)
        except QiyuanError as exc:
            _problems(request, exc)
        else:
            messages.success(request, _("已修改 %(code)s，并重新检查。") % {"code": reg.code})
            return redirect("desk:calendar_detail", code=reg.code)
    return render(request, "desk/calendar_form.html", {"form": form, "registration": reg})


def _get(code: str) -> Registration:
    try:
        return find_registration(code)
    except QiyuanError:
        raise Http404(code) from None


@role_required(OFFICER)
@require_http_methods(["GET"])
def detail(request, code: str):
    reg = _get(code)
    a = reg.assessment
    return render(request, "desk/calendar_detail.html", {
        "r": reg, "status": status_label(reg.status), "rules_label": RULES_OF_PLAY.get(reg.rules_of_play, ""),
        "format_label": EVENT_FORMATS.get(reg.format, reg.format),
        "failures": translated(findings(a, "failures")), "clashes": translated(findings(a, "clashes")),
        "notes": translated(findings(a, "notes")), "rateable": a.get("rateable"),
        "approvable": a.get("approvable"), "open": reg.status in ("registered", "approved") and not reg.event_id,
        "entries": list(reg.entries.order_by("place")),
    })


@role_required(OFFICER)
@require_POST
def entries(request, code: str):
    """Record the registration's entry list from an uploaded CSV or xlsx (the 成绩 sheet's headings): the use case
    ``qiyuan office calendar entries`` calls; every row's problem shown, nothing recorded if any."""
    from qiyuan.formats.entries import read_entries

    upload = request.FILES.get("file")
    if upload is None or upload.size > 5 * 1024 * 1024:
        messages.error(request, _("请选择一个名单文件（CSV 或 xlsx，不超过 5 MB）。"))
        return redirect("desk:calendar_detail", code=code)
    try:
        rows, faults = read_entries(upload.name, upload.read())
        reg = set_entries(code, rows, actor=request.user, source=upload.name, faults=faults)
    except QiyuanError as exc:
        list_problems(request, exc)
    else:
        messages.success(request, _("已记录 %(code)s 的报名表：%(n)d 名棋手。") % {"code": reg.code, "n": len(rows)})
    return redirect("desk:calendar_detail", code=code)


@role_required(OFFICER)
@require_POST
def act(request, code: str):
    action, reason = request.POST.get("action"), request.POST.get("reason", "")
    try:
        if action == "approve":
            reg = approve_registration(code, actor=request.user, override_reason=request.POST.get("override", ""))
            messages.success(request, _("已批准 %(code)s。") % {"code": reg.code})
        elif action == "refuse":
            reg = refuse_registration(code, reason, actor=request.user)
            messages.success(request, _("已拒绝 %(code)s。") % {"code": reg.code})
        elif action == "withdraw":
            reg = withdraw_registration(code, actor=request.user, reason=reason)
            messages.success(request, _("已撤回 %(code)s。") % {"code": reg.code})
        else:
            messages.error(request, _("未知操作。"))
    except QiyuanError as exc:
        _problems(request, exc)
    return redirect("desk:calendar_detail", code=code)
