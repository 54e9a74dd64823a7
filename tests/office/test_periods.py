"""Rating periods in the office: compute from the stored state, publish in calendar order, late reports, corrections."""

from __future__ import annotations

import shutil
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


def _imported(tmp_path, rules="cga-gomoku-2011"):
    from qiyuan.office.imports import import_file

    rl = make_list(code="L", rules=rules)
    import_file(history_dir(tmp_path), rl, "tester")
    return rl


def late_batch(tmp_path, src, end: date):
    """A second history batch (the same players) with one event ending on ``end``: a report arriving late."""
    d = tmp_path / f"late{end:%Y%m%d}"
    d.mkdir()
    shutil.copy(src / "players.csv", d / "players.csv")
    (d / "events.csv").write_text(f"id,name,start_date,end_date,format\nLATE1,迟到的比赛,{end},{end},round_robin\n",
                                  encoding="utf-8")
    rows = ["event_id,round,player1,player2,result"]
    ids = [f"T{i:05d}" for i in range(1, 7)]
    rnd = 0
    for i in range(6):
        for j in range(i + 1, 6):
            rnd += 1
            rows.append(f"LATE1,{rnd},{ids[i]},{ids[j]},{'1-0' if (i + j) % 3 else '0-1'}")
    (d / "games.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return d


def test_compute_is_a_preview_and_publish_stores_an_edition(tmp_path):
    """Issue 34 (1, 8): the edition is stored as its sheet alone — the row tables of before (``EditionEntry``,
    ``RatingChange``) are gone."""
    from django.db import connection

    from qiyuan.office.ratings.models import Edition

    from tests.support import sheets
    from qiyuan.office.periods import compute_period, due_date, publish_period

    rl = _imported(tmp_path)
    d = due_date(rl, rl.rules())
    assert d == date(2019, 7, 1)
    comp = compute_period(rl, d)
    assert comp.events and comp.changes and not Edition.objects.exists()
    some = comp.changes[0].player_id
    assert all(c.player_id == some for c in comp.explain(some))
    ed = publish_period(rl, d, "officer")
    assert ed.digest == comp.digest and ed.number == 1 and not ed.is_correction
    assert len(sheets.entries(ed)) == len(comp.entries) and len(sheets.changes(ed)) == len(comp.changes)
    assert not {"ratings_editionentry", "ratings_ratingchange"} & set(connection.introspection.table_names())
    assert set(ed.events.values_list("status", flat=True)) == {"rated"}


def test_cga_2_1_lists_only_on_1_january_and_1_july(tmp_path):
    from qiyuan.office.periods import OfficeError, publish_period

    rl = _imported(tmp_path)
    with pytest.raises(OfficeError, match="not a publication date"):
        publish_period(rl, date(2019, 4, 1), "officer")


def test_publish_in_calendar_order_only(tmp_path):
    from qiyuan.office.periods import OfficeError, publish_period

    rl = _imported(tmp_path)
    with pytest.raises(OfficeError, match="next list of L to publish is 2019-07-01"):
        publish_period(rl, date(2020, 1, 1), "officer")
    publish_period(rl, None, "officer")
    with pytest.raises(OfficeError, match="already published") as refused:
        publish_period(rl, date(2019, 7, 1), "officer")
    # neutral words (the desk shows them too): no command line to type
    assert "correction edition of L 2019-07-01" in str(refused.value) and "qiyuan" not in str(refused.value)


def test_bjsh_5_quarterly_lists(tmp_path):
    from qiyuan.office.periods import publish_due

    rl = _imported(tmp_path, rules="bjsh-gomoku-2007")
    dates = [e.list_date.month for e in publish_due(rl, "officer")]
    assert set(dates) <= {1, 4, 7, 10} and 4 in dates


def test_late_report_is_rated_by_a_correction_edition_in_its_own_period(tmp_path):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import OfficeError, correct_period, current_edition, publish_due, publish_period

    from tests.support import sheets

    src = history_dir(tmp_path)
    rl = make_list(code="L")
    import_file(src, rl, "tester")
    publish_due(rl, "officer", until=date(2020, 1, 1))
    old = current_edition(rl, date(2019, 7, 1))
    old_entries = [(e["player"], e["rating"]) for e in sheets.entries(old)]
    assert old_entries
    result = import_file(late_batch(tmp_path, src, date(2019, 5, 20)), rl, "tester")
    late = Event.objects.get(code="LATE1")
    assert late.status == "pending"
    # the next list cannot be published while a late report waits
    with pytest.raises(OfficeError, match="LATE1") as refused:
        publish_period(rl, date(2020, 7, 1), "officer")
    assert "correction edition of L 2019-07-01" in str(refused.value) and "qiyuan" not in str(refused.value)
    with pytest.raises(OfficeError, match="needs a reason"):
        correct_period(rl, date(2019, 7, 1), " ", "officer")
    eds = correct_period(rl, date(2019, 7, 1), "late report LATE1", "officer")
    new = eds[0]
    assert (new.list_date, new.number, new.is_correction, new.reason) == (date(2019, 7, 1), 2, True,
                                                                          "late report LATE1")
    assert late in new.events.all() and Event.objects.get(code="LATE1").status == "rated"
    # the correction is carried into the later list, the old editions stay readable and unchanged
    assert [e.list_date for e in eds[1:]] == [date(2020, 1, 1)]
    assert "随 2019-07-01 的更正而重算：" in eds[1].reason
    assert [(e["player"], e["rating"]) for e in sheets.entries(old)] == old_entries
    assert current_edition(rl, date(2019, 7, 1)) == new
    assert result.late_for == [date(2019, 7, 1)]
    publish_period(rl, date(2020, 7, 1), "officer")


def test_correction_with_nothing_changed_is_refused(tmp_path):
    from qiyuan.office.periods import OfficeError, correct_period, publish_period

    rl = _imported(tmp_path)
    publish_period(rl, None, "officer")
    with pytest.raises(OfficeError, match="nothing to correct"):
        correct_period(rl, date(2019, 7, 1), "checking", "officer")
    with pytest.raises(OfficeError, match="not published"):
        correct_period(rl, date(2020, 1, 1), "checking", "officer")


def test_a_list_is_not_published_before_its_date(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import OfficeError, publish_due, publish_period

    src = history_dir(tmp_path, first=date.today().replace(day=1, month=1), last=date.today())
    rl = make_list(code="NOW")
    import_file(src, rl, "tester")
    publish_due(rl, "officer", until=date.today())
    with pytest.raises(OfficeError, match="cannot be published before that date"):
        publish_period(rl, None, "officer")


def test_cga_11_report_later_than_two_weeks_is_noted(tmp_path):
    from qiyuan.office.imports import Options, prepare
    from qiyuan.office.imports import ParsedEntrant, ParsedEvent
    from qiyuan.rating.model import Result

    rl = make_list()
    ev = ParsedEvent(name="x", start_date=date(2024, 5, 1), end_date=date(2024, 5, 3), format="swiss", rounds=1,
                     entrants=[ParsedEntrant("a", 1, "甲", "M"), ParsedEntrant("b", 2, "乙", "M")],
                     games=[(1, 1, 2, Result.WIN)])
    plan = prepare(ev, rl, Options(received_on=date(2024, 5, 30)), source="r.trf")
    assert any("within two weeks" in n for n in map(str, plan.notes))
    plan = prepare(ev, rl, Options(received_on=date(2024, 5, 10)), source="r.trf")
    assert not any("within two weeks" in n for n in map(str, plan.notes))


def _counting_engine(monkeypatch) -> list:
    """Count the calls of the rating engine made through the office's one door (``periods.rate``)."""
    from qiyuan.office import periods

    calls = []
    real = periods.compute_history

    def counted(*args, **kwargs):
        calls.append(kwargs.get("until"))
        return real(*args, **kwargs)

    monkeypatch.setattr(periods, "compute_history", counted)
    return calls


def test_publish_all_rates_every_due_period_in_one_engine_call_with_the_digests_of_date_by_date(tmp_path,
                                                                                                  monkeypatch):
    """Issue 34 (3), one columnar pass: ``period publish --all`` computes every due list date through ONE call of
    the rating engine, and each edition is byte for byte the one publishing date by date gives (digest, sheet),
    its inputs digest the one its stored inputs give."""
    from django.db import transaction

    from qiyuan.office.canonical import inputs_digest, stored_inputs
    from qiyuan.office.periods import due_date, publish_due, publish_period
    from qiyuan.office.ratings.models import EditionSheet

    from tests.support import sheets

    rl = _imported(tmp_path, rules="bjsh-gomoku-2007")

    def published(eds) -> list[tuple]:
        for e in eds:  # (the edition's own keys are in its inputs: another run's differ on PostgreSQL)
            mine = {x["federation_id"] for x in sheets.entries(e)}
            assert e.inputs_digest == inputs_digest(stored_inputs(e.pk, published=mine))
        return [(e.list_date, e.digest, bytes(EditionSheet.objects.get(pk=e.pk).entries),
                 bytes(EditionSheet.objects.get(pk=e.pk).changes)) for e in eds]

    with transaction.atomic():
        one_by_one = []
        while (d := due_date(rl, rl.rules())) is not None and d <= date(2021, 1, 1):
            one_by_one.append(publish_period(rl, d, "officer"))
        date_by_date = published(one_by_one)
        transaction.set_rollback(True)
    calls = _counting_engine(monkeypatch)
    at_once = published(publish_due(rl, "officer", until=date(2021, 1, 1)))
    assert len(at_once) > 3 and len(calls) == 1
    assert at_once == date_by_date


def test_a_correction_recomputes_its_date_and_every_later_one_in_one_engine_call(tmp_path, monkeypatch):
    """Issue 34 (3): ``period correct`` recomputes the corrected date and the later ones through ONE call of the
    engine; every edition it publishes is what recomputing it alone from its stored start gives (verify)."""
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import correct_period, publish_due
    from qiyuan.office.verify import verify_edition

    src = history_dir(tmp_path)
    rl = make_list(code="L")
    import_file(src, rl, "tester")
    publish_due(rl, "officer", until=date(2021, 1, 1))
    import_file(late_batch(tmp_path, src, date(2019, 5, 20)), rl, "tester")
    calls = _counting_engine(monkeypatch)
    eds = correct_period(rl, date(2019, 7, 1), "late report LATE1", "officer")
    assert len(calls) == 1 and [e.list_date for e in eds][:2] == [date(2019, 7, 1), date(2020, 1, 1)]
    for ed in eds:
        assert verify_edition(ed) == [] and verify_edition(ed, engine="reference") == []


@given(st.lists(st.tuples(st.integers(0, 4), st.integers()), max_size=40))
def test_games_grouped_by_event_in_runs_keep_every_game_in_order(pairs):
    """``rate_periods`` takes each event's games as one slice of a run (the stored order), a key met again after
    another's run (any other order) still gets every value, in the order given."""
    from qiyuan.office.periods import _grouped

    want: dict = {}
    for key, value in pairs:
        want.setdefault(key, []).append(value)
    assert _grouped([k for k, _ in pairs], [v for _, v in pairs]) == want


def test_the_engine_is_handed_the_stored_games_in_columns_game_for_game(tmp_path):
    """``engine_games``: the events' stored games as ``GameColumns`` (no object per game), each game the one the
    stored row says — event, round, players by federation ID, result, board — in the rows' order."""
    from qiyuan.office import bundle_files
    from qiyuan.office.canonical import event_rows
    from qiyuan.office.engine import engine_games
    from qiyuan.office.events.models import Event, Game as GameRow
    from qiyuan.office.federation.models import Player
    from qiyuan.rating.columnar import GameColumns
    from qiyuan.rating.model import Game, Result

    rl = _imported(tmp_path)
    events = list(Event.objects.filter(rating_list=rl).order_by("-end_date")[:5])  # (not in the rows' order)
    GameRow.objects.filter(event=events[1], round=1).update(board=3)
    fid = dict(Player.objects.values_list("pk", "federation_id"))
    code = {e.pk: e.code for e in events}
    games, _, pks = engine_games(events, None)
    assert isinstance(games, GameColumns) and games.event_ids == tuple(code.values())
    rows = event_rows(list(code)).games
    assert list(games) == [Game(code[ev], rnd, fid[a], fid[b], Result(res), board)
                           for _, ev, rnd, a, b, res, _, board in rows]
    assert any(g.board == 3 for g in games) and {fid[p] for p in pks} >= {g.player1 for g in games}
    # the bundle's games.csv rows, read from the columns, are those of the games (a board not known: empty)
    assert list(bundle_files._game_rows(games)) == [
        (g.event_id, g.round, g.player1, g.player2, g.result.value, "" if g.board is None else str(g.board))
        for g in games]
    empty, standings, none = engine_games([], None)
    assert len(empty) == 0 and standings == [] and none == set()
