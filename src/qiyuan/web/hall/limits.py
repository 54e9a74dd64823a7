"""Request limits of the hall's phone pages, per credential and per board — never per hall nor per address:
every phone of a venue usually shares one public address, and one phone retrying must not keep the others out.

* a player's credential: :data:`PER_CREDENTIAL` requests a minute (his page, his reports, his check-in) — a
  phone reloading every second stays within it;
* a board: :data:`PER_BOARD` reports a minute from its two players together;
* a link that is refused (forged, revoked, another event's) counts against that link only.

Through the same throttle as the desk's logins (``qiyuan.web.throttle``: the shared cache, so every server
worker counts the same requests)."""

from __future__ import annotations

from qiyuan.web.throttle import Throttle

PER_CREDENTIAL = 90
PER_BOARD = 60
PER_REFUSED_LINK = 30
WINDOW = 60

CREDENTIAL = Throttle("hall-credential", limit=PER_CREDENTIAL, window=WINDOW)
BOARD = Throttle("hall-board", limit=PER_BOARD, window=WINDOW)
REFUSED = Throttle("hall-refused", limit=PER_REFUSED_LINK, window=WINDOW)


def _allowed(throttle: Throttle, key: str) -> bool:
    throttle.hit(key)
    return not throttle.exceeded(key)


def credential_allowed(event: str, number: int) -> bool:
    """Count one request of player ``number``'s credential; False past its limit within the last minute."""
    return _allowed(CREDENTIAL, f"{event}:{number}")


def board_allowed(event: str, rnd: int, board: int) -> bool:
    """Count one report on a board; False past its limit within the last minute."""
    return _allowed(BOARD, f"{event}:{rnd}:{board}")


def refused_allowed(link: str) -> bool:
    """Count one request of a link that is not a valid credential: it only ever limits itself."""
    return _allowed(REFUSED, link)
