"""The rating officer's desk (等级分管理): import reports, resolve player
matches, see eligibility problems, compute a period, review, publish, correct.

Thin: every step calls the office's use cases (``qiyuan.office``) the command
line uses too — they check, lock, write and audit; nothing here computes a
rating or writes an audit entry.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import date
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from qiyuan.errors import Problem, QiyuanError
from qiyuan.office import periods as P
from qiyuan.office import integrity, plausibility
from qiyuan.office.errors import NeedsConfirmation, OfficeError
from qiyuan.office.events.models import Event, ImportBatch, RejectedReport
from qiyuan.office.federation.models import Player
from qiyuan.office.imports import Options, import_file
from qiyuan.office.imports.facts import at_the_desk
from qiyuan.office.ratings.models import RatingList
from qiyuan.rating.model import EventFormat

from ...display import display_name, english
from ...labels import EVENT_FORMATS, organiser_level_choices
from ..permissions import OFFICER, role_required
from ..review import Review, review


def _list_status(rl: RatingList) -> dict:
    rules = rl.rules()
    try:
        due = P.due_date(rl, rules)
    except OfficeError as exc:
        due, problem = None, " ".join(p.text(_) for p in exc.problems)
    else:
        problem = ""
    return {
        "list": rl,
        "due": due,
        "problem": problem,
        "latest": P.latest_edition(rl),
        "pending": Event.objects.filter(rating_list=rl, status=Event.Status.PENDING).order_by("end_date")[:100],
        "editions": rl.editions.order_by("-list_date", "-number")[:24],
        "held": integrity.held_events(rl),
    }


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def periods(request):
    """Compute and review a period, publish it (only once reviewed and confirmed), correct a published one."""
    review = flags = None
    if request.method == "POST":
        rl = get_object_or_404(RatingList, code=request.POST.get("list", ""))
        action = request.POST.get("action")
        actor = request.user.get_username()
        try:
            if action in ("compute", "publish"):
                day = _date(request.POST.get("date")) or P.due_date(rl, rl.rules())
                if day is None:
                    raise OfficeError(_("该榜单没有待计算的比赛。"))
                if action == "publish" and request.POST.get("confirm") == "1":
                    ed = P.publish_period(rl, day, actor, reviewed=request.POST.get("digest", ""),
                                          accept_flags=request.POST.get("accept_flags", "").strip() or None)
                    messages.success(request, _("已发布 %(list)s %(date)s。") % {"list": rl.code, "date": ed.list_date})
                    return redirect("desk:periods")
                if action == "publish":  # not confirmed: show what would be published, and ask
                    messages.error(request, _("发布前请先审核下面的内容，并勾选确认。"))
                comp = P.compute_period(rl, day)
                P.check_integrity(rl, day)  # the integrity checks: their flags join the plausibility audit's
                review, flags = _review(comp), _flags(plausibility.audit_period(comp))
            elif action in ("hold_flag", "release"):  # an integrity flag's event held for review, or released
                day = _date(request.POST.get("date"))
                if action == "hold_flag":
                    integrity.hold(request.user, int(request.POST.get("flag") or 0), request.POST.get("reason", ""))
                    messages.success(request, _("比赛已暂缓待查，放行前不计入其周期。"))
                    comp = P.compute_period(rl, day)
                    review, flags = _review(comp), _flags(plausibility.audit_period(comp))
                else:
                    held = integrity.release(request.user, request.POST.get("event", ""), request.POST.get("reason", ""))
                    messages.success(request, _("%(event)s 已放行；若其周期已发布，请发布该周期的更正版。")
                                     % {"event": held.event.code})
            elif action == "check_flag":  # the officer marks a plausibility flag checked, then reviews again
                day = _date(request.POST.get("date"))
                plausibility.mark_checked(request.user, int(request.POST.get("flag") or 0), request.POST.get("note", ""))
                messages.success(request, _("已标记为已核查。"))
                comp = P.compute_period(rl, day)
                review, flags = _review(comp), _flags(plausibility.audit_period(comp))
            elif action == "correct":
                day = _date(request.POST.get("date"))
                if day is None:
                    raise OfficeError(_("请给出要更正的榜单日期。"))
                eds = P.correct_period(rl, day, request.POST.get("reason", ""), actor)
                messages.success(request, _("已发布 %(n)d 个更正版。") % {"n": len(eds)})
                return redirect("desk:periods")
            else:
                messages.error(request, _("未知操作。"))
        except QiyuanError as exc:
            for p in exc.problems:
                messages.error(request, p.text(_))
    lists = [_list_status(rl) for rl in RatingList.objects.order_by("code")]
    return render(request, "desk/periods.html", {"lists": lists, "review": review, "flags": flags})


def _flags(found) -> list[dict]:
    """The plausibility flags for the review, each described in the page's language."""
    names = dict(Player.objects.filter(federation_id__in={p for f in found for p in f.players})
                 .values_list("federation_id", "name"))
    return [{"flag": f, "text": plausibility.describe(f, names).text(_), "integrity": f.kind in integrity.KINDS}
            for f in found]


