"""The arbiter's desk (裁判台): a whole event run from the browser.

Create the event, enter players (from the registry or new, late entries too), draw the
numbers, pair each round (Gomoku Swiss, round robin), override a pairing by hand or one
board, undo and re-pair a round, enter or clear results with the keyboard, withdraw,
reinstate or excuse players (any future rounds), keep players of one association apart,
name prize categories, print the hall's sheets (PDF), see the standings, finish the
event, download the competition report.  Every action is a POST by an arbiter of this
event (or an admin) that calls the arbiter's use case (``qiyuan.tournament.arbiter``) on
the event's row (``qiyuan.office.events.live.LiveEventStore``) — the same functions the
command line calls; a view only turns the form into the use case's input and its
outcome or refusal (problems as data, translated) into a message.
"""

from __future__ import annotations

import re
import secrets
from decimal import Decimal
from fractions import Fraction
from datetime import date

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from qiyuan.errors import Problem, QiyuanError, problem
from qiyuan.office import event_registration
from qiyuan.office.events.entries import latest_ratings
from qiyuan.office.events.live import LiveEventStore, assign_arbiter, competition_report, load
from qiyuan.office.calendar.models import Registration
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.federation.models import Arbiter, Association, Player
from qiyuan.office.ratings.models import RatingList
from qiyuan.office.registry import search_players
from qiyuan.tournament import arbiter as uc
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import go, syntax
from qiyuan.tournament import hall as hall_core
from qiyuan.tournament.explanation import Line, from_parts
from qiyuan.tournament.go_arbiter import set_go_settings
from qiyuan.tournament.go_tiebreaks import pairing_scores, shown
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.systems import SYSTEMS, rated_format

from ...display import association_name, person
from ...labels import ORGANISER_LEVELS, arbiter_level_label, organiser_level_choices
from .. import live as L
from ..permissions import ADMIN, ARBITER, has_role, require_event, role_required
from ..provisional import provisional as provisional_changes
from .hall import slip_links

FORMATS = [
    ("swiss", gettext_lazy("积分编排制（五子棋瑞士制）")),
    ("round_robin", gettext_lazy("单循环")),
    ("double_round_robin", gettext_lazy("双循环")),
    ("knockout", gettext_lazy("单淘汰（按等级分排种子）")),
    ("go_mcmahon", gettext_lazy("围棋麦克马洪制（让子）")),
    ("go_swiss", gettext_lazy("围棋积分编排制（不让子）")),
]


_ARBITER_SEPARATORS = re.compile(r"\s*[、,，;；\n]\s*")


class _RegistryArbiters(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        mark = _("（中国五子棋协会认可）") if obj.recognised_national else ""
        return f"{person(obj)} · {arbiter_level_label(obj.level)}{mark}"


class EventDetailsForm(forms.Form):
    """What the competition report and the eligibility checks need to know about the event:
    dates, place, time control, the chief arbiter and the other arbiters (from the registry or
    written in), the organiser (主办单位), the host (承办单位) and the organiser's level."""

    name = forms.CharField(label=gettext_lazy("比赛名称"), max_length=200)
    start = forms.DateField(label=gettext_lazy("开始日期"), required=False, widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))
    end = forms.DateField(label=gettext_lazy("结束日期"), required=False, widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))
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
    mini_matches = forms.CharField(
        label=gettext_lazy("淘汰赛每场两局：1:1 时加赛一局的用时"), max_length=60, required=False,
        help_text=gettext_lazy("留空则每场一局；例如 10 min + 5 s（加赛先行抽签决定）"))
    field_order = ["code", "name", "fmt", "rounds", "mini_matches"]

    def clean(self):
        data = super().clean()
        system = SYSTEMS.get(data.get("fmt") or "")
        if (data.get("mini_matches") or "").strip() and not (system is not None and system.mini_matches):
            self.add_error("mini_matches", _("每场两局只用于淘汰赛。"))
        return data

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
    association = forms.ModelChoiceField(label=gettext_lazy("所属单位"), queryset=None, required=False,
                                         to_field_name="code", empty_label="—")
    birth = forms.DateField(label=gettext_lazy("出生日期"), required=False, widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))
    id_type = forms.ChoiceField(label=gettext_lazy("证件类型"), initial="resident", required=False, choices=[
        ("resident", gettext_lazy("居民身份证")), ("passport", gettext_lazy("护照（境外棋手）")),
        ("other", gettext_lazy("其他证件"))])
    id_number = forms.CharField(label=gettext_lazy("证件号码（仅用于竞赛报告）"), max_length=32, required=False)
    nationality = forms.CharField(label=gettext_lazy("国籍"), max_length=20, required=False,
                                  help_text=gettext_lazy("三个字母的国家代码，如 KOR、JPN；境外棋手可不选所属单位"))
    club = forms.CharField(label=gettext_lazy("俱乐部"), max_length=60, required=False)
    family = forms.CharField(label=gettext_lazy("家庭（同一家庭的棋手填同一名称）"), max_length=60, required=False)

    def __init__(self, *args, **kwargs):
        """The association is one of the registry's (the office's import accepts no other)."""
        super().__init__(*args, **kwargs)
        field = self.fields["association"]
        field.queryset = Association.objects.order_by("code")
        field.label_from_instance = lambda a: f"{association_name(a, html=False)} ({a.code})"


