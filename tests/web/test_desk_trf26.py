"""Issue 35, item 3: a desk event kept as TRF26 stays TRF26 when the desk changes it; a TRF-16 one stays TRF-16."""

from __future__ import annotations

from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.formats.trf26 import is_trf26
from qiyuan.office.events.live import LiveEventStore
from qiyuan.office.events.models import LiveEvent
from qiyuan.tournament import arbiter as uc

from .test_desk import live  # noqa: F401 - fixture


def test_a_desk_change_keeps_the_version_of_the_event_text(live, staff):
    assert not is_trf26(live.trf_text)
    first = uc.pair(LiveEventStore("club-2026"), staff["arbiter"]).boards[0][0]
    assert not is_trf26(LiveEvent.objects.get(code="club-2026").trf_text)
    live = LiveEvent.objects.get(code="club-2026")
    live.trf_text = write_trf(read_trf(live.trf_text), trf26=True)
    live.save()
    uc.enter_results(LiveEventStore("club-2026"), staff["arbiter"], 1, [(first, "1-0")])
    text = LiveEvent.objects.get(code="club-2026").trf_text
    assert is_trf26(text) and read_trf(text).entrants[first - 1].rounds[0].result == "1"
