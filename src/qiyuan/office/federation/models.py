"""The registry (棋手注册): associations, clubs, players, arbiters and their history.

A player is registered with one association (棋协) — 省/市 associations form a
tree through ``Association.parent``. Changes of a player's name or association
are never overwritten silently: each one leaves a ``NameChange`` or
``AssociationChange`` row, because the report checks show them (CGA Art. 11(四):
棋手的姓名和所属单位如有任何变动，均应在备注栏中详细说明).

The ID number (身份证号) is stored for matching reports to the registry but is
never public: pages and exports use ``masked_id_number`` and ``birth_year``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.db.models.functions import Length

from qiyuan.people import pinyin
from qiyuan.people.grades import DAN_GRADES

FEDERATION_ID_PREFIX = "CN"
FEDERATION_ID_DIGITS = 6


class Association(models.Model):
    """A provincial or city association (省/市棋协), e.g. code ``BJ`` 北京五子棋协会."""

    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=100)
    name_en = models.CharField(max_length=200, blank=True)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="children")

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class Club(models.Model):
    """A club (俱乐部) within an association."""

    name = models.CharField(max_length=100)
    association = models.ForeignKey(Association, on_delete=models.PROTECT, related_name="clubs")

    class Meta:
        ordering = ["association__code", "name"]
        constraints = [models.UniqueConstraint(fields=["association", "name"], name="federation_club_unique_name")]

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def registered(self) -> "PlayerQuerySet":
        """Players that are records of their own, not duplicates merged into another."""
        return self.filter(merged_into__isnull=True)


class Player(models.Model):
    """A registered player (注册棋手)."""

    class Gender(models.TextChoices):
        MALE = "M", "男 male"
        FEMALE = "F", "女 female"

    class IdType(models.TextChoices):
        RESIDENT = "resident", "居民身份证 resident ID"
        PASSPORT = "passport", "护照 passport"
        OTHER = "other", "其他 other"

    class Status(models.TextChoices):
        ACTIVE = "active", "注册 active"
        SUSPENDED = "suspended", "停赛 suspended"
        RETIRED = "retired", "退役 retired"

    federation_id = models.CharField(max_length=16, unique=True, blank=True, editable=False)
    name = models.CharField("姓名", max_length=100, db_index=True)
    name_latin = models.CharField(max_length=100, blank=True)
    name_pinyin = models.CharField(max_length=200, blank=True, editable=False, db_index=True)
    name_search = models.CharField(max_length=400, blank=True, editable=False)
    gender = models.CharField(max_length=1, choices=Gender.choices)
    birth_date = models.DateField(null=True, blank=True)
    id_type = models.CharField(max_length=10, choices=IdType.choices, default=IdType.RESIDENT)
    id_number = models.CharField(max_length=32, blank=True)
    nationality = models.CharField(max_length=3, default="CHN")
    association = models.ForeignKey(Association, null=True, blank=True, on_delete=models.PROTECT, related_name="players")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players")
    registered_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    dan = models.CharField(max_length=3, blank=True, choices=[(g, g) for g in DAN_GRADES])
    reference_rating = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    reference_rating_source = models.CharField(max_length=100, blank=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_duplicates"
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["federation_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["id_number"], condition=~Q(id_number=""), name="federation_player_unique_id_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.federation_id} {self.display_name}"

    # -- derived ----------------------------------------------------------------
    @property
    def birth_year(self) -> int | None:
        """The year of birth: what public pages show (many players are minors)."""
        return self.birth_date.year if self.birth_date else None

    @property
    def masked_id_number(self) -> str:
        """The ID number with its middle hidden: ``110105********123X``."""
        return mask_id_number(self.id_number)

    @property
    def display_name(self) -> str:
        """``张三`` or, with a Latin spelling, ``张三 (Zhang San)``."""
        if self.name_latin and self.name_latin != self.name:
            return f"{self.name} ({self.name_latin})"
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.refresh_name_keys()
        if not self.federation_id:
            self.federation_id = next_federation_id()
        super().save(*args, **kwargs)

    def refresh_name_keys(self) -> None:
        """Recompute the pinyin and search keys from the names."""
        self.name_pinyin, self.name_search = name_keys(self.name, self.name_latin)


def name_keys(name: str, name_latin: str = "") -> tuple[str, str]:
    """A player's name keys (``name_pinyin``, ``name_search``) from his names (each name's pinyin is computed once:
    ``pinyin`` caches it)."""
    return pinyin.name_pinyin(name), pinyin.search_key(name, name_latin)


def mask_id_number(number: str) -> str:
    """Hide the middle of an ID number: 18-digit IDs keep the region (6) and the last 4."""
    number = number or ""
    if not number:
        return ""
    if len(number) == 18:
        return number[:6] + "*" * 8 + number[-4:]
    if len(number) <= 4:
        return "*" * len(number)
    return number[:2] + "*" * (len(number) - 4) + number[-2:]


def format_federation_id(n: int) -> str:
    return f"{FEDERATION_ID_PREFIX}{n:0{FEDERATION_ID_DIGITS}d}"


def next_federation_id() -> str:
    """The next free federation ID, ``CN000001`` upwards (highest number + 1)."""
    return format_federation_id(max_federation_number() + 1)


def max_federation_number() -> int:
    """The highest number among the ``CN…`` federation IDs in use (0 if none)."""
    last = (
        Player.objects.filter(federation_id__startswith=FEDERATION_ID_PREFIX)
        .order_by(Length("federation_id").desc(), "-federation_id")
        .values_list("federation_id", flat=True)
        .first()
    )
    if not last:
        return 0
    digits = last[len(FEDERATION_ID_PREFIX) :]
    return int(digits) if digits.isdigit() else 0


class DanGrant(models.Model):
    """A dan or kyu grade granted (段级位授予), with the date and the granting body.

    Bodies named by the rules (Beijing–Shanghai §13(二)): 中国棋院, RIF, 日本连珠社,
    the member associations. A grant earned at an event names the event and the
    clause of the grant policy; a grant by the federation itself carries the serial
    number of its certificate (段位证书); a demotion keeps its reason
    (``qiyuan.office.grades``).
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="dan_grants")
    grade = models.CharField(max_length=3, choices=[(g, g) for g in DAN_GRADES])
    granted_on = models.DateField()
    granted_by = models.CharField(max_length=100)
    #: the event whose placing earned it (none for a grade recorded by hand without one)
    event = models.ForeignKey("events.Event", null=True, blank=True, on_delete=models.PROTECT,
                              related_name="dan_grants")
    #: the policy's clause that applied ("national open 3-4"), or "" for a grade recorded by hand
    clause = models.CharField(max_length=200, blank=True)
    #: the certificate's serial number (unique; "" when the grant is another body's)
    serial = models.CharField(max_length=40, blank=True)
    #: why a lower grade was granted (a demotion); "" for every other grant
    demotion_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["player", "granted_on", "id"]
        constraints = [models.UniqueConstraint(fields=["serial"], condition=~Q(serial=""),
                                               name="federation_dangrant_unique_serial")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.grade} {self.granted_on} ({self.granted_by})"


