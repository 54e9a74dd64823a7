"""The public crosstable writes a pairing bye out, never as a bare '+' (which reads as a forfeit win)."""

from django.utils import translation

from qiyuan.tournament.model import Entrant, RoundCell, Tournament
from qiyuan.web.portal.eventview import _cross


def test_crosstable_bye_cell_reads_as_a_bye_not_a_forfeit():
    t = Tournament(
        name="t",
        entrants=[
            Entrant(1, "甲", rounds=[RoundCell(2, "b", "+")]),
            Entrant(2, "乙", rounds=[RoundCell(1, "w", "-")]),
            Entrant(3, "丙", rounds=[RoundCell(None, "-", "U")]),
        ],
    )
    with translation.override("zh-hans"):
        rows = _cross(t)
    assert rows[0].cells == ["2b +"]
    assert rows[2].cells == ["轮空"]
