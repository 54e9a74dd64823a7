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
    disputed_by = models.PositiveIntegerField(null=True, blank=True)
    #: every act on the board, in order: ``{"what", "who", "via", "when", "result", "was"}`` — what a player
    #: chose through his credential (``via``: ``p5.1``), what the arbiter signed or settled
    steps = models.JSONField(default=list, blank=True)
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "round", "board"], name="hall_claim_board")]
        ordering = ["event", "round", "board"]

    def as_claim(self) -> hall.Claim:
        return hall.Claim(self.round, self.board, self.first, self.second, self.state, self.result,
                          self.reported_by, self.confirmed_by, self.disputed_result, self.disputed_by)

    def take(self, claim: hall.Claim) -> None:
        for name in ("state", "result", "disputed_result", "reported_by", "confirmed_by", "disputed_by"):
            setattr(self, name, getattr(claim, name))

    def provenance(self) -> hall.Provenance:
        """Where the board's result came from, as the event file records it (``XRP``)."""
        return hall.Provenance(self.round, self.board, self.result,
                               tuple(hall.Act(s["what"], str(s["who"]), s["via"], s["when"]) for s in self.steps))


class CheckIn(models.Model):
    """A player present for a round (签到), by his phone or ticked by the arbiter."""

    event = models.CharField(max_length=60)
    round = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    by_arbiter = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "round", "number"], name="hall_checkin_player")]



class Credential(models.Model):
    """A player's credential the arbiter re-issued (a lost phone, a card others saw): its current issue.
    A player without a row holds issue 1; every older issue is refused."""

    event = models.CharField(max_length=60)
    number = models.PositiveIntegerField()
    issue = models.PositiveIntegerField(default=1)
    issued_by = models.CharField(max_length=150, blank=True)
    issued_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="hall_credential_player")]
