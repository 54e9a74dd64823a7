"""Django admin for the audit log: read-only (an audit log is never edited)."""

from __future__ import annotations

from django.contrib import admin

from qiyuan.office.admin_readonly import ReadOnlyAdmin

from qiyuan.office.audit.models import AuditLog


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor", "action", "object_type", "object_id")
    list_filter = ("action", "object_type")
    search_fields = ("actor", "action", "object_id")
    date_hierarchy = "at"
