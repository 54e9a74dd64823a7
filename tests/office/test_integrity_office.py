"""Issue 37, item 2: ``office integrity`` — the checks stored beside the plausibility flags (same numbering, same
gate at publish), decided by the officer: accepted with a note, or the event held for review (audited, public as
"held for review" naming nobody) and released later for a correction edition."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


def _phantom(rl, day, *, size=10, code="PHANTOM-1"):
    """A reported event (no import batch) of ``size`` new players seen nowhere else, who play only each other."""
    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.federation.models import Player
    from qiyuan.office.ratings.models import ListMember

    end = day - timedelta(days=10)
    event = Event.objects.create(rating_list=rl, code=code, name="幻影公开赛", format="swiss", rounds=5,
                                 start_date=end - timedelta(days=2), end_date=end)
    people = [Player.objects.create(name=f"{code}-{i}", gender="M") for i in range(size)]
    for i, p in enumerate(people):
        ListMember.objects.create(rating_list=rl, player=p, gender="M", registered_on=end - timedelta(days=5))
        Entry.objects.create(event=event, player=p, number=i + 1)
    for rnd in range(1, 6):
        order = people[rnd % size:] + people[:rnd % size]
        for a, b in zip(order[0::2], order[1::2]):
            Game.objects.create(event=event, round=rnd, player1=a, player2=b, result="1-0")
    return event, people


@pytest.fixture
def office(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import due_date, publish_period

    rl = make_list(code="L")
    import_file(history_dir(tmp_path), rl, "tester")
    day = due_date(rl, rl.rules())
    publish_period(rl, day, "officer")
    day = due_date(rl, rl.rules())
    event, people = _phantom(rl, day)
    return rl, day, event, people


def test_a_phantom_event_is_flagged_with_its_evidence_in_words(office):
    from qiyuan.office.periods import check_integrity
    from qiyuan.office.plausibility import describe

    rl, day, event, people = office
    _, flags = check_integrity(rl, day)
    phantom = [f for f in flags if f.kind == "phantom"]
    assert len(phantom) == 1 and phantom[0].event_id == event.pk and phantom[0].blocking
    text = str(describe(phantom[0]))
    assert "PHANTOM-1" in text and "10 of its 10 players are seen in no other event" in text
    assert "25 games were played among them" in text
    # the evidence that strengthens it: registered 3 days before it (list membership), no organiser recorded
    assert "10 of its players were registered or first seen in the 30 days before it" in text
    assert "its organiser is not recorded" in text
    assert check_integrity(rl, day)[1] == flags  # running again keeps the same numbered flags


def test_a_phantoms_organiser_without_history_and_registrations_read_in_both_languages(office):
    from qiyuan.cli import lang
    from qiyuan.office.federation.models import Player
    from qiyuan.office.periods import check_integrity
    from qiyuan.office.plausibility import describe

    rl, day, event, people = office
    event.organiser = "幻影体育公司"
    event.save(update_fields=["organiser"])
    Player.objects.filter(pk=people[0].pk).update(registered_on=event.start_date - timedelta(days=60))  # the registry
    (flag,) = [f for f in check_integrity(rl, day)[1] if f.kind == "phantom"]
    assert flag.detail["recent"] == 9 and flag.detail["organiser_earlier"] == 0
    assert "its organiser 幻影体育公司 has no earlier event" in str(describe(flag))
    lang.activate(lang.CHINESE)
    try:
        text = lang.problem_line(describe(flag, {}))
    finally:
        lang.activate(lang.ENGLISH)
    assert "9 名棋手在赛前 30 天内注册或首次参赛" in text and "主办单位「幻影体育公司」此前没有任何比赛" in text
    assert not any(w in text for w in ("organiser", "registered", "days", "players", "event"))


def test_the_office_reads_its_games_and_lists_as_the_game_by_game_reading_did(office):
    """The columnar read (one query of numbers) gives the events, played games and ratings the object-by-object
    reading gave: unplayed games left out, each game's players by federation ID, in (round, id) order."""
    from collections import defaultdict

    from qiyuan.office import sheets
    from qiyuan.office.events.models import Game
    from qiyuan.office.integrity import ledger
    from qiyuan.rating.model import EventFormat, Result
    from qiyuan.rating.plausibility import AuditGame

    rl, day, event, people = office
    Game.objects.create(event=event, round=9, player1=people[0], player2=people[1], result="+-")  # not played
    Game.objects.create(event=event, round=1, player1=people[2], player2=people[3], result="0.5-0.5")  # a late id
    read = ledger(rl)
    games = defaultdict(list)
    for g in Game.objects.filter(event__rating_list=rl).order_by("event_id", "round", "id").select_related(
            "event", "player1", "player2"):
        if Result(g.result).played:
            games[g.event.code].append(AuditGame(g.event.code, g.round, g.player1.federation_id,
                                                 g.player2.federation_id, Result(g.result)))
    assert [(e.code, e.start, e.end, e.swiss, e.games) for e in read.events] == [
        (e.code, e.start_date, e.end_date, e.format == EventFormat.SWISS.value, tuple(games[e.code]))
        for e in rl.events.all()]
    edition = rl.editions.order_by("-list_date", "-number").first()
    cols = sheets.entries(edition, "federation_id", "rating")
    for fid, rating in list(zip(cols["federation_id"], cols["rating"]))[:20]:
        assert read.rating_before(fid, edition.list_date) == rating


