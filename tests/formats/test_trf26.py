"""TRF26 in and out (issue 35, item 3): qiyuan's Gomoku/Go profile of FIDE's TRF26 (docs/formats.md).

Standard records where TRF26 has one (132 round dates, 162 scoring, 192 tournament type, 202 tie-break
order, 260 keep apart, 310 teams), ``XQ*`` only for the rest; a TRF26 file qiyuan writes round-trips byte
for byte; TRF-16 files are still read and written back as TRF-16.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.errors import InputError
from qiyuan.formats.eventstore import TrfFileStore
from qiyuan.formats.trf import CHESS_POINTS, read_trf, write_trf
from qiyuan.formats.trf26 import TRF26_ONLY, is_trf26
from qiyuan.tournament.check.generate import GENERATED, generate_event
from qiyuan.tournament.keepapart import set_rule

REPO = Path(__file__).resolve().parents[2]
REAL = sorted((REPO.parent / "shared" / "data" / "trf").glob("*.trf"))


def codes(text: str) -> list[str]:
    return [line[:3] for line in text.splitlines()]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GENERATED), st.integers(0, 10**6), st.sampled_from([None, 5, 12]))
def test_a_trf26_file_qiyuan_writes_round_trips_byte_identical(system, seed, players):
    t = generate_event(system, seed, players=players)
    text = write_trf(t, trf26=True)
    assert is_trf26(text)
    back = read_trf(text)
    assert write_trf(back, trf26=True) == text
    # and it holds what the TRF-16 file holds: the same event
    assert back == read_trf(write_trf(t))


@pytest.mark.parametrize("system", GENERATED)
def test_standard_records_replace_the_private_ones(system):
    t = generate_event(system, 3)
    text = write_trf(t, trf26=True)
    c = codes(text)
    assert "162" in c and "192" in c  # every TRF26 file qiyuan writes declares itself
    assert not {"BBW", "BBD", "BBL", "BBF", "BBU", "BBZ", "XQM", "013"} & set(c)
    assert f"192 {t.extra['XQM'][0]}" in text.splitlines()
    if system == "team":
        assert c.count("310") == len(t.extra["013"]) and "XQB" in c  # boards per team: TRF26 has no record
    if system.startswith("go_"):
        assert "202" in c and f"202 {t.extra['XQZ'][0]}" in text.splitlines()
        assert "XQK" in c  # komi: TRF26 has no record


def test_the_block_follows_the_round_dates_132():
    t = generate_event("swiss", 5)
    t.round_dates = ["26/05/01", "26/05/01", "26/05/02"]
    lines = write_trf(t, trf26=True).splitlines()
    at = [line[:3] for line in lines].index("132")
    assert lines[at].split()[1:] == ["26/05/01", "26/05/01", "26/05/02"]
    assert lines[at + 1].startswith("162 ") and lines[at + 2] == "192 swiss"
    assert read_trf("\n".join(lines) + "\n").round_dates == t.round_dates


def test_scoring_162_carries_every_value():
    t = generate_event("go_swiss", 2)  # Go scores 1/0
    text = write_trf(t, trf26=True)
    assert "162 W 1 D 0.5 L 0 FW 1 FL 0 U 1 H 0.5 F 1 Z 0" in text.splitlines()
    assert read_trf(text).points == t.points
    gomoku = write_trf(generate_event("swiss", 2), trf26=True)
    assert "162 W 2 D 1 L 0 FW 2 FL 0 U 2 H 1 F 2 Z 0" in gomoku.splitlines()


def test_scoring_162_keys_in_any_order_and_partial():
    text = write_trf(generate_event("swiss", 4), trf26=True)
    mine = next(line for line in text.splitlines() if line.startswith("162"))
    assert read_trf(text.replace(mine, "162 Z 0 L 0 D 1 W 2")).points == read_trf(text).points


def test_bad_trf26_records_are_named_by_line_and_column():
    text = write_trf(generate_event("team", 4), trf26=True)
    lines = text.splitlines()
    at162 = [line[:3] for line in lines].index("162")
    at310 = [line[:3] for line in lines].index("310")
    lines[at162] = "162 W 2 D one"
    lines[at310] = "310 abc Team 1"
    lines.insert(3, "260 7")
    with pytest.raises(InputError) as exc:
        read_trf("\n".join(lines) + "\n", filename="ev.trf")
    where = {(p.line, p.column) for p in exc.value.problems}
    assert where == {(4, 5), (at162 + 2, 5), (at310 + 2, 5)}
    assert all(p.file == "ev.trf" for p in exc.value.problems)


def test_scoring_162_that_qiyuan_cannot_hold_is_refused_not_changed():
    text = write_trf(generate_event("swiss", 4), trf26=True)
    mine = next(line for line in text.splitlines() if line.startswith("162"))
    with pytest.raises(InputError) as exc:
        read_trf(text.replace(mine, "162 W 2 D 1 L 0 H 0"))
    assert "H must equal D" in str(exc.value.problems[0])


def test_a_record_twice_is_refused():
    text = write_trf(generate_event("swiss", 4), trf26=True)
    with pytest.raises(InputError) as exc:
        read_trf(text.replace("192 swiss\n", "192 swiss\n192 swiss\n"))
    assert "twice" in str(exc.value.problems[0])


def test_keep_apart_260_is_written_from_the_rules_and_the_rule_stays_xqa():
    t = generate_event("swiss", 11, players=10)
    for e in t.entrants:
        e.family = ""
    t.entrants[0].family = t.entrants[3].family = t.entrants[7].family = "王家"
    set_rule(t, "family", 3)
    text = write_trf(t, trf26=True)
    assert "260 1 4 8" in text.splitlines()
    assert "XQA family 3" in text.splitlines()  # the first K rounds: TRF26 has no place for it
    back = read_trf(text)
    assert [e.number for e in back.entrants if e.family == "王家"] == [1, 4, 8]
    assert write_trf(back, trf26=True) == text


def test_foreign_260_without_rules_is_kept_as_written():
    text = write_trf(generate_event("swiss", 6), trf26=True).replace("192 swiss\n", "192 swiss\n260 2 5\n")
    back = read_trf(text)
    assert back.extra["260"] == ["2 5"]
    assert "260 2 5" in write_trf(back, trf26=True).splitlines()


def test_an_unknown_tournament_type_is_kept_not_taken_for_a_format():
    text = write_trf(generate_event("swiss", 6), trf26=True).replace("192 swiss", "192 FIDE_DUTCH")
    back = read_trf(text)
    assert back.extra["192"] == ["FIDE_DUTCH"] and "XQM" not in back.extra


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_trf16_files_stay_trf16(path):
    original = path.read_bytes().decode("utf-8", errors="replace")
    t = read_trf(path)
    text = write_trf(t)
    assert not is_trf26(original) and not is_trf26(text)
    assert not set(TRF26_ONLY) & set(codes(text))
    as26 = write_trf(t, trf26=True)
    assert read_trf(as26) == t and write_trf(read_trf(as26), trf26=True) == as26
    if t.points == CHESS_POINTS:
        assert "162 W 1 D 0.5 L 0" in as26


def test_event_file_read_as_trf26_is_written_back_as_trf26(tmp_path):
    ev = tmp_path / "ev.trf"
    ev.write_text(write_trf(generate_event("swiss", 9), trf26=True), encoding="utf-8")
    store = TrfFileStore(ev)
    with store.change("arbiter", "rename") as ch:
        ch.t.name = "改名"
    assert is_trf26(ev.read_text(encoding="utf-8")) and read_trf(ev).name == "改名"
    old = tmp_path / "old.trf"
    old.write_text(write_trf(generate_event("swiss", 9)), encoding="utf-8")
    with TrfFileStore(old).change("arbiter", "rename") as ch:
        ch.t.name = "x"
    assert not is_trf26(old.read_text(encoding="utf-8"))


def test_export_and_generate_take_trf26(tmp_path):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    runner = CliRunner()
    ev = tmp_path / "g.trf"
    r = runner.invoke(app, ["event", "generate", str(ev), "--system", "team", "--seed", "4", "--trf26"])
    assert r.exit_code == 0, r.output
    assert is_trf26(ev.read_text(encoding="utf-8"))
    out = tmp_path / "public.trf"
    r = runner.invoke(app, ["event", "export", str(ev), str(out)])
    assert r.exit_code == 0, r.output
    assert not is_trf26(out.read_text(encoding="utf-8"))
    r = runner.invoke(app, ["event", "export", str(ev), str(out), "--trf26"])
    assert r.exit_code == 0, r.output
    assert is_trf26(out.read_text(encoding="utf-8"))
    assert read_trf(out).points.win == Decimal(2)
