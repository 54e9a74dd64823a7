"""Views of the hall's phone pages: they turn a request into a hall use case and its outcome into a page.
The rules (who may report, confirm, check in) are the use cases' (``qiyuan.office.hall.cases``)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from qiyuan.errors import NotFound, QiyuanError
from qiyuan.office.hall import cases
from qiyuan.office.hall.tokens import read_board_token, read_checkin_token
from qiyuan.tournament import hall
from qiyuan.tournament.standings import standings
from qiyuan.tournament.state import rounds_paired
from qiyuan.web.display import display_name, english, free_text
from qiyuan.web.hall import limits
from qiyuan.web.login_guard import client_address

DEVICE_COOKIE = "qiyuan_phone"
LIVE_SECONDS = 10  # how long visitors' live page data is kept, and how often the page asks again


def _address(request) -> str:
    return client_address(request)


def _device(request) -> tuple[str, bool]:
    """The phone's own random id (a cookie): the other player confirms from another phone."""
    dev = request.COOKIES.get(DEVICE_COOKIE, "")
    if len(dev) == 32 and dev.isalnum():
        return dev, False
    return secrets.token_hex(16), True


def _limited(request, token: str, read) -> bool:
    """Count this request against its board's (or round's check-in) limit and its address's: True when over.
    A board's links printed at different times are one board: counted together."""
    try:
        key = repr(read(token))
    except QiyuanError:
        key = token
    return not limits.allowed(key, _address(request))


def _too_many(request) -> HttpResponse:
    response = render(request, "hall/message.html", {"message": _("请求过于频繁，请一分钟后再试。")}, status=429)
    response["Retry-After"] = str(limits.WINDOW)
    return response


def _refused(request, exc: QiyuanError, status: int = 400) -> HttpResponse:
    return render(request, "hall/message.html", {"message": " ".join(p.text(_) for p in exc.problems)},
                  status=status)


def _secure_enough(request) -> bool:
    """Plain HTTP only where the office allowed it for its hall network (docs/deploy.md)."""
    return request.is_secure() or getattr(settings, "QIYUAN_HALL_PLAIN_HTTP", False) or settings.DEBUG \
        or request.get_host().split(":")[0] in ("127.0.0.1", "localhost", "[::1]", "testserver")


@require_http_methods(["GET", "POST"])
def board(request, token: str):
    """A board's page: either player chooses the result, the other confirms it."""
    if not _secure_enough(request):
        return render(request, "hall/message.html", {"message": _("请使用 HTTPS 访问。")}, status=403)
    if _limited(request, token, read_board_token):
        return _too_many(request)
    device, new_device = _device(request)
    try:
        if request.method == "POST":
            player = _int(request.POST.get("player"))
            result = request.POST.get("result", "")
            if player is None:
                page = cases.board_page(token)
                return _board(request, page, device, new_device, error=_("请先选择您是哪一方。"), status=400)
            claim = cases.phone_report(token, player, result, device)
            return redirect(f"{reverse('hall:board', args=[token])}?done={claim.state}&me={player}")
        page = cases.board_page(token)
    except NotFound as exc:
        return _refused(request, exc, 404)
    except QiyuanError as exc:
        try:
            page = cases.board_page(token)
        except QiyuanError:
            return _refused(request, exc)
        return _board(request, page, device, new_device, error=" ".join(p.text(_) for p in exc.problems),
                      status=409)
    return _board(request, page, device, new_device)


def _board(request, page: cases.BoardPage, device: str, new_device: bool, *, error: str = "", status: int = 200):
    me = _int(request.GET.get("me") or request.COOKIES.get(f"qiyuan_me_{page.board.round}_{page.board.board}"))
    claim = page.claim
    en = english()
    response = render(request, "hall/board.html", {
        "page": page, "b": page.board, "claim": claim, "me": me, "error": error, "event_name": free_text(page.event_name),
        "first_name": display_name(page.board.first_name, english=en),
        "second_name": display_name(page.board.second_name, english=en),
    }, status=status)
    response["Cache-Control"] = "no-store"
    if new_device:
        response.set_cookie(DEVICE_COOKIE, device, max_age=7 * 24 * 3600, samesite="Lax",
                            secure=request.is_secure(), httponly=True)
    if me:
        response.set_cookie(f"qiyuan_me_{page.board.round}_{page.board.board}", str(me), max_age=24 * 3600,
                            samesite="Lax", secure=request.is_secure(), httponly=True)
    return response


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


@require_http_methods(["GET", "POST"])
def checkin(request, token: str):
    """A round's check-in page: a player finds his name and checks in."""
    if not _secure_enough(request):
        return render(request, "hall/message.html", {"message": _("请使用 HTTPS 访问。")}, status=403)
    if _limited(request, token, read_checkin_token):
        return _too_many(request)
    try:
        tok = cases.checkin_from_token(token)
        error = ""
        if request.method == "POST":
            number = _int(request.POST.get("number"))
            try:
                cases.check_in(tok.event, tok.round, number or 0)
                return redirect(f"{reverse('hall:checkin', args=[token])}?done={number}")
            except QiyuanError as exc:
                error = " ".join(p.text(_) for p in exc.problems)
        page = cases.checkin_page(tok.event, tok.round)
    except NotFound as exc:
        return _refused(request, exc, 404)
    except QiyuanError as exc:
        return _refused(request, exc)
    query = request.GET.get("q", "").strip()
    en = english()
    shown = [(n, display_name(name, english=en), here) for n, name, here in page.players]
    players = [p for p, (_n, name, _h) in zip(shown, page.players)
               if not query or query in name or query.lower() in p[1].lower() or query == str(p[0])]
    done = _int(request.GET.get("done"))
    response = render(request, "hall/checkin.html", {"page": page, "players": players, "q": query, "error": error,
                                                     "event_name": free_text(page.event_name),
                                                     "done": next((p for p in shown if p[0] == done), None)},
                      status=409 if error else 200)
    response["Cache-Control"] = "no-store"
    return response


def _live_data(code: str) -> dict:
    key = f"hall-live:{code}"
    data = cache.get(key)
    if data is None:
        store = cases.event_store(code)
        t = store.read()
        rnd = rounds_paired(t)
        boards = [{"board": b.board, "first": b.first_name, "second": b.second_name, "result": b.result,
                   "first_latin": display_name(b.first_name, english=True),
                   "second_latin": display_name(b.second_name, english=True)}
                  for b in (hall.boards_of(t, rnd) if rnd else [])]
        table = [{"rank": r.rank, "name": r.name, "name_latin": display_name(r.name, english=True),
                  "score": str(r.score)} for r in standings(t)]
        data = {"event": t.name, "round": rnd, "boards": boards, "standings": table}
        cache.set(key, data, timeout=LIVE_SECONDS)
    return data


def live(request, code: str):
    """The round as the hall's screen and the public see it: boards with the signed results, standings."""
    try:
        data = _live_data(code)
    except QiyuanError:
        raise Http404
    response = render(request, "hall/live.html", {"data": data, "code": code, "seconds": LIVE_SECONDS,
                                                  "en": english(), "event_name": free_text(data["event"])})
    response["Cache-Control"] = f"public, max-age={LIVE_SECONDS}"
    return response


def live_json(request, code: str):
    try:
        data = _live_data(code)
    except QiyuanError:
        raise Http404
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = f"public, max-age={LIVE_SECONDS}"
    return response
