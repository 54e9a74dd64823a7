"""Go events: an OpenGotha file read into an event, the Go placement criteria (hand-computed), the EGD .h9."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from qiyuan.errors import InputError
from qiyuan.formats.h9 import egf_name, latin1, write_h9
from qiyuan.formats.opengotha import gotha_event, read_opengotha, write_opengotha
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import compute, criterion, standings
from qiyuan.tournament.model import Entrant, RoundCell, Tournament

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "opengotha"
JUVISY = DATA / "tournoi-de-juvisy-2019.xml"
CDF = DATA / "championnat-de-france-open-2020.xml"


def _event(path=JUVISY) -> Tournament:
    return gotha_event(read_opengotha(path))


def _h9_fields(text: str) -> tuple[dict[str, str], list[list[str]]]:
    """Header values by key and the rows split into fields (name kept whole, by its columns)."""
    head, rows = {}, []
    for line in text.splitlines():
        if line.startswith("; ") and line[4:5] == "[" and line.endswith("]"):
            head[line[2:4]] = line[5:-1]
        elif line and not line.startswith(";"):
            rows.append([line[:4].strip(), line[5:35].strip(), *line[35:].split()])
    return head, rows


def test_juvisy_h9_equals_opengotha_field_by_field():
    """Issue 21, done when: places, names, grades, countries, clubs, criteria, every round cell."""
    ours = write_h9(_event()).decode("latin-1")
    gold = (DATA / "tournoi-de-juvisy-2019.h9").read_bytes().decode("latin-1")
    (h1, r1), (h2, r2) = _h9_fields(ours), _h9_fields(gold)
    assert h1 == h2  # CL A, EV, PC, DT, HA h1, KM 7.5, TM 82 (60 min + 45 × 30 s), CM
    assert len(r1) == len(r2) == 19
    for mine, theirs in zip(r1, r2, strict=True):
        assert mine == theirs
    # byte for byte too, but for the line naming the program
    assert [x for x in ours.splitlines() if "Generated" not in x] == \
        [x for x in gold.splitlines() if "Generated" not in x]


def test_h9_is_latin1_and_accents_survive():
    data = write_h9(_event())
    assert "Nemo André".encode("latin-1") in data and b"?" not in data


def test_chinese_names_reach_the_egd_in_pinyin_surname_first_never_question_marks():
    t = _event()
    t.entrants[0].name = "龚泽远"  # Rebelo's row becomes a Chinese entrant
    t.entrants[1].name = "欧阳耀新"
    data = write_h9(t)
    assert b"Gong Zeyuan" in data and b"Ouyang Yaoxin" in data and b"?" not in data
    assert egf_name("吕安红") == "Lü Anhong"  # ü is in ISO-8859-1
    assert egf_name("GONG Zeyuan") == "Gong Zeyuan"  # EGF capitalisation
    assert egf_name("龚泽远", "Kung Tse-Yuan") == "Kung Tse-Yuan"  # the registry's Latin name first
    assert latin1("Łukasz Wałęsa") == "Lukasz Walesa"


def test_h9_pins_on_request():
    data = write_h9(_event(), pins=True).decode("latin-1")
    assert [x for x in data.splitlines() if "|" in x] == \
        [x for x in data.splitlines() if x.startswith("  18 Nicita")]
    assert data.splitlines()[-2].endswith("|17033126")


def test_h9_writes_a_board_without_result_as_a_question_mark_and_refuses_a_time_control_below_class_c():
    """Issue 31 (5): OpenGotha writes ``?`` for a game without a result (``RESULT_UNKNOWN``); the EGD reads it."""
    t = _event()
    t.entrants[0].rounds[0].result = " "
    opp = t.entrants[0].rounds[0].opponent
    t.entrants[opp - 1].rounds[0].result = " "
    rows = [x for x in write_h9(t).decode("latin-1").splitlines() if not x.startswith(";")]
    assert sum(x.count("?/") for x in rows) == 2
    t = _event()
    s = go.settings(t)
    s.basic_minutes, s.overtime = 20, "sd"
    go.set_settings(t, s)
    with pytest.raises(InputError, match="below EGD class C"):
        write_h9(t)


def test_egd_class_and_adjusted_time():
    s = go.GoSettings(basic_minutes=60, overtime="byoyomi", overtime_seconds=30)
    assert go.adjusted_minutes(s) == Decimal("82.5") and go.egd_class(s) == "A"
    s = go.GoSettings(basic_minutes=40, overtime="canadian", overtime_seconds=300, overtime_moves=15)
    assert go.adjusted_minutes(s) == 60 and go.egd_class(s) == "B"  # 40 + 60 moves × 20 s
    s = go.GoSettings(basic_minutes=45, overtime="fischer", overtime_seconds=15)
    assert go.adjusted_minutes(s) == 75 and go.egd_class(s) == "B"  # basic below A's 60
    assert go.egd_class(go.GoSettings(basic_minutes=25, overtime="sd")) is None


def _values(t: Tournament, number: int) -> dict[str, Decimal]:
    v = compute(t, go.settings(t), go.players(t))
    return {k: Decimal(d[number]) / 2 for k, d in v.items()}


def _number(t: Tournament, name: str) -> int:
    return next(e.number for e in t.entrants if e.name == name)


def test_go_criteria_hand_computed_on_juvisy():
    """Bar 4d, floor 20k, zero 30k; absent ½ MMS, 0 NBW; scores rounded down (genRoundDownNBWMMS)."""
    t = _event()
    minieri = _values(t, _number(t, "Minieri Davide"))
    # 3d: start 2 - (-30) = 32, four wins
    assert minieri["MMS"] == 36 and minieri["NBW"] == 4
    # opponents: Daguenet 33.5 → 33, Lemoine 33, Li 33, Pinchard 25 + the 4 stones Minieri gave him
    assert minieri["SOSM"] == 33 + 33 + 33 + 29
    # their SOS: Daguenet 132, Lemoine 129, Li 127, Pinchard 115
    assert minieri["SOSOSM"] == 132 + 129 + 127 + 115
    # every opponent beaten: their MMS as SOSM counts it, the stones too (OpenGotha's dosmX4 = osmX2 × wX2)
    assert minieri["SODOSM"] == 33 + 33 + 33 + 29
    # running MMS after each round: 33, 34, 35, 36
    assert minieri["CUSSM"] == 33 + 34 + 35 + 36
    rebelo = _values(t, _number(t, "Rebelo Manuela"))
    # 18k: start 12, one win; black with 7, 8, 9, 9 stones against 22, 23, 26, 27
    assert rebelo["MMS"] == 13
    assert rebelo["SOSM"] == (22 - 7) + (23 - 8) + (26 - 9) + (27 - 9)
    daguenet = _values(t, _number(t, "Daguenet Mathieu"))
    # one game (Minieri, 36), absent three rounds: each counts his own start score 32
    assert daguenet["MMS"] == 33 and daguenet["SOSM"] == 36 + 3 * 32
    vargas = _values(t, _number(t, "Vargas Olga"))
    assert vargas["MMS"] == 26  # 25 + ½ absent + 1 win = 26.5, rounded down


def test_go_criteria_hand_computed_on_the_championnat_wins_first():
    """NBW, SOSW, SOSOSW; Canadian byo-yomi; no handicap (ceiling 0)."""
    t = _event(CDF)
    s = go.settings(t)
    assert s.criteria == ["NBW", "SOSW", "SOSOSW"] and s.hd_ceiling == 0 and s.overtime == "canadian"
    rows = standings(t, s, go.players(t))
    nbw = {r.number: r.values["NBW"] for r in rows}
    sosw = {r.number: r.values["SOSW"] for r in rows}
    for e in t.entrants:  # wins counted from the cells, opponents' wins summed, by hand
        wins = sum(2 for c in e.rounds if c.result in "1+")
        assert nbw[e.number] == wins
        assert sosw[e.number] == sum(nbw[c.opponent] for c in e.rounds if c.opponent)
    assert rows == sorted(rows, key=lambda r: (-r.values["NBW"], -r.values["SOSW"], -r.values["SOSOSW"],
                                                r.place))


def test_direct_encounter_separates_two_players_equal_before_it():
    t = Tournament(points=go.GO_POINTS, entrants=[
        Entrant(1, "A", title="1d", rounds=[RoundCell(2, "b", "0"), RoundCell(3, "w", "1")]),
        Entrant(2, "B", title="1d", rounds=[RoundCell(1, "w", "1"), RoundCell(4, "b", "0")]),
        Entrant(3, "C", title="1d", rounds=[RoundCell(4, "b", "1"), RoundCell(1, "b", "0")]),
        Entrant(4, "D", title="1d", rounds=[RoundCell(3, "w", "0"), RoundCell(2, "w", "1")]),
    ])
    t.extra["XQM"] = ["go_mcmahon"]
    s = go.settings(t)
    rows = standings(t, s, go.players(t), criteria=["MMS", "DC"])
    # all on one win; B beat A, and DC among all four: A 1, B 1, C 1, D 1 — nobody separated but by DC's order
    assert [r.values["DC"] for r in rows] == [2, 2, 2, 2]
    rows = standings(t, s, go.players(t), criteria=["NBW", "DC"])
    assert {r.place for r in rows} == {1}
    assert criterion("sos") == "SOSM" and criterion("cuss") == "CUSSM" and criterion("bogus") is None


def test_event_file_round_trip_keeps_every_go_fact():
    t = _event()
    again = read_trf(write_trf(t))
    assert go.settings(again) == go.settings(t)
    assert go.players(again) == go.players(t)
    assert write_h9(again) == write_h9(t)
    nicita = go.players(t)[_number(t, "Nicita Giovanni")]
    assert (nicita.grade, nicita.rank, nicita.egf_pin) == (-11, -10, "17033126")
    assert go.rank_above_grade(nicita)  # plays at 10k, graded 11k: flagged


def test_opengotha_written_back_reads_to_the_same_event(tmp_path):
    t = _event()
    path = tmp_path / "back.xml"
    path.write_text(write_opengotha(t), encoding="utf-8")
    back = gotha_event(read_opengotha(path))
    assert write_h9(back) == write_h9(t)
    assert [e.rounds for e in back.entrants] == [e.rounds for e in t.entrants]


def test_bad_go_lines_are_reported_all_at_once():
    t = _event()
    t.extra["XQK"] = ["seven"]
    t.extra["XQN"] = ["4d 20k"]
    with pytest.raises(InputError) as exc:
        go.settings(t)
    assert len(exc.value.problems) == 2


def test_final_places_of_a_go_event_follow_its_criteria(tmp_path):
    """The competition report's 名次 (standings.final_places) of a Go event: MMS, SOS, SOSOS."""
    from qiyuan.formats.report_xlsx import write_report
    from qiyuan.tournament.standings import final_places

    t = _event()
    places = final_places(t)
    assert places[_number(t, "Minieri Davide")] == 1 and places[_number(t, "Daguenet Mathieu")] == 2
    assert places[_number(t, "Rebelo Manuela")] == 19
    write_report(t, tmp_path / "r.xlsx")
