"""The arbiter's desk (裁判台): a whole event run from the browser.

Create the event, enter players (from the registry or new, late entries too),
draw the numbers, pair each round (Gomoku Swiss or round robin), override a
pairing by hand, undo and re-pair a round, print the pairings, enter results
with the keyboard, withdraw or excuse players, see the standings, download the
competition report. Every action is a POST by an arbiter of this event (or an
admin) and changes the public event page at once.
"""

from __future__ import annotations

import re
import secrets
import tempfile
from datetime import date
from pathlib import Path

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from qiyuan.people.idnumber import normalize_id_number, validate_resident_id
from qiyuan.office.federation.models import Arbiter, Player
from qiyuan.office.registry import search_players
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant

from ...labels import ORGANISER_LEVELS, organiser_level_choices
from .. import live as L
from ..models import LiveEvent
from ..permissions import ADMIN, ARBITER, has_role, require_event, role_required

FORMATS = [
    ("swiss", gettext_lazy("积分编排制（五子棋瑞士制）")),
    ("round_robin", gettext_lazy("单循环")),
    ("double_round_robin", gettext_lazy("双循环")),
]


_ARBITER_SEPARATORS = re.compile(r"\s*[、,，;；\n]\s*")


class _RegistryArbiters(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        mark = _("（中国五子棋协会认可）") if obj.recognised_national else ""
        return f"{obj.name} · {obj.get_level_display()}{mark}"


class EventDetailsForm(forms.Form):
    """What the competition report and the eligibility checks need to know about the event:
    dates, place, time control, the chief arbiter and the other arbiters (from the registry or
    written in), the organiser (主办单位), the host (承办单位) and the organiser's level."""

    name = forms.CharField(label=gettext_lazy("比赛名称"), max_length=200)
    start = forms.DateField(label=gettext_lazy("开始日期"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=gettext_lazy("结束日期"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    city = forms.CharField(label=gettext_lazy("地点"), max_length=60, required=False)
    time_control = forms.CharField(label=gettext_lazy("用时"), max_length=60, required=False,
                                   help_text=gettext_lazy("例如 60 min 或 45 min + 30 s"))
    chief_arbiter = forms.CharField(label=gettext_lazy("裁判长"), max_length=60, required=False,
                                    widget=forms.TextInput(attrs={"list": "registry-arbiter-names"}))
    registry_arbiters = _RegistryArbiters(queryset=None, required=False, label=gettext_lazy("裁判员（注册库）"),
                                          widget=forms.CheckboxSelectMultiple)
    other_arbiters = forms.CharField(label=gettext_lazy("其他裁判员（不在注册库中，用顿号或逗号分隔）"),
                                     max_length=300, required=False)
    organizer = forms.CharField(label=gettext_lazy("主办单位"), max_length=200, required=False)
    host = forms.CharField(label=gettext_lazy("承办单位"), max_length=200, required=False)
    organiser_level = forms.ChoiceField(label=gettext_lazy("主办单位级别"), required=False,
                                        choices=organiser_level_choices(blank=True))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registry_arbiters"].queryset = Arbiter.objects.order_by("name")

    def clean_time_control(self):
        """The rating rules read the first period from it (CGA Art. 5(八), BJSH §7): it must be readable."""
        from qiyuan.rating.eligibility import parse_time_control

        text = self.cleaned_data["time_control"].strip()
        if text and parse_time_control(text) is None:
            raise forms.ValidationError(_("无法读出用时 %(text)r：请写成 60 min、90+30 或 每方45分钟，每步加30秒。")
                                        % {"text": text})
        return text

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            self.add_error("end", _("结束日期早于开始日期。"))
        chief = (data.get("chief_arbiter") or "").strip()
        names = [a.name for a in data.get("registry_arbiters") or []]
        names += [n for n in _ARBITER_SEPARATORS.split(data.get("other_arbiters") or "") if n]
        data["arbiters"] = [n for i, n in enumerate(names) if n != chief and n not in names[:i]]
        for n in [chief, *data["arbiters"]]:
            if "," in n:
                self.add_error("other_arbiters", _("裁判员姓名不能含逗号：%(name)s") % {"name": n})
        return data

    @staticmethod
    def initial_from(live: LiveEvent, t) -> dict:
        """The form's values for an event as it stands."""
        registered = {a.name: a for a in Arbiter.objects.filter(name__in=t.deputy_arbiters)}
        return {
            "name": t.name or live.name, "start": t.start_date, "end": t.end_date, "city": t.city,
            "time_control": t.time_control, "chief_arbiter": t.chief_arbiter,
            "registry_arbiters": [registered[n].pk for n in t.deputy_arbiters if n in registered],
            "other_arbiters": "、".join(n for n in t.deputy_arbiters if n not in registered),
            "organizer": live.organizer, "host": live.host, "organiser_level": live.organiser_level,
        }


class NewEventForm(EventDetailsForm):
    code = forms.SlugField(label=gettext_lazy("比赛代码"), max_length=40)
    fmt = forms.ChoiceField(label=gettext_lazy("赛制"), choices=FORMATS)
    rounds = forms.IntegerField(label=gettext_lazy("轮数"), min_value=1, max_value=30, required=False)
    field_order = ["code", "name", "fmt", "rounds"]

    def clean_code(self):
        code = self.cleaned_data["code"]
        from qiyuan.office.events.models import Event

        if LiveEvent.objects.filter(code=code).exists() or Event.objects.filter(code=code).exists():
            raise forms.ValidationError(_("该比赛代码已被使用。"))
        return code


def _arbiter_names() -> list[str]:
    return list(Arbiter.objects.order_by("name").values_list("name", flat=True))


class NewPlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("姓名"), max_length=33)
    sex = forms.ChoiceField(label=gettext_lazy("性别"), choices=[("m", gettext_lazy("男")), ("w", gettext_lazy("女"))])
    title = forms.CharField(label=gettext_lazy("段级位"), max_length=3, required=False)
    rating = forms.IntegerField(label=gettext_lazy("等级分"), min_value=0, max_value=3500, required=False)
    association = forms.CharField(label=gettext_lazy("所属单位"), max_length=60, required=False)
    birth = forms.DateField(label=gettext_lazy("出生日期"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    id_number = forms.CharField(label=gettext_lazy("身份证号（仅用于竞赛报告）"), max_length=32, required=False)

    def clean(self):
        """An ID number given must be valid and agree with the sex and birth date entered."""
        data = super().clean()
        number = normalize_id_number(data.get("id_number", ""))
        if number:
            problems = validate_resident_id(number, birth_date=data.get("birth"),
                                            gender={"m": "M", "w": "F"}.get(data.get("sex", "")))
            for p in problems:
                self.add_error("id_number", p)
            data["id_number"] = number
        return data


@role_required(ARBITER)
@require_http_methods(["GET", "POST"])
def event_new(request):
    form = NewEventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            live = L.create(
                code=d["code"], name=d["name"], fmt=d["fmt"], rounds=d["rounds"], user=request.user,
                start=d["start"], end=d["end"], city=d["city"], time_control=d["time_control"],
                chief_arbiter=d["chief_arbiter"].strip(), arbiters=d["arbiters"],
                organizer=d["organizer"], host=d["host"], organiser_level=d["organiser_level"],
            )
        except ev.EventError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("已创建比赛 %(name)s。") % {"name": live.name})
            return redirect("desk:event", code=live.code)
    return render(request, "desk/event_new.html", {"form": form, "arbiter_names": _arbiter_names()})


@role_required(ARBITER)
@require_http_methods(["GET", "POST"])
def event_details(request, code: str):
    """Edit what the report says about the event (dates, place, time control, arbiters, organiser)."""
    live = _live(request, code)
    form = EventDetailsForm(request.POST or None, initial=EventDetailsForm.initial_from(live, L.load(live)))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data

        def operation(t):
            t.name, t.start_date, t.end_date, t.city = d["name"], d["start"], d["end"], d["city"]
            t.time_control, t.chief_arbiter, t.deputy_arbiters = d["time_control"], d["chief_arbiter"].strip(), d["arbiters"]
            return True

        with transaction.atomic():
            done = _act(request, live, "details", operation, _("已保存比赛信息。"),
                        arbiters=[d["chief_arbiter"], *d["arbiters"]], organizer=d["organizer"],
                        organiser_level=d["organiser_level"])
            if done:
                live.name, live.organizer, live.host = d["name"], d["organizer"], d["host"]
                live.organiser_level = d["organiser_level"]
                live.save(update_fields=["name", "organizer", "host", "organiser_level", "updated_at"])
        return redirect("desk:event", code=code)
    return render(request, "desk/event_details.html", {"form": form, "live": live, "arbiter_names": _arbiter_names()})


def _live(request, code: str) -> LiveEvent:
    live = get_object_or_404(LiveEvent, code=code)
    require_event(request.user, live)
    return live


def _act(request, live: LiveEvent, action: str, operation, ok: str, **detail):
    try:
        outcome = L.run(live, request.user, action, operation, **detail)
    except L.ActionError as exc:
        messages.error(request, str(exc))
        return None
    messages.success(request, ok)
    return outcome


@role_required(ARBITER)
@require_http_methods(["GET"])
def event(request, code: str):
    live = _live(request, code)
    t = L.load(live)
    from qiyuan.web.portal.eventview import build

    view = build(t, live_event=live, staff=True)
    q = request.GET.get("q", "").strip()[:50]
    found = []
    if q:
        found = search_players(q, limit=20, staff=True)
    rnd = ev.rounds_paired(t)
    return render(
        request,
        "desk/event.html",
        {
            "live": live,
            "t": t,
            "v": view,
            "q": q,
            "found": found,
            "player_form": NewPlayerForm(),
            "round": rnd,
            "next_round": rnd + 1,
            "unfinished": ev.unfinished_boards(t, rnd) if rnd else [],
            "versions": live.versions.select_related("user")[:15],
            "explanation": request.session.get(f"explain:{code}", []),
            "is_admin": has_role(request.user, ADMIN),
        },
    )


@role_required(ARBITER)
@require_POST
def add_player(request, code: str):
    live = _live(request, code)
    fid = request.POST.get("federation_id", "").strip()
    if fid:
        player = Player.objects.registered().select_related("association").filter(federation_id=fid).first()
        if player is None:
            messages.error(request, _("注册库中没有编号 %(id)s。") % {"id": fid})
            return redirect("desk:event", code=code)
        entrant = L.entrant_from_registry(player, L.latest_rating(player))
    else:
        form = NewPlayerForm(request.POST)
        if not form.is_valid():
            messages.error(request, "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
            return redirect("desk:event", code=code)
        d = form.cleaned_data
        entrant = Entrant(0, d["name"], sex=d["sex"], title=d["title"], rating=d["rating"],
                          federation=d["association"], birth=d["birth"].isoformat() if d["birth"] else "",
                          id_number=d["id_number"])
    _act(request, live, "add_player", lambda t: ev.add_player(t, entrant),
         _("已录入 %(name)s。") % {"name": entrant.name}, name=entrant.name, federation_id=fid)
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def draw(request, code: str):
    live = _live(request, code)
    how = request.POST.get("how", "lot")
    if how == "rating":
        def operation(t):
            order = [e.number for e in sorted(t.entrants, key=lambda e: (-(e.rating or 0), e.name))]
            return ev.draw_numbers(t, order=order)
        detail = {"how": "rating"}
    else:
        seed = secrets.randbelow(10**9)
        operation = lambda t: ev.draw_numbers(t, seed=seed)  # noqa: E731
        detail = {"how": "lot", "seed": seed}
    _act(request, live, "draw", operation, _("已排定签号。"), **detail)
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def pair(request, code: str):
    live = _live(request, code)
    pairing = _act(request, live, "pair", lambda t: ev.pair_next(t, explain=True), _("已编排下一轮。"))
    if pairing is not None:
        request.session[f"explain:{code}"] = list(getattr(pairing, "explanation", []) or [])[:400]
    return redirect("desk:event", code=code)


_BOARD = re.compile(r"^\s*(\d+)\s*[-–:, ]\s*(\d+)\s*$")


def parse_boards(text: str) -> tuple[list[tuple[int, int]], int | None, list[str]]:
    """A hand-made pairing: one board ``OPENER OTHER`` per line, the bye as ``N 0``."""
    boards, bye, problems = [], None, []
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = _BOARD.match(line)
        if not m:
            problems.append(_("第 %(no)d 行：应写“先手签号 后手签号”，读到 %(line)r") % {"no": no, "line": line})
            continue
        a, b = int(m.group(1)), int(m.group(2))
        if b == 0:
            if bye is not None:
                problems.append(_("第 %(no)d 行：轮空只能有一人") % {"no": no})
            else:
                bye = a
        else:
            boards.append((a, b))
    return boards, bye, problems


@role_required(ARBITER)
@require_POST
def set_pairing(request, code: str):
    live = _live(request, code)
    rnd = _posted_int(request, "round")
    if rnd is None:
        messages.error(request, _("请给出轮次。"))
        return redirect("desk:event", code=code)
    boards, bye, problems = parse_boards(request.POST.get("boards", ""))
    if problems:
        for p in problems:
            messages.error(request, p)
        return redirect("desk:event", code=code)

    def operation(t):
        if rnd != ev.rounds_paired(t) + 1 and rnd != ev.rounds_paired(t):
            raise ev.EventError(f"round {rnd} cannot be set: the next round is {ev.rounds_paired(t) + 1}")
        if rnd == ev.rounds_paired(t):
            ev.clear_round(t, rnd)
        for e in t.entrants:
            if not ev.is_active(e, rnd) and len(e.rounds) < rnd:
                ev.excuse_fill(e, rnd)
        faults = ev.check_pairing(t, rnd, boards, bye)
        if faults:
            raise ev.EventError("; ".join(faults))
        ev.set_round(t, rnd, boards, bye)

    _act(request, live, "set_pairing", operation, _("已按人工编排设定第 %(rnd)d 轮。") % {"rnd": rnd},
         round=rnd, boards=boards, bye=bye)
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def undo_round(request, code: str):
    live = _live(request, code)

    def operation(t):
        rnd = ev.rounds_paired(t)
        if not rnd:
            raise ev.EventError("no round is paired yet")
        ev.clear_round(t, rnd)
        return rnd

    _act(request, live, "undo_round", operation, _("已撤销最后一轮的编排。"))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def results(request, code: str):
    """Results of one round, one field per board (``r-<opener>-<other>``)."""
    live = _live(request, code)
    rnd = _posted_int(request, "round")
    if rnd is None:
        messages.error(request, _("请给出轮次。"))
        return redirect("desk:event", code=code)
    entered: list[tuple[int, str]] = []
    problems = []
    for key, value in request.POST.items():
        m = re.fullmatch(r"r-(\d+)-(\d+)", key)
        if not m:
            continue
        try:
            result = L.parse_result_key(value)
        except L.ActionError as exc:
            problems.append(f"{m.group(1)}–{m.group(2)}: {exc}")
            continue
        if result is not None:
            entered.append((int(m.group(1)), result))
    if problems:
        for p in problems:
            messages.error(request, p)
        return redirect("desk:event", code=code)

    def operation(t):
        for number, result in entered:
            ev.enter_result(t, rnd, number, result)
        return len(entered)

    _act(request, live, "results", operation, _("已录入第 %(rnd)d 轮 %(n)d 个结果。") % {"rnd": rnd, "n": len(entered)},
         round=rnd, results=entered)
    return redirect("desk:event", code=code)


def _posted_int(request, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


@role_required(ARBITER)
@require_POST
def withdraw(request, code: str):
    live = _live(request, code)
    number = _posted_int(request, "number")
    if number is None:
        messages.error(request, _("请给出签号。"))
    else:
        _act(request, live, "withdraw", lambda t: ev.withdraw(t, number), _("已登记退赛。"), number=number)
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def excuse(request, code: str):
    live = _live(request, code)
    number = _posted_int(request, "number")
    kind = request.POST.get("kind", "Z")
    if number is None:
        messages.error(request, _("请给出签号。"))
    else:
        _act(request, live, "excuse", lambda t: ev.excuse(t, number, ev.rounds_paired(t) + 1, kind),
             _("已登记请假。"), number=number, kind=kind)
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def finish(request, code: str):
    live = _live(request, code)
    live.finished = request.POST.get("finished", "1") == "1"
    live.save(update_fields=["finished", "updated_at"])
    from qiyuan.office.audit.models import record

    record(request.user, "event.finish" if live.finished else "event.reopen", live, code=code)
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_http_methods(["GET"])
def print_round(request, code: str, rnd: int):
    live = _live(request, code)
    from qiyuan.web.portal.eventview import build

    view = build(L.load(live), live_event=live)
    rounds = [r for r in view.rounds if r.number == rnd]
    return render(request, "desk/print_round.html", {"live": live, "v": view, "rounds": rounds})


@role_required(ARBITER)
@require_http_methods(["GET"])
def report(request, code: str):
    """The competition report (竞赛报告) workbook: holds ID numbers — staff only."""
    live = _live(request, code)
    from qiyuan.formats.report_xlsx import ReportMeta, write_report

    t = L.load(live)
    level = ORGANISER_LEVELS.get(live.organiser_level)
    notes = f"主办单位级别：{level} ({live.organiser_level})" if level else ""
    meta = ReportMeta(format=ev.event_format(t), organizer=live.organizer, host=live.host, notes=notes,
                      report_date=date.today())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.xlsx"
        write_report(t, path, meta)
        data = path.read_bytes()
    from qiyuan.office.audit.models import record

    record(request.user, "event.report", live, code=code)
    response = HttpResponse(data, content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="{live.code}-report.xlsx"'
    return response


@role_required(ADMIN)
@require_POST
def assign(request, code: str):
    """Assign (or remove) an arbiter of the event: admins only."""
    from django.contrib.auth import get_user_model

    live = get_object_or_404(LiveEvent, code=code)
    user = get_object_or_404(get_user_model(), username=request.POST.get("username", ""))
    if request.POST.get("remove"):
        live.arbiters.remove(user)
    else:
        live.arbiters.add(user)
    from qiyuan.office.audit.models import record

    record(request.user, "event.assign", live, code=code, arbiter=user.username, removed=bool(request.POST.get("remove")))
    return redirect("desk:event", code=code)
