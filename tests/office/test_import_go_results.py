"""Issue 31: the office keeps every OpenGotha result — a both-win is stored as both-win (never as unplayed), a
both-lose as both-lose, neither rated — and reads an EGD .h9 as an event."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._o2_fixtures import SHARED, make_list, stated

pytestmark = pytest.mark.django_db

CASES = Path(__file__).resolve().parents[1] / "formats" / "opengotha_cases"


def test_both_win_and_both_lose_are_stored_as_such_and_not_rated():
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file
    from qiyuan.rating.model import Result

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    import_file(CASES / "both-results.xml", go, "officer", options=stated())
    both = Game.objects.get(player1__name="Daguenet Mathieu", round=1)
    assert both.result == Result.BOTH_WIN.value == "++"  # before: "--", as if never played
    assert Game.objects.get(player1__name="Roullier Louise", round=1).result == Result.BOTH_LOSS.value
    assert not Result(both.result).played and not Result.BOTH_LOSS.played


def test_chinese_names_come_in_whole_and_searchable():
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import import_file

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    import_file(CASES / "chinese-names.xml", go, "officer", options=stated())
    gao = Player.objects.get(name="高传德")  # not "高 传德"
    assert gao.name_latin == "" and "|gaochuande|" in gao.name_search
    assert Player.objects.get(name="曾庆红").name_pinyin == "zeng qing hong"


def test_an_h9_is_imported_as_its_event():
    from qiyuan.office.events.models import Event, Game
    from qiyuan.office.imports import import_file

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    result = import_file(SHARED / "data" / "opengotha" / "tournoi-de-juvisy-2019.h9", go, "officer",
                         options=stated())
    ev = Event.objects.get()
    assert ev.name == "Tournoi de Juvisy" and result.batch.kind == "h9"
    assert Game.objects.count() == 36  # the games of the OpenGotha file, from the .h9 alone
