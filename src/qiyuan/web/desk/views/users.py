"""Users and roles (用户与角色): admin only."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from qiyuan.errors import QiyuanError
from qiyuan.web.login_guard import active_lockouts, lift_lockout
from qiyuan.web.staff import add_user, change_roles

from ...labels import ROLES as ROLE_LABELS
from ..permissions import ADMIN, ROLES, role_required


class NewUserForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("用户名"), max_length=150)
    password = forms.CharField(label=gettext_lazy("密码"), min_length=8, widget=forms.PasswordInput)
    roles = forms.MultipleChoiceField(label=gettext_lazy("角色"), choices=[(r, ROLE_LABELS[r]) for r in ROLES],
                                      required=False, widget=forms.CheckboxSelectMultiple)


@role_required(ADMIN)
@require_http_methods(["GET", "POST"])
def users(request):
    User = get_user_model()
    form = NewUserForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["username"]
        try:
            add_user(request.user, name, form.cleaned_data["password"], form.cleaned_data["roles"])
        except QiyuanError as exc:  # the use case's refusal, in the page's language, beside the values typed
            for p in exc.problems:
                form.add_error("username" if p.code in ("user.name", "user.exists") else None, p.text(_))
        else:
            messages.success(request, _("已创建用户 %(name)s。") % {"name": name})
            return redirect("desk:users")
    rows = [
        (u, sorted(u.groups.filter(name__in=ROLES).values_list("name", flat=True)))
        for u in User.objects.order_by("username").prefetch_related("groups")
    ]
    return render(request, "desk/users.html", {"form": form, "rows": rows, "roles": ROLES,
                                               "lockouts": active_lockouts()})


@role_required(ADMIN)
@require_http_methods(["POST"])
def lift(request):
    """Lift a login lockout (an account's or an address's), audited."""
    try:
        lift_lockout(request.user, request.POST.get("scope", ""), request.POST.get("key", ""))
    except QiyuanError as exc:
        for p in exc.problems:
            messages.error(request, p.text(_))
    else:
        messages.success(request, _("已解除 %(key)s 的登录锁定。") % {"key": request.POST.get("key", "")})
    return redirect("desk:users")


@role_required(ADMIN)
@require_http_methods(["POST"])
def user_roles(request, user_id: int):
    user = get_object_or_404(get_user_model(), pk=user_id)
    roles = [r for r in request.POST.getlist("roles") if r in ROLES]
    change_roles(request.user, user, roles, active=request.POST.get("active") == "on")
    messages.success(request, _("已更新 %(name)s 的角色。") % {"name": user.username})
    return redirect("desk:users")
