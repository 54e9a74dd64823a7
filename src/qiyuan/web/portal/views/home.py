"""The portal's front page (首页)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme


def home(request):
    return render(request, "portal/home.html", {})


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
