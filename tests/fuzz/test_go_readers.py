"""Issue 21: no Go input, however mangled, ends in a traceback — an OpenGotha file read as an event and written
as .h9, standings and OpenGotha again; a Go event file whose Go lines (XQG, XQH, XQN …) are mangled; an EGD
.h9 read as an event (issue 31), refused by line and column."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.errors import QiyuanError
from qiyuan.formats.h9 import read_h9, write_h9
from qiyuan.formats.opengotha import gotha_event, read_opengotha, write_opengotha
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import standings

from . import seeds
from .mutations import mutate_bytes

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.data_too_large])
SLOW = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.data_too_large])


def _go_all_the_way(t) -> None:
    s, ps = go.settings(t), go.players(t)
    standings(t, s, ps)
    write_opengotha(t)
    write_h9(t, pins=True)


def check_opengotha_event(data) -> None:
    seed = data.draw(st.sampled_from(seeds.opengotha_files()))
    blob = data.draw(mutate_bytes(seed))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.xml"
        path.write_bytes(blob)
        try:
            _go_all_the_way(gotha_event(read_opengotha(path), str(path)))
        except QiyuanError as exc:
            assert exc.problems and all(str(p) for p in exc.problems)


def check_go_event_file(data) -> None:
    seed = data.draw(st.sampled_from(seeds.opengotha_files()))
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "t.xml"
        src.write_bytes(seed)
        text = write_trf(gotha_event(read_opengotha(src))).encode("utf-8")
    blob = data.draw(mutate_bytes(text))
    try:
        _go_all_the_way(read_trf(blob.decode("utf-8", errors="replace") + "\n"))
    except QiyuanError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)


_H9 = None


def check_h9(data) -> None:
    global _H9
    _H9 = _H9 or seeds.h9_files()
    blob = data.draw(mutate_bytes(data.draw(st.sampled_from(_H9))))
    try:
        t = read_h9(blob, "t.h9")
    except QiyuanError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)
        assert all(p.line for p in exc.problems if "no player rows" not in p.message)  # by line (and column)
        return
    try:
        _go_all_the_way(t)
    except QiyuanError as exc:  # a time control below class C, say
        assert exc.problems and all(str(p) for p in exc.problems)


@FAST
@given(st.data())
def test_mutated_h9_files_are_read_or_refused_by_line(data):
    check_h9(data)


@FAST
@given(st.data())
def test_mutated_opengotha_files_become_events_and_h9_or_are_refused(data):
    check_opengotha_event(data)


@FAST
@given(st.data())
def test_mutated_go_event_files_are_read_or_refused(data):
    check_go_event_file(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_mutated_go_inputs_thousands(data):
    check_opengotha_event(data)
    check_go_event_file(data)
    check_h9(data)
