"""Issue 37, item 3: rating-band prize floors (分段等级分) — a player whose rating fell stays in his band: the
band reads the higher of the rating entered and his floor (his highest published rating of the last editions),
which reaches the offline event file through the entry list's 分段等级分 column (or the registration's)."""

from __future__ import annotations

import csv
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from qiyuan.formats.entries import read_entries
from qiyuan.formats.eventstore import TrfFileStore
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import arbiter as uc
from qiyuan.tournament import categories as cat
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant
from qiyuan.tournament.standings import standings


def _event():
    t = ev.new_event("C", rounds=1, start=date(2026, 7, 1))
    for name, rating, pid in (("甲", 1780, "CN000001"), ("乙", 1790, ""), ("丙", 2100, "")):
        ev.add_player(t, Entrant(0, name, rating=rating, player_id=pid))
    cat.set_categories(t, ["rating -1799", "rating 1800-1999"])
    return t


def test_a_fallen_player_stays_in_his_band_by_his_floor():
    t = _event()
    cat.keep_band_floors(t, [Entrant(0, "甲", rating=1780, player_id="CN000001", band_floor=1950)])
    assert t.extra["XRB"] == ["1950 CN000001"]
    rows = standings(t)
    low, mid = cat.categories(t)
    assert [r.name for _, r in cat.ranked(t, low, rows)] == ["乙"]  # 甲 (1780, floor 1950) is not under 1800
    assert [r.name for _, r in cat.ranked(t, mid, rows)] == ["甲"]


def test_a_floor_below_the_rating_changes_nothing_and_a_bad_line_is_ignored():
    t = _event()
    t.extra["XRB"] = ["1700 乙", "abc 甲", "1850"]
    assert cat.band_floors(t) == {"乙": 1700}
    assert [r.name for _, r in cat.ranked(t, cat.categories(t)[0], standings(t))] == ["甲", "乙"]


@given(st.integers(1000, 2800), st.one_of(st.none(), st.integers(1000, 2800)))
def test_the_band_reads_the_higher_of_rating_and_floor(rating, floor):
    e = Entrant(0, "甲", rating=rating)
    got = cat.band_rating(e, {} if floor is None else {"甲": floor})
    assert got == (rating if floor is None else max(rating, floor))


def test_the_entry_lists_column_reaches_the_event_file_and_survives_the_draw(tmp_path):
    path = tmp_path / "entries.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["姓名", "编号", "等级分", "分段等级分"])
        w.writerows([["甲", "CN000001", "1780", "1950"], ["乙", "", "1790", ""], ["丙", "", "2100", ""]])
    rows, faults = read_entries(path)
    assert faults == [] and [e.band_floor for _, e in rows] == [1950, None, None]
    trf = tmp_path / "ev.trf"
    t = ev.new_event("C", rounds=3, start=date(2026, 7, 1))
    cat.set_categories(t, ["rating -1799"])
    trf.write_text(write_trf(t), encoding="utf-8")
    store = TrfFileStore(trf)
    uc.add_players(store, "arbiter", rows, source=str(path))
    uc.draw_numbers(store, "arbiter", seed=7)
    t = read_trf(trf)
    assert cat.band_floors(t) == {"CN000001": 1950}
    assert [r.name for _, r in cat.ranked(t, cat.categories(t)[0], standings(t))] == ["乙"]


def test_a_bad_floor_is_named_by_row_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("姓名,分段等级分\n甲,高\n", encoding="utf-8")
    _, faults = read_entries(path)
    assert [(p.line, p.column) for p in faults] == [(2, "分段等级分")]
    assert "分段等级分 must be a whole number 1..9999, found '高'" in str(faults[0])


def test_without_floors_nothing_is_written():
    t = _event()
    cat.keep_band_floors(t, [Entrant(0, "甲", rating=1780)])
    assert "XRB" not in t.extra
