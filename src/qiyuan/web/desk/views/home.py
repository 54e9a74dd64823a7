"""The desk's front page and sign-in (工作台首页、登录)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.shortcuts import render

from qiyuan.web.login_guard import ThrottledLoginForm, active_lockouts

from ..permissions import ADMIN, ARBITER, OFFICER, role_required, roles_of


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True
    authentication_form = ThrottledLoginForm  # failed logins throttled (qiyuan.web.login_guard)


class LogoutView(auth_views.LogoutView):
    """POST only (Django's default), so a link cannot sign anyone out."""

    next_page = "/"


@role_required()
def home(request):
    from qiyuan.office.events.models import LiveEvent

    roles = roles_of(request.user)
    if ADMIN in roles:
        events = LiveEvent.objects.all()
    else:
        events = LiveEvent.objects.filter(arbiters=request.user)
    return render(
        request,
        "desk/home.html",
        {
            "events": events.order_by("-created_at")[:50],
            "is_admin": ADMIN in roles,
            "is_officer": OFFICER in roles or ADMIN in roles,
            "is_arbiter": ARBITER in roles or ADMIN in roles,
            # login lockouts in force, shown to the officers and admins (lifted by an admin)
            "lockouts": active_lockouts() if (OFFICER in roles or ADMIN in roles) else [],
        },
    )
