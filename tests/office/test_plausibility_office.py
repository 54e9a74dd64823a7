"""Issue 18, item 4: the plausibility audit stored at compute, marked checked (audited), and read by publish:
a report's unresolved flags refuse the publication unless accepted with a reason; a history folder's never."""

from __future__ import annotations

import pytest

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(tmp_path):
    """A history imported, then one game of the first period doubled: a player twice in one round."""
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import compute_period, due_date

    rl = make_list(code="L")
    import_file(history_dir(tmp_path), rl, "tester")
    day = due_date(rl, rl.rules())
    event = compute_period(rl, day).events[0]
    g = Game.objects.filter(event=event).order_by("round", "id").first()
    other = Game.objects.filter(event=event).exclude(player1=g.player1).exclude(player2=g.player1) \
        .exclude(player1=g.player2).exclude(player2=g.player2).first()
    Game.objects.create(event=event, round=g.round, player1=g.player1, player2=other.player1, result="1-0")
    return rl, day, event


def _as_report(event):
    """The event as if imported from a report (not a history folder)."""
    type(event).objects.filter(pk=event.pk).update(import_batch=None)


def test_compute_stores_flags_naming_event_round_and_players(office):
    from qiyuan.office.periods import compute_period
    from qiyuan.office.plausibility import audit_period, describe

    rl, day, event = office
    flags = audit_period(compute_period(rl, day))
    twice = [f for f in flags if f.kind == "twice"]
    assert twice and {(f.event_id, f.round) for f in twice} == {(event.pk, twice[0].round)}
    text = str(describe(twice[0]))
    assert event.code in text and f"round {twice[0].round}" in text and twice[0].players[0] in text
    assert twice[0].history and not twice[0].blocking  # a history folder's flag: shown, never blocking


def test_a_reports_flag_blocks_publication_until_checked(office):
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.errors import OfficeError
    from qiyuan.office.periods import compute_period, publish_period
    from qiyuan.office.plausibility import UNRESOLVED, audit_period, mark_checked

    rl, day, event = office
    _as_report(event)
    flags = [f for f in audit_period(compute_period(rl, day)) if f.kind == "twice"]
    assert all(f.blocking for f in flags)
    with pytest.raises(OfficeError) as refused:
        publish_period(rl, day, "officer")
    assert refused.value.problems[0].code == UNRESOLVED and "--accept-flags" in str(refused.value)
    with pytest.raises(OfficeError, match="with a note"):
        mark_checked("officer", flags[0].pk, "  ")
    for flag in flags:
        mark_checked("officer", flag.pk, "the arbiter confirmed: the bye was recorded as a game")
        assert AuditLog.objects.filter(action="audit.flag_checked", object_id=str(flag.pk)).exists()
    audit_period(compute_period(rl, day))  # computing again keeps the mark
    assert publish_period(rl, day, "officer").number == 1


def test_accepting_the_flags_with_a_reason_publishes_and_is_audited(office):
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.periods import publish_period

    rl, day, event = office
    _as_report(event)
    publish_period(rl, day, "officer", accept_flags="the federation's board decided to rate as reported")
    entry = AuditLog.objects.get(action="audit.flags_accepted")
    assert entry.detail["reason"].startswith("the federation's board") and entry.detail["flags"]


def test_cli_compute_shows_and_publish_asks_for_accept_flags(office):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    rl, day, event = office
    _as_report(event)
    runner = CliRunner()
    shown = runner.invoke(app, ["office", "period", "compute", "--list", "L", "--date", str(day)])
    assert shown.exit_code == 0 and "plausibility audit: " in shown.output and "to check" in shown.output
    listed = runner.invoke(app, ["office", "flags", "--list", "L", "--date", str(day)])
    assert listed.exit_code == 0 and "plays 2 games in one round" in listed.output, listed.output
    refused = runner.invoke(app, ["office", "period", "publish", "--list", "L", "--date", str(day)])
    assert refused.exit_code == 2 and "--accept-flags" in refused.output
    ok = runner.invoke(app, ["office", "period", "publish", "--list", "L", "--date", str(day),
                             "--accept-flags", "checked with the arbiter"])
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize("all_due", [True, False], ids=["publish --all", "publish --date"])
def test_the_flags_a_refused_publication_names_survive_its_rollback(office, all_due):
    """Issue 32: ``publish --all`` named flags #1–#4 that its own rollback discarded (``office flags check 1``: no
    such flag). Every number the refusal gives is a stored flag that ``office flags check`` marks."""
    import re

    from typer.testing import CliRunner

    from qiyuan.cli import app
    from qiyuan.office.audit.models import AuditFlag

    rl, day, event = office
    _as_report(event)
    assert not AuditFlag.objects.exists()  # never audited before: the publication is the first to find them
    runner = CliRunner()
    refused = runner.invoke(app, ["office", "period", "publish", "--list", "L",
                                  *(["--all"] if all_due else ["--date", str(day)])])
    assert refused.exit_code == 2, refused.output
    named = sorted({int(n) for n in re.findall(r"#(\d+) ", refused.output)})
    assert named and named == sorted(AuditFlag.objects.filter(checked_at__isnull=True, history=False)
                                     .values_list("pk", flat=True))
    for n in named:
        checked = runner.invoke(app, ["office", "flags", "check", str(n), "--note", "arbiter confirmed"])
        assert checked.exit_code == 0, checked.output
    ok = runner.invoke(app, ["office", "period", "publish", "--list", "L", "--date", str(day)])
    assert ok.exit_code == 0, ok.output


def test_a_flag_is_of_a_history_folder_only_when_every_event_it_names_is():
    from qiyuan.office.plausibility import _of_history
    from qiyuan.rating.plausibility import Flag

    history = {"H1", "H2"}
    assert _of_history(Flag("ratings", None, None, ("p",), {"ratings": {"H1": 2800, "H2": 1800}}), history)
    assert not _of_history(Flag("ratings", None, None, ("p",), {"ratings": {"H1": 2800, "R1": 1800}}), history)
    assert not _of_history(Flag("overlap", "H1", None, ("p",), {"other": "R1"}), history)  # a report is in it
    assert _of_history(Flag("twice", "H2", 3, ("p",)), history)
    assert not _of_history(Flag("same_person", None, None, ("p", "q")), history)  # no event: the officer's to see
