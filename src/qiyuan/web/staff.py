"""Staff accounts (工作人员账户): the one place a desk user is created with his role.

Roles are Django groups (``qiyuan.web.desk.permissions``): arbiter, officer, admin; an admin is also Django's
staff and superuser (the registry's admin pages). ``add_user`` validates everything at once, creates the user in
one transaction and writes the audit entry; ``change_roles`` sets an account's roles and whether it is active,
audited. ``qiyuan office user add`` and the desk's user pages call them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from qiyuan.errors import Conflict, InputError, Problem, problem
from qiyuan.office.audit.models import record
from qiyuan.office.db import writing

from .desk.permissions import ADMIN, ROLES

MIN_PASSWORD = 8
STAFF = "staff"  # the office lock of the staff accounts (PostgreSQL: two admins adding one name queue)


def set_roles(user, roles) -> None:
    """Set the user's groups; the admin role also opens Django's admin (staff and superuser)."""
    user.is_staff = user.is_superuser = ADMIN in roles
    user.save(update_fields=["is_staff", "is_superuser"])
    for name in ROLES:
        group, _created = Group.objects.get_or_create(name=name)
        if name in roles:
            user.groups.add(group)
        else:
            user.groups.remove(group)


def _role_problems(roles) -> list[Problem]:
    return [problem("role “{role}”: one of {roles}", code="user.role", role=str(r)[:20], roles=", ".join(ROLES))
            for r in roles if r not in ROLES]


def check_new_user(username: str, password: str, role: str | Sequence[str]) -> list[Problem]:
    """Every reason the account cannot be created (empty when it can); ``role``: one role or several."""
    roles = [role] if isinstance(role, str) else list(role)
    problems = []
    if not username:
        problems.append(problem("the user name is empty", code="user.name"))
    else:
        try:
            UnicodeUsernameValidator()(username)
        except ValidationError:
            problems.append(problem("user name “{name}”: use letters, digits and @ . + - _ only (at most 150)",
                                    column="name", code="user.name", name=username[:40]))
        if len(username) > 150:
            problems.append(problem("the user name is longer than 150 characters", code="user.name"))
    problems += _role_problems(roles)
    if len(password) < MIN_PASSWORD:
        problems.append(problem("the password needs at least {n} characters",
                                code="user.password", n=MIN_PASSWORD))
    elif password == username:
        problems.append(problem("the password must differ from the user name",
                                code="user.password"))
    return problems


def add_user(actor, username: str, password: str, role: str | Sequence[str]):
    """Create a desk user with one role (or several); refuses (all problems at once) and writes nothing on bad input, and
    ``Conflict`` when the name is taken (also when another process took it a moment before)."""
    username = (username or "").strip()
    problems = check_new_user(username, password or "", role)
    if problems:
        raise InputError(problems)
    roles = [role] if isinstance(role, str) else sorted(set(role))
    User = get_user_model()
    taken = problem("the user {name} exists already", code="user.exists", name=username)
    try:
        with writing(STAFF):
            if User.objects.filter(username=username).exists():
                raise Conflict([taken])
            user = User.objects.create_user(username, password=password)
            set_roles(user, roles)
            record(actor, "user.create", user, roles=roles)
    except IntegrityError:
        raise Conflict([taken]) from None
    return user


def change_roles(actor, user, roles: Sequence[str], *, active: bool):
    """Set a desk user's roles and whether he may sign in, audited; an unknown role is refused, nothing written."""
    problems = _role_problems(roles)
    if problems:
        raise InputError(problems)
    roles = sorted(set(roles))
    with writing(STAFF):
        set_roles(user, roles)
        user.is_active = active
        user.save(update_fields=["is_active"])
        record(actor, "user.roles", user, roles=roles, active=active)
    return user
