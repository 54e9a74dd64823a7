"""A throttle (限流) over the shared cache: how often one key did something within a sliding window.

One ``Throttle`` counts events of one kind per key (an account, an address, a phone's token) in the shared
cache, so every worker process and host of the site sees the same counts. The window is cut into ``STEPS``
buckets; the count is the sum of the buckets the window still covers, so it slides a bucket at a time.
With ``lockout`` the key is locked for that long once the count reaches ``limit`` (the failed logins); without
it the caller simply refuses while ``exceeded`` (a rate limit: 10 requests a minute per token, 60 per address).

Counts are raised atomically: Redis's ``INCR``; the file cache's ``count_up`` under a file lock
(``qiyuan.web.cache``); the local-memory cache under its own lock. A count is never lost to a race.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from dataclasses import dataclass

from django.core.cache import caches

#: buckets per window
STEPS = 15


@dataclass(frozen=True)
class Throttle:
    """``limit`` events per ``window`` seconds per key; ``lockout`` seconds of lock once reached (or none)."""

    name: str
    limit: int
    window: int
    lockout: int | None = None
    cache_alias: str = "default"

    @property
    def _cache(self):
        return caches[self.cache_alias]

    @property
    def _step(self) -> int:
        return max(1, self.window // STEPS)

    def _base(self, key: str) -> str:
        # hashed: any text (an address, a user name with spaces) makes a valid cache key
        return f"throttle:{self.name}:{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}"

    def _buckets(self, key: str, now: float) -> list[str]:
        current = int(now) // self._step
        span = -(-self.window // self._step)
        return [f"{self._base(key)}:{b}" for b in range(current - span + 1, current + 1)]

    def count(self, key: str, now: float | None = None) -> int:
        """Events of ``key`` within the window."""
        now = time.time() if now is None else now
        return sum(int(v) for v in self._cache.get_many(self._buckets(key, now)).values())

    def hit(self, key: str, now: float | None = None) -> int:
        """Count one event of ``key``; return the count within the window, this one included."""
        now = time.time() if now is None else now
        bucket = self._buckets(key, now)[-1]
        _count_up(self._cache, bucket, self.window + self._step)
        return self.count(key, now)

    def exceeded(self, key: str, now: float | None = None) -> bool:
        """More than ``limit`` events within the window (a rate limit: refuse this one)."""
        return self.count(key, now) > self.limit

    # -- lockouts --------------------------------------------------------------------------------------

    def locked_until(self, key: str, now: float | None = None) -> dt.datetime | None:
        """When the lock of ``key`` ends, or ``None`` when it is not locked."""
        now = time.time() if now is None else now
        until = self._cache.get(self._base(key) + ":lock")
        if until is None or until <= now:
            return None
        return dt.datetime.fromtimestamp(until, dt.timezone.utc)

    def lock(self, key: str, now: float | None = None) -> dt.datetime:
        """Lock ``key`` for ``lockout`` seconds from now; return when the lock ends."""
        assert self.lockout, "a throttle without lockout cannot lock"
        now = time.time() if now is None else now
        until = now + self.lockout
        self._cache.set(self._base(key) + ":lock", until, timeout=self.lockout)
        return dt.datetime.fromtimestamp(until, dt.timezone.utc)

    def clear(self, key: str, now: float | None = None) -> None:
        """Lift the lock of ``key`` and forget its counts (an admin lifting a lockout)."""
        now = time.time() if now is None else now
        self._cache.delete_many([self._base(key) + ":lock", *self._buckets(key, now)])


def _count_up(cache, key: str, timeout: int) -> None:
    counter = getattr(cache, "count_up", None)
    if counter is not None:  # the file cache: read, add one and write under a file lock
        counter(key, timeout)
        return
    cache.add(key, 0, timeout=timeout)  # Redis SET NX / local memory under its lock
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls: start again
        cache.add(key, 1, timeout=timeout)