EXCUSE_TEXT = {"Z": gettext_lazy("缺席（0 分）"), "H": gettext_lazy("请假（半分）"), "F": gettext_lazy("请假（全分）")}


def list_problems(request, exc: QiyuanError) -> None:
    """A refusal's problems as messages, in the reader's language."""
    for p in exc.problems:  # a row of a list (an entry list's) is named as its line
        messages.error(request, (_("第 %(no)d 行：") % {"no": p.line} if p.line is not None else "") + p.text(_))


def _act(request, use_case, *args, ok=None, **kwargs):
    """Run a use case for the request's user: its outcome, or None after showing its refusal."""
    try:
        outcome = use_case(*args, **kwargs)
    except QiyuanError as exc:
        list_problems(request, exc)
        return None
    if ok is not None:
        messages.success(request, ok(outcome) if callable(ok) else ok)
    return outcome


def _live(request, code: str) -> LiveEvent:
    live = get_object_or_404(LiveEvent, code=code)
    require_event(request.user, live)
    return live


def _store(request, code: str) -> LiveEventStore:
    """The event's store, after checking the user may run it."""
    _live(request, code)
    return LiveEventStore(code)


def _from_registration(start) -> dict:
    """The new-event form's values for a registered, approved event (``event_registration.desk_start``)."""
    registered = {a.name: a for a in Arbiter.objects.filter(name__in=start.arbiters)}
    return {
        "code": start.code, "name": start.name, "start": start.start, "end": start.end, "city": start.city,
        "fmt": start.format if start.format in dict(FORMATS) else "swiss", "rounds": start.rounds,
        "time_control": start.time_control, "chief_arbiter": start.chief_arbiter,
        "registry_arbiters": [registered[n].pk for n in start.arbiters if n in registered],
        "other_arbiters": "、".join(n for n in start.arbiters if n not in registered),
        "organizer": start.organiser, "organiser_level": start.organiser_level,
    }


@role_required(ARBITER)
@require_http_methods(["GET", "POST"])
def event_new(request):
    """Create a desk event, blank or from a registered, approved calendar event (``?from=R2026-001``): its name,
    dates, city, format, rounds, time control, arbiters and organiser filled in, its code the registration's —
    and, its name being the registered one, its report is matched to the registration when imported."""
    runnable = list(event_registration.runnable(date.today()))
    chosen = None
    initial: dict = {}
    wanted = (request.GET.get("from") or request.POST.get("registration") or "").strip()
    if wanted:
        chosen = next((r for r in runnable if r.code == wanted), None)
        if chosen is None:
            messages.error(request, _("注册赛事 %(code)s 不能用来开始比赛：只有已批准、尚无成绩的注册赛事可以。")
                           % {"code": wanted[:20]})
        else:
            initial = _from_registration(event_registration.desk_start(chosen))
    form = NewEventForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        store = LiveEventStore(d["code"], row={"organizer": d["organizer"], "host": d["host"],
                                               "organiser_level": d["organiser_level"]})
        try:
            uc.new_event(store, request.user, d["name"], fmt=d["fmt"], rounds=d["rounds"], start=d["start"],
                         end=d["end"], city=d["city"], time_control=d["time_control"],
                         chief_arbiter=d["chief_arbiter"].strip(), arbiters=d["arbiters"],
                         tiebreak_time_control=d["mini_matches"].strip() or None)
        except QiyuanError as exc:
            for p in exc.problems:
                form.add_error(None, p.text(_))
        else:
            messages.success(request, _("已创建比赛 %(name)s。") % {"name": d["name"]})
            return redirect("desk:event", code=d["code"])
    return render(request, "desk/event_new.html", {"form": form, "arbiter_names": _arbiter_names(),
                                                   "runnable": runnable, "chosen": chosen})


