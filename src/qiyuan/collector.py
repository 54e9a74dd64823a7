"""Long work on many objects: the cyclic garbage collector runs less often meanwhile.

Rating a federation's history allocates millions of small objects that live until the work ends (states,
decimals, rows, lines) and make no reference cycles. Under CPython's default thresholds (a young collection
every 700 allocations) the collector walks that growing heap again and again — a fifth of the time of
publishing the benchmark federation's 40 editions. Reference counting frees everything as before; only the
search for cycles waits longer (the rare cycles, Django's among them, are found at the next collection).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: allocations between two young collections during long work (CPython's default: 700)
YOUNG = 100_000


@contextmanager
def long_work() -> Iterator[None]:
    """Collect less often inside (a context manager, or a decorator); the thresholds as they were after."""
    before = gc.get_threshold()
    gc.set_threshold(max(YOUNG, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextmanager
def held() -> Iterator[None]:
    """No cyclic collection inside (short work making many small objects: pairing a round, reading a TRF file);
    the collector as it was after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