def test_genuine_history_raises_no_integrity_flag(office):
    from qiyuan.office.events.models import Event
    from qiyuan.office.periods import check_integrity

    rl, day, event, _ = office
    Event.objects.filter(pk=event.pk).delete()
    assert [(f.kind, f.event_id, f.detail) for f in check_integrity(rl, day)[1]] == []


def test_an_integrity_flag_blocks_publication_like_a_plausibility_flag(office):
    from qiyuan.office.errors import OfficeError
    from qiyuan.office.periods import publish_period
    from qiyuan.office.plausibility import UNRESOLVED

    rl, day, _, _ = office
    with pytest.raises(OfficeError) as refused:
        publish_period(rl, day, "officer")  # publish runs the checks itself
    assert refused.value.problems[0].code == UNRESOLVED and "phantom event" in str(refused.value)


def test_accepting_with_a_reason_publishes_and_a_flag_never_changes_a_rating(office):
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.periods import check_integrity, compute_period, publish_period

    rl, day, event, _ = office
    before = compute_period(rl, day)
    check_integrity(rl, day)
    ed = publish_period(rl, day, "officer", accept_flags="the organiser's club: new players, score sheets seen")
    assert ed.digest == before.digest  # the flag changed nothing
    assert AuditLog.objects.filter(action="audit.flags_accepted").exists()


def test_holding_leaves_the_event_out_until_released_then_a_correction_rates_it(office):
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.errors import OfficeError
    from qiyuan.office.events.models import Event
    from qiyuan.office.integrity import hold, release
    from qiyuan.office.periods import check_integrity, correct_period, publish_period

    rl, day, event, _ = office
    flag = next(f for f in check_integrity(rl, day)[1] if f.kind == "phantom")
    with pytest.raises(OfficeError, match="with a reason"):
        hold("officer", flag.pk, " ")
    hold("officer", flag.pk, "the organiser cannot show score sheets")
    assert AuditLog.objects.filter(action="integrity.event_held", object_id=str(event.pk)).exists()
    with pytest.raises(OfficeError, match="already held"):
        hold("officer", flag.pk, "again")
    ed = publish_period(rl, day, "officer")  # the decided flag no longer blocks; the event is not in the period
    assert event.code not in set(ed.events.values_list("code", flat=True))
    assert Event.objects.get(pk=event.pk).status == Event.Status.PENDING
    release("officer", event.code, "score sheets received")
    assert AuditLog.objects.filter(action="integrity.event_released").exists()
    fixed = correct_period(rl, day, "the held event released", "officer")
    assert Event.objects.get(pk=event.pk).status == Event.Status.RATED and fixed[0].number == 2


