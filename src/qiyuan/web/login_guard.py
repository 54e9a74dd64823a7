"""Failed sign-ins throttled (登录限制): the desk's and the admin's login alike.

After ``ACCOUNT.limit`` (10) failed logins for one account, or ``ADDRESS.limit`` (30) from one address,
within 15 minutes, that account (that address) is locked for 15 minutes: every attempt is refused, the right
password too. Each lockout is written to the audit log (``login.lockout``) and listed on the desk's users page
(``active_lockouts``), where an admin lifts it (``lift_lockout``, audited ``login.unlock``; also
``qiyuan office user unlock``).

How it hooks into Django: ``LockoutBackend`` (Django's ``ModelBackend`` with the check first) is the
authentication backend and stops ``authenticate()`` (``PermissionDenied``) for a locked account or address,
whichever login page asked;
``user_login_failed`` counts the failures. ``ThrottledLoginForm`` turns the refusal into its own message.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied, ValidationError
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy

from qiyuan.errors import InputError, problem
from qiyuan.office.audit.models import AuditLog, record

from .throttle import Throttle

WINDOW = 15 * 60
ACCOUNT = Throttle("login-account", limit=10, window=WINDOW, lockout=WINDOW)
ADDRESS = Throttle("login-address", limit=30, window=WINDOW, lockout=WINDOW)
SCOPES = {"account": ACCOUNT, "address": ADDRESS}

#: set on the request when an attempt is refused (or causes a lockout): when the lock ends
LOCKED_UNTIL = "qiyuan_locked_until"


#: Where the site's own TLS proxy connects from: ``qiyuan serve`` binds only loopback or a Unix socket.
_PROXY = ("", "127.0.0.1", "::1")


def client_address(request) -> str:
    """The client's address: the peer's, or — when the peer is the documented proxy on this host — the last
    address of ``X-Forwarded-For``, the one the proxy itself appended (earlier ones are the client's word)."""
    if request is None:
        return ""
    remote = request.META.get("REMOTE_ADDR") or ""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if remote in _PROXY and forwarded.strip():
        return forwarded.split(",")[-1].strip()[:64] or "unknown"
    return remote or "unknown"


def _account(username) -> str:
    return str(username or "").strip().lower()


def locked_until(request, username) -> dt.datetime | None:
    """When the lock on this account or this request's address ends (the later), or ``None``."""
    ends = [t for t in (ACCOUNT.locked_until(_account(username)) if username else None,
                        ADDRESS.locked_until(client_address(request))) if t is not None]
    return max(ends) if ends else None


class LockoutBackend(ModelBackend):
    """Django's own backend, refusing any attempt on a locked account or from a locked address before the
    password is even checked."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is not None:  # a web login (not a command or a test's force_login)
            until = locked_until(request, username)
            if until is not None:
                setattr(request, LOCKED_UNTIL, until)
                raise PermissionDenied("locked")  # authenticate() stops: no backend checks the password
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed, dispatch_uid="qiyuan-login-guard")
def count_failure(sender, credentials, request=None, **kwargs) -> None:
    """Count a failed login for its account and its address; lock (and audit) whichever reached its limit."""
    if request is None or getattr(request, LOCKED_UNTIL, None) is not None:
        return  # refused while locked: already counted as a lockout
    keys = {"account": _account(credentials.get("username")), "address": client_address(request)}
    for scope, key in keys.items():
        if not key:
            continue
        throttle = SCOPES[scope]
        attempts = throttle.hit(key)
        if attempts >= throttle.limit:
            until = throttle.lock(key)
            setattr(request, LOCKED_UNTIL, until)
            record("login-guard", "login.lockout", scope=scope, key=key, attempts=attempts, until=until,
                   path=request.path[:100], address=client_address(request))


def active_lockouts(now: dt.datetime | None = None) -> list[dict]:
    """The lockouts in force: scope, key (account or address), until, attempts — newest first."""
    now = now or timezone.now()
    found, seen = [], set()
    for entry in AuditLog.objects.filter(action="login.lockout", at__gte=now - dt.timedelta(seconds=WINDOW)):
        scope, key = entry.detail.get("scope"), entry.detail.get("key")
        if scope not in SCOPES or (scope, key) in seen:
            continue
        seen.add((scope, key))
        until = SCOPES[scope].locked_until(key)
        if until is not None:
            found.append({"scope": scope, "key": key, "until": until, "attempts": entry.detail.get("attempts"),
                          "at": entry.at})
    return found


def lift_lockout(actor, scope: str, key: str) -> None:
    """Lift the lockout of an account (``scope="account"``) or an address, and forget its failures; audited."""
    if scope not in SCOPES:
        raise InputError([problem("lockout scope “{scope}”: one of account, address", code="lockout.scope",
                                  scope=str(scope)[:20])])
    key = _account(key) if scope == "account" else str(key or "").strip()
    if not key:
        raise InputError([problem("name the account or the address whose lockout to lift", code="lockout.key")])
    was = SCOPES[scope].locked_until(key)
    SCOPES[scope].clear(key)
    record(actor, "login.unlock", scope=scope, key=key, was_locked_until=was)


_LOCKED = gettext_lazy("登录尝试失败次数过多，已暂时锁定：请在 %(time)s 之后再试，或请管理员解除锁定。")


class _Throttled:
    """Login forms: a refused attempt on a locked account or address says so (not “wrong password”)."""

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            until = getattr(self.request, LOCKED_UNTIL, None) if self.request is not None else None
            if until is not None:
                shown = timezone.localtime(until).strftime("%H:%M")
                raise ValidationError(_LOCKED, code="locked", params={"time": shown}) from None
            raise

    @property
    def locked_message(self) -> str:
        """The lockout's message when this attempt was refused for it (for the page), else empty."""
        if not self.is_bound or self.is_valid():
            return ""
        for error in self.non_field_errors().as_data():
            if error.code == "locked":
                return next(iter(error))
        return ""


class ThrottledLoginForm(_Throttled, AuthenticationForm):
    """The desk's login form."""


class ThrottledAdminLoginForm(_Throttled, AdminAuthenticationForm):
    """The admin's login form."""
