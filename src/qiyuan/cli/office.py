"""The ``qiyuan office`` command group: the federation's rating office (Django).

This module creates the group; the registry/infrastructure commands live here,
the event/period/list commands in ``qiyuan.cli.office_data``.
"""

from __future__ import annotations

import os

import typer

office_app = typer.Typer(
    help="The rating office (等级分管理): registry, imports, rating periods, published lists.",
    no_args_is_help=True,
)


def ensure_django() -> None:
    """Configure Django once (settings ``qiyuan.web.settings`` unless set) — lazily, so other commands stay fast."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "qiyuan.web.settings")
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()


def register(app: typer.Typer) -> None:
    """Add ``qiyuan office …`` to the ``qiyuan`` app."""
    app.add_typer(office_app, name="office")
