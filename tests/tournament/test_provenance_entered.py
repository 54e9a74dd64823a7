"""Issue 37 item 1: how each result was entered, read from the event file's provenance record (``XRP``)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import hall
from qiyuan.tournament.model import Entrant

A = hall.Act
PHONES = (A("reported", "5", "p5.1", "20261206T101500Z"), A("confirmed", "9", "p9.1", "20261206T101600Z"),
          A("signed", "张裁判", "arbiter", "20261206T102000Z"))


def _p(acts, result="1-0"):
    return hall.Provenance(1, 1, result, tuple(acts))


def test_a_result_both_phones_confirmed_and_the_arbiter_signed_counts_as_phones():
    assert hall.how_entered(_p(PHONES), "1-0") == hall.PHONES


def test_a_signature_without_two_phones_confirming_does_not_hold_up():
    assert hall.how_entered(_p([PHONES[0], PHONES[2]]), "1-0") == hall.FILE  # one phone only
    forged = (A("reported", "5", "p5.1", "20261206T101500Z"), A("confirmed", "5", "p5.1", "20261206T101600Z"),
              PHONES[2])
    assert hall.how_entered(_p(forged), "1-0") == hall.FILE  # the same phone twice
    assert hall.how_entered(_p([*PHONES[:2], A("signed", "x", "desk", "20261206T102000Z")]), "1-0") == hall.FILE
    assert hall.how_entered(_p(PHONES), "1-0", (5, 9)) == hall.PHONES
    assert hall.how_entered(_p(PHONES), "1-0", (5, 7)) == hall.FILE  # not this board's two players
    borrowed = (A("reported", "5", "p5.1", "20261206T101500Z"), A("confirmed", "9", "p5.1", "20261206T101600Z"),
                PHONES[2])
    assert hall.how_entered(_p(borrowed), "1-0") == hall.FILE  # player 9 through player 5's credential


def test_settled_desk_and_terminal_are_named_by_the_last_act():
    assert hall.how_entered(_p([PHONES[0], A("settled", "x", "arbiter", "20261206T1020Z")]), "1-0") == hall.SETTLED
    assert hall.how_entered(_p([A("typed", "x", "desk", "20261206T1020Z")]), "1-0") == hall.DESK
    assert hall.how_entered(_p([A("typed", "x", "cli", "20261206T1020Z")]), "1-0") == hall.TERMINAL
    # retyped at the terminal after the phones: the terminal entered the result that counts
    assert hall.how_entered(_p([*PHONES, A("retyped", "x", "cli", "20261206T1030Z")]), "1-0") == hall.TERMINAL


def test_no_record_or_a_record_of_another_result_leaves_the_file_alone():
    assert hall.how_entered(None, "1-0") == hall.FILE
    assert hall.how_entered(_p(PHONES, "0-1"), "1-0") == hall.FILE  # the file was changed after the signature
    assert hall.how_entered(_p([A("cleared", "x", "desk", "20261206T1020Z")], "none"), "1-0") == hall.FILE


def test_the_public_acts_name_roles_and_doors_never_a_person():
    acts = hall.public_acts(_p(PHONES), 5, 9)
    assert acts == (("reported", "player1", "phone", "20261206T101500Z"),
                    ("confirmed", "player2", "phone", "20261206T101600Z"),
                    ("signed", "arbiter", "hall", "20261206T102000Z"))
    odd = hall.public_acts(_p([A("bribed", "王五", "p7.2", "yesterday"), A("typed", "王五", "fax", "20261206T1020Z")]),
                           5, 9)
    assert odd == (("other", "other", "phone", ""), ("typed", "arbiter", "other", "20261206T1020Z"))
    assert "王五" not in repr(odd) and "张裁判" not in repr(acts)


def _event():
    t = ev.new_event("来源测试", fmt="swiss", rounds=2)
    for i in range(6):
        ev.add_player(t, Entrant(0, f"棋手{i + 1}", rating=2000 - i))
    ev.pair_next(t)
    return t


def test_the_event_counts_each_way_results_came_in_and_the_import_reads_each_game():
    t = _event()
    b1, b2, b3 = hall.boards_of(t, 1)
    ev.enter_results(t, 1, [(b1.first, "1-0"), (b2.first, "0-1"), (b3.first, "1-0")])
    b1, b2, b3 = hall.boards_of(t, 1)
    phones = (A("reported", str(b1.first), f"p{b1.first}.1", "20261206T101500Z"),
              A("confirmed", str(b1.second), f"p{b1.second}.1", "20261206T101600Z"),
              A("signed", "chief", "arbiter", "20261206T102000Z"))
    hall.record_provenance(t, [hall.Provenance(1, b1.board, b1.result, phones),
                               hall.Provenance(1, b2.board, b2.result, (A("typed", "a", "desk", "20261206T1030Z"),))])
    t = read_trf(write_trf(t))  # what the office reads back from the file
    assert hall.entered_counts(t) == {"phones": 1, "settled": 0, "desk": 1, "terminal": 0, "file": 1}
    games = hall.games_entered(t)
    lo, hi = sorted((b1.first, b1.second))
    assert games[(1, lo, hi)].how == hall.PHONES and games[(1, lo, hi)].when == "20261206T102000Z"
    assert games[(1, lo, hi)].acts_text().endswith("signed:arbiter:hall:20261206T102000Z")
    assert (1, *sorted((b3.first, b3.second))) not in games  # no record: the file alone


def test_an_event_without_records_gives_no_game_provenance():
    t = _event()
    assert hall.games_entered(t) == {}
    assert hall.entered_counts(t) == dict.fromkeys(hall.ENTERED, 0)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="0123456789 :abcdefpTZ.-½", max_size=40), max_size=6))
def test_any_record_lines_read_to_known_kinds_and_public_roles(lines):
    t = _event()
    b = hall.boards_of(t, 1)
    ev.enter_results(t, 1, [(x.first, "1-0") for x in b])
    t.extra[hall.PROVENANCE_RECORD] = lines
    for got in hall.games_entered(t).values():
        assert got.how in hall.ENTERED
        for what, who, door, when in got.acts:
            assert what in (*hall.ACTS, "other") and who in ("player1", "player2", "arbiter", "other")
            assert door in ("phone", "hall", "desk", "terminal", "other")


def test_the_competition_report_counts_how_the_results_were_entered(tmp_path):
    import io

    from openpyxl import load_workbook

    from qiyuan.formats.report_xlsx import ENTERED_ROWS, INFO_SHEET, read_report, report_bytes

    t = _event()
    b = hall.boards_of(t, 1)
    ev.enter_results(t, 1, [(x.first, "1-0") for x in b])
    b = hall.boards_of(t, 1)
    hall.record_provenance(t, [hall.Provenance(1, b[0].board, b[0].result, (A("typed", "a", "cli", "20261206T1030Z"),)),
                               hall.Provenance(1, b[1].board, b[1].result, (A("typed", "a", "desk", "20261206T1030Z"),))])
    data = report_bytes(t)
    info = load_workbook(io.BytesIO(data))[INFO_SHEET]
    said = {key: (info.cell(row, 1).value, info.cell(row, 2).value) for key, (row, _) in ENTERED_ROWS.items()}
    assert said == {"phones": ("成绩来源：双方手机确认、裁判签字", 0), "settled": ("成绩来源：裁判在赛场裁定", 0),
                    "desk": ("成绩来源：记录台录入", 1), "terminal": ("成绩来源：终端录入", 1),
                    "file": ("成绩来源：无来源记录（导入的文件）", 1)}
    (tmp_path / "r.xlsx").write_bytes(data)
    read_report(tmp_path / "r.xlsx")  # the report with its new lines reads back as before


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["1-0", "0-1", "½-½", " "]), min_size=3, max_size=3),
       st.lists(st.sampled_from(["phones", "settled", "desk", "cli", "none", "other"]), min_size=3, max_size=3))
def test_every_game_with_a_result_is_counted_once_whatever_its_record(results, kinds):
    """The counts add up to the games with a result; a kind is counted only where its record holds up."""
    t = _event()
    boards = hall.boards_of(t, 1)
    entered = [(b.first, r) for b, r in zip(boards, results) if r != " "]
    if entered:
        ev.enter_results(t, 1, entered)
    boards = hall.boards_of(t, 1)
    acts = {"phones": PHONES, "settled": (A("settled", "x", "arbiter", "20261206T1020Z"),),
            "desk": (A("typed", "x", "desk", "20261206T1020Z"),), "cli": (A("typed", "x", "cli", "20261206T1020Z"),),
            "other": (A("typed", "x", "fax", "20261206T1020Z"),)}
    hall.record_provenance(t, [hall.Provenance(1, b.board, b.result or hall.NO_RESULT, acts[k])
                               for b, k in zip(boards, kinds) if k != "none"])
    counts = hall.entered_counts(read_trf(write_trf(t)))
    assert sum(counts.values()) == len(entered)
    for b, k in zip(boards, kinds):
        if b.result:  # (a phones record names players 5 and 9, not this board's: it does not hold up)
            want = {"settled": "settled", "desk": "desk", "cli": "terminal"}.get(k, "file")
            assert counts[want] >= 1


def test_a_record_whose_pairings_cannot_be_sheeted_is_counted_as_none(monkeypatch):
    from qiyuan.tournament.errors import EventError

    t = _event()
    b = hall.boards_of(t, 1)
    ev.enter_results(t, 1, [(x.first, "1-0") for x in b])
    hall.record_provenance(t, [hall.Provenance(1, b[0].board, "1-0", (A("typed", "a", "desk", "20261206T1030Z"),))])

    def unsheetable(*_):
        raise EventError([])
    monkeypatch.setattr(hall, "boards_of", unsheetable)
    assert hall.entered_counts(t) == {"phones": 0, "settled": 0, "desk": 0, "terminal": 0, "file": 3}