def _located(p) -> str:
    """A problem of a file in the page's language (its template and its place translated), after where it is; the
    facts' refusals point to this page's fields, not to the command line's options."""
    return at_the_desk(p).located(_) if isinstance(p, Problem) else str(p)


def _failures(eligibility: dict) -> list[str]:
    """An event's failed conditions in the page's language (events imported before they were kept as templates:
    their English lines)."""
    data = eligibility.get("failure_data")
    if data:
        return [Problem.from_json(d).text(_) for d in data]
    return [f"{f.get('clause', '')}: {f.get('message', '')}" if isinstance(f, dict) else str(f)
            for f in eligibility.get("failures") or []]


def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat((text or "").strip())
    except ValueError:
        return None


def _review(comp) -> Review:
    """A computed, unpublished period for review: the new list and every change, per player."""
    en = english()
    names = {fid: display_name(name, latin, english=en) for fid, name, latin in
             Player.objects.filter(pk__in=comp.pk_of.values()).values_list("federation_id", "name", "name_latin")}
    return review(comp, names)


#: File types the office imports, by extension, with the first bytes each must start with.
UPLOAD_TYPES = {".xlsx": (b"PK\x03\x04",), ".xml": (b"<", b"\xef\xbb\xbf<"), ".trf": None, ".txt": None}


def _yes_no(value: str) -> bool | None:
    return {"yes": True, "no": False}.get(value)


#: a fact of the event: not stated (empty), yes or no
YES_NO = [("", "—"), ("yes", gettext_lazy("是")), ("no", gettext_lazy("否"))]


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("文件"))
    rating_list = forms.ModelChoiceField(RatingList.objects.all(), label=gettext_lazy("榜单"), to_field_name="code")
    # The facts of the event start empty: the registration or the report gives them, else the officer states
    # them; an import never assumes them (``office.imports.facts``).
    organiser_level = forms.ChoiceField(label=gettext_lazy("主办单位级别"), required=False,
                                        choices=organiser_level_choices(blank=True))
    national = forms.TypedChoiceField(label=gettext_lazy("全国性赛事"), required=False, choices=YES_NO,
                                      coerce=_yes_no, empty_value=None)
    international = forms.TypedChoiceField(label=gettext_lazy("国际性赛事"), required=False, choices=YES_NO,
                                           coerce=_yes_no, empty_value=None)
    agreed_by_parties = forms.TypedChoiceField(label=gettext_lazy("经协商主体协商确定"), required=False,
                                               choices=YES_NO, coerce=_yes_no, empty_value=None)
    dan_event = forms.TypedChoiceField(label=gettext_lazy("等级赛（授予段级位）"), required=False, choices=YES_NO,
                                       coerce=_yes_no, empty_value=None)
    standards_published = forms.TypedChoiceField(label=gettext_lazy("段级位标准赛前公布"), required=False,
                                                 choices=YES_NO, coerce=_yes_no, empty_value=None)
    override_facts = forms.BooleanField(label=gettext_lazy("以上填写的事实优先于登记和报告（差异记入审计日志）"),
                                        required=False)
    confirm_all = forms.BooleanField(label=gettext_lazy("确认全部新棋手和唯一的姓名匹配"), required=False)
    format = forms.ChoiceField(label=gettext_lazy("赛制（TRF/OpenGotha 文件未注明时）"), required=False,
                               choices=[("", "—")] + [(f.value, EVENT_FORMATS.get(f.value, f.value)) for f in EventFormat])
    received_on = forms.DateField(label=gettext_lazy("收到日期"), required=False,
                                  widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))
    # a report of games already stored under another event (a probable duplicate): import it anyway, as the same
    # event's other report, with the reason (``qiyuan office import --duplicate-of CODE --reason …``)
    duplicate_of = forms.CharField(label=gettext_lazy("确认是已导入比赛的另一份报告（比赛代码）"), required=False,
                                   max_length=60)
    duplicate_reason = forms.CharField(label=gettext_lazy("理由（与上一项一起填写）"), required=False, max_length=500)

    def clean_file(self):
        f = self.cleaned_data["file"]
        return check_upload(f)