@role_required(ARBITER)
@require_http_methods(["GET", "POST"])
def event_details(request, code: str):
    """Edit what the report says about the event (dates, place, time control, arbiters, organiser)."""
    live = _live(request, code)
    form = EventDetailsForm(request.POST or None, initial=EventDetailsForm.initial_from(live, load(live)))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            uc.edit_details(LiveEventStore(code), request.user, name=d["name"], start=d["start"], end=d["end"],
                            city=d["city"], time_control=d["time_control"], chief_arbiter=d["chief_arbiter"].strip(),
                            arbiters=d["arbiters"], row={"organizer": d["organizer"], "host": d["host"],
                                                         "organiser_level": d["organiser_level"]})
        except QiyuanError as exc:  # refused: the form stays as typed, with the reasons in the page's language
            for p in exc.problems:
                form.add_error(None, p.text(_))
        else:
            messages.success(request, _("已保存比赛信息。"))
            return redirect("desk:event", code=code)
    return render(request, "desk/event_details.html", {"form": form, "live": live, "arbiter_names": _arbiter_names()})


@role_required(ARBITER)
@require_http_methods(["GET"])
def event(request, code: str):
    return _event_page(request, _live(request, code))


def _event_page(request, live: LiveEvent, player_form: NewPlayerForm | None = None, status: int = 200):
    """The event's desk page; ``player_form``: a new-player form that failed, shown with its values and errors."""
    code = live.code
    t = load(live)
    from qiyuan.tournament import categories as cat
    from qiyuan.tournament import keepapart
    from qiyuan.web.portal.eventview import build

    view = build(t, live_event=live, staff=True)
    q = request.GET.get("q", "").strip()[:50]
    found = []
    if q:
        found = search_players(q, limit=20, staff=True)
        ratings = latest_ratings(found)
        for p in found:  # the search shows each player's rating (newest list) beside his birth year
            p.desk_rating = ratings.get(p.pk)
    rnd = ev.rounds_paired(t)
    from qiyuan.rating.rules import BUILTIN_RULES

    typed = request.session.get(f"typed:{code}") or {}
    typed = typed.get("values", {}) if typed.get("round") == rnd else {}
    if view.rounds and rnd:
        for b in view.rounds[-1].boards:  # the saved result as a value, what was typed before a refusal over it
            saved = "" if b.result == " " else syntax.result_text(b.result, b.other.rounds[rnd - 1].result)
            b.saved = saved
            b.value = typed.get(f"r-{b.opener.number}-{b.other.number}", saved)

    go_context = _go_context(t, view, rnd) if go.is_go(t) else {}
    return render(
        request,
        "desk/event.html",
        {
            **go_context,
            "live": live,
            "t": t,
            "v": view,
            "q": q,
            "found": found,
            "player_form": player_form or NewPlayerForm(),
            "round": rnd,
            "next_round": rnd + 1,
            "unfinished": ev.unfinished_boards(t, rnd) if rnd else [],
            "versions": live.versions.select_related("user")[:15],
            "explanation": [from_parts(x).text(_) if isinstance(x, list) else str(x)
                            for x in request.session.get(f"explain:{code}", [])],
            "is_admin": has_role(request.user, ADMIN),
            "keep_apart": sorted(keepapart.rules(t).items()),
            "categories": [c.label() for c in cat.categories(t)],  # 女子组, U12组: read back by cat.parse
            "withdrawn": [e for e in t.entrants if e.withdrawn_after is not None],
            "excused": [(e, [(r, EXCUSE_TEXT[k]) for r, k in sorted(e.excused.items())]) for e in t.entrants
                        if e.excused],
            "rule_sets": list(BUILTIN_RULES),
            "confirm_change": bool(typed) and request.session.get(f"confirm:{code}", False),
            "is_round_robin": ev.system_of(t).round_robin,
            "is_knockout": ev.system_of(t).bracket,
            **_knockout(t),
            # started from a registration (its code is the event's): its entry list is one click away
            "registration_code": code if Registration.objects.filter(code=code).exists() else "",
        },
        status=status,
    )


def _go_context(t, view, rnd: int) -> dict:
    """A Go event's desk: each board of the round's stones or komi and whether a jigo (和棋) is possible; the
    settings as the form shows them (grades as written: ``4d``, ``20k``)."""
    s, ps = go.settings(t), go.players(t)
    jigo = False
    if view.rounds and rnd:
        for b in view.rounds[-1].boards:
            terms = go.board_terms(s, ps, rnd, b.opener.number)
            b.stones, b.komi = terms.stones, terms.komi
            jigo = jigo or terms.jigo
    return {"is_go": True, "go_jigo": jigo, "go": s, "go_criteria": " ".join(s.criteria),
            "go_grades": {k: go.grade_text(getattr(s, k)) for k in ("bar", "floor", "hd_none_from")},
            "go_rule_sets": go.RULE_SETS}


