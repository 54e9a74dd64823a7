"""Rating lists, their published editions (等级分名册) and every rating change.

One rule set per rating list: a federation keeps, say, a CGA Gomoku list and
a Go list side by side. A published ``Edition`` is immutable — saving or
deleting it again raises ``ImmutableEdition``; a correction publishes a new
edition of the same list date with a stated reason, and the old one stays
readable. Each edition records what it was computed from (the edition it
started from and the events it rated), so ``qiyuan office verify`` can
recompute it and prove it identical.
"""

from __future__ import annotations

from django.db import models
from django.db.models.signals import m2m_changed
from django.dispatch import receiver
from django.utils import timezone

from qiyuan.rating.rules import BUILTIN_RULES, rules_with_overrides


class ImmutableEdition(Exception):
    """A published edition, its entries and its changes can never be changed or deleted."""


class RatingList(models.Model):
    """A rating list (等级分名册) kept under one rule set."""

    class Game(models.TextChoices):
        GOMOKU = "gomoku", "五子棋 Gomoku"
        GO = "go", "围棋 Go"

    code = models.CharField(max_length=32, unique=True)
    title = models.CharField(max_length=200)
    #: the list's English title, where one was entered
    title_en = models.CharField(max_length=200, blank=True)
    game = models.CharField(max_length=8, choices=Game.choices, default=Game.GOMOKU)
    rules_name = models.CharField(max_length=40, help_text="built-in rule set the list starts from")
    rules_overrides = models.TextField(blank=True, help_text="TOML settings overriding the rule set")
    created_at = models.DateTimeField(default=timezone.now)
    #: the start of its first period (set by the first publication): players enter with their start state here
    started_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.code} {self.title}"

    def rules(self):
        """The list's ``RuleSet``: the built-in one with the TOML overrides applied."""
        if not self.rules_overrides.strip():
            return BUILTIN_RULES[self.rules_name]
        return rules_with_overrides(self.rules_name, self.rules_overrides, name=f"{self.rules_name}+{self.code}",
                                    source=f"list {self.code}")

    @property
    def family(self) -> str:
        """The built-in rule set it derives from (what the eligibility rules are named by)."""
        return self.rules_name

    def current_editions(self):
        """The current edition of each list date (the highest number), oldest first."""
        latest = {}
        for ed in self.editions.order_by("list_date", "number"):
            latest[ed.list_date] = ed
        return list(latest.values())


class ListMember(models.Model):
    """A player on a list, with the facts the rule set starts him from, frozen when he joins the list.

    Written when an import first brings him to the list (history ``players.csv``: his rating, games
    and K latch before the history; a report: his registry facts, with the grade he held on the event's
    start date and the body that granted it). Later changes to the
    registry (a new dan) never alter a published edition's recomputation: ``verify`` starts every
    player from these frozen facts.
    """
    #: frozen facts a published edition was computed from: a merge leaves them on the duplicate
    merge_repoint = False

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey("federation.Player", on_delete=models.PROTECT, related_name="list_memberships")
    gender = models.CharField(max_length=1, blank=True)
    dan = models.CharField(max_length=3, blank=True)
    #: the body that granted ``dan`` (BJSH §13(五): a 中国棋院 dan starts from the table), "" unknown
    dan_granted_by = models.CharField(max_length=100, blank=True)
    rating = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    k_latched = models.BooleanField(default=False)
    registered_on = models.DateField(null=True, blank=True)
    reference_rating = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    joined_at = models.DateTimeField(default=timezone.now, db_index=True)
    #: the edition he joined the list in (the first published after he joined; none yet: the next one). Which
    #: players an edition was computed with is decided by this, not by comparing clocks (``verify``)
    joined_in = models.ForeignKey("Edition", null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rating_list", "player"], name="ratings_member_unique")]


class _Immutable(models.Model):
    #: rows of a published edition: a merge of duplicate players leaves them on the duplicate
    merge_repoint = False

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None and type(self).objects.filter(pk=self.pk).exists():
            raise ImmutableEdition(f"{self._meta.label} #{self.pk} is part of a published edition and cannot change")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEdition(f"{self._meta.label} #{self.pk} is part of a published edition and cannot be deleted")


class Edition(_Immutable):
    """One published edition of a list date: number 1 the publication, 2, 3, … its corrections."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.PROTECT, related_name="editions")
    list_date = models.DateField()
    number = models.PositiveIntegerField()
    is_correction = models.BooleanField(default=False)
    reason = models.TextField(blank=True)
    published_at = models.DateTimeField(default=timezone.now)
    published_by = models.CharField(max_length=150)
    #: the edition whose ratings this one started from (the previous list date's current edition)
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    events = models.ManyToManyField("events.Event", blank=True, related_name="editions")
    #: the rule set's settings it was computed with (a list's overrides may change later)
    rules_settings = models.JSONField(default=dict)
    #: sha256 of its canonical content (entries and changes), checked by ``verify``
    digest = models.CharField(max_length=64)
    #: the version of the canonical text the digest covers (``qiyuan.formats.canonical_text.WRITERS``)
    canonical_version = models.PositiveSmallIntegerField(default=1)
    #: sha256 of the public facts it was computed from (``office.canonical.stored_inputs``), checked by ``verify``
    inputs_digest = models.CharField(max_length=64, blank=True)
    #: the audit log's head when it was published (``audit.chain.Head.as_json``: its entries and the newest hash,
    #: read under the audit lock), in its inputs digest and bundle from canonical version 3; {} before: ``office
    #: verify`` checks it is still a place of the log's chain (a log deleted or edited since is found)
    audit_head = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["rating_list", "list_date", "number"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "list_date", "number"], name="ratings_edition_unique")
        ]

    def __str__(self) -> str:
        tag = f" (correction {self.number - 1})" if self.is_correction else ""
        return f"{self.rating_list.code} {self.list_date}{tag}"

    @property
    def label(self) -> str:
        return f"{self.list_date.isoformat()}#{self.number}"


class EditionSheet(_Immutable):
    """An edition's entries and changes as one row: two Arrow IPC column blobs (``qiyuan.formats.edition_sheet``),
    written once by the publishing use case and read by ``qiyuan.office.sheets``. No foreign key per player or
    event: the sheet's keys are checked when it is written."""

    edition = models.OneToOneField(Edition, primary_key=True, on_delete=models.PROTECT, related_name="sheet")
    #: the layout of the columns (``edition_sheet.FORMAT``), beside the edition's ``canonical_version``
    format = models.PositiveSmallIntegerField()
    entries = models.BinaryField()
    changes = models.BinaryField()


@receiver(m2m_changed, sender=Edition.events.through)
def _sealed_events(sender, instance, action, **kwargs):
    """The events an edition rated are fixed when it is published (only ``_store`` may set them, once)."""
    if action.startswith("pre_") and not getattr(instance, "_setting_events", False):
        raise ImmutableEdition(f"the events of published edition {instance.pk} cannot change")
