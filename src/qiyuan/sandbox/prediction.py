"""One system's predictions: player1's expected score in every game, and where it had ratings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: ``progress(stage, done, total)``: a long computation reports how far it is.
Progress = Callable[[str, int, int], None]

#: The constant baseline's prediction of every game.
NO_RATING = 0.5


@dataclass(frozen=True, eq=False)
class Prediction:
    """``expected[i]`` is player1's expected score in game ``i`` of the ``GameSet`` (games that are not
    predicted hold 0.5); ``covered[i]`` is true when the system had a rating for both players (where
    it had none for one of them it predicted from its prior for him: the rule set's entry rating, the
    baseline's initial rating). A rule set also gives the exact table values (``hundredths``, PD × 100
    from 附表2)."""

    system: str
    expected: np.ndarray
    covered: np.ndarray
    hundredths: np.ndarray | None = None


def tick(progress: Progress | None, stage: str, done: int, total: int, every: int = 64) -> None:
    """Report progress now and then (every ``every`` steps, and at the end)."""
    if progress is not None and (done % every == 0 or done == total):
        progress(stage, done, total)
