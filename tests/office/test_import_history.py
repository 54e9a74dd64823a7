"""History CSV import: in bulk, the same file refused twice, and the office's lists equal the engine's."""

from __future__ import annotations

import pytest

from tests.support import sheets

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


def test_history_import_stores_players_events_games_entries(tmp_path):
    from qiyuan.office.events.models import Entry, Event, Game, ImportBatch
    from qiyuan.office.federation.models import Player
    from qiyuan.office.ratings.models import ListMember
    from qiyuan.office.imports import import_file

    src = history_dir(tmp_path)
    rl = make_list()
    result = import_file(src, rl, "tester")
    games = sum(1 for _ in open(src / "games.csv", encoding="utf-8")) - 1
    events = sum(1 for _ in open(src / "events.csv", encoding="utf-8")) - 1
    assert result.games == games == Game.objects.count()
    assert Event.objects.filter(rating_list=rl).count() == events
    assert Player.objects.count() == 40 == ListMember.objects.filter(rating_list=rl).count()
    assert Entry.objects.filter(rank=1).count() >= events  # standings.csv ranks kept
    assert ImportBatch.objects.get().summary["games"] == games
    rated = ListMember.objects.filter(rating__isnull=False).count()
    assert rated == 20
    # events go in raw (issue 34 (7)): each as the ORM stores it — its facts, batch, list, the note, today
    import csv
    from datetime import date

    first = next(csv.DictReader(open(src / "events.csv", encoding="utf-8")))
    ev = Event.objects.get(code=first["id"])
    assert (ev.name, ev.format, ev.start_date.isoformat(), ev.end_date.isoformat()) == (
        first["name"], first["format"], first["start_date"], first["end_date"])
    assert (ev.import_batch, ev.rating_list, ev.received_on, ev.status, ev.content_key) == (
        ImportBatch.objects.get(), rl, date.today(), "pending", "")
    assert ev.eligibility["eligible"] is True and ev.eligibility["family"] == rl.family
    assert ev.rounds == Game.objects.filter(event=ev).values("round").distinct().count() > 0


def test_same_history_twice_is_refused_and_nothing_added(tmp_path):
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import ImportRefused, import_file

    src = history_dir(tmp_path)
    rl = make_list()
    import_file(src, rl, "tester")
    n = Game.objects.count()
    with pytest.raises(ImportRefused, match="already imported"):
        import_file(src, rl, "tester")
    assert Game.objects.count() == n


def test_bad_history_lists_every_problem_and_stores_nothing(tmp_path):
    from qiyuan.office.events.models import Event, ImportBatch
    from qiyuan.office.imports import ImportRefused, import_file

    src = history_dir(tmp_path)
    text = (src / "games.csv").read_text(encoding="utf-8").splitlines()
    text[1] = text[1].rsplit(",", 1)[0] + ",2-0"
    text[2] = text[2].replace(text[2].split(",")[2], "NOBODY", 1)
    (src / "games.csv").write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(ImportRefused) as exc:
        import_file(src, make_list(), "tester")
    assert len(exc.value.messages) >= 2
    assert any("2-0" in p for p in exc.value.messages) and any("NOBODY" in p for p in exc.value.messages)
    assert not Event.objects.exists() and not ImportBatch.objects.exists()


@pytest.mark.parametrize(("rules", "go"), [("cga-gomoku-2011", False), ("bjsh-gomoku-2007", False),
                                           ("cn-go-1995", True)])
def test_office_lists_equal_the_engines_history(tmp_path, rules, go):
    """Every published edition holds exactly the engine's list for the same files (compute_history)."""
    from qiyuan.formats.history_csv import read_history
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from qiyuan.rating.history import compute_history

    src = history_dir(tmp_path, go=go)
    rl = make_list(code=rules, rules=rules)
    import_file(src, rl, "tester")
    editions = publish_due(rl, "tester")
    h = read_history(src / "players.csv", src / "events.csv", src / "games.csv", src / "standings.csv")
    hist = compute_history(rl.rules(), h.players, h.events, h.games, h.standings)
    assert [e.list_date for e in editions] == [pl.date for pl in hist.lists]
    for pl, ed in zip(hist.lists, editions):
        stored = {r["federation_id"]: (r["rating"], r["games"], r["status"]) for r in sheets.entries(ed)}
        for e in pl.entries:
            if e.player_id in stored:
                assert stored[e.player_id] == (e.rating, e.games, e.status)
            else:  # only untouched, never-rated players are left off the stored edition
                assert e.rating is None and e.games == 0
    n_changes = sum(len(sheets.changes(ed)) for ed in editions)
    assert n_changes == len(hist.changes)


def test_history_events_count_their_rounds(tmp_path):
    """轮数: an imported history event has the number of distinct rounds of its games (was 0)."""
    from qiyuan.office.events.models import Event, Game
    from qiyuan.office.imports import import_file

    from ._o2_fixtures import history_dir, make_list

    import_file(history_dir(tmp_path), make_list(), "tester")
    for ev in Event.objects.all()[:20]:
        assert ev.rounds == len(set(Game.objects.filter(event=ev).values_list("round", flat=True))) > 0