def _knockout(t) -> dict:
    """A knock-out's bracket as the terminal prints it (``event bracket``), in the page's language, and the tied
    matches whose tie-break openers are still to be drawn (``event lot``)."""
    from qiyuan.tournament import minimatch as mm
    from qiyuan.tournament.knockout import bracket_text, pending_tiebreak

    if not ev.system_of(t).bracket or len(t.entrants) < 2:
        return {}
    out = {"bracket": bracket_text(t, _), "mini": mm.is_mini(t)}
    if mm.is_mini(t):
        rnd, tied = pending_tiebreak(t)
        if tied and mm.lot_of(t, rnd) is None and ev.rounds_paired(t) < rnd:
            out["lot_round"], out["lot_matches"] = rnd, ", ".join(f"{a}-{b}" for a, b in tied)
    return out


@role_required(ARBITER)
@require_POST
def go_settings(request, code: str):
    """A Go event's settings (komi, rules, McMahon bar and floor, handicap, placement criteria): the use case
    the command line's ``event go-settings`` calls; a change once a round is paired is warned and recorded."""
    store = _store(request, code)
    given = {k: request.POST.get(k, "").strip()[:60] for k in ("komi", "rules", "bar", "floor", "handicap",
                                                              "no_handicap_from", "criteria")}
    kwargs: dict = {k: v for k, v in given.items() if v}
    for k in ("correction", "ceiling"):
        value = request.POST.get(k, "").strip()
        if value:
            if not re.fullmatch(r"[0-9]{1,2}", value):
                messages.error(request, _("让子的减数与上限须为整数（0–9）。"))
                return redirect("desk:event", code=code)
            kwargs[k] = int(value)
    out = _act(request, set_go_settings, store, request.user, ok=_("已保存围棋设置。"), **kwargs)
    for note in out.notes if out is not None else []:
        messages.warning(request, note.text(_))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def tiebreak_lot(request, code: str):
    """Draw the tie-break games' openers (the use case ``event lot`` calls): by qiyuan (a seed it records) or as
    drawn in the hall (the openers, one per tied match in bracket order)."""
    store = _store(request, code)
    typed = request.POST.get("openers", "").replace("，", ",").replace("、", ",").replace(" ", "")
    if typed:
        try:
            openers = [int(x) for x in typed.split(",") if x]
        except ValueError:
            messages.error(request, _("先行方请写签号，用逗号分隔，如 7,12。"))
            return redirect("desk:event", code=code)
        _act(request, uc.draw_tiebreak_lot, store, request.user, openers=openers, ok=_("已记录现场抽签的加赛先行方。"))
    else:
        _act(request, uc.draw_tiebreak_lot, store, request.user, seed=secrets.randbelow(10**9),
             ok=lambda lot: _("已抽签决定第 %(rnd)d 轮加赛的先行方（种子 %(seed)d）。") % {"rnd": lot.round, "seed": lot.seed})
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def add_players(request, code: str):
    """A whole entry list (CSV or xlsx, the 成绩 sheet's headings, or an approved registration's list) in one
    change: the use case the command line's ``event add-players`` calls; every row's problem shown, nothing
    entered if any."""
    from qiyuan.formats.entries import read_entries

    store = _store(request, code)
    registration = request.POST.get("registration", "").strip()[:20]
    upload = request.FILES.get("file")
    if not registration and (upload is None or upload.size > 5 * 1024 * 1024):
        messages.error(request, _("请选择一个名单文件（CSV 或 xlsx，不超过 5 MB）。"))
        return redirect("desk:event", code=code)
    try:
        if registration:  # an approved registration's entry list (qiyuan event add-players --registration)
            rows, faults, source = event_registration.registration_entrants(registration), [], registration
        else:
            (rows, faults), source = read_entries(upload.name, upload.read()), upload.name
    except QiyuanError as exc:
        list_problems(request, exc)
        return redirect("desk:event", code=code)
    added = _act(request, uc.add_players, store, request.user, rows, source=source, faults=faults,
                 today=date.today())
    if added:
        messages.success(request, _("已按名单录入 %(n)d 名棋手。") % {"n": len(added)})
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def add_player(request, code: str):
    store = _store(request, code)
    fid = request.POST.get("federation_id", "").strip()
    form = None
    if fid:
        player = Player.objects.registered().select_related("association").filter(federation_id=fid).first()
        if player is None:
            messages.error(request, _("注册库中没有编号 %(id)s。") % {"id": fid})
            return redirect("desk:event", code=code)
        entrant = L.entrant_from_registry(player, L.latest_rating(player))
    else:
        form = NewPlayerForm(request.POST)
        if not form.is_valid():  # the form comes back with what was typed and each field's error
            return _event_page(request, _live(request, code), form)
        d = form.cleaned_data
        entrant = Entrant(0, d["name"], sex=d["sex"], title=d["title"], rating=d["rating"],
                          federation=d["association"].name if d["association"] else "", club=d["club"],
                          family=d["family"], birth=d["birth"].isoformat() if d["birth"] else "",
                          id_number=d["id_number"], id_type=d["id_type"] or "resident",
                          nationality=d["nationality"])
    try:
        uc.add_player(store, request.user, entrant, today=date.today())
    except QiyuanError as exc:
        if form is None:
            list_problems(request, exc)
            return redirect("desk:event", code=code)
        for p in exc.problems:  # the use case's refusal, in the page's language, beside the values typed
            form.add_error(None, p.text(_))
        return _event_page(request, _live(request, code), form)
    messages.success(request, _("已录入 %(name)s。") % {"name": entrant.name})
    return redirect("desk:event", code=code)


