"""The links on the printed slips (扫码报分): a token per board of a round, and one per round for
check-in, each allowing exactly that and nothing else.

A token needs no storage: the event, the round, the board and its two players are signed with the
office's secret key (HMAC, Django's ``signing``) and carry their age.  It is refused when its
signature is wrong, when it is older than :data:`MAX_AGE`, and — by the use cases — when its round
is over (the next round paired, check-in closed) or its board no longer seats the same players.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing

from qiyuan.errors import Refused, problem
from qiyuan.office.secret_key import secret_key_refusal

#: no slip is used for longer than an event's day and the next
MAX_AGE = 2 * 24 * 3600
_SALT = "qiyuan.hall"


class BadToken(Refused):
    """A link that is not (or no longer) valid."""


@dataclass(frozen=True)
class BoardToken:
    event: str
    round: int
    board: int
    first: int
    second: int


@dataclass(frozen=True)
class CheckInToken:
    event: str
    round: int


class WeakKey(Refused):
    """``QIYUAN_SECRET_KEY`` is set but no secret (``qiyuan.office.secret_key``): no link is signed with it."""


def office_key() -> str:
    """The office's secret key: ``QIYUAN_SECRET_KEY`` when it is set — refused (``WeakKey``) when it is short,
    repetitive or a placeholder, as production refuses it — else a random key made once and kept in the office's
    ``var`` folder (so the command line that prints the slips and the server that reads them agree, and no
    published default can forge a token)."""
    key = os.environ.get("QIYUAN_SECRET_KEY")
    if key:
        refusal = secret_key_refusal(key)
        if refusal is not None:
            raise WeakKey(problem("the hall's links are signed with QIYUAN_SECRET_KEY, which is no secret: {why}",
                                  why=refusal))
        return key
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


def board_token(event: str, rnd: int, board: int, first: int, second: int) -> str:
    """A board's link token (short, so the slip's QR code stays small): ``b.EVENT.ROUND.BOARD.FIRST.SECOND``
    with its time and signature."""
    return _signer().sign(f"b.{event}.{rnd}.{board}.{first}.{second}")


def checkin_token(event: str, rnd: int) -> str:
    return _signer().sign(f"c.{event}.{rnd}")


def _invalid() -> BadToken:
    return BadToken(problem("this link is not valid: scan the code on your slip again"))


def _load(token: str, kind: str, size: int) -> list[str]:
    try:
        value = _signer().unsign(token, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise BadToken(problem("this link has expired: ask the arbiter")) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise _invalid() from None
    parts = value.split(".")
    if len(parts) != size or parts[0] != kind or not parts[1]:
        raise _invalid()
    if not all(p.isdigit() and len(p) < 7 for p in parts[2:]):
        raise _invalid()
    return parts[1:]


def read_board_token(token: str) -> BoardToken:
    event, rnd, board, first, second = _load(token, "b", 6)
    return BoardToken(event, int(rnd), int(board), int(first), int(second))


def read_checkin_token(token: str) -> CheckInToken:
    event, rnd = _load(token, "c", 3)
    return CheckInToken(event, int(rnd))
