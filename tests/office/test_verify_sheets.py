"""Issue 34 (4): verify decodes each edition's sheet and compares it with the recomputation — every tamper case
verify catches on the rows is caught when the sheet's bytes are edited, in the database or in a backup; a damaged
or missing sheet is a named difference, never an internal error."""

from __future__ import annotations

import base64
import json
from decimal import Decimal

import pytest
from django.db import connection

from qiyuan.formats import edition_sheet as S

from tests.support.sheets import changes, edit_sheet, write_blob

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    return publish_due(rl, "officer")


def verify():
    from qiyuan.office.verify import verify_all

    return verify_all()


def test_an_untouched_office_verifies_from_its_sheets(office):
    report = verify()
    assert report.ok, report.differences
    assert report.editions == len(office)


def test_a_rating_edited_in_the_sheet_is_found_and_named(office):
    ed = office[1]
    found = {}

    def edit(cols):
        i = next(i for i, r in enumerate(cols["rating"]) if r is not None)
        cols["rating"][i] += 1
        found["fid"] = cols["federation_id"][i]
    edit_sheet(ed, "entries", edit)
    report = verify()
    assert not report.ok
    assert any("stored sheet no longer gives the published digest" in d for d in report.differences)
    assert any(found["fid"] in d and ed.label in d for d in report.differences)


def test_a_state_edited_in_the_sheet_is_found(office):
    ed = office[1]

    def edit(cols):
        state = json.loads(cols["state"][0])
        state["n"] += 1
        cols["state"][0] = json.dumps(state, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    edit_sheet(ed, "entries", edit)
    report = verify()
    assert any("stored sheet no longer gives" in d for d in report.differences)


@pytest.mark.parametrize("column", ["delta", "after", "before", "We", "W", "K", "games", "method"])
def test_a_change_number_edited_in_the_sheet_is_named_by_column(office, column):
    """The numbers the public pages show beside an explanation (outside the digest) are compared with the
    recomputation column by column: an edit is named by edition, event, player and column."""
    ed = next(e for e in office if changes(e))
    found = {}

    def edit(cols):
        i = next(i for i in range(len(cols["K"])) if cols["K"][i] is not None and cols["We"][i] is not None)
        old = cols[column][i]
        if column == "method":
            new = "averaging" if old != "averaging" else "per_game"
        elif column in ("K", "games"):
            new = old + 1
        else:
            new = str((Decimal(old or 0) + Decimal("0.5")).quantize(Decimal("0.0001")))
        cols[column][i] = new
        found.update(event=cols["event_code"][i], player=cols["federation_id"][i])
    edit_sheet(ed, "changes", edit)
    report = verify()
    [line] = [d for d in report.differences if f"stored {column} " in d]
    assert f"{ed.rating_list.code} {ed.label}" in line and found["event"] in line and found["player"] in line


def test_an_explanation_edited_in_the_sheet_is_found(office):
    ed = next(e for e in office if changes(e))
    edit_sheet(ed, "changes", lambda cols: cols["explanation"].__setitem__(0, cols["explanation"][0].replace(
        '"games":', '"games": ')))
    report = verify()
    assert any("stored sheet no longer gives" in d for d in report.differences)


@pytest.mark.parametrize("part", ["entries", "changes"])
def test_damaged_sheet_bytes_are_a_named_difference(office, part):
    from qiyuan.office import sheets

    ed = office[1]
    blob = bytearray(sheets.stored_sheet(ed.pk).__dict__[part])
    blob[len(blob) // 2:len(blob) // 2 + 40] = b"\xff" * 40
    write_blob(ed, part, bytes(blob))
    report = verify()
    assert not report.ok
    assert any(ed.label in d and ("cannot be read" in d or "no longer gives" in d) for d in report.differences)
    write_blob(ed, part, b"not a sheet")
    report = verify()
    assert any(ed.label in d and f"its sheet cannot be read ({part}:" in d for d in report.differences)


def test_a_missing_sheet_is_a_named_difference(office):
    ed = office[2]
    with connection.cursor() as cur:
        cur.execute("DELETE FROM ratings_editionsheet WHERE edition_id = %s", [ed.pk])
    report = verify()
    assert any(ed.label in d and "its sheet (entries and changes) is missing" in d for d in report.differences), report.differences


def test_verify_command_exits_1_on_a_damaged_sheet_without_a_traceback(office):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    write_blob(office[0], "changes", b"\x00" * 64)
    result = CliRunner().invoke(app, ["office", "verify"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "cannot be read" in result.output


@pytest.mark.django_db(transaction=True)
def test_a_sheet_edited_in_a_backup_is_found_after_restore(office, tmp_path):
    """A backup carries the sheets (base64 in its lines); a sheet edited inside a backup (the file resealed, as
    one who edits on purpose would) restores, and verify finds it."""
    from django.core.management import call_command

    from qiyuan.office import backup, sheets

    from .test_backup import reseal

    ed = office[1]
    path = tmp_path / "b.jsonl"
    backup.backup(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    cols = S.decode(sheets.stored_sheet(ed.pk).entries, S.ENTRY_SCHEMA, "entries")
    i = next(i for i, r in enumerate(cols["rating"]) if r is not None)
    cols["rating"][i] += 5
    edited = base64.b64encode(S.encode(cols, S.ENTRY_SCHEMA)).decode()
    out, counts, table = [lines[0]], {}, None
    for line in lines[1:-1]:
        item = json.loads(line)
        if isinstance(item, dict):
            table = item["model"]
            counts[table] = item["count"]
        elif table == "ratings.editionsheet" and item[0] == ed.pk:
            names = json.loads(next(x for x in lines if '"model":"ratings.editionsheet"' in x))["fields"]
            item[names.index("entries")] = edited
            line = json.dumps(item) + "\n"
        out.append(line)
    assert "ratings.editionsheet" in counts and counts["ratings.editionsheet"] == len(office)
    tampered = tmp_path / "t.jsonl"
    tampered.write_text("".join(reseal(out, counts, lines[-1])), encoding="utf-8")
    call_command("flush", interactive=False, verbosity=0)
    sheets.forget()
    backup.restore(tampered)
    report = verify()
    assert any(ed.label in d and cols["federation_id"][i] in d for d in report.differences)
