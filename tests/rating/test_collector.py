"""Work on many objects (``qiyuan.collector.held``): no cyclic collection inside, the collector as it was after."""

from __future__ import annotations

import gc
from types import SimpleNamespace

import pytest

from qiyuan.collector import held


@pytest.fixture
def enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_held_inside_and_enabled_again_after_even_on_error(enabled):
    with held():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), held():
        1 / 0
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled(enabled):
    gc.disable()
    with held():
        pass
    assert not gc.isenabled()


@pytest.mark.django_db
def test_the_engine_and_the_office_work_with_the_collector_held(enabled, monkeypatch, tmp_path):
    """``compute_history`` (the one door into the engine: `qiyuan rate`, the office, the what-if) and the office's
    long use cases — import, publish, correct, verify — run inside it."""
    from qiyuan.office import imports, periods, verify
    from qiyuan.rating import fast, history
    from qiyuan.rating.rules import BUILTIN_RULES

    class Seen(Exception):
        pass

    def spy(*args, **kwargs):
        raise Seen(gc.isenabled())  # (what the collector was at the call)

    monkeypatch.setattr(fast, "compute", spy)
    with pytest.raises(Seen) as seen:
        history.compute_history(BUILTIN_RULES["cga-gomoku-2011"], [], [], [])
    assert seen.value.args == (False,)
    report = tmp_path / "report.csv"
    report.write_text("x\n", encoding="utf-8")
    listed = SimpleNamespace(code="L")
    for module, inner, call in ((periods, "writing", lambda: periods.publish_due(listed, "t")),
                                (periods, "writing", lambda: periods.correct_period(listed, None, "reason", "t")),
                                (verify, "VerifyReport", lambda: verify.verify_all()),
                                (imports, "file_digest", lambda: imports.import_file(report, None, "t"))):
        monkeypatch.setattr(module, inner, spy)
        with pytest.raises(Seen) as seen:
            call()
        assert seen.value.args == (False,), (module.__name__, inner)
    assert gc.isenabled()
