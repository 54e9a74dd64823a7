"""Django admin for registered events: read-only (the calendar's use cases change them)."""

from __future__ import annotations

from django.contrib import admin

from qiyuan.office.admin_readonly import ReadOnlyAdmin
from qiyuan.office.calendar.models import Registration


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    list_display = ("code", "name", "start_date", "end_date", "city", "rating_list", "status")
    list_filter = ("rating_list", "status", "format")
    search_fields = ("code", "name", "city")
    date_hierarchy = "start_date"
