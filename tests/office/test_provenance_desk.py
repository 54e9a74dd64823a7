"""Issue 37 item 1: a competition report the office's own desk wrote (it names its desk event, 赛事代码) carries the
desk event's provenance record into the office — for the games the report holds with the desk's result only."""

from __future__ import annotations

from dataclasses import replace

import pytest

from qiyuan.formats.report_xlsx import DESK_CODE_LABEL, DESK_CODE_ROW, INFO_SHEET, read_report
from qiyuan.formats.trf import write_trf
from qiyuan.tournament import hall

from .test_import_report import field_of, office, write  # noqa: F401  (the report office fixture)
from ._o2_fixtures import confirm_all

pytestmark = pytest.mark.django_db
A = hall.Act


def _flip(t, rnd: int, number: int) -> None:
    """Turn the game of ``number`` in round ``rnd`` into a draw, in both players' cells."""
    mine = t.entrants[number - 1].rounds[rnd - 1]
    theirs = t.entrants[mine.opponent - 1].rounds[rnd - 1]
    t.entrants[number - 1].rounds[rnd - 1] = replace(mine, result="=" if mine.result != "=" else "1")
    t.entrants[mine.opponent - 1].rounds[rnd - 1] = replace(theirs, result="=" if theirs.result != "=" else "0")


def test_a_desk_report_carries_the_desk_events_record_where_its_results_agree(office, tmp_path, resident_id):  # noqa: F811
    from openpyxl import load_workbook

    from qiyuan.office.events.models import Game, LiveEvent
    from qiyuan.office.imports import import_file

    path = write(tmp_path / "r.xlsx", field_of(resident_id))
    desk, _ = read_report(path)  # the desk's own event: the same games
    boards = hall.boards_of(desk, 1)
    _flip(desk, 1, boards[2].first)  # the desk holds another result for this game than the report
    boards = hall.boards_of(desk, 1)
    hall.record_provenance(desk, [
        hall.Provenance(1, boards[0].board, boards[0].result, (
            A("reported", str(boards[0].first), f"p{boards[0].first}.1", "20240810T101500Z"),
            A("confirmed", str(boards[0].second), f"p{boards[0].second}.1", "20240810T101600Z"),
            A("signed", "周裁判", "arbiter", "20240810T102000Z"))),
        hall.Provenance(1, boards[1].board, boards[1].result, (A("typed", "desk-user", "desk", "20240810T1030Z"),)),
        hall.Provenance(1, boards[2].board, boards[2].result, (A("typed", "desk-user", "desk", "20240810T1040Z"),))])
    LiveEvent.objects.create(code="T2026-P", name=desk.name, trf_text=write_trf(desk))
    wb = load_workbook(path)
    wb[INFO_SHEET].cell(DESK_CODE_ROW, 1).value = DESK_CODE_LABEL
    wb[INFO_SHEET].cell(DESK_CODE_ROW, 2).value = "T2026-P"
    wb.save(path)
    import_file(path, office, "officer", options=confirm_all())
    got = {(g.round, *sorted((g.player1_id, g.player2_id))): g.entered for g in Game.objects.all()}
    assert sorted(got.values()).count("file") == len(got) - 2
    assert {v for v in got.values() if v != "file"} == {"phones", "desk"}
    b2 = boards[2]
    flipped = Game.objects.get(round=1, player1__entries__number=min(b2.first, b2.second),
                               player2__entries__number=max(b2.first, b2.second))
    assert flipped.entered == "file" and flipped.entered_acts == ""  # the report changed it: the file alone


def test_a_report_naming_no_desk_event_of_this_office_is_its_games_only_source(office, tmp_path, resident_id):  # noqa: F811
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file

    import_file(write(tmp_path / "r.xlsx", field_of(resident_id)), office, "officer", options=confirm_all())
    assert set(Game.objects.values_list("entered", flat=True)) == {"file"}
