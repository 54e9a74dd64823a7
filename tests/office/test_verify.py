"""`qiyuan office verify`: every published edition recomputed identical, bit for bit; tampering is found."""

from __future__ import annotations

from datetime import date

import pytest

from tests.support import sheets as sheet

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    go = make_list(code="GO", rules="cn-go-1995", game="go")
    import_file(history_dir(tmp_path, seed=8, go=True, prefix="G"), go, "tester")
    return publish_due(rl, "officer") + publish_due(go, "officer")


def test_every_edition_verifies(office):
    from qiyuan.office.verify import verify_all

    report = verify_all()
    assert report.ok, report.differences
    assert report.editions == len(office)


def test_a_tampered_rating_is_found(office):
    from qiyuan.office.verify import verify_all

    ed = office[1]
    entry = next(r for r in sheet.entries(ed) if r["rating"] is not None)
    sheet.edit_row(ed, "entries", lambda r: r["federation_id"] == entry["federation_id"], rating=entry["rating"] + 1)
    report = verify_all()
    assert not report.ok
    assert any("altered after publication" in d for d in report.differences)
    assert any(entry["federation_id"] in d for d in report.differences)


def test_a_tampered_game_result_is_found(office):
    from qiyuan.office.events.models import Game
    from qiyuan.office.verify import verify_all

    ev = office[0].events.first()
    g = Game.objects.filter(event=ev, result="1-0").first()
    Game.objects.filter(pk=g.pk).update(result="0-1")
    report = verify_all()
    assert not report.ok and any("recomputed" in d for d in report.differences)


def test_a_later_registry_change_does_not_break_verification(office):
    """Players start from the facts frozen when they joined the list, and the names published."""
    from qiyuan.office.federation.models import Player
    from qiyuan.office.verify import verify_all

    Player.objects.update(dan="9d", name="改名")
    assert verify_all().ok


def test_corrections_and_superseded_editions_verify(tmp_path, office):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import correct_period
    from qiyuan.office.verify import verify_all
    from qiyuan.office.ratings.models import RatingList

    from .test_periods import late_batch

    rl = RatingList.objects.get(code="CGA")
    import_file(late_batch(tmp_path, history_dir(tmp_path, seed=7, prefix="X"), date(2019, 11, 2)), rl, "t")
    correct_period(rl, date(2020, 1, 1), "late report", "officer")
    assert verify_all().ok


def test_verify_cli_exit_codes(office, monkeypatch):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    runner = CliRunner()
    ok = runner.invoke(app, ["office", "verify"])
    assert ok.exit_code == 0, ok.output
    assert "identical" in ok.output
    sheet.edit_sheet(office[0], "entries", lambda cols: cols["games"].__setitem__(0, cols["games"][0] + 1))
    bad = runner.invoke(app, ["office", "verify"])
    assert bad.exit_code == 1


@pytest.mark.parametrize("column", ["delta", "after", "before", "We", "W", "K", "games", "method"])
def test_an_edited_rating_change_number_is_found(office, column):
    """Issue 8 (3): verify covers every published number — a change's ΔR, after, We … (what the public event
    and player pages show) edited in the database is named by edition, event, player and column, exit 1."""
    from decimal import Decimal

    from qiyuan.office.verify import verify_all

    ed = next(e for e in office if any(c["K"] is not None and c["We"] is not None for c in sheet.changes(e)))
    picked = lambda c: c["K"] is not None and c["We"] is not None  # noqa: E731
    old = next(c for c in sheet.changes(ed) if picked(c))[column]
    if column == "method":
        new = "averaging" if old != "averaging" else "per_game"
    elif column in ("K", "games"):
        new = old + 1
    else:
        new = (old or Decimal(0)) + Decimal("0.5")
    change = sheet.edit_row(ed, "changes", picked, **{column: new})  # behind the model's back
    report = verify_all()
    assert not report.ok
    [line] = [d for d in report.differences if f"stored {column} " in d]
    assert f"{ed.rating_list.code} {ed.label}" in line
    assert change["event_code"] in line and change["federation_id"] in line


def test_verify_command_exits_1_on_an_edited_change(office):
    from decimal import Decimal

    from typer.testing import CliRunner

    from qiyuan.cli import app

    ed = next(e for e in office if any(c["K"] is not None for c in sheet.changes(e)))
    old = next(c for c in sheet.changes(ed) if c["K"] is not None)
    sheet.edit_row(ed, "changes", lambda c: c["K"] is not None, delta=old["delta"] + Decimal(3))
    result = CliRunner().invoke(app, ["office", "verify"])
    assert result.exit_code == 1 and "stored delta" in result.output


def test_a_state_rewritten_in_another_form_is_found_and_an_altered_value_is_named(office):
    """A sheet holds each state and explanation as the digest's bytes: written again in another form (key order,
    spaces) — the same values — it no longer gives the digest (the text is what was published); a value changed
    inside a state is found and named by player."""
    import json

    from qiyuan.formats.canonical_text import as_json
    from qiyuan.office.verify import verify_all

    ed = office[1]
    entry = next(r for r in sheet.entries(ed) if r["rating"] is not None)
    state = json.loads(entry["state"])
    spaced = json.dumps(dict(reversed(list(state.items()))), indent=1)
    sheet.edit_row(ed, "entries", lambda r: r["federation_id"] == entry["federation_id"], state=spaced)
    report = verify_all()
    assert any("altered after publication" in d and ed.label in d for d in report.differences)
    altered = as_json(dict(state, n=state["n"] + 1))
    sheet.edit_row(ed, "entries", lambda r: r["federation_id"] == entry["federation_id"], state=altered)
    report = verify_all()
    assert not report.ok
    assert any("altered after publication" in d for d in report.differences)
    assert any(entry["federation_id"] in d for d in report.differences)
