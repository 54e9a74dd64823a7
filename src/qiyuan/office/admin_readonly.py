"""The Django admin shows the office's records but never changes them.

Every change to players, associations, clubs, arbiters, events and lists goes
through the office's use cases (``qiyuan.office.registry``, ``imports``,
``periods``), which check everything, keep the history (name and association
changes) and write the audit log; an admin form would bypass all three. So
the admin is a read-only window on the data (the only staff screen that shows
full ID numbers).
"""

from __future__ import annotations

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """View only: no add, change or delete (the office's use cases do those)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    """A read-only inline of a read-only record."""

    extra = 0

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
