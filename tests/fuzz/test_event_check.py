"""Issue 35: the event checker on mangled event files — read or refused by the reader, then a verdict (consistent,
deviations or not checkable), never a traceback."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.errors import QiyuanError
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament.check import check_event
from qiyuan.tournament.check.generate import GENERATED, generate_event

from . import seeds
from .mutations import mutate_bytes

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.data_too_large])
SLOW = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.data_too_large])


@functools.cache
def _seeds() -> list[bytes]:
    own = [write_trf(generate_event(fmt, seed, players=10)).encode() for fmt in GENERATED for seed in (1, 2)]
    return own + seeds.trf_files()


def _check(data) -> None:
    text = data.draw(mutate_bytes(data.draw(st.sampled_from(_seeds()))))
    try:
        t = read_trf(text.decode("utf-8", "replace") + "\n", filename="event.trf")
    except QiyuanError:
        return
    v = check_event(t)
    assert v.status in ("consistent", "deviations", "not checkable")
    assert v.exit_code in (0, 1, 2)


@FAST
@given(st.data())
def test_mangled_event_files_get_a_verdict(data):
    _check(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mangled_event_files_get_a_verdict_thousands(data):
    _check(data)