def check_upload(f):
    """Refuse a file too large or not of a kind the office reads (by name and by its first bytes)."""
    limit = settings.QIYUAN_UPLOAD_MAX_BYTES
    if f.size > limit:
        raise forms.ValidationError(_("文件过大（%(size)d 字节，上限 %(limit)d）。") % {"size": f.size, "limit": limit})
    suffix = Path(f.name).suffix.lower()
    if suffix not in UPLOAD_TYPES:
        raise forms.ValidationError(_("不接受 %(suffix)s 文件：只接受 .xlsx、.trf、.txt、.xml。") % {"suffix": suffix or "—"})
    head = f.read(8)
    f.seek(0)
    magic = UPLOAD_TYPES[suffix]
    if magic is not None and not any(head.startswith(m) for m in magic):
        raise forms.ValidationError(_("文件内容与扩展名 %(suffix)s 不符。") % {"suffix": suffix})
    if magic is None and b"\x00" in f.read(65536):
        raise forms.ValidationError(_("TRF 文件应为文本文件。"))
    f.seek(0)
    return f


def _upload_dir() -> Path:
    path = Path(settings.VAR_DIR) / "uploads"
    path.mkdir(parents=True, exist_ok=True)
    return path


def confirmations(post, conflicts: dict[str, list[str]]) -> tuple[dict[str, str], list[str]]:
    """The officer's answers to the pending matches (``Options.confirm``) and what he must still do.

    ``confirm-N`` is the chosen candidate (or ``new``); a candidate whose registry ID number differs from the
    report's is taken only with its override box ``override-N-ID`` ticked (sent as ``ID!``). The free-text
    lines (``N=ID``) never override: a conflict found there comes back as a pending match with its box.
    """
    confirm: dict[str, str] = {}
    problems: list[str] = []
    for line in post.get("confirm_more", "").splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            if k.strip() and v.strip():
                confirm[k.strip()] = v.strip().rstrip("!")
    for key, value in post.items():
        if not key.startswith("confirm-") or not value:
            continue
        number = key[len("confirm-"):]
        if value in conflicts.get(number, ()):
            if post.get(f"override-{number}-{value}"):
                value += "!"
            else:
                problems.append(_("签号 %(n)s：%(id)s 的身份证号与报告不符，须勾选“仍然匹配”才能选他。")
                                % {"n": number, "id": value})
                continue
        confirm[number] = value
    return confirm, problems


