"""Rated events (等级分赛), their entries and games, and the imports they came from; and the
events arbiters are running at the desk (进行中的比赛).

Store what happened: who played whom, in which round, with what result; the
report's data as entered (name, association, rating), and the facts the
eligibility rules look at (organiser level, arbiters, rounds, time control).
Ratings are derived from these by the rating periods (``qiyuan.office.ratings``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from qiyuan.errors import Problem
from qiyuan.rating.eligibility import OrganiserLevel
from qiyuan.rating.model import EventFormat, Result


class ImportBatch(models.Model):
    """One imported file (one transaction): its digest refuses the same file twice."""

    class Kind(models.TextChoices):
        REPORT = "report", "竞赛报告 competition report"
        TRF = "trf", "TRF"
        HISTORY = "history", "history CSV"
        OPENGOTHA = "opengotha", "OpenGotha"
        H9 = "h9", "EGD results (.h9)"
        LIST = "list", "起始名册 existing list (seed)"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    filename = models.CharField(max_length=300)
    #: SHA-256 of the file's bytes (a history directory: of its CSV files), never of its name
    sha256 = models.CharField(max_length=64, unique=True)
    actor = models.CharField(max_length=150)
    imported_at = models.DateTimeField(default=timezone.now)
    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.PROTECT, related_name="imports")
    #: notes worth keeping (unplayed games, name changes shown by the report checks, new registrations), in English
    notes = models.JSONField(default=list, blank=True)
    #: the same notes as templates with their values (``Problem.as_json``), shown in the reader's language
    note_data = models.JSONField(default=list, blank=True)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-imported_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.filename} ({self.sha256[:12]})"

    def note_problems(self) -> list[Problem]:
        """The notes as problems, to be shown in the reader's language (older rows: their English text)."""
        return stored_problems(self.note_data, self.notes)


