"""TRF-16 reader and writer: real files, round trips, conventions, every error case."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats.errors import InputError
from qiyuan.formats.trf import CHESS_POINTS, GOMOKU_POINTS, read_trf, write_trf
from qiyuan.tournament.model import Entrant, PointSystem, RoundCell, Tournament

REPO = Path(__file__).resolve().parents[2]
TRF_DIR = REPO.parent / "shared" / "data" / "trf"
REAL = sorted(TRF_DIR.glob("*.trf"))


def line(num, name, pts, cells, rating="", rank="", sex=" ", title="   ", fed="   "):
    head = f"001 {num:>4} {sex}{title} {name:<33} {rating:>4} {fed} {'':>11} {'':<10} {pts:>4} {rank:>4}"
    return head + "".join(f"  {c}" for c in cells)


def small(*players: str, header: str = "012 Test\nXXR 3\n") -> str:
    return header + "\n".join(players) + "\n"


GOOD = small(
    line(1, "Zhang San", "4.0", ["   2 b 1", "   3 w 1"]),
    line(2, "Li Si", "2.0", ["   1 w 0", "0000 - U"]),
    line(3, "Wang Wu", "2.0", ["0000 - U", "   1 b 0"]),
)


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_file_round_trip(path):
    t = read_trf(path)
    text = write_trf(t)
    again = read_trf(text)
    assert again == t
    assert write_trf(again) == text


def test_fide_example_as_it_is():
    t = read_trf(TRF_DIR / "fide-example1-karl-mala-2005.trf")
    assert t.name == "9. Karl-Mala-Gedenkturnier"
    assert t.start_date == date(2005, 7, 28) and t.end_date == date(2005, 7, 31)  # "28. 07. 2005"
    assert t.deputy_arbiters == ["NSR Thomas Rondio", "NSR Wolfgang Hettler"]
    assert t.time_control == "40/120, 60"
    assert len(t.entrants) == 284 and t.rounds_played == 7
    assert t.points == CHESS_POINTS  # declared scores only fit 1/½/0
    first = t.entrants[0]
    assert (first.name, first.rating, first.title, first.federation, first.birth) == (
        "Vasquez,Rodrigo", 2558, "g", "CHI", "1969.12.06")
    assert first.rounds[0] == RoundCell(141, "w", "1")
    assert first.points == Decimal("6.0")
    assert t.entrants[150].rating is None  # blank rating
    assert t.entrants[12].withdrawn_after == 1  # Bakhmatov: one forfeit, then gone
    assert t.entrants[12].rounds[1:] == [RoundCell(None, "-", "Z")] * 6
    assert t.entrants[281].rounds[4] == RoundCell(None, "-", "+")  # "0000 - +" forfeit bye
    assert t.entrants[283].name == "spielfrei"


def test_lichess_export_as_it_is():
    t = read_trf(TRF_DIR / "lichess-swiss-2020-05-29.trf")
    assert t.rounds_planned == 10 and t.extra["XXC"] == ["white1"]
    defrank = t.entrants[4]
    assert defrank.rounds[0] == RoundCell(None, "-", "H")  # H with a blank opponent
    assert defrank.rounds[1] == RoundCell(None, "-", "-")  # "-" absent
    assert t.entrants[5].rounds[1] == RoundCell(None, "-", "U")
    assert t.entrants[0].rank is None and t.entrants[0].rating is None
    assert t.points == CHESS_POINTS


def test_gomoku_default_points_and_round_trip():
    t = read_trf(GOOD)
    assert t.points == GOMOKU_POINTS
    assert [e.points for e in t.entrants] == [4, 2, 2]
    assert read_trf(write_trf(t)) == t


def test_bb_lines_set_the_point_system():
    text = "012 X\nBBW  3.0\nBBD  1.0\n" + "\n".join([
        line(1, "A", "3.0", ["   2 b 1"]),
        line(2, "B", "0.0", ["   1 w 0"]),
    ]) + "\n"
    t = read_trf(text)
    assert t.points.win == 3 and t.points.draw == 1 and t.points.forfeit_win == 3 and t.points.pairing_bye == 3
    assert read_trf(write_trf(t)) == t


def test_prefilled_absence_for_the_round_to_be_paired():
    text = small(
        line(1, "A", "2.0", ["   2 b 1"]),
        line(2, "B", "0.0", ["   1 w 0"]),
        line(3, "C", "0.0", ["0000 - Z", "0000 - Z"]),
        line(4, "D", "2.0", ["0000 - U"]),
    )
    t = read_trf(text)
    assert len(t.entrants[2].rounds) == 2 and len(t.entrants[0].rounds) == 1
    assert all(e.withdrawn_after is None for e in t.entrants)


def test_declared_score_may_include_or_exclude_a_prefilled_bye():
    text = small(
        line(1, "A", "2.0", ["   2 b 1"]),
        line(2, "B", "0.0", ["   1 w 0", "0000 - H"]),
    )
    assert read_trf(text).entrants[1].points == 0
    text = small(line(1, "A", "2.0", ["   2 b 1"]), line(2, "B", "1.0", ["   1 w 0", "0000 - H"]))
    assert read_trf(text).entrants[1].points == 1


def test_forfeit_with_colour_or_dash():
    text = small(
        line(1, "A", "4.0", ["   2 - +", "   3 b +"]),
        line(2, "B", "0.0", ["   1 - -", "0000 - U"]),
        line(3, "C", "0.0", ["0000 - Z", "   1 w -"]),
    )
    t = read_trf(text)
    assert t.entrants[0].rounds == [RoundCell(2, "-", "+"), RoundCell(3, "b", "+")]


def test_qiyuan_extension_lines_round_trip():
    t = Tournament(name="五子棋公开赛", rounds_planned=3, chief_arbiter="王裁判", deputy_arbiters=["李一", "赵二"],
                   start_date=date(2026, 5, 1), end_date=date(2026, 5, 3), time_control="60 分钟",
                   round_dates=["26/05/01", "26/05/02"])
    t.entrants = [
        Entrant(1, "张三", sex="m", title="3d", rating=2200, federation="上海围棋协会五子棋委员会",
                id_number="110101199001011234", rounds=[RoundCell(2, "b", "1")]),
        Entrant(2, "李四", sex="w", title="1k", federation="京", rounds=[RoundCell(1, "w", "0")]),
        Entrant(3, "王五", rounds=[RoundCell(None, "-", "U")], withdrawn_after=1),
    ]
    text = write_trf(t)
    assert "XQI    1 110101199001011234" in text and "XQW    3 1" in text
    back = read_trf(text)
    for e in back.entrants:
        e.points = None
    assert back == t


def test_writer_refuses_fields_that_do_not_fit():
    t = Tournament(entrants=[Entrant(1, "x" * 40)])
    with pytest.raises(ValueError, match="name"):
        write_trf(t)


# -- bad input: line, column, what; all problems at once ------------------------------


def problems_of(text):
    with pytest.raises(InputError) as exc:
        read_trf(text, filename="ev.trf")
    return exc.value.problems


def test_broken_columns_reported_with_line_and_column():
    bad = GOOD.replace("001    2 ", "001     2", 1)  # shifted by one
    ps = problems_of(bad)
    assert [(p.line, p.column) for p in ps] == [(4, 5), (4, 9)], ps
    assert str(ps[0]).startswith("ev.trf, line 4, column 5: player number is missing")


def test_non_numeric_fields():
    bad = small(line(1, "A", "x.0", ["   2 b 1"], rating="22a0"), line(2, "B", "0.0", ["   1 w 0"]))
    ps = problems_of(bad)
    cols = {(p.line, p.column) for p in ps}
    assert cols == {(3, 49), (3, 81)}


def test_player_number_out_of_range():
    bad = small(line(1, "A", "2.0", ["   9 b 1"]), line(2, "B", "0.0", ["0000 - Z"]))
    ps = problems_of(bad)
    assert len(ps) == 1 and ps[0].line == 3 and ps[0].column == 92 and "out of range" in ps[0].text()


def test_player_line_number_out_of_range_and_duplicate():
    bad = small(line(1, "A", "0.0", []), line(5, "B", "0.0", []), line(1, "C", "0.0", []))
    msgs = [p.text() for p in problems_of(bad)]
    assert any("used twice" in m for m in msgs) and any("5 is out of range" in m for m in msgs)


def test_result_for_a_pair_never_paired():
    bad = small(line(1, "A", "2.0", ["   2 b 1"]), line(2, "B", "0.0", ["   3 w 0"]), line(3, "C", "2.0", ["   2 b 1"]))
    ps = problems_of(bad)
    assert [(p.line, p.column) for p in ps] == [(3, 92)]
    assert "paired with 2, but player 2's round 1 names player 3 (line 4)" in ps[0].text()


def test_results_and_colours_that_disagree():
    bad = small(line(1, "A", "2.0", ["   2 b 1"]), line(2, "B", "2.0", ["   1 b 1"]))
    msgs = [p.text() for p in problems_of(bad)]
    assert any("do not agree" in m for m in msgs) and any("b against w" in m for m in msgs)


def test_declared_score_that_does_not_match():
    bad = small(line(1, "A", "3.0", ["   2 b 1"]), line(2, "B", "0.0", ["   1 w 0"]))
    (p,) = problems_of(bad)
    assert (p.line, p.column) == (3, 81) and "declares 3.0 points but the results give 2" in p.text()


def test_bad_codes_in_cells():
    bad = small(line(1, "A", "0.0", ["   2 x 7"]), line(2, "B", "0.0", ["   1 w 0"]))
    msgs = [p.text() for p in problems_of(bad)]
    assert any("colour must be b, w or -" in m for m in msgs) and any("unknown result '7'" in m for m in msgs)


def test_all_problems_at_once():
    bad = small(line(1, "A", "9.0", ["   2 b 1"]), line(2, "B", "0.0", ["  77 w 0"]), line(3, "C", "1.0", []))
    assert len(problems_of(bad)) >= 3


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read_trf(tmp_path / "nope.trf")


# -- property: any consistent tournament round-trips -----------------------------------

@st.composite
def tournaments(draw):
    n = draw(st.integers(2, 12))
    rounds = draw(st.integers(0, 5))
    system = draw(st.sampled_from([GOMOKU_POINTS, CHESS_POINTS]))
    entrants = [Entrant(i, f"P{i}", rating=draw(st.none() | st.integers(1000, 2800))) for i in range(1, n + 1)]
    for _ in range(rounds):
        order = draw(st.permutations(range(1, n + 1)))
        for a, b in zip(order[::2], order[1::2]):
            res = draw(st.sampled_from(["1", "0", "=", "+", " "]))
            col = draw(st.sampled_from(["b", "w"]))
            other = {"1": "0", "0": "1", "=": "=", "+": "-", " ": " "}[res]
            entrants[a - 1].rounds.append(RoundCell(b, col, res))
            entrants[b - 1].rounds.append(RoundCell(a, "w" if col == "b" else "b", other))
        if len(order) % 2:
            entrants[order[-1] - 1].rounds.append(RoundCell(None, "-", draw(st.sampled_from("UHFZ"))))
    return Tournament(name="T", points=system, entrants=entrants, rounds_planned=rounds or None)


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_property_round_trip(t):
    once = read_trf(write_trf(t))
    assert read_trf(write_trf(once)) == once
    assert [e.rounds for e in once.entrants] == [e.rounds for e in t.entrants]


def test_writer_puts_the_score_the_results_give_not_a_stale_one():
    t = read_trf(GOOD)
    t.entrants[1].rounds[0] = RoundCell(1, "w", "=")
    t.entrants[0].rounds[0] = RoundCell(2, "b", "=")
    back = read_trf(write_trf(t))
    assert [e.points for e in back.entrants] == [3, 3, 2]


def test_public_copy_has_no_id_numbers():
    t = read_trf(GOOD)
    t.entrants[0].id_number = "110101199001011234"
    assert "110101199001011234" in write_trf(t)
    public = write_trf(t, id_numbers=False)
    assert "110101199001011234" not in public and "XQI" not in public
    assert read_trf(public).entrants[0].id_number == ""


def test_program_lines_with_bad_values():
    bad = "012 x\nXXR ten\nBBW two\nXQW    1 later\nXQI    9 123\nXQF x\n" + line(1, "A", "0.0", []) + "\n"
    ps = problems_of(bad)
    assert [p.line for p in ps] == [2, 3, 4, 5, 6]
    for p, text in zip(ps, ["XXR needs a number of rounds, found 'ten'", "BBW needs a number of points",
                            "XQW needs the round after which", "XQI names player 9, who has no 001 line",
                            "XQF needs a player number and a value"], strict=True):
        assert text in p.text()


def test_more_than_9999_players_do_not_fit():
    t = Tournament(entrants=[Entrant(i, f"P{i}") for i in range(1, 10_001)])
    with pytest.raises(ValueError, match="10000 players: TRF-16 holds draw numbers up to 9999"):
        write_trf(t)


GOLDEN = """\
012 上海五子棋公开赛
022 上海
032
042 2026/05/01
052 2026/05/02
062 3
072 2
102 王裁判
112 李一, 赵二
122 60分钟
132
XXR 2
001    1 m 3d 张三                                2300 SHA        1001             3.0          2 b 1     3 w =
001    2 w    李四                                                                 2.0          1 w 0  0000 - U
001    3 m 1k 王五                                2000 上海围                         3.0       0000 - U     1 b =
XQI    3 110101199001011234
XQF    3 上海围棋协会
"""


def test_golden_columns_of_a_written_file():
    t = Tournament(name="上海五子棋公开赛", city="上海", start_date=date(2026, 5, 1), end_date=date(2026, 5, 2),
                   chief_arbiter="王裁判", deputy_arbiters=["李一", "赵二"], time_control="60分钟", rounds_planned=2)
    t.entrants = [
        Entrant(1, "张三", "m", "3d", 2300, "SHA", "1001", rounds=[RoundCell(2, "b", "1"), RoundCell(3, "w", "=")]),
        Entrant(2, "李四", "w", "", None, "", rounds=[RoundCell(1, "w", "0"), RoundCell(None, "-", "U")]),
        Entrant(3, "王五", "m", "1k", 2000, "上海围棋协会", id_number="110101199001011234",
                rounds=[RoundCell(None, "-", "U"), RoundCell(1, "b", "=")]),
    ]
    assert write_trf(t) == GOLDEN
    assert [(ln[9], ln[10:13], ln[80:84], ln[91:95], ln[96], ln[98]) for ln in GOLDEN.splitlines() if ln[:3] == "001"] \
        == [("m", " 3d", " 3.0", "   2", "b", "1"), ("w", "   ", " 2.0", "   1", "w", "0"),
            ("m", " 1k", " 3.0", "0000", "-", "U")]
