"""Django admin for events, imports and rejected reports: read-only (imports are the office's use case)."""

from __future__ import annotations

from django.contrib import admin

from qiyuan.office.admin_readonly import ReadOnlyAdmin
from qiyuan.office.events.models import Event, ImportBatch, RejectedReport


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("code", "name", "start_date", "end_date", "format", "rating_list", "status")
    list_filter = ("rating_list", "format", "status")
    search_fields = ("code", "name")
    date_hierarchy = "end_date"


@admin.register(ImportBatch)
class ImportBatchAdmin(ReadOnlyAdmin):
    list_display = ("imported_at", "kind", "filename", "actor", "rating_list")
    list_filter = ("kind", "rating_list")


@admin.register(RejectedReport)
class RejectedReportAdmin(ReadOnlyAdmin):
    list_display = ("received_at", "kind", "filename", "actor", "rating_list")
    list_filter = ("kind",)
    exclude = ("content",)
