"""The grant policy in force and the grading standards recorded for coming events (段级位).

The grants themselves are the registry's ``federation.DanGrant`` rows (grade,
date, body; the event, clause, certificate serial and demotion reason of a grant
made here). This app keeps what decides them:

* ``PolicyVersion`` — each grant policy file installed (its TOML text, verbatim):
  the newest is in force; older ones stay, so a grant can always be read against
  the policy of its day;
* ``GradingStandard`` — the standard of one coming event (比赛等级和称号标准, BJSH
  §9(三)): its class in the policy, recorded before the event starts; an imported
  event finds its standard by name and start date.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class PolicyVersion(models.Model):
    """One installed grant policy (``qiyuan.grading.policy``); the newest is in force."""

    name = models.CharField(max_length=40)
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    installed_at = models.DateTimeField(default=timezone.now)
    installed_by = models.CharField(max_length=150)

    class Meta:
        ordering = ["-installed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.installed_at:%Y-%m-%d %H:%M})"


class GradingStandard(models.Model):
    """The grading standard of an event, recorded before it starts (BJSH §9(三)).

    ``recorded_on`` is the office's date when it was recorded — the evidence that it
    was published before the start; the import later finds it by the event's name
    and start date (or the officer names it).
    """

    event_name = models.CharField(max_length=200)
    start_date = models.DateField()
    event_class = models.CharField(max_length=40)
    rating_list = models.ForeignKey("ratings.RatingList", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="grading_standards")
    note = models.CharField(max_length=300, blank=True)
    recorded_on = models.DateField()
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.CharField(max_length=150)
    policy = models.ForeignKey(PolicyVersion, on_delete=models.PROTECT, related_name="standards")

    class Meta:
        ordering = ["start_date", "id"]
        constraints = [models.UniqueConstraint(fields=["event_name", "start_date"],
                                               name="grades_standard_unique_event")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.event_name} {self.start_date} ({self.event_class})"
