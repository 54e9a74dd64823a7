"""Request limits of the hall's phone pages: per link and per address, counted in the shared cache
(so every server worker counts the same requests)."""

from __future__ import annotations

import hashlib
import time

from django.core.cache import cache

#: requests a minute: one link (a board's, a round's check-in), one address (a phone)
PER_TOKEN = 10
PER_ADDRESS = 60
WINDOW = 60


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode()).hexdigest()[:24]
    return f"hall-limit:{kind}:{int(time.time()) // WINDOW}:{digest}"


def _hit(kind: str, value: str, limit: int) -> bool:
    key = _key(kind, value)
    if cache.add(key, 1, timeout=WINDOW * 2):
        return True
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=WINDOW * 2)
        return True


def allowed(link: str, address: str) -> bool:
    """Count one request for ``link`` (a board of a round, a round's check-in) from ``address``; False past
    either limit in this minute."""
    ok_address = _hit("addr", address or "-", PER_ADDRESS)
    ok_token = _hit("token", link, PER_TOKEN)
    return ok_address and ok_token
