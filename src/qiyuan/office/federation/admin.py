"""Django admin for the registry: the only staff screen that shows full ID numbers."""

from __future__ import annotations

from django.contrib import admin

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
class AssociationAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "name_en", "parent")
    search_fields = ("code", "name", "name_en")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "association")
    list_filter = ("association",)
    search_fields = ("name",)


class DanGrantInline(admin.TabularInline):
    model = DanGrant
    extra = 0


class NameChangeInline(admin.TabularInline):
    model = NameChange
    extra = 0


class AssociationChangeInline(admin.TabularInline):
    model = AssociationChange
    fk_name = "player"
    extra = 0


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("federation_id", "name", "name_latin", "gender", "birth_date", "association", "dan", "status")
    list_filter = ("status", "gender", "association", "id_type")
    search_fields = ("federation_id", "name", "name_latin", "name_search", "id_number")
    readonly_fields = ("federation_id", "name_pinyin", "merged_into")
    autocomplete_fields = ("association",)
    raw_id_fields = ("club",)
    inlines = (DanGrantInline, NameChangeInline, AssociationChangeInline)


@admin.register(Arbiter)
class ArbiterAdmin(admin.ModelAdmin):
    list_display = ("name", "level", "association", "recognised_national", "player")
    list_filter = ("level", "recognised_national", "association")
    search_fields = ("name",)
    raw_id_fields = ("player",)
