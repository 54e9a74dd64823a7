"""The portal's front page (首页) and the language switch."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from qiyuan.office.events.models import Event
from qiyuan.office import sheets
from qiyuan.office.ratings.models import RatingList

from ..queries import unrated_live_events

TOP = 10


def home(request):
    """Each list's latest edition with its top players, the newest events, a player search."""
    lists = []
    for rl in RatingList.objects.order_by("code"):
        latest = rl.editions.order_by("-list_date", "-number").first()
        top = []
        if latest is not None:
            cols = sheets.entries(latest, "status", "rank")
            top = sheets.with_players(latest, [i for i, (s, r) in enumerate(zip(cols["status"], cols["rank"]))
                                               if s == "active" and r is not None][:TOP])
        lists.append({"list": rl, "latest": latest, "top": top})
    return render(
        request,
        "portal/home.html",
        {
            "lists": lists,
            "events": Event.objects.order_by("-end_date", "code")[:10],
            "live": [e for e in unrated_live_events(5) if not e.finished],
        },
    )


def language(request, code: str):
    """Switch the language (简体中文 / English) and go back: a plain link, so public pages carry no
    CSRF token and can be cached whole; the choice only sets the language cookie."""
    if code not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        target = "/"
    response = redirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code, max_age=365 * 24 * 3600, path="/", samesite="Lax",
        secure=request.is_secure(), httponly=True,
    )
    return response
