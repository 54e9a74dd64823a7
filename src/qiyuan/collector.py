"""Work on many objects: the cyclic garbage collector held meanwhile.

Rating a federation's history, publishing and verifying its editions, pairing a round or reading a TRF file
allocate many small objects that live until the work ends (states, decimals, rows, lines, pairings) and make
few reference cycles. The collector would walk them again and again — worse, each young collection walks every
big list or dict made since the last one: on the 2,000,000-game benchmark federation 168 collections took 21 s
of the 170 s of publishing its 40 editions, even collecting only every 100,000 allocations. Reference counting
frees everything as before; the rare cycles are found by the next collection after the work.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def held() -> Iterator[None]:
    """No cyclic collection inside (a context manager, or a decorator); the collector as it was after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
