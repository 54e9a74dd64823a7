"""One system's predictions: player1's expected score in every game, and where it had ratings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: ``progress(stage, done, total)``: a long computation reports how far it is.
Progress = Callable[[str, int, int], None]

#: What a system predicts when it has no rating for one of the two players.
NO_RATING = 0.5


@dataclass(frozen=True, eq=False)
class Prediction:
    """``expected[i]`` is player1's expected score in game ``i`` of the ``GameSet`` (games that are not
    predicted hold 0.5); ``covered[i]`` is true when the system had a rating for both players (where
    it had none it predicted ``NO_RATING``). A rule set also gives the exact table values
    (``hundredths``, PD × 100 from 附表2)."""

    system: str
    expected: np.ndarray
    covered: np.ndarray
    hundredths: np.ndarray | None = None


def tick(progress: Progress | None, stage: str, done: int, total: int, every: int = 64) -> None:
    """Report progress now and then (every ``every`` steps, and at the end)."""
    if progress is not None and (done % every == 0 or done == total):
        progress(stage, done, total)