def _entrant_initial(e: Entrant) -> dict:
    """An entrant as the player form shows him (his grade in the page's words, his association by its code)."""
    from django.utils.translation import get_language

    from qiyuan.grading.words import grade_in_words

    association = Association.objects.filter(name=e.federation).first() if e.federation else None
    return {"name": e.name, "sex": e.sex or "m", "rating": e.rating, "association": association.code if association else None,
            "title": grade_in_words(e.title, chinese=(get_language() or "").startswith("zh")) if e.title else "",
            "birth": ev.birth_date(e.birth) if e.birth else None, "id_type": e.id_type, "id_number": e.id_number,
            "nationality": e.nationality, "club": e.club, "family": e.family}


@role_required(ARBITER)
@require_http_methods(["GET", "POST"])
def edit_player(request, code: str, number: int):
    """Correct an entrant's details (the use case ``event edit-player`` calls): checked like a new entry, his
    number and games kept; before round 1 he can be removed here too (afterwards: withdraw)."""
    live = _live(request, code)
    t = load(live)
    if not 1 <= number <= len(t.entrants):
        messages.error(request, _("没有 %(n)d 号棋手。") % {"n": number})
        return redirect("desk:event", code=code)
    e = t.entrants[number - 1]
    form = NewPlayerForm(request.POST or None, initial=_entrant_initial(e))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        typed = {"name": d["name"], "sex": d["sex"], "title": d["title"], "rating": d["rating"],
                 "federation": d["association"].name if d["association"] else (
                     e.federation if not Association.objects.filter(name=e.federation).exists() else ""),
                 "club": d["club"], "family": d["family"], "birth": d["birth"].isoformat() if d["birth"] else "",
                 "id_number": d["id_number"], "id_type": d["id_type"] or "resident", "nationality": d["nationality"]}
        try:  # every field as typed: the core reads them as a new entry's (初段 → 1d) and the audit names the changes
            uc.edit_player(LiveEventStore(code), request.user, number, typed, today=date.today())
        except QiyuanError as exc:
            for p in exc.problems:
                form.add_error(None, p.text(_))
        else:
            messages.success(request, _("已更正 %(n)d 号 %(name)s。") % {"n": number, "name": typed["name"]})
            return redirect("desk:event", code=code)
    return render(request, "desk/event_player.html", {"live": live, "e": e, "form": form,
                                                      "removable": not ev.rounds_paired(t)})


@role_required(ARBITER)
@require_POST
def remove_player(request, code: str, number: int):
    """Take an entrant out before round 1 is paired (``event remove-player``); the players after him move up."""
    store = _store(request, code)
    _act(request, uc.remove_player, store, request.user, number,
         ok=_("已删除 %(n)d 号棋手；其后的棋手签号依次前移。") % {"n": number})
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def draw(request, code: str):
    store = _store(request, code)
    if request.POST.get("how", "lot") == "rating":
        _act(request, uc.draw_numbers, store, request.user, by_rating=True, ok=_("已排定签号。"))
    else:
        _act(request, uc.draw_numbers, store, request.user, seed=secrets.randbelow(10**9), ok=_("已排定签号。"))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def pair(request, code: str):
    store = _store(request, code)
    pairing = _act(request, uc.pair, store, request.user, explain=True, on=date.today(), ok=_("已编排下一轮。"))
    if pairing is not None:
        request.session[f"explain:{code}"] = _jsonable([  # each line's templates and values: in the reader's language
            [list(part) for part in (x if isinstance(x, Line) else Line() + x).parts] for x in pairing.explanation[:400]])
        for note in pairing.notes:
            messages.warning(request, note.text(_))
    return redirect("desk:event", code=code)


def _jsonable(value):
    """The session keeps JSON: exact numbers (a McMahon score 2.5, a Go SOS) as their text."""
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (Decimal, Fraction)):
        return str(value)
    return value