def test_cli_runs_the_checks_holds_lists_and_releases(office):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    rl, day, event, _ = office
    runner = CliRunner()
    shown = runner.invoke(app, ["office", "integrity", "--list", "L", "--date", str(day)])
    assert shown.exit_code == 0 and "phantom event" in shown.output and "to check" in shown.output, shown.output
    number = shown.output.split("#", 1)[1].split(" ", 1)[0]
    held = runner.invoke(app, ["office", "integrity", "hold", number, "--reason", "no score sheets"])
    assert held.exit_code == 0 and "held for review" in held.output, held.output
    listed = runner.invoke(app, ["office", "integrity", "held", "--list", "L"])
    assert "PHANTOM-1" in listed.output and "no score sheets" in listed.output
    bad = runner.invoke(app, ["office", "integrity", "release", "NOPE", "--reason", "x"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "not held" in bad.output
    ok = runner.invoke(app, ["office", "integrity", "release", "PHANTOM-1", "--reason", "sheets seen"])
    assert ok.exit_code == 0 and "period correct" in ok.output


@pytest.mark.parametrize("kind", ["pool", "thrown", "phantom", "sandbag", "pairs"])
def test_every_integrity_flag_reads_in_chinese(office, kind):
    from qiyuan.cli import lang
    from qiyuan.office.audit.models import AuditFlag
    from qiyuan.office.plausibility import describe

    rl, day, event, _ = office
    detail = {"events": ["A", "B"], "members": 4, "games": 6, "score": "6", "expected": "3", "probability": "1/64",
              "nowhere_else": 10, "players": 10, "among_them": 25, "limit": 1799, "rating": 1780, "peak": 1950,
              "peak_date": "2019-01-01", "fall": 170, "losses": 12, "met": 5, "together": 5}
    flag = AuditFlag.objects.create(rating_list=rl, list_date=day, key=f"test|{kind}", kind=kind, event=event,
                                    players=["X1", "X2"], detail=detail)
    lang.activate(lang.CHINESE)
    try:
        text = lang.problem_line(describe(flag, {}))
    finally:
        lang.activate(lang.ENGLISH)
    assert "PHANTOM-1" in text and not any(w in text for w in ("games", "players", "expected", "chance", "event"))


def test_an_imported_files_rating_band_prizes_reach_the_checks(tmp_path):
    """The band prizes a report or event file names (``XQP rating -1799``) are what the sandbagging check reads."""
    from qiyuan.office.imports import Options
    from qiyuan.office.imports.parse import parse_trf

    from ._o2_fixtures import SHARED

    trf = tmp_path / "bands.trf"
    text = (SHARED / "data" / "trf" / "lichess-swiss-2020-05-29.trf").read_text(encoding="utf-8")
    trf.write_text(text.rstrip("\n") + "\nXQP rating 1800-1999\nXQP women\nXQP rating -1799\n", encoding="utf-8")
    assert parse_trf(trf, Options()).prize_bands == [1799, 1999]
    assert parse_trf(SHARED / "data" / "trf" / "lichess-swiss-2020-05-29.trf", Options()).prize_bands == []


def test_band_floors_are_the_highest_published_rating_of_the_last_editions(office, settings):
    from qiyuan.office.event_registration.entries import _above
    from qiyuan.office.integrity import band_floors
    from qiyuan.office.ratings.models import Edition

    from tests.support.sheets import entries

    rl, day, event, _ = office
    published = {}  # each player's highest published rating (of every edition: their last few are all there are)
    for ed in Edition.objects.filter(rating_list=rl):
        for e in entries(ed):
            if e["rating"] is not None:
                published[e["federation_id"]] = max(e["rating"], published.get(e["federation_id"], e["rating"]))
    some = sorted(published)[:5]
    assert len(some) == 5
    assert band_floors(rl, some, 2) == {fid: published[fid] for fid in some}
    assert band_floors(rl, some, 0) == {}  # the setting off: no floors
    assert _above(1950, 1780) == 1950 and _above(1700, 1780) is None and _above(1950, None) is None


def test_publishing_a_history_folders_period_does_not_run_the_checks(office):
    from qiyuan.office.audit.models import IntegrityRun

    rl, day, _, _ = office  # the fixture published the first period: history-folder events only
    assert not IntegrityRun.objects.filter(rating_list=rl).exists()


def test_only_an_integrity_flag_of_a_pending_event_holds_it(office):
    from qiyuan.errors import NotFound
    from qiyuan.office.audit.models import AuditFlag
    from qiyuan.office.errors import OfficeError
    from qiyuan.office.events.models import Event
    from qiyuan.office.integrity import hold, release

    rl, day, event, _ = office
    rated = Event.objects.filter(rating_list=rl, status=Event.Status.RATED).first()
    twice = AuditFlag.objects.create(rating_list=rl, list_date=day, key="t|1", kind="twice", event=event)
    with pytest.raises(OfficeError, match="not an integrity flag"):
        hold("officer", twice.pk, "why not")
    old = AuditFlag.objects.create(rating_list=rl, list_date=day, key="p|1", kind="pool", event=rated)
    with pytest.raises(OfficeError, match="already rated"):
        hold("officer", old.pk, "too late")
    with pytest.raises(NotFound, match="not held"):
        release("officer", event.code, "never held")
