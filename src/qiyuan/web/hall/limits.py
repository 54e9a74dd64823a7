"""Request limits of the hall's phone pages: 10 a minute per link (a board of a round, a round's check-in) and
60 per address, through the same throttle as the desk's logins (``qiyuan.web.throttle``: the shared cache, so
every server worker counts the same requests)."""

from __future__ import annotations

from qiyuan.web.throttle import Throttle

PER_TOKEN = 10
PER_ADDRESS = 60
WINDOW = 60

LINK = Throttle("hall-link", limit=PER_TOKEN, window=WINDOW)
ADDRESS = Throttle("hall-address", limit=PER_ADDRESS, window=WINDOW)


def allowed(link: str, address: str) -> bool:
    """Count one request for ``link`` from ``address``; False past either limit within the last minute."""
    LINK.hit(link)
    ADDRESS.hit(address or "-")
    return not (LINK.exceeded(link) or ADDRESS.exceeded(address or "-"))
