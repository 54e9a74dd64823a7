"""`qiyuan office verify`: every published edition recomputed identical, bit for bit; tampering is found."""

from __future__ import annotations

from datetime import date

import pytest

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
    from qiyuan.office.ratings.models import EditionEntry
    from qiyuan.office.verify import verify_all

    ed = office[1]
    entry = ed.entries.filter(rating__isnull=False).first()
    EditionEntry.objects.filter(pk=entry.pk).update(rating=entry.rating + 1)  # behind the model's back
    report = verify_all()
    assert not report.ok
    assert any("altered after publication" in d for d in report.differences)
    assert any(entry.player.federation_id in d for d in report.differences)


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
    from qiyuan.office.ratings.models import EditionEntry

    runner = CliRunner()
    ok = runner.invoke(app, ["office", "verify"])
    assert ok.exit_code == 0, ok.output
    assert "identical" in ok.output
    e = office[0].entries.filter(rating__isnull=False).first()
    EditionEntry.objects.filter(pk=e.pk).update(games=e.games + 1)
    bad = runner.invoke(app, ["office", "verify"])
    assert bad.exit_code == 1


@pytest.mark.parametrize("column", ["delta", "after", "before", "We", "W", "K", "games", "method"])
def test_an_edited_rating_change_number_is_found(office, column):
    """Issue 8 (3): verify covers every published number — a change's ΔR, after, We … (what the public event
    and player pages show) edited in the database is named by edition, event, player and column, exit 1."""
    from decimal import Decimal

    from qiyuan.office.ratings.models import RatingChange
    from qiyuan.office.verify import verify_all

    change = RatingChange.objects.filter(K__isnull=False, We__isnull=False).select_related(
        "edition", "event", "player").order_by("id").first()
    old = getattr(change, column)
    if column == "method":
        new = "averaging" if old != "averaging" else "per_game"
    elif column in ("K", "games"):
        new = old + 1
    else:
        new = (old or Decimal(0)) + Decimal("0.5")
    RatingChange.objects.filter(pk=change.pk).update(**{column: new})  # behind the model's back
    report = verify_all()
    assert not report.ok
    [line] = [d for d in report.differences if f"stored {column} " in d]
    ed = change.edition
    assert f"{ed.rating_list.code} {ed.label}" in line
    assert change.event.code in line and change.player.federation_id in line


def test_verify_command_exits_1_on_an_edited_change(office):
    from decimal import Decimal

    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.office.ratings.models import RatingChange

    change = RatingChange.objects.filter(K__isnull=False).order_by("id").first()
    RatingChange.objects.filter(pk=change.pk).update(delta=change.delta + Decimal(3))
    result = CliRunner().invoke(app, ["office", "verify"])
    assert result.exit_code == 1 and "stored delta" in result.output


def test_json_rewritten_in_another_form_verifies_and_an_altered_value_is_found(office):
    """Verify first hashes the JSON texts as stored (the bytes written at publication); a state or explanation
    written again in another form (key order, spaces) — the same values — still verifies identical, and a value
    changed inside the text is found, named by player."""
    import json

    from django.db import connection

    from qiyuan.office.ratings.models import EditionEntry, RatingChange
    from qiyuan.office.verify import verify_all

    ed = office[1]
    entry = ed.entries.filter(rating__isnull=False).first()
    change = ed.changes.first()
    spaced = json.dumps(dict(reversed(list(entry.state.items()))), indent=1)
    value = "%s::jsonb" if connection.vendor == "postgresql" else "%s"
    with connection.cursor() as cur:  # behind the model's back, text and all
        cur.execute(f"UPDATE {EditionEntry._meta.db_table} SET state = {value} WHERE id = %s", [spaced, entry.pk])
        cur.execute(f"UPDATE {RatingChange._meta.db_table} SET explanation = {value} WHERE id = %s",
                    [json.dumps(change.explanation, indent=2, sort_keys=False), change.pk])
    report = verify_all()
    assert report.ok, report.differences
    altered = dict(entry.state, n=entry.state["n"] + 1)
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {EditionEntry._meta.db_table} SET state = {value} WHERE id = %s",
                    [json.dumps(altered), entry.pk])
    report = verify_all()
    assert not report.ok
    assert any("altered after publication" in d for d in report.differences)
    assert any(entry.player.federation_id in d for d in report.differences)
