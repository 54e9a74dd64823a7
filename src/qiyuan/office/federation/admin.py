"""Django admin for the registry, read-only: the only staff screen that shows full ID numbers.

Changes go through the registry's use cases (``qiyuan office player …``, the desk), which keep the
history and the audit log (``qiyuan.office.admin_readonly``).
"""

from __future__ import annotations

from django.contrib import admin

from qiyuan.office.admin_readonly import ReadOnlyAdmin, ReadOnlyInline

from qiyuan.office.federation.models import (
    Arbiter,
    Association,
    AssociationChange,
    Club,
    DanGrant,
    NameChange,
    Player,
)


@admin.register(Association)
class AssociationAdmin(ReadOnlyAdmin):
    list_display = ("code", "name", "name_en", "parent")
    search_fields = ("code", "name", "name_en")


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "association")
    list_filter = ("association",)
    search_fields = ("name",)


class DanGrantInline(ReadOnlyInline):
    model = DanGrant


class NameChangeInline(ReadOnlyInline):
    model = NameChange


class AssociationChangeInline(ReadOnlyInline):
    model = AssociationChange
    fk_name = "player"


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("federation_id", "name", "name_latin", "gender", "birth_date", "association", "dan", "status")
    list_filter = ("status", "gender", "association", "id_type")
    search_fields = ("federation_id", "name", "name_latin", "name_search", "id_number")
    readonly_fields = ("federation_id", "name_pinyin", "merged_into")
    autocomplete_fields = ("association",)
    raw_id_fields = ("club",)
    inlines = (DanGrantInline, NameChangeInline, AssociationChangeInline)


@admin.register(Arbiter)
class ArbiterAdmin(ReadOnlyAdmin):
    list_display = ("name", "level", "association", "recognised_national", "player")
    list_filter = ("level", "recognised_national", "association")
    search_fields = ("name",)
    raw_id_fields = ("player",)
