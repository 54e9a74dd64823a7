"""Long work (``qiyuan.collector.long_work``): the collector's thresholds raised inside, as they were after."""

from __future__ import annotations

import gc

import pytest

from qiyuan.collector import YOUNG, long_work


def test_thresholds_raised_inside_and_restored_after_even_on_error():
    before = gc.get_threshold()
    with long_work():
        assert gc.get_threshold() == (max(YOUNG, before[0]), *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(ZeroDivisionError), long_work():
        1 / 0
    assert gc.get_threshold() == before


def test_the_engine_rates_with_fewer_collections(monkeypatch):
    """``compute_history`` (the one door into the engine, for `qiyuan rate` and the office) runs inside it."""
    from qiyuan.rating import fast, history
    from qiyuan.rating.rules import BUILTIN_RULES

    class Seen(Exception):
        pass

    def spy(run):
        raise Seen(gc.get_threshold()[0])

    monkeypatch.setattr(fast, "compute", spy)
    before = gc.get_threshold()
    with pytest.raises(Seen) as seen:
        history.compute_history(BUILTIN_RULES["cga-gomoku-2011"], [], [], [])
    assert seen.value.args[0] >= YOUNG
    assert gc.get_threshold() == before