def parse_boards(text: str) -> tuple[list[tuple[int, int]], int | None, list[str]]:
    """A hand-made pairing: one board ``OPENER OTHER`` per line, the bye as ``N 0`` (the syntax
    of ``qiyuan.tournament.syntax``, as the command line reads it); problems in the page's language."""
    boards, bye, problems = syntax.parse_boards(text.splitlines())
    return boards, bye, [_("第 %(no)d 行：") % {"no": p.line} + p.text(_) for p in problems]


@role_required(ARBITER)
@require_POST
def set_pairing(request, code: str):
    store = _store(request, code)
    rnd = _posted_int(request, "round")
    if rnd is None:
        messages.error(request, _("请给出轮次。"))
        return redirect("desk:event", code=code)
    boards, bye, problems = parse_boards(request.POST.get("boards", ""))
    if problems:
        for p in problems:
            messages.error(request, p)
        return redirect("desk:event", code=code)
    _act(request, uc.set_pairing, store, request.user, rnd, boards, bye,
         ok=_("已按人工编排设定第 %(rnd)d 轮。") % {"rnd": rnd})
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def override(request, code: str):
    """Swap two players of the last round paired (one board without retyping the round)."""
    store = _store(request, code)
    rnd, a, b = (_posted_int(request, k) for k in ("round", "a", "b"))
    if None in (rnd, a, b):
        messages.error(request, _("请给出轮次和两个签号。"))
    else:
        _act(request, uc.override_board, store, request.user, rnd, a, b,
             ok=_("已调整第 %(rnd)d 轮：%(a)d 与 %(b)d 互换。") % {"rnd": rnd, "a": a, "b": b})
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def undo_round(request, code: str):
    _act(request, uc.undo_round, _store(request, code), request.user, overrides=DESK_OVERRIDES,
         ok=_("已撤销最后一轮的编排。"))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def results(request, code: str):
    """Results of one round, one field per board (``r-<opener>-<other>``); ``x`` clears one."""
    store = _store(request, code)
    rnd = _posted_int(request, "round")
    if rnd is None:
        messages.error(request, _("请给出轮次。"))
        return redirect("desk:event", code=code)
    entered: list[tuple[int, str]] = []
    problems = []
    typed = {}
    for key, value in request.POST.items():
        m = re.fullmatch(r"r-(\d+)-(\d+)", key)
        if not m or value.strip() == request.POST.get("o" + key[1:], "").strip():
            continue  # not a board, or left as the page showed it (saved, or blank)
        typed[key] = value
        result = syntax.parse_result_key(value)
        if isinstance(result, Problem):
            problems.append(f"{m.group(1)}–{m.group(2)}: {result.text(_)}")
        elif result is not None:
            entered.append((int(m.group(1)), result))
    change = request.POST.get("change") == "1"
    done = None
    if problems:
        for p in problems:
            messages.error(request, p)
    elif entered:
        try:
            done = uc.enter_results(store, request.user, rnd, entered, change=change,
                                    typed_by=(request.user.username, "desk", hall_core.stamp(timezone.now())),
                                    overrides=DESK_OVERRIDES)
        except QiyuanError as exc:
            list_problems(request, exc)
            if any(p.code == "result.change" for p in exc.problems):
                request.session[f"confirm:{code}"] = True
    if done is None and typed:  # refused: what was typed stays in its boxes
        request.session[f"typed:{code}"] = {"round": rnd, "values": typed}
        return redirect("desk:event", code=code)
    request.session.pop(f"typed:{code}", None)
    request.session.pop(f"confirm:{code}", None)
    if done is not None:
        new = sum(e.before == " " and e.result != " " for e in done.entered)
        changed = sum(e.changed for e in done.entered)
        messages.success(request, _("已录入第 %(rnd)d 轮 %(n)d 个结果。") % {"rnd": rnd, "n": new}
                         + (_("修改 %(n)d 个。") % {"n": changed} if changed else ""))
    return redirect("desk:event", code=code)


#: what overrides a results refusal on the desk: its own controls, never the command line's options
DESK_OVERRIDES = ev.Overrides(
    change=problem('tick "Confirm changing results already entered" under the results and save again'),
    force=problem('on the desk, undo the rounds paired after it first ("Undo the pairing of round N" at the top '
                  'of the event page), then change it'),
    clear=problem('clear them first: type x in their boxes under the results, tick "Confirm changing results '
                  'already entered" and save'))