class Event(models.Model):
    """A rated event with the data the rules ask for (CGA Art. 5, 11; BJSH §7, §10)."""

    class Status(models.TextChoices):
        PENDING = "pending", "待计算 awaiting its period"
        RATED = "rated", "已计算 rated in a published edition"

    code = models.CharField(max_length=64, unique=True)
    #: the event's content identity (``imports.identity.event_key``: dates, players, games); "" for history events
    content_key = models.CharField(max_length=64, blank=True, default="")
    name = models.CharField(max_length=200)
    #: the event's English name, where one was entered (the English site shows it, else the Chinese)
    name_en = models.CharField(max_length=200, blank=True)
    organiser = models.CharField(max_length=200, blank=True)
    organiser_level = models.CharField(
        max_length=10, choices=[(lvl.value, lvl.value) for lvl in OrganiserLevel], default=OrganiserLevel.STATE.value
    )
    format = models.CharField(max_length=12, choices=[(f.value, f.value) for f in EventFormat])
    rounds = models.PositiveIntegerField(default=0)
    time_control = models.CharField(max_length=100, blank=True)
    time_minutes = models.PositiveIntegerField(null=True, blank=True)
    time_increment = models.PositiveIntegerField(null=True, blank=True)
    start_date = models.DateField()
    end_date = models.DateField(db_index=True)
    days = models.PositiveIntegerField(null=True, blank=True)
    national = models.BooleanField(default=False)
    international = models.BooleanField(default=False)
    city = models.CharField(max_length=100, blank=True)
    chief_arbiter = models.ForeignKey(
        "federation.Arbiter", null=True, blank=True, on_delete=models.PROTECT, related_name="events_as_chief"
    )
    arbiters = models.ManyToManyField("federation.Arbiter", blank=True, related_name="events")
    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.PROTECT, related_name="events")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    import_batch = models.ForeignKey(ImportBatch, null=True, blank=True, on_delete=models.PROTECT, related_name="events")
    received_on = models.DateField(null=True, blank=True)
    #: the eligibility check at import: {"family": …, "failures": [], "notes": [...]}
    eligibility = models.JSONField(default=dict, blank=True)
    #: the event checker's verdict on the imported file's pairings and standings (``tournament.check.verdict_record``);
    #: {} when not checked (history-CSV bulk loads, events stored before the checker)
    pairing_check = models.JSONField(default=dict, blank=True)
    #: the desk event this record was imported from (its report names the desk's code), if any
    live_event = models.OneToOneField("events.LiveEvent", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="rated_event")

    class Meta:
        ordering = ["end_date", "code"]
        constraints = [
            # the same event is stored once, whatever file (or file name) it came in: two imports at the same
            # moment cannot both store it
            models.UniqueConstraint(fields=["content_key"], condition=~models.Q(content_key=""),
                                    name="events_event_unique_content"),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    @property
    def length_days(self) -> int:
        return self.days if self.days is not None else (self.end_date - self.start_date).days + 1


class Entry(models.Model):
    """A player in an event, with the report's data as entered (签号, 名次, 积分)."""

    #: no index of its own: the unique (event, player) constraint's index serves it
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries", db_index=False)
    player = models.ForeignKey("federation.Player", on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(null=True, blank=True)
    name = models.CharField(max_length=100, blank=True)
    association = models.CharField(max_length=100, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    dan = models.CharField(max_length=3, blank=True)
    rank = models.PositiveIntegerField(null=True, blank=True)
    score = models.DecimalField(max_digits=6, decimal_places=1, null=True, blank=True)

    class Meta:
        ordering = ["event", "rank", "number", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="events_entry_unique_player")]

    def __str__(self) -> str:
        return f"{self.event_id}#{self.number} {self.name}"


class Game(models.Model):
    """One game; the result from player1's side (``qiyuan.rating.model.Result``), and who opened it (先/后)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveIntegerField()
    player1 = models.ForeignKey("federation.Player", on_delete=models.PROTECT, related_name="+")
    player2 = models.ForeignKey("federation.Player", on_delete=models.PROTECT, related_name="+")
    result = models.CharField(max_length=8, choices=[(r.value, r.value) for r in Result])
    #: who opened the game (先手; Go: black): 1 = player1, 2 = player2, null = the file does not say
    opener = models.PositiveSmallIntegerField(null=True, blank=True, choices=[(1, "player1"), (2, "player2")])
    #: the board (台次) of a team event's game, 1 = the first board; null when not known (history games.csv
    #: ``board``): the national team championship's per-board rule reads it (CGA Art. 6(四), Go)
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    #: how its result was entered (issue 37; ``tournament.hall.ENTERED``): confirmed by both players' phones and
    #: signed by the arbiter, settled by the arbiter in the hall, typed at the desk or the terminal — as the event
    #: file's provenance record (``XRP``) says — or ``file``: no record, the imported file (its batch's digest)
    #: is its only source. Games stored before the record existed came in files: ``file``.
    entered = models.CharField(max_length=8, default="file", db_default="file")
    #: the record's acts as the public may see them (``hall.Entered.acts_text``: ``what:who:door:when``, who as
    #: a role, never a name); "" without a record
    entered_acts = models.TextField(blank=True, default="", db_default="")
    #: the time of the record's last act (UTC, ``20261206T101500Z``); "" without a record
    entered_at = models.CharField(max_length=16, blank=True, default="", db_default="")

    class Meta:
        ordering = ["event", "round", "id"]  # event, player1, player2: indexed as foreign keys

    def __str__(self) -> str:
        return f"{self.event_id} r{self.round}: {self.player1_id} {self.result} {self.player2_id}"


def stored_problems(data: list, text: list) -> list[Problem]:
    """Problems kept as JSON (``Problem.as_json``), or — in rows kept before that — as English lines."""
    return [Problem.from_json(d) for d in data] if data else [Problem(message=str(t)) for t in text]


class RejectedReport(models.Model):
    """A report the office did not accept, kept with every reason (never silently dropped)."""

    kind = models.CharField(max_length=12, choices=ImportBatch.Kind.choices)
    filename = models.CharField(max_length=300)
    sha256 = models.CharField(max_length=64, db_index=True)
    actor = models.CharField(max_length=150)
    received_at = models.DateTimeField(default=timezone.now)
    rating_list = models.ForeignKey("ratings.RatingList", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="rejected_reports")
    event_name = models.CharField(max_length=200, blank=True)
    reasons = models.JSONField(default=list)  # every reason, an English line each (the file's own name, no path)
    #: the same reasons as templates with their values (``Problem.as_json``), shown in the reader's language;
    #: empty in rows kept before it existed (their English ``reasons`` are shown)
    reason_data = models.JSONField(default=list, blank=True)
    content = models.BinaryField(null=True, blank=True)  # the file itself, when small enough to keep

    class Meta:
        ordering = ["-received_at", "-id"]

    def __str__(self) -> str:
        return f"{self.filename}: {len(self.reasons)} reason(s)"

    def reason_problems(self) -> list[Problem]:
        """The reasons as problems, to be shown in the reader's language (older rows: their English text)."""
        return stored_problems(self.reason_data, self.reasons)


class LiveEvent(models.Model):
    """An event run at the desk (进行中的比赛), held as its FIDE TRF-16 text (the arbiter's own
    file, read and written by ``qiyuan.formats.trf``).  Every change keeps the previous text as
    a :class:`LiveEventVersion` (the undo trail).  The desk changes it only through the arbiter's
    use cases (``qiyuan.tournament.arbiter`` on ``qiyuan.office.events.live.LiveEventStore``);
    the public event page reads it."""

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
