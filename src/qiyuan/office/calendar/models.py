"""Registered events (赛事注册): what an organiser says an upcoming event will be, checked before it is played.

A registration is recorded whatever its check says (organisers fix what is
wrong by amending it); it is approved only when the check finds nothing, or
when the officer overrides with a reason. Once its report is imported the
registration points at the rated event (``event``), so the public calendar
links a past event to its results. Only the office's use cases
(``qiyuan.office.event_registration``) write these rows.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from qiyuan.calendar.checks import RULES_NATIONAL, RULES_RIF
from qiyuan.rating.eligibility import OrganiserLevel
from qiyuan.rating.model import EventFormat


class Registration(models.Model):
    """One registered event (注册赛事)."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "已注册 registered, awaiting the officer"
        APPROVED = "approved", "已批准 approved"
        REFUSED = "refused", "未批准 refused"
        WITHDRAWN = "withdrawn", "已撤回 withdrawn"

    class RulesOfPlay(models.TextChoices):
        NATIONAL = RULES_NATIONAL, "国家体育总局审定的竞赛规则 national rules"
        RIF = RULES_RIF, "RIF 竞赛规则 RIF rules"

    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=200)
    name_en = models.CharField(max_length=200, blank=True)
    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.PROTECT, related_name="registrations")
    start_date = models.DateField(db_index=True)
    end_date = models.DateField()
    city = models.CharField(max_length=100)
    #: inside the rule set's home regions (BJSH §3: 京沪); null when the rule set has none
    inside_regions = models.BooleanField(null=True, blank=True)
    organiser = models.CharField(max_length=200, blank=True)
    organiser_level = models.CharField(max_length=10, choices=[(lvl.value, lvl.value) for lvl in OrganiserLevel])
    #: the association organising or approving it (棋协), when one does
    association = models.ForeignKey("federation.Association", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="registrations")
    national = models.BooleanField(default=False)
    international = models.BooleanField(default=False)
    agreed_by_parties = models.BooleanField(default=False)
    format = models.CharField(max_length=12, choices=[(f.value, f.value) for f in EventFormat])
    rounds = models.PositiveIntegerField()
    expected_players = models.PositiveIntegerField()
    time_control = models.CharField(max_length=100)
    time_minutes = models.PositiveIntegerField()
    time_increment = models.PositiveIntegerField(default=0)
    rules_of_play = models.CharField(max_length=10, choices=RulesOfPlay.choices, default=RULES_NATIONAL)
    rif_approved = models.BooleanField(default=False)
    chief_arbiter = models.ForeignKey("federation.Arbiter", on_delete=models.PROTECT, related_name="registrations_as_chief")
    arbiters = models.ManyToManyField("federation.Arbiter", blank=True, related_name="registrations")
    grants_grades = models.BooleanField(default=False)
    standard_published_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED, db_index=True)
    #: the day the registration reached the office (BJSH §3(三) counts the 90 days from it)
    applied_on = models.DateField()
    registered_by = models.CharField(max_length=150)
    registered_at = models.DateTimeField(default=timezone.now)
    #: the latest check: {"rateable", "failures": [{clause, message, params}], "clashes": [...], "notes": [...]}
    assessment = models.JSONField(default=dict, blank=True)
    decided_by = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    #: the officer's reason: a refusal's, a withdrawal's, or an approval's despite problems (an override)
    reason = models.TextField(blank=True)
    overridden = models.BooleanField(default=False)
    #: the rated event its report became, once imported
    event = models.OneToOneField("events.Event", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="registration")

    class Meta:
        ordering = ["start_date", "code"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    @property
    def arbiter_names(self) -> list[str]:
        """The other arbiters' names, in the order registered (by name)."""
        return [a.name for a in self.arbiters.all()]


class RegistrationEntry(models.Model):
    """One player of a registration's entry list (报名表), as the organiser sent it and the office checked it:
    entered into the event by ``qiyuan event add-players EVENT --registration CODE`` once the registration is
    approved.  The ID number travels to the event's report only, never to a public page."""

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="entries")
    #: the order of the list (the event's draw numbers before the lot)
    place = models.PositiveIntegerField()
    #: the row of the file it came from (problems found later name it)
    row = models.PositiveIntegerField()
    name = models.CharField(max_length=33)
    sex = models.CharField(max_length=1, blank=True)  # m / w
    title = models.CharField(max_length=3, blank=True)  # 3d, 2k (Go: 30k–9d)
    federation = models.CharField(max_length=60, blank=True)  # 所属棋协, as written
    rating = models.PositiveIntegerField(null=True, blank=True)
    id_number = models.CharField(max_length=32, blank=True)
    id_type = models.CharField(max_length=10, default="resident")
    birth = models.CharField(max_length=10, blank=True)  # YYYY/MM/DD, as TRF-16 writes it
    club = models.CharField(max_length=60, blank=True)
    player_id = models.CharField(max_length=16, blank=True)  # the registry id, when given
    nationality = models.CharField(max_length=3, blank=True)  # 国籍, a 3-letter country code, when given

    class Meta:
        ordering = ["registration", "place"]
        constraints = [models.UniqueConstraint(fields=["registration", "place"], name="calendar_entry_place")]

    def __str__(self) -> str:
        return f"{self.registration.code} {self.place} {self.name}"
