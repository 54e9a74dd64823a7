"""Django admin for rating lists and editions: read-only (an edition is immutable; lists are added with
``qiyuan office list add``)."""

from __future__ import annotations

from django.contrib import admin

from qiyuan.office.admin_readonly import ReadOnlyAdmin
from qiyuan.office.ratings.models import Edition, RatingList


@admin.register(RatingList)
class RatingListAdmin(ReadOnlyAdmin):
    list_display = ("code", "title", "game", "rules_name", "started_on")


@admin.register(Edition)
class EditionAdmin(ReadOnlyAdmin):
    list_display = ("rating_list", "list_date", "number", "is_correction", "published_at", "published_by")
    list_filter = ("rating_list", "is_correction")
    exclude = ("events",)
