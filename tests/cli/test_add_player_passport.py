"""A foreign entrant's passport (护照) at `qiyuan event add-player --passport` and at the desk: a sanity check
(5-20 letters and digits) where a resident ID (居民身份证) keeps its exact GB 11643 check; the number goes to the
federation's report and its file, never into a public copy (docs/decisions.md: a non-resident document)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from qiyuan.errors import QiyuanError
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament.eventfile import add_player, new_event
from qiyuan.tournament.model import Entrant
from tests.cli.test_tournament_cli import run

PASSPORT = "E12345678"
RESIDENT = "11010519491231002X"  # a valid resident ID (female, born 1949-12-31)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    return ev


def test_a_passport_is_entered_and_kept_in_the_file_with_its_type(event: Path):
    run("event", "add-player", event, "John Smith", "--sex", "m", "--passport", "e1234 5678")
    e = read_trf(event).entrants[0]
    assert (e.id_type, e.id_number) == ("passport", PASSPORT)
    assert "XQT    1 passport" in event.read_text() and f"XQI    1 {PASSPORT}" in event.read_text()


def test_a_public_copy_has_neither_the_number_nor_its_type(event: Path):
    run("event", "add-player", event, "John Smith", "--passport", PASSPORT)
    public = write_trf(read_trf(event), id_numbers=False)
    assert PASSPORT not in public and "XQT" not in public and "XQI" not in public


@pytest.mark.parametrize("number, says", [("E12", "5-20 letters and digits"), ("E1234567890123456789X", "5-20"),
                                          ("E12-34/56", "5-20")])
def test_a_bad_passport_is_refused_file_untouched(event: Path, number, says):
    before = event.read_bytes()
    r = run("event", "add-player", event, "John Smith", "--passport", number, ok=False)
    assert r.exit_code == 2 and says in r.stderr and event.read_bytes() == before


def test_a_passport_shaped_number_is_still_no_resident_id(event: Path):
    r = run("event", "add-player", event, "张三", "--id-number", PASSPORT, ok=False)
    assert r.exit_code == 2 and "resident ID has 18" in r.stderr


def test_both_documents_at_once_are_refused(event: Path):
    before = event.read_bytes()
    r = run("event", "add-player", event, "张三", "--id-number", RESIDENT, "--passport", PASSPORT, ok=False)
    assert r.exit_code == 2 and "--passport" in r.stderr and event.read_bytes() == before


def test_the_resident_check_stays_exact():
    t = new_event(name="x")
    with pytest.raises(QiyuanError) as exc:
        add_player(t, Entrant(0, "张三", sex="m", id_number=RESIDENT), today=date(2026, 1, 1))
    assert "gender digit" in str(exc.value.problems[0])
    added = add_player(t, Entrant(0, "李四", sex="w", id_number=RESIDENT), today=date(2026, 1, 1))
    assert added.id_type == "resident"
    with pytest.raises(QiyuanError) as exc:
        add_player(t, Entrant(0, "王五", sex="w", id_number=PASSPORT, id_type="visa"), today=date(2026, 1, 1))
    assert "resident, passport or other" in str(exc.value.problems[0])


def test_an_unknown_document_type_in_a_file_is_named_with_its_line(event: Path):
    run("event", "add-player", event, "John Smith", "--passport", PASSPORT)
    event.write_text(event.read_text().replace("XQT    1 passport", "XQT    1 visa"))
    from qiyuan.formats.errors import InputError

    with pytest.raises(InputError) as exc:
        read_trf(event)
    assert any("'visa' is not a document type" in str(p) and p.line for p in exc.value.problems)
