"""The audit log (操作日志): who did what, when, to which object."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone

from qiyuan.office.audit.chain import AUDIT_LOCK, GENESIS, entry_hash, stored_detail
from qiyuan.office.db import writing


class AuditLog(models.Model):
    """One action by a user (desk) or a command-line user (CLI)."""

    at = models.DateTimeField(default=timezone.now, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor = models.CharField(max_length=150)
    action = models.CharField(max_length=100, db_index=True)
    object_type = models.CharField(max_length=100, blank=True)
    object_id = models.CharField(max_length=64, blank=True)
    detail = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    #: its place in the hash chain (1, 2, …) and its hash (``qiyuan.office.audit.chain``)
    seq = models.PositiveBigIntegerField(null=True, blank=True, unique=True)
    hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]

    def __str__(self) -> str:
        target = f" {self.object_type}#{self.object_id}" if self.object_type else ""
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action}{target}"

    def save(self, *args, **kwargs) -> None:
        """A new entry is chained after the newest one, under the audit lock (an entry once written is not
        chained again: changing it breaks the chain, which is the point)."""
        if not self._state.adding or self.seq is not None:
            return super().save(*args, **kwargs)
        with writing(AUDIT_LOCK):
            last = AuditLog.objects.filter(seq__isnull=False).order_by("-seq").values_list("seq", "hash").first()
            self.seq, previous = (last[0] + 1, last[1]) if last else (1, GENESIS)
            self.detail = stored_detail(self.detail)  # what is hashed is what is stored
            self.hash = entry_hash(previous, self.seq, self.at, self.actor, self.action, self.object_type,
                                   self.object_id, self.detail)
            super().save(*args, **kwargs)
        return None

    def content(self) -> tuple:
        """What its hash covers after ``seq`` (``chain.CONTENT``)."""
        return (self.at, self.actor, self.action, self.object_type, self.object_id, self.detail)


def record(actor, action: str, obj=None, **detail) -> AuditLog:
    """Write one audit entry and return it.

    ``actor`` is a Django user (desk) or a string (the CLI user's name);
    ``obj`` a model instance the action concerns (its label and primary key are
    stored); ``detail`` any JSON-serialisable facts (dates and Decimals allowed).
    Never put a full ID number (身份证号) in ``detail``: use the masked form.
    """
    user = None
    if actor is not None and not isinstance(actor, str):
        user = actor if getattr(actor, "pk", None) else None
        actor = actor.get_username() if hasattr(actor, "get_username") else str(actor)
    entry = AuditLog(user=user, actor=actor or "", action=action, detail=detail)
    if obj is not None:
        entry.object_type = obj._meta.label_lower
        entry.object_id = str(obj.pk)
    entry.save()
    return entry


class AuditRun(models.Model):
    """The plausibility audit of one period as computed (``qiyuan.office.plausibility``): which computation
    (its digest) the stored flags belong to."""

    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.CASCADE, related_name="+")
    list_date = models.DateField()
    digest = models.CharField(max_length=64)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rating_list", "list_date"], name="audit_run_once")]


class AuditFlag(models.Model):
    """One plausibility flag (合理性标记) of a period: a result under 1 %, an opener against the rules, one
    player twice in a round, standings the crosstable does not add up to, two records of one person."""

    class Kind(models.TextChoices):
        IMPROBABLE = "improbable", "概率低于1%的结果 result under 1 %"
        OPENER = "opener", "与规程不符的先手 opener against the rules"
        TWICE = "twice", "同一轮两局 twice in one round"
        STANDINGS = "standings", "成绩与对局不符 standings not adding up"
        SAME_PERSON = "same_person", "疑似同一人 two records of one person"
        OVERLAP = "overlap", "同时参加两项比赛 two events at once"
        DURATION = "duration", "赛期远超轮数所需 far longer than its rounds"
        RATINGS = "ratings", "同一周期等级分相差悬殊 ratings far apart"
        FLIPPED = "flipped", "对局结果颠倒重报 results re-reported flipped"
        # the integrity checks (qiyuan.office.integrity): the same numbering, the same gate
        POOL = "pool", "封闭圈子 closed pool"
        THROWN = "thrown", "疑似让棋 thrown games"
        PHANTOM = "phantom", "疑似虚构比赛 phantom event"
        SANDBAG = "sandbag", "故意降分 sandbagging before a rating-band prize"
        PAIRS = "pairs", "反复相遇 repeated pairs"

    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.CASCADE, related_name="+")
    list_date = models.DateField()
    key = models.CharField(max_length=300)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    event = models.ForeignKey("events.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveIntegerField(null=True, blank=True)
    players = models.JSONField(default=list, blank=True)  # federation ids, in the flag's order
    detail = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    #: an event of a history folder: shown, never blocking a publication
    history = models.BooleanField(default=False)
    found_at = models.DateTimeField(default=timezone.now)
    checked_at = models.DateTimeField(null=True, blank=True)
    checked_by = models.CharField(max_length=150, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["list_date", "kind", "id"]
        constraints = [models.UniqueConstraint(fields=["rating_list", "list_date", "key"], name="audit_flag_once")]

    @property
    def blocking(self) -> bool:
        return self.checked_at is None and not self.history


class IntegrityRun(models.Model):
    """The integrity checks of one period (``qiyuan.office.integrity``): which events (their signature) the
    stored integrity flags were found in."""

    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.CASCADE, related_name="+")
    list_date = models.DateField()
    signature = models.CharField(max_length=64)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rating_list", "list_date"], name="integrity_run_once")]


class EventHold(models.Model):
    """An event held out of its period for review (暂缓计分，待查) — the officer's decision on an integrity flag,
    audited; public as "held for review" without naming anyone. Released later (``released_at``), the event is
    rated by a correction edition of its period (``period correct``)."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="holds")
    flag = models.ForeignKey(AuditFlag, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    held_at = models.DateTimeField(default=timezone.now)
    held_by = models.CharField(max_length=150)
    reason = models.TextField()
    released_at = models.DateTimeField(null=True, blank=True)
    released_by = models.CharField(max_length=150, blank=True)
    release_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-held_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["event"], condition=models.Q(released_at__isnull=True),
                                               name="one_open_hold")]