class NameChange(models.Model):
    """A change of a player's name (姓名变更), kept for the report checks."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="name_changes")
    old_name = models.CharField(max_length=100)
    new_name = models.CharField(max_length=100)
    changed_on = models.DateField()
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["player", "changed_on", "id"]

    def __str__(self) -> str:
        return f"{self.old_name} → {self.new_name} ({self.changed_on})"


class AssociationChange(models.Model):
    """A change of a player's association (所属单位变更), kept for the report checks."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="association_changes")
    old = models.ForeignKey(Association, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    new = models.ForeignKey(Association, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    changed_on = models.DateField()
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["player", "changed_on", "id"]

    def __str__(self) -> str:
        return f"{self.old_id} → {self.new_id} ({self.changed_on})"


class Arbiter(models.Model):
    """An arbiter (裁判员) with their grade (国际级, 国家级, 一级, 二级, 三级)."""

    class Level(models.TextChoices):
        INTERNATIONAL = "international", "国际级 international"
        NATIONAL = "national", "国家级 national"
        FIRST = "first", "一级 first class"
        SECOND = "second", "二级 second class"
        THIRD = "third", "三级 third class"

    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="arbiter_roles")
    name = models.CharField(max_length=100)
    level = models.CharField(max_length=16, choices=Level.choices)
    association = models.ForeignKey(Association, null=True, blank=True, on_delete=models.PROTECT, related_name="arbiters")
    #: CGA Art. 4: recognised as experienced at national events (有全国比赛裁判经验).
    recognised_national = models.BooleanField(default=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_level_display()})"