def _posted_int(request, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


@role_required(ARBITER)
@require_POST
def withdraw(request, code: str):
    store = _store(request, code)
    number = _posted_int(request, "number")
    if number is None:
        messages.error(request, _("请给出签号。"))
    else:
        _act(request, uc.withdraw, store, request.user, number, ok=_("已登记退赛。"))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def reinstate(request, code: str):
    store = _store(request, code)
    number = _posted_int(request, "number")
    if number is None:
        messages.error(request, _("请给出签号。"))
    else:
        _act(request, uc.reinstate, store, request.user, number,
             ok=lambda rnd: _("已恢复参赛：从第 %(rnd)d 轮起重新编排。") % {"rnd": rnd})
    return redirect("desk:event", code=code)


_ROUNDS = re.compile(r"\s*(\d+)\s*(?:[-–~至到]\s*(\d+))?\s*")


@role_required(ARBITER)
@require_POST
def excuse(request, code: str):
    """Excuse a player from one round or a range (``5`` or ``5-7``; default the next round)."""
    store = _store(request, code)
    number = _posted_int(request, "number")
    kind = request.POST.get("kind", "Z")
    text = request.POST.get("rounds", "").strip()
    m = _ROUNDS.fullmatch(text) if text else None
    if number is None:
        messages.error(request, _("请给出签号。"))
    elif text and (m is None or (m[2] and int(m[2]) < int(m[1]))):
        messages.error(request, _("轮次应写成 5 或 5-7，读到 %(text)r") % {"text": text})
    else:
        rounds = list(range(int(m[1]), int(m[2] or m[1]) + 1)) if m else None  # None: the next round
        _act(request, uc.excuse, store, request.user, number, rounds, kind, ok=_("已登记请假。"))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def keep_apart(request, code: str):
    store = _store(request, code)
    rounds = _posted_int(request, "rounds")
    if rounds is None:
        messages.error(request, _("请给出轮数（0 表示取消）。"))
    else:
        _act(request, uc.keep_apart, store, request.user, request.POST.get("by", "association"), rounds,
             ok=_("已保存同单位回避规则。"))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_POST
def categories(request, code: str):
    store = _store(request, code)
    keys = [k.strip() for k in re.split(r"[\n,，、;；]+", request.POST.get("categories", "")) if k.strip()]
    _act(request, uc.set_categories, store, request.user, keys, ok=_("已保存组别。"))
    return redirect("desk:event", code=code)


@role_required(ARBITER)
@require_http_methods(["GET", "POST"])
def finish(request, code: str):
    """Finish the event — only once the arbiter has seen what that means (rounds played of those planned,
    boards without a result) and ticked the confirmation; reopen a finished one."""
    live = _live(request, code)
    if request.method == "POST" and request.POST.get("finished", "1") != "1":
        if request.POST.get("confirm") != "1":  # reopening is confirmed too: it reopens results to change
            messages.error(request, _("重新开放前请确认：勾选确认框。"))
        else:
            _act(request, uc.reopen, LiveEventStore(code), request.user, ok=_("比赛已重新开放。"))
        return redirect("desk:event", code=code)
    if request.method == "POST":
        if request.POST.get("confirm") == "1":
            try:
                uc.finish(LiveEventStore(code), request.user)
            except QiyuanError as exc:
                list_problems(request, exc)
            else:
                messages.success(request, _("比赛已结束。"))
                return redirect("desk:event", code=code)
        else:
            messages.error(request, _("结束比赛前请确认：勾选下面的确认框。"))
    t = load(live)
    paired = ev.rounds_paired(t)
    open_boards = ev.unfinished_boards(t, paired) if paired else []
    played = paired - 1 if open_boards else paired
    return render(request, "desk/event_finish.html", {
        "live": live, "t": t, "paired": paired, "played": played, "planned": t.rounds_planned,
        "early": bool(t.rounds_planned) and played < t.rounds_planned, "open_boards": open_boards,
        "too_few": _too_few_rounds(t, played)})


def _too_few_rounds(t, played: int) -> int | None:
    """The rounds CGA Art. 5(三) asks of this Swiss field when ``played`` are fewer (the office will not
    rate the event), else None — read from the rule set's own eligibility check."""
    from qiyuan.rating.eligibility import EventFacts, check_eligibility
    from qiyuan.rating.model import EventFormat
    from qiyuan.rating.rules import load_rules

    if go.is_go(t) or rated_format(ev.event_format(t)) != EventFormat.SWISS.value or not t.entrants:
        return None
    rules = load_rules("cga-gomoku-2011")
    n = len(t.entrants)

    def short(rounds: int) -> bool:
        facts = EventFacts(format=EventFormat.SWISS, players=n, rounds=rounds, rated_players=n)
        return any(f.clause == "CGA Art. 5(三)" for f in check_eligibility(rules, facts).failures)

    if not short(played):
        return None
    return next((r for r in range(played + 1, played + 30) if not short(r)), None)


@role_required(ARBITER)
@require_http_methods(["GET"])
def provisional(request, code: str):
    """Each player's ΔR so far, on the list chosen (``?list=``), computed as the portal's what-if computes it."""
    live = _live(request, code)
    lists = list(RatingList.objects.filter(game=RatingList.Game.GOMOKU).order_by("code"))
    chosen = next((rl for rl in lists if rl.code == request.GET.get("list")), lists[0] if lists else None)
    result = provisional_changes(load(live), chosen) if chosen is not None else None
    edition, rows = result if result is not None else (None, [])
    return render(request, "desk/event_provisional.html", {"live": live, "lists": lists, "chosen": chosen,
                                                           "edition": edition, "rows": rows})


@role_required(ARBITER)
@require_http_methods(["GET"])
def print_round(request, code: str, rnd: int):
    """The round's pairing list as a page to print (the PDF is ``print_pdf``): board, score before
    the round, rating, opener, result; then who is not paired and why (bye, excused, absent, withdrawn)."""
    from qiyuan.tournament.sheets import pairing_sheet, plain

    live = _live(request, code)
    t = load(live)
    sheet = pairing_sheet(t, rnd)
    unpaired = [(u.seat, UNPAIRED_TEXT[u.why]) for u in sheet.unpaired]
    context = {"live": live, "sheet": sheet, "unpaired": unpaired, "go_rows": None}
    if go.is_go(t):  # Go's words: black and white, the McMahon score (or wins) before the round, the stones
        s, ps = go.settings(t), go.players(t)
        scores = pairing_scores(t, s, ps, rnd)
        swiss = go.is_go_swiss(t)

        def value(n: int) -> str:
            return plain(shown(scores[n]))

        context.update(
            go_rows=[(b, value(b.opener.number), value(b.other.number),
                      go.board_terms(s, ps, rnd, b.opener.number).stones)
                     for b in sheet.boards],
            go_unpaired=[(u.seat, UNPAIRED_TEXT[u.why], value(u.seat.number)) for u in sheet.unpaired],
            score_name=_("胜局数") if swiss else _("麦克马洪分"), komi=plain(s.komi))
    return render(request, "desk/print_round.html", context)


UNPAIRED_TEXT = {"U": gettext_lazy("轮空"), "H": gettext_lazy("请假（半分）"), "F": gettext_lazy("请假（全分）"),
                 "Z": gettext_lazy("缺席"), "withdrawn": pgettext_lazy("round", "退赛"), "out": gettext_lazy("淘汰"),
                 "waiting": gettext_lazy("待赛（已晋级）")}


PRINTS = ("entries", "schedule", "pairings", "alphabetical", "slips", "standings", "crosstable", "bracket")


@role_required(ARBITER)
@require_http_methods(["GET"])
def print_pdf(request, code: str, what: str):
    """The hall's printouts (A4 PDF with the CJK font embedded): the same documents as
    ``qiyuan event print``."""
    from django.http import Http404

    from qiyuan.formats import go_hall_pdf  # a Go event's pairings and standings in Go's words (黑/白, 让子)

    live = _live(request, code)
    if what not in PRINTS:
        raise Http404("no such printout")
    t = load(live)
    rnd = _get_int(request, "round")
    after = _get_int(request, "after")
    try:
        data = go_hall_pdf.document(t, "pairings" if what == "alphabetical" else what, round_no=rnd, after=after,
                                 alphabetical=what == "alphabetical",
                                 links=slip_links(request, code) if what == "slips" else None)
    except QiyuanError as exc:
        list_problems(request, exc)
        return redirect("desk:event", code=code)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{live.code}-{what}.pdf"'
    return response


def _get_int(request, name: str) -> int | None:
    try:
        return int(request.GET[name])
    except (KeyError, ValueError):
        return None


@role_required(ARBITER)
@require_http_methods(["GET"])
def report(request, code: str):
    """The competition report (竞赛报告) workbook: holds ID numbers — staff only.  ``?rules=`` the
    rule set it goes to (how games not played are marked)."""
    from qiyuan.rating.rules import BUILTIN_RULES

    live = _live(request, code)
    rules = BUILTIN_RULES.get(request.GET.get("rules", ""), BUILTIN_RULES["cga-gomoku-2011"])
    level = ORGANISER_LEVELS.get(live.organiser_level)
    notes = f"主办单位级别：{level} ({live.organiser_level})" if level else ""
    data = competition_report(code, request.user, rules=rules, notes=notes)
    response = HttpResponse(data, content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="{live.code}-report.xlsx"'
    return response


@role_required(ADMIN)
@require_POST
def assign(request, code: str):
    """Assign (or remove) an arbiter of the event: admins only."""
    from django.contrib.auth import get_user_model

    get_object_or_404(LiveEvent, code=code)
    user = get_object_or_404(get_user_model(), username=request.POST.get("username", ""))
    assign_arbiter(code, request.user, user, remove=bool(request.POST.get("remove")))
    return redirect("desk:event", code=code)
