"""The shared cache (共享缓存) of every worker process: files under ``var/cache`` unless ``REDIS_URL`` is set.

``FileCache`` is Django's file-based cache with a cheaper cull: Django's lists the whole directory on every
``set`` to count its entries, which costs tens of milliseconds once the portal holds tens of thousands of
rendered pages; here the count is taken on one ``set`` in ``CULL_EVERY`` per process. ``code_fingerprint``
names a release (the site's Python files and templates), so cached pages never outlive the code that made them.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import os
from pathlib import Path

from django.core.cache.backends.filebased import FileBasedCache

CULL_EVERY = 500


class FileCache(FileBasedCache):
    _sets = itertools.count()

    def _cull(self):
        if next(self._sets) % CULL_EVERY == 0:
            super()._cull()

    def count_up(self, key, timeout, version=None) -> int:
        """Add one to a counter, atomically across processes (a file lock around read and write); the throttle's
        counts (``qiyuan.web.throttle``) must not lose a failed login to a race."""
        os.makedirs(self._dir, exist_ok=True)
        with open(os.path.join(self._dir, "count.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                value = int(self.get(key, 0, version=version)) + 1
                self.set(key, value, timeout=timeout, version=version)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
        return value


def code_fingerprint(package: Path) -> str:
    """A short hash of the package's code, templates and catalogues (the same on every host of a release)."""
    h = hashlib.sha1()
    for path in sorted(itertools.chain(package.rglob("*.py"), package.rglob("*.html"), package.rglob("*.mo"))):
        if "__pycache__" in path.parts:
            continue
        h.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]
