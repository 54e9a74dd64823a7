"""The arbiter's hall queue (报分队列): results from the players' phones to sign, disputes to settle,
boards still open, check-in of the next round; and the printed links.  Each action calls one hall
use case (``qiyuan.office.hall.cases``); signing enters results through the arbiter's ``enter_results``."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from qiyuan.errors import NotFound, QiyuanError
from qiyuan.formats.hall_qr import checkin_poster, player_cards
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall import cases
from qiyuan.office.hall.tokens import checkin_token
from qiyuan.tournament import go, hall
from qiyuan.tournament.state import rounds_paired

from ...display import display_name, english, free_text
from ..permissions import ARBITER, require_event, role_required

#: the queue's sections, in the order an arbiter works through them
SECTIONS = (
    (hall.CONFIRMED, "双方已确认，待签认"),
    (hall.DISPUTED, "结果有争议，待裁决"),
    (hall.REPORTED, "一方已报告，待对手确认"),
    ("open", "尚未报告"),
    (hall.SIGNED, "已签认"),
    ("entered", "裁判已录入"),
)


def _allowed(request, code: str) -> None:
    """The served event file: any arbiter; a desk event: its own arbiters (and admins)."""
    if cases.is_file_event(code):
        return
    live = LiveEvent.objects.filter(code=code).first()
    if live is None:
        raise Http404
    require_event(request.user, live)


def _ok(request, use_case, *args, ok: str = "", **kwargs):
    try:
        outcome = use_case(*args, **kwargs)
    except QiyuanError as exc:
        for p in exc.problems:
            messages.error(request, p.text(_))
        return None
    if ok:
        messages.success(request, ok)
    return outcome


def base_url(request) -> str:
    """Where the phones reach this server: ``QIYUAN_HALL_BASE_URL`` (``serve --base-url``), else this request's."""
    from django.conf import settings

    return getattr(settings, "QIYUAN_HALL_BASE_URL", "") or request.build_absolute_uri("/").rstrip("/")


def slip_links(request, code: str):
    """Each player's personal link (``hall_pdf.document(links=…)``): his credential's current issue, on his half
    of each slip and on his entry card."""
    base = base_url(request)
    return lambda number: base + reverse("hall:player", args=[code, cases.player_link_token(code, number)])


@role_required(ARBITER)
def queue(request, code: str):
    _allowed(request, code)
    try:
        q = cases.queue(code)
        store_t = cases.event_store(code).read()
    except NotFound:
        raise Http404
    next_round = rounds_paired(store_t) + 1
    checkin = cases.checkin_page(code, next_round) if next_round <= (store_t.rounds_planned or next_round) else None
    en = english()

    def shown(r: cases.QueueRow) -> dict:
        return {"r": r, "first": display_name(r.board.first_name, english=en),
                "second": display_name(r.board.second_name, english=en)}

    sections = [(state, _(label), [shown(r) for r in q.having(state)]) for state, label in SECTIONS]
    players = [(n, display_name(name, english=en), here) for n, name, here in checkin.players] if checkin else []
    return render(request, "desk/hall.html", {
        "code": code, "q": q, "sections": sections, "checkin": checkin, "checkin_players": players,
        "event_name": free_text(q.event_name), "is_desk_event": not cases.is_file_event(code),
        "checkin_link": base_url(request) + reverse("hall:checkin", args=[checkin_token(code, next_round)])
        if checkin else "",
        "live_link": reverse("hall:live", args=[code]),
        "confirmed": len(q.having(hall.CONFIRMED)),
        "reissued": cases.reissued(code),
        "is_go": go.is_go(store_t),  # black and white, and ½-½ offered only where the komi allows a jigo
    })


@role_required(ARBITER)
@require_POST
def sign(request, code: str):
    _allowed(request, code)
    rnd = _int(request.POST.get("round"))
    boards = request.POST.getlist("board")
    wanted = None if request.POST.get("all") else [b for b in (_int(x) for x in boards) if b]
    signed = _ok(request, cases.sign, code, request.user, rnd or 0, wanted)
    if signed is not None:
        messages.success(request, _("已签认 %(n)d 台结果。") % {"n": len(signed)})
    return redirect("desk:hall", code=code)


@role_required(ARBITER)
@require_POST
def settle(request, code: str):
    _allowed(request, code)
    rnd, board = _int(request.POST.get("round")), _int(request.POST.get("board"))
    result = request.POST.get("result", "")
    _ok(request, cases.settle, code, request.user, rnd or 0, board or 0, result,
        ok=_("第 %(board)s 台结果已裁决。") % {"board": board})
    return redirect("desk:hall", code=code)


@role_required(ARBITER)
@require_POST
def checkin_act(request, code: str):
    _allowed(request, code)
    rnd = _int(request.POST.get("round")) or 0
    action = request.POST.get("action", "")
    if action == "close":
        absent = _ok(request, cases.close_check_in, code, request.user, rnd)
        if absent is not None:
            messages.success(request, _("签到已截止：%(n)d 人记为缺席。") % {"n": len(absent)})
    elif action == "reopen":
        _ok(request, cases.reopen_check_in, code, request.user, rnd, ok=_("签到已重新开放。"))
    elif action in ("tick", "untick"):
        number = _int(request.POST.get("number")) or 0
        _ok(request, cases.check_in, code, rnd, number, actor=request.user, present=action == "tick")
    else:
        raise PermissionDenied
    return redirect("desk:hall", code=code)


@role_required(ARBITER)
@require_POST
def reissue(request, code: str):
    """Re-issue a player's credential (a lost phone): the old one stops working; his new card follows."""
    _allowed(request, code)
    number = _int(request.POST.get("number")) or 0
    if _ok(request, cases.reissue, code, request.user, number,
           ok=_("%(n)s 号的凭证已重新发放，旧二维码已失效。请打印新的参赛证。") % {"n": number}) is None:
        return redirect("desk:hall", code=code)
    return redirect(f"{reverse('desk:hall_cards', args=[code])}?player={number}")


@role_required(ARBITER)
def cards_pdf(request, code: str):
    """The players' entry cards (参赛证) with their personal QR codes: all, or ``?player=N`` only."""
    _allowed(request, code)
    t = cases.event_store(code).read()
    wanted = [n for n in (_int(x) for x in request.GET.getlist("player")) if n] or None
    response = HttpResponse(player_cards(t, slip_links(request, code), wanted), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{code}-cards.pdf"'
    response["Cache-Control"] = "no-store"
    return response


@role_required(ARBITER)
def checkin_pdf(request, code: str):
    """A poster for the hall's door: the round's check-in code."""
    _allowed(request, code)
    t = cases.event_store(code).read()
    rnd = rounds_paired(t) + 1
    link = base_url(request) + reverse("hall:checkin", args=[checkin_token(code, rnd)])
    response = HttpResponse(checkin_poster(t, rnd, link), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{code}-checkin-{rnd}.pdf"'
    return response


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None
