"""Django admin for the grant policies and grading standards: read-only (the grades use cases change them)."""

from __future__ import annotations

from django.contrib import admin

from qiyuan.office.admin_readonly import ReadOnlyAdmin
from qiyuan.office.grades.models import GradingStandard, PolicyVersion


@admin.register(PolicyVersion)
class PolicyVersionAdmin(ReadOnlyAdmin):
    list_display = ("name", "installed_at", "installed_by")


@admin.register(GradingStandard)
class GradingStandardAdmin(ReadOnlyAdmin):
    list_display = ("event_name", "start_date", "event_class", "recorded_on", "recorded_by")
    search_fields = ("event_name",)
