"""What the phones said, board by board, and who checked in, round by round.

``event`` is the event's code: a desk event's (``LiveEvent.code``) or the code of the event file
``qiyuan serve --hall`` serves.  Nothing here is part of the event until the arbiter signs it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from qiyuan.tournament import hall


class PhoneClaim(models.Model):
    """One board's result as the players' phones gave it (``qiyuan.tournament.hall.Claim``)."""

    STATES = [(s, s) for s in hall.STATES]

    event = models.CharField(max_length=60)
    round = models.PositiveSmallIntegerField()
    board = models.PositiveIntegerField()
    first = models.PositiveIntegerField()
    second = models.PositiveIntegerField()
    state = models.CharField(max_length=10, choices=STATES)
    result = models.CharField(max_length=8)
    disputed_result = models.CharField(max_length=8, blank=True)
    reported_by = models.PositiveIntegerField()
    confirmed_by = models.PositiveIntegerField(null=True, blank=True)
    reporter_device = models.CharField(max_length=64, blank=True)
    confirmer_device = models.CharField(max_length=64, blank=True)
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "round", "board"], name="hall_claim_board")]
        ordering = ["event", "round", "board"]

    def as_claim(self) -> hall.Claim:
        return hall.Claim(self.round, self.board, self.first, self.second, self.state, self.result,
                          self.reported_by, self.confirmed_by, self.disputed_result, self.reporter_device,
                          self.confirmer_device)

    def take(self, claim: hall.Claim) -> None:
        for name in ("state", "result", "disputed_result", "reported_by", "confirmed_by", "reporter_device",
                     "confirmer_device"):
            setattr(self, name, getattr(claim, name))


class CheckIn(models.Model):
    """A player present for a round (签到), by his phone or ticked by the arbiter."""

    event = models.CharField(max_length=60)
    round = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    by_arbiter = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "round", "number"], name="hall_checkin_player")]