@role_required(OFFICER)
@require_http_methods(["GET", "POST"])
def imports(request):
    form = UploadForm(request.POST or None, request.FILES or None)
    context: dict = {"max_mb": settings.QIYUAN_UPLOAD_MAX_BYTES // (1024 * 1024)}
    stashed = request.session.get("desk:upload")
    if request.method == "POST":
        confirming = request.POST.get("confirming") == "1" and stashed
        refused: list[str] = []
        if confirming:
            path, code, raw = Path(stashed["path"]), stashed["list"], stashed["options"]
            confirm, refused = confirmations(request.POST, stashed.get("conflicts", {}))
            raw = {**raw, "confirm": {**raw.get("confirm", {}), **confirm},
                   "accept_registration_differences": bool(stashed.get("differences"))}  # shown on the page
        elif form.is_valid():
            d = form.cleaned_data
            upload = d["file"]
            folder = _upload_dir() / secrets.token_hex(8)  # the file keeps its own name (reports quote it)
            folder.mkdir()
            target = folder / Path(upload.name).name
            with open(target, "wb") as out:
                for chunk in upload.chunks():
                    out.write(chunk)
            path, code = target, d["rating_list"].code
            raw = {"organiser_level": d["organiser_level"] or None, "national": d["national"],
                   "international": d["international"], "agreed_by_parties": d["agreed_by_parties"],
                   "dan_event": d["dan_event"], "standards_published": d["standards_published"],
                   "override_facts": d["override_facts"], "confirm_all": d["confirm_all"],
                   "format": d["format"] or None,
                   "received_on": d["received_on"].isoformat() if d["received_on"] else None, "confirm": {},
                   "duplicate_of": d["duplicate_of"].strip(), "duplicate_reason": d["duplicate_reason"].strip()}
        else:
            path = None
        if path is not None:
            options = Options(**{**raw, "received_on": _date(raw.get("received_on"))})
            rl = get_object_or_404(RatingList, code=code)
            try:
                result = import_file(path, rl, request.user.get_username(), options=options)
            except NeedsConfirmation as exc:
                context["problems"] = refused
                matches = exc.pending_matches
                conflicts = {str(m.number): [c.federation_id for c in m.candidates if c.id_conflict]
                             for m in matches}
                request.session["desk:upload"] = {"path": str(path), "list": code, "options": raw,
                                                  "conflicts": conflicts, "differences": bool(exc.differences)}
                context["pending"] = [replace(m, where=_located(m.where)) for m in matches]  # the place translated
                context["differences"] = [p.text(_) for p in exc.differences]
            except QiyuanError as exc:
                context["problems"] = refused + [_located(p) for p in exc.problems]
                if any(p.code == "import.duplicate" for p in exc.problems):  # the desk's way to --duplicate-of
                    context["problems"].append(_("若确是另一份报告：重新选择文件，在“确认是已导入比赛的另一份报告”中填写"
                                                 "比赛代码并写明理由，再导入。"))
                request.session.pop("desk:upload", None)
            else:
                request.session.pop("desk:upload", None)
                messages.success(request, _("已导入 %(file)s：%(n)d 场比赛，%(g)d 局，新注册棋手 %(p)d 人。") % {
                    "file": path.name, "n": len(result.events), "g": result.games,
                    "p": result.new_players})
                for note in result.notes:
                    messages.info(request, _located(note))
                if result.late_for:
                    messages.warning(request, _("迟到的报告：所属榜单已发布（%(dates)s），请以更正版计算。") % {
                        "dates": ", ".join(d.isoformat() for d in result.late_for)})
                return redirect("desk:import_detail", batch_id=result.batch.pk)
    context.update(
        upload_form=form,
        batches=ImportBatch.objects.select_related("rating_list")[:50],
        rejected=[{"report": r, "reasons": [_located(p) for p in r.reason_problems()]}
                  for r in RejectedReport.objects.select_related("rating_list")[:50]],
        problem_events=[{"event": e, "failures": _failures(e.eligibility)} for e in
                        Event.objects.exclude(eligibility__failures=[]).exclude(eligibility={})
                        .select_related("rating_list").order_by("-end_date")[:50]],
    )
    return render(request, "desk/imports.html", context)


@role_required(OFFICER)
@require_http_methods(["GET"])
def import_detail(request, batch_id: int):
    batch = get_object_or_404(ImportBatch, pk=batch_id)
    return render(request, "desk/import_detail.html", {"batch": batch, "events": batch.events.all(),
                                                       "notes": [_located(p) for p in batch.note_problems()]})
