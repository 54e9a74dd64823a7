"""Roles of the staff desk (工作台权限) and the one helper every desk view uses.

Three roles, each a Django group:

* ``arbiter`` (裁判): runs the events he is assigned to, and no other;
* ``officer`` (等级分管理员): imports reports, computes and publishes lists;
* ``admin`` (管理员): everything, including users and roles (a superuser is an admin).

Every desk view is wrapped in :func:`role_required`, which also records the
roles on the view (``view.required_roles``) so a test can prove that no desk
URL is left unguarded.
"""

from __future__ import annotations

from functools import wraps
from typing import Callable

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

ARBITER = "arbiter"
OFFICER = "officer"
ADMIN = "admin"
ROLES = (ARBITER, OFFICER, ADMIN)


def roles_of(user) -> frozenset[str]:
    """The roles a user holds; an inactive or anonymous user holds none."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cached = getattr(user, "_qiyuan_roles", None)
    if cached is None:
        names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        if user.is_superuser:
            names.add(ADMIN)
        cached = frozenset(names)
        user._qiyuan_roles = cached
    return cached


def has_role(user, *roles: str) -> bool:
    """True when the user holds one of ``roles``; an admin holds every role."""
    held = roles_of(user)
    return ADMIN in held or any(r in held for r in roles)


def role_required(*roles: str) -> Callable:
    """Decorate a desk view: anonymous users go to the login page, others lacking
    every one of ``roles`` get 403. With no roles, any staff role will do."""
    wanted = roles or ROLES

    def decorate(view):
        @wraps(view)
        def guarded(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *wanted):
                raise PermissionDenied("role required: " + ", ".join(wanted))
            return view(request, *args, **kwargs)

        guarded.required_roles = tuple(wanted)
        return guarded

    return decorate


def can_run_event(user, live_event) -> bool:
    """An admin runs every event; an arbiter only the events assigned to him."""
    if has_role(user, ADMIN):
        return True
    if ARBITER not in roles_of(user):
        return False
    return live_event.arbiters.filter(pk=user.pk).exists()


def require_event(user, live_event) -> None:
    """Raise 403 unless the user may run this event."""
    if not can_run_event(user, live_event):
        raise PermissionDenied("not an arbiter of this event")
