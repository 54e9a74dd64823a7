"""Issue 35: the office runs the event checker on every imported event file, stores the verdict with the event
and shows it on the event page ("paired as the rules say", or the deviations), in both languages."""

from __future__ import annotations

import pytest

from ._o2_fixtures import SHARED, make_list, stated

pytestmark = pytest.mark.django_db


def _page(client, ev) -> str:
    """The event page now (the portal caches pages by the data's version; these tests change a stored verdict)."""
    from django.core.cache import cache

    cache.clear()
    return client.get(f"/events/{ev.code}/").content.decode()

JUVISY = SHARED / "data" / "opengotha" / "tournoi-de-juvisy-2019.xml"


def test_an_imported_opengotha_file_is_checked_and_its_verdict_stored_and_shown(client):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import import_file
    from qiyuan.tournament.check import check_event, verdict_from_record
    from qiyuan.formats.opengotha import gotha_event, read_opengotha

    import_file(JUVISY, make_list(code="GO", rules="cn-go-1995", game="go"), "officer", options=stated())
    ev = Event.objects.get()
    stored = verdict_from_record(ev.pairing_check)
    direct = check_event(gotha_event(read_opengotha(JUVISY), JUVISY.name))
    assert stored.status == direct.status == "deviations" and stored.system == "go_mcmahon"
    assert [(d.round, d.board, d.rule) for d in stored.deviations] == [(d.round, d.board, d.rule)
                                                                       for d in direct.deviations]
    zh = _page(client, ev)
    assert "编排核查" in zh and "有违反规则之处" in zh and "麦克马洪分差的平方和" in zh
    client.get("/language/en/")
    en = _page(client, ev)
    assert "Pairing check" in en and "sum of the squared McMahon-score gaps" in en


def test_a_consistent_verdict_reads_paired_as_the_rules_say_and_none_shows_nothing(client):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import import_file
    from qiyuan.tournament.check import verdict_record
    from qiyuan.tournament.check.base import Verdict

    import_file(JUVISY, make_list(code="GO", rules="cn-go-1995", game="go"), "officer", options=stated())
    ev = Event.objects.get()
    ev.pairing_check = verdict_record(Verdict("swiss", rounds=5))
    ev.save(update_fields=["pairing_check"])
    zh = _page(client, ev)
    assert "按规则编排" in zh and "符合规则：5 轮均按规则编排" in zh
    ev.pairing_check = {}  # not checked: a history-CSV load, or stored before the checker
    ev.save(update_fields=["pairing_check"])
    assert "编排核查" not in _page(client, ev)


def test_a_file_from_elsewhere_that_is_no_swiss_event_is_not_checkable_named_in_words():
    from django.utils import translation

    from qiyuan.tournament.check import check_imported_event, verdict_from_record, verdict_lines
    from qiyuan.tournament.check.generate import generate_event

    t = generate_event("round_robin", 1, players=6)
    del t.extra["XQM"]  # a file that records no system: the import found a round robin
    v = verdict_from_record(check_imported_event(t, "round_robin"))
    assert v.status == "not checkable"
    with translation.override("zh-hans"):
        assert verdict_lines(v, translation.gettext) == ["无法核查：赛制 循环制"]
    assert verdict_lines(v, lambda s: s) == ["not checkable: system round robin"]
    assert verdict_from_record(check_imported_event(t, "swiss")).status in ("consistent", "deviations")
