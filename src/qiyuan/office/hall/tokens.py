"""The hall's credentials and links (赛场凭证): each entrant's personal credential of an event, and the
round's check-in poster link.

A player's credential (his personal link, a QR code on his entry card and on his half of each slip) is
signed over the event and his draw number, with its issue (``p.EVENT.NUMBER.ISSUE``): it proves who taps,
for every round of the event.  It needs no storage until the arbiter re-issues one (a lost phone, a card
seen by others): the office keeps the current issue of each re-issued credential, and an older issue is
refused by name.  The poster's link only shows who has checked in: checking in takes the player's own
credential.

Both are signed with the office's hall key (HMAC, Django's ``signing``): the random key kept in the
office's ``var/hall.key``, made once — the same whichever mode printed the slips (the command line, the
desk, ``serve``, ``serve --production``), so a slip printed one way is read by a server started another.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing

from qiyuan.errors import Refused, problem
from qiyuan.office.secret_key import secret_key_refusal

#: the poster's link is for the hall's day and the next
MAX_AGE = 2 * 24 * 3600
_SALT = "qiyuan.hall"
_PLAYER_SALT = "qiyuan.hall.player"


class BadToken(Refused):
    """A link that is not (or no longer) valid."""


@dataclass(frozen=True)
class PlayerToken:
    """A player's credential: ``number`` of ``event``, its ``issue`` (1, then one more per re-issue)."""

    event: str
    number: int
    issue: int

    @property
    def via(self) -> str:
        """How provenance names it: ``p5.1`` (player 5's credential, issue 1)."""
        return f"p{self.number}.{self.issue}"


@dataclass(frozen=True)
class CheckInToken:
    event: str
    round: int


class WeakKey(Refused):
    """``QIYUAN_SECRET_KEY`` is set but no secret (``qiyuan.office.secret_key``): no link is signed with it."""


def office_key() -> str:
    """The office's hall key: a random key made once and kept in the office's ``var`` folder (never the
    settings' key, which differs between the command line and the production server, nor a published
    default that would let anyone forge a credential). A ``QIYUAN_SECRET_KEY`` that is set must still be a
    secret (``WeakKey``): every command that signs refuses a weak one, as production does."""
    key = os.environ.get("QIYUAN_SECRET_KEY")
    if key and (refusal := secret_key_refusal(key)) is not None:
        raise WeakKey(problem("QIYUAN_SECRET_KEY is set but is no secret: {why}", why=refusal))
    path = settings.VAR_DIR / "hall.key"
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = secrets.token_hex(32)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: use that one
            return path.read_text(encoding="ascii").strip()
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(fresh)
        return fresh


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(key=office_key(), salt=_SALT)


def _player_signer() -> signing.Signer:
    return signing.Signer(key=office_key(), salt=_PLAYER_SALT)


def player_token(event: str, number: int, issue: int = 1) -> str:
    """Player ``number``'s credential of ``event`` (short, so its QR code stays small)."""
    return _player_signer().sign(f"p.{event}.{number}.{issue}")


def checkin_token(event: str, rnd: int) -> str:
    return _signer().sign(f"c.{event}.{rnd}")


def forged() -> BadToken:
    return BadToken(problem("this link is not valid (its signature does not match): scan the code on your card "
                            "again or ask the arbiter"))


def _parts(value: str, kind: str, size: int) -> list[str]:
    parts = value.split(".")
    if len(parts) != size or parts[0] != kind or not parts[1]:
        raise forged()
    if not all(p.isdigit() and len(p) < 7 for p in parts[2:]):
        raise forged()
    return parts[1:]


def read_player_token(token: str) -> PlayerToken:
    """The credential ``token`` names, refused by name when forged (its revocation and its event are the use
    cases' to check)."""
    try:
        value = _player_signer().unsign(token)
    except (signing.BadSignature, ValueError, TypeError):
        raise forged() from None
    event, number, issue = _parts(value, "p", 4)
    return PlayerToken(event, int(number), int(issue))


def read_checkin_token(token: str) -> CheckInToken:
    try:
        value = _signer().unsign(token, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise BadToken(problem("this link has expired: ask the arbiter")) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise forged() from None
    event, rnd = _parts(value, "c", 3)
    return CheckInToken(event, int(rnd))
