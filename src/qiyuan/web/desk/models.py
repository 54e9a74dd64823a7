"""Models of the desk app: the event an arbiter is running (进行中的比赛).

A running event is held as its FIDE TRF-16 text (the arbiter's own file, read
and written by ``qiyuan.formats.trf``); every change keeps the previous text
as a :class:`LiveEventVersion`, so nothing an arbiter does is lost and the
history of a round can be shown. The public event page reads the same text.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LiveEvent(models.Model):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    SYSTEMS = [(SWISS, "积分编排制 (Swiss)"), (ROUND_ROBIN, "循环制 (round robin)")]

    code = models.SlugField("比赛代码", max_length=40, unique=True)
    name = models.CharField("比赛名称", max_length=200)
    system = models.CharField("赛制", max_length=20, choices=SYSTEMS, default=SWISS)
    trf_text = models.TextField("TRF", blank=True)
    arbiters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="live_events", blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished = models.BooleanField("已结束", default=False)
    #: What the competition report says beyond the TRF (主办/承办单位) and the organiser's level the
    #: eligibility rules ask about (CGA Art. 4, BJSH §6); the TRF text holds the arbiters and time control.
    organizer = models.CharField("主办单位", max_length=200, blank=True)
    host = models.CharField("承办单位", max_length=200, blank=True)
    organiser_level = models.CharField("主办单位级别", max_length=10, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class LiveEventVersion(models.Model):
    """The TRF text before one arbiter action (the undo trail)."""

    live_event = models.ForeignKey(LiveEvent, on_delete=models.CASCADE, related_name="versions")
    action = models.CharField(max_length=80)
    trf_text = models.TextField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
