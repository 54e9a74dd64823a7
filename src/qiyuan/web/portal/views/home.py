"""The portal's front page (首页)."""

from __future__ import annotations

from django.shortcuts import render


def home(request):
    return render(request, "portal/home.html", {})
