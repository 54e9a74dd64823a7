"""Views of the hall's phone pages: they turn a request into a hall use case and its outcome into a page.
The rules (who may report, confirm, check in) are the use cases' (``qiyuan.office.hall.cases``)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from qiyuan.errors import NotFound, QiyuanError
from qiyuan.office.hall import cases
from qiyuan.tournament import go, hall
from qiyuan.tournament.go_tiebreaks import criterion, shown
from qiyuan.tournament.go_tiebreaks import standings as go_standings
from qiyuan.tournament.standings import standings
from qiyuan.tournament.state import rounds_paired
from qiyuan.web.display import display_name, english, free_text
from qiyuan.web.hall import limits

LIVE_SECONDS = 10  # how long visitors' live page data is kept, and how often the page asks again


def _too_many(request) -> HttpResponse:
    response = render(request, "hall/message.html", {"message": _("请求过于频繁，请一分钟后再试。")}, status=429)
    response["Retry-After"] = str(limits.WINDOW)
    return response


def _text(exc: QiyuanError) -> str:
    return " ".join(p.text(_) for p in exc.problems)


def _refused(request, exc: QiyuanError, status: int = 400) -> HttpResponse:
    response = render(request, "hall/message.html", {"message": _text(exc)}, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _secure_enough(request) -> bool:
    """Plain HTTP only where the office allowed it for its hall network (docs/deploy.md)."""
    return request.is_secure() or getattr(settings, "QIYUAN_HALL_PLAIN_HTTP", False) or settings.DEBUG \
        or request.get_host().split(":")[0] in ("127.0.0.1", "localhost", "[::1]", "testserver")


def _https_please(request) -> HttpResponse:
    return render(request, "hall/message.html", {"message": _("请使用 HTTPS 访问。")}, status=403)


@require_http_methods(["GET", "POST"])
def player(request, code: str, token: str):
    """A player's own page, reached through his personal credential (his card, his half of the slip): his
    board of the round — report, correct, confirm or dispute its result — and check-in for the next round.
    Who taps is the credential's player, never a cookie."""
    if not _secure_enough(request):
        return _https_please(request)
    try:
        tok = cases.credential(code, token)
    except QiyuanError as exc:  # forged, revoked, another event's: counted against that link only
        if not limits.refused_allowed(token):
            return _too_many(request)
        return _refused(request, exc, 403)
    if not limits.credential_allowed(code, tok.number):
        return _too_many(request)
    error = ""
    try:
        if request.method == "POST":
            try:
                if request.POST.get("action") == "check_in":
                    rnd = cases.phone_check_in(code, token)
                    return redirect(f"{request.path}?done=in{rnd}")
                b = cases.current_board(code, tok.number)
                if b is not None and not limits.board_allowed(code, b.round, b.board):
                    return _too_many(request)
                claim = cases.phone_report(code, token, request.POST.get("result", ""))
                return redirect(f"{request.path}?done={claim.state}")
            except NotFound:
                raise
            except QiyuanError as exc:
                error = _text(exc)
        page = cases.player_page(code, token)
    except NotFound as exc:
        return _refused(request, exc, 404)
    except QiyuanError as exc:
        return _refused(request, exc)
    return _player(request, page, error)


def _player(request, page: cases.PlayerPage, error: str) -> HttpResponse:
    en = english()
    b = page.board
    done = request.GET.get("done", "")
    response = render(request, "hall/player.html", {
        "page": page, "b": b, "claim": page.claim, "error": error, "event_name": free_text(page.event_name),
        "me": display_name(page.name, english=en),
        "first_name": display_name(b.first_name, english=en) if b else "",
        "second_name": display_name(b.second_name, english=en) if b else "",
        "checked_in_now": done.startswith("in"),
    }, status=409 if error else 200)
    response["Cache-Control"] = "no-store"
    return response


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


@require_http_methods(["GET"])
def checkin(request, token: str):
    """A round's check-in poster page: who has checked in.  A player checks in on his own page (his
    personal code); the arbiter ticks anyone in at the desk."""
    if not _secure_enough(request):
        return _https_please(request)
    try:
        tok = cases.checkin_from_token(token)
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
    response = render(request, "hall/checkin.html", {"page": page, "players": players, "q": query,
                                                     "event_name": free_text(page.event_name)})
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
                   "second_latin": display_name(b.second_name, english=True),
                   **({"stones": b.terms.stones, "komi": "" if b.terms.komi is None else str(b.terms.komi)}
                      if b.terms else {})}
                  for b in (hall.boards_of(t, rnd) if rnd else [])]
        data = {"event": t.name, "round": rnd, "boards": boards, "standings": _live_standings(t)}
        if go.is_go(t):  # Go's words: black and white, the stones or komi, the first placement criterion
            data["go"] = {"criterion": _first_criterion(t)}
        cache.set(key, data, timeout=LIVE_SECONDS)
    return data


def _first_criterion(t) -> str:
    return next((c for c in (criterion(x) for x in go.settings(t).criteria) if c), "MMS")


def _live_standings(t) -> list[dict]:
    """The standings as the live page shows them: a Go event's by its placement criteria, the first one's value
    beside each player (the McMahon score, or the wins of a Go Swiss); another event's by its score."""
    if not go.is_go(t):
        return [{"rank": r.rank, "name": r.name, "name_latin": display_name(r.name, english=True),
                 "score": str(r.score)} for r in standings(t)]
    first = _first_criterion(t)
    return [{"rank": r.place, "name": r.name, "name_latin": display_name(r.name, english=True),
             "score": str(shown(r.values[first], first))}
            for r in go_standings(t, go.settings(t), go.players(t))]


#: what the live page heads the first Go criterion's column with
_CRITERION_HEAD = {"MMS": gettext_lazy("麦克马洪分"), "NBW": gettext_lazy("胜局数")}


def live(request, code: str):
    """The round as the hall's screen and the public see it: boards with the signed results, standings."""
    try:
        data = _live_data(code)
    except QiyuanError:
        raise Http404
    go_head = _CRITERION_HEAD.get(data["go"]["criterion"], _CRITERION_HEAD["MMS"]) if "go" in data else ""
    response = render(request, "hall/live.html", {"data": data, "code": code, "seconds": LIVE_SECONDS,
                                                  "en": english(), "event_name": free_text(data["event"]),
                                                  "go_head": go_head})
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
