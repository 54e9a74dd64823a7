"""The shared cache (共享缓存) of every worker process: files under ``var/cache`` unless ``REDIS_URL`` is set.

``FileCache`` is Django's file-based cache with a cheaper cull: Django's lists the whole directory on every
``set`` to count its entries, which costs tens of milliseconds once the portal holds tens of thousands of
rendered pages; here the count is taken on one ``set`` in ``CULL_EVERY`` per process. ``code_fingerprint``
names a release (the site's Python files and templates), so cached pages never outlive the code that made them.
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

from django.core.cache.backends.filebased import FileBasedCache

CULL_EVERY = 500


class FileCache(FileBasedCache):
    _sets = itertools.count()

    def _cull(self):
        if next(self._sets) % CULL_EVERY == 0:
            super()._cull()


def code_fingerprint(package: Path) -> str:
    """A short hash of the package's code, templates and catalogues (the same on every host of a release)."""
    h = hashlib.sha1()
    for path in sorted(itertools.chain(package.rglob("*.py"), package.rglob("*.html"), package.rglob("*.mo"))):
        if "__pycache__" in path.parts:
            continue
        h.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]
