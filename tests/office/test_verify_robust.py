"""Issue 19 (4, 6, 7, canonical_version): verify never crashes and covers the public facts; membership by the
edition a player joined in, not by clocks; the canonical text's version; publish --all stops at a future date."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, timedelta

import pytest

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    return publish_due(rl, "officer")


def _ok_except(report, edition_label: str) -> list[str]:
    """The differences, all of them of the named edition."""
    assert report.differences
    assert all(edition_label in d for d in report.differences), report.differences
    return report.differences


def test_a_member_stamped_after_publication_still_verifies(office):
    """A clock stepped back (or a lagging app host): a member's joined_at 5 s after the edition's published_at.
    Membership is the edition he joined in, so nothing is different."""
    from qiyuan.office.ratings.models import ListMember
    from qiyuan.office.verify import verify_all

    first = office[0]
    assert ListMember.objects.filter(joined_in=first).exists()
    ListMember.objects.filter(joined_in=first).update(joined_at=first.published_at + timedelta(seconds=5))
    assert verify_all().ok


def test_a_member_moved_to_a_later_edition_is_a_listed_difference(office):
    from qiyuan.office.events.models import Game
    from qiyuan.office.ratings.models import ListMember
    from qiyuan.office.verify import verify_all

    first = office[0]
    player = Game.objects.filter(event__in=first.events.all()).first().player1
    ListMember.objects.filter(player=player).update(joined_in=office[-1])
    report = verify_all()  # no traceback
    assert report.editions == len(office)
    assert any(first.label in d and player.federation_id in d and "not on the list as of this edition" in d
               for d in report.differences), report.differences


def test_an_opponent_replaced_by_a_player_not_in_the_event_is_a_listed_difference(office):
    from qiyuan.office.events.models import Entry, Game
    from qiyuan.office.federation.models import Player
    from qiyuan.office.verify import verify_all

    ed = office[1]
    ev = ed.events.order_by("code").first()
    stranger = Player.objects.create(federation_id="Z99999", name="陌生人", registered_on=date(2000, 1, 1))
    assert not Entry.objects.filter(event=ev, player=stranger).exists()
    g = Game.objects.filter(event=ev).order_by("round", "id").first()
    Game.objects.filter(pk=g.pk).update(player2=stranger)
    report = verify_all()
    assert report.editions == len(office)
    found = _ok_except(report, ed.label)
    assert any(ev.code in d and "Z99999" in d and "not an entrant" in d for d in found), found


def test_a_stored_result_that_is_no_result_is_a_named_difference_in_words(office):
    """A game's result edited by hand in the database to a value no result has: verify names the event and the
    value in the officer's language, never the program's internal error."""
    from django.utils import translation

    from qiyuan.office.events.models import Game
    from qiyuan.office.verify import verify_all

    ed = office[1]
    ev = ed.events.order_by("code").first()
    g = Game.objects.filter(event=ev).order_by("round", "id").first()
    Game.objects.filter(pk=g.pk).update(result="X?")
    found = _ok_except(verify_all(), ed.label)
    assert any(f"event {ev.code}: a stored game has the result 'X?', which is not a game result" in d
               for d in found), found
    assert not any("KeyError" in d for d in found)
    with translation.override("zh-hans"):  # (as the command line shows a difference: translated)
        shown = [d.problem.text(translation.gettext) for d in found]
    assert any(f"赛事 {ev.code}：存储的一局对局结果为 'X?'，这不是对局结果" in d for d in shown), shown


def test_an_event_moved_past_its_list_date_is_a_listed_difference(office):
    from qiyuan.office.events.models import Event
    from qiyuan.office.verify import verify_all

    ed = office[0]
    ev = ed.events.order_by("code").first()
    Event.objects.filter(pk=ev.pk).update(end_date=ed.list_date + timedelta(days=3))
    report = verify_all()
    assert report.editions == len(office)
    assert any(ed.label in d and ev.code in d and "outside the period" in d for d in report.differences)


@pytest.mark.parametrize("fact", ["event dates", "national flag", "event status", "game round", "game opener",
                                  "reported rating", "score", "published by", "member grade"])
def test_an_edited_public_fact_is_found(office, fact):
    """Facts the recomputation does not read are covered by the inputs digest stored with each edition."""
    from decimal import Decimal

    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.ratings.models import Edition, ListMember
    from qiyuan.office.verify import verify_all

    ed = office[0] if fact == "member grade" else office[1]  # (every member of the history joined in the first)
    ev = ed.events.order_by("code").first()
    g = Game.objects.filter(event=ev).order_by("round", "id").first()
    entry = Entry.objects.filter(event=ev).order_by("id").first()
    edit = {
        "event dates": lambda: Event.objects.filter(pk=ev.pk).update(start_date=ev.start_date - timedelta(days=1)),
        "national flag": lambda: Event.objects.filter(pk=ev.pk).update(national=not ev.national),
        "event status": lambda: Event.objects.filter(pk=ev.pk).update(status=Event.Status.PENDING),
        "game round": lambda: Game.objects.filter(pk=g.pk).update(round=g.round + 100),
        "game opener": lambda: Game.objects.filter(pk=g.pk).update(opener=2 if g.opener == 1 else 1),
        "reported rating": lambda: Entry.objects.filter(pk=entry.pk).update(rating=(entry.rating or 0) + 7),
        "score": lambda: Entry.objects.filter(pk=entry.pk).update(score=(entry.score or Decimal(0)) + 1),
        "published by": lambda: Edition.objects.filter(pk=ed.pk).update(published_by="someone else"),
        "member grade": lambda: ListMember.objects.filter(joined_in=ed).update(dan="9d"),
    }[fact]
    edit()
    report = verify_all()
    assert any(ed.label in d and "public facts" in d for d in report.differences), report.differences


def test_each_edition_stores_its_canonical_version_and_inputs_digest(office):
    from qiyuan.formats.canonical_text import CURRENT_VERSION, inputs_digest
    from qiyuan.office.canonical import stored_inputs

    from tests.support.sheets import entries

    for ed in office:
        ed.refresh_from_db()
        assert ed.canonical_version == CURRENT_VERSION
        published = {e["federation_id"] for e in entries(ed)}
        assert len(ed.inputs_digest) == 64 and ed.inputs_digest == inputs_digest(stored_inputs(ed.pk,
                                                                                               published=published))


def test_an_unknown_canonical_version_is_a_listed_difference(office):
    from qiyuan.office.ratings.models import Edition
    from qiyuan.office.verify import verify_all

    Edition.objects.filter(pk=office[0].pk).update(canonical_version=99)
    report = verify_all()
    assert report.editions == len(office)
    assert [d for d in report.differences if "version 99 is unknown" in d] and \
        all(office[0].label in d for d in report.differences)


def test_an_edition_verifies_with_the_writer_of_its_version(office, monkeypatch):
    """A later version of the text (here: explanations written with a marker) publishes in its version while
    the editions written in version 1 verify as published."""
    from dataclasses import replace

    from qiyuan.formats import canonical_text as T
    from qiyuan.office import canonical
    from qiyuan.office.verify import verify_all

    now = T.CURRENT_VERSION  # (the editions were written in it; a later version comes after it)
    later = replace(T.WRITERS[now], version=now + 1,
                    change_text=lambda c: T.WRITERS[now].change_text(c)[:-1] + f',"v":{now + 1}}}')
    monkeypatch.setitem(T.WRITERS, now + 1, later)
    monkeypatch.setattr(canonical, "CURRENT_VERSION", now + 1)
    report = verify_all()
    assert report.ok, report.differences
    from qiyuan.office.periods import compute_period

    ed = office[0]
    assert compute_period(ed.rating_list, ed.list_date).canonical_version == now + 1


def test_the_migration_gives_existing_editions_their_membership_and_inputs_digest(office):
    """Migration 0006 on an office published before it: joined_in from the clocks as they were compared until
    then, the inputs digest from the data as it stands; verify then finds everything identical. The editions are
    given their rows of then (``EditionEntry``, in a table made here at that schema: 0009 dropped it), which 0006
    reads with the models of its own time."""
    import importlib

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from qiyuan.formats.canonical_text import inputs_digest
    from qiyuan.office import sheets
    from qiyuan.office.canonical import stored_inputs
    from qiyuan.office.ratings.models import Edition, ListMember
    from qiyuan.office.verify import verify_all

    from tests.support.sheets import entries

    name = "0006_edition_inputs_and_membership"
    apps = MigrationExecutor(connection).loader.project_state(("ratings", name), at_end=True).apps
    editor = connection.schema_editor()  # (its SQL only: no editor is entered inside the test's transaction)
    editor.deferred_sql = []  # (where the table's foreign keys would go, left out here)
    sql, params = editor.table_sql(apps.get_model("ratings", "EditionEntry"))
    with connection.cursor() as cur:
        cur.execute(sql, params)
        for ed in Edition.objects.all():
            for e in entries(ed):
                cur.execute("INSERT INTO ratings_editionentry (edition_id, player_id, position, name, exact, games, "
                            "status, is_new, state) VALUES (%s, %s, %s, '', '', 0, 'active', %s, '{}')",
                            [ed.pk, e["player"], e["position"], False])
    # (editions of then were at most version 2: the audit head and provenance parts came with version 3)
    Edition.objects.filter(canonical_version__gt=2).update(canonical_version=2)
    for ed in Edition.objects.all():
        Edition.objects.filter(pk=ed.pk).update(inputs_digest=inputs_digest(stored_inputs(
            ed.pk, published=set(sheets.entries(ed, "federation_id")["federation_id"]))))
    before = dict(ListMember.objects.values_list("pk", "joined_in_id"))
    digests = dict(Edition.objects.values_list("pk", "inputs_digest"))
    ListMember.objects.update(joined_in=None)
    Edition.objects.update(inputs_digest="")
    migration = importlib.import_module(f"qiyuan.office.ratings.migrations.{name}")
    migration.forward(apps, None)
    assert dict(ListMember.objects.values_list("pk", "joined_in_id")) == before
    assert dict(Edition.objects.values_list("pk", "inputs_digest")) == digests
    assert verify_all().ok


def test_the_canonical_writer_needs_no_django():
    code = ("import sys, qiyuan.formats.canonical_text as t; "
            "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'; print(t.WRITERS)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_publish_all_stops_at_the_first_future_date(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import NOT_YET_DUE, publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    notes: list = []
    eds = publish_due(rl, "officer", notes=notes, today=date(2020, 2, 15))
    assert [e.list_date for e in eds] == [date(2019, 7, 1), date(2020, 1, 1)]
    [note] = notes
    assert note.code == NOT_YET_DUE and "2020-07-01" in str(note)
    more = publish_due(rl, "officer", notes=[], today=date(2021, 7, 1))
    assert more and more[0].list_date == date(2020, 7, 1)


def test_publish_all_command_publishes_what_is_due_and_says_where_it_stopped(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.office import periods
    from qiyuan.office.imports import import_file

    class Day(date):
        @classmethod
        def today(cls):
            return date(2020, 2, 15)

    monkeypatch.setattr(periods, "date", Day)
    import_file(history_dir(tmp_path), make_list(), "tester")
    result = CliRunner().invoke(app, ["office", "period", "publish", "--list", "CGA", "--all"])
    assert result.exit_code == 0, result.output
    assert "published CGA 2019-07-01" in result.output and "published CGA 2020-01-01" in result.output
    assert "note: stopped before the list of CGA 2020-07-01" in result.output


def test_long_commands_print_plain_progress_lines_off_a_terminal(office):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    result = CliRunner().invoke(app, ["office", "verify"])
    assert result.exit_code == 0, result.output
    assert f"verifying editions: {len(office)}/{len(office)} (CGA {office[-1].label})" in result.output


def test_editions_published_on_the_fast_engine_are_the_reference_engines(office, tmp_path):
    """Issue 19 (2, 3): the office publishes through compute_history on the fast engine; recomputing every
    edition with the reference engine gives the same digests, bit for bit (and a correction too)."""
    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import correct_period
    from qiyuan.office.ratings.models import RatingList
    from qiyuan.office.verify import verify_all

    from .test_periods import late_batch

    rl = RatingList.objects.get(code="CGA")
    import_file(late_batch(tmp_path, history_dir(tmp_path, seed=7, prefix="X"), date(2019, 11, 2)), rl, "t")
    correct_period(rl, date(2020, 1, 1), "late report", "officer")
    report = verify_all(engine="reference")
    assert report.ok, report.differences
    result = CliRunner().invoke(app, ["office", "verify", "--engine", "reference"])
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(app, ["office", "verify", "--engine", "quick"])
    assert bad.exit_code == 2 and "not one of fast, reference" in bad.output


def test_a_state_equal_in_value_but_not_in_text_is_written_anew():
    """The states' text cache reuses a state's text only for the very object: 1647 == 1647.00 as numbers, but
    the edition stores the text (found by the benchmark: a publication chain wrote a stale "1647.00")."""
    import json
    from decimal import Decimal

    from qiyuan.office.periods import MemberCache, _entries
    from qiyuan.rating import results as R
    from qiyuan.rating.list_states import ListStates
    from qiyuan.rating.rules import BUILTIN_RULES
    from qiyuan.rating.state import PlayerState

    old = PlayerState(player_id="P1", rating=1647, exact=Decimal("1647.00"), games=30, status=R.INACTIVE)
    new = PlayerState(player_id="P1", rating=1647, exact=Decimal("1647"), games=30, status=R.INACTIVE)
    assert old == new
    cache = MemberCache({}, {"P1": (1, "甲", None)})
    rules = BUILTIN_RULES["cga-gomoku-2011"]
    first = ListStates.from_states({"P1": old}, cache.texts)
    again = ListStates.from_states({"P1": new}, cache.texts)
    assert json.loads(_entries(rules, first, first, cache)[0].state_text)["x"] == "1647.00"
    assert json.loads(_entries(rules, again, first, cache)[0].state_text)["x"] == "1647"
