"""Issue 34, item 6: bundles from sheets. A bundle's outputs are written from the edition's stored sheet without
rating it again, and they are byte for byte what ``qiyuan verify-edition`` recomputes from the bundle's inputs
(the way every bundle was built before); publishing writes each new edition's bundle with it, named only once
its transaction has committed; a bundle whose stored data was altered is refused without rating anything."""

from __future__ import annotations

import uuid
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings

from qiyuan.formats import edition_bundle as B
from qiyuan.kit.verify import recompute_outputs

from ._o2_fixtures import history_dir, make_list
from .test_bundles import _national_team_match, _published, key  # noqa: F401 - the fixture
from .test_import_facts import RULE_SETS, _history_folder, histories

pytestmark = pytest.mark.django_db


def _assert_outputs_are_the_verifiers(rl, private, refused: frozenset = frozenset()) -> int:
    """Each edition's bundle, as ``office bundles build`` writes it (the list's members read once, the states'
    texts kept): its inputs are those gathered for the edition alone (its start states as ``states_bytes``
    writes them), and its outputs written from the sheet equal, byte for byte, those ``verify-edition``
    recomputes from its inputs (the editions ``refused``, whose stored facts changed since, are refused a bundle,
    as they always were)."""
    from qiyuan.errors import Conflict
    from qiyuan.kit.states import states_bytes
    from qiyuan.office import bundle_files
    from qiyuan.office.bundles import build_bundle
    from qiyuan.office.periods import MemberTable, published_inputs

    editions = list(rl.editions.select_related("rating_list", "previous").order_by("list_date", "number"))
    assert editions
    table, kept = MemberTable(rl), bundle_files.Kept()
    for ed in editions:
        if ed.pk in refused:
            with pytest.raises(Conflict):
                build_bundle(ed, key=private, table=table, kept=kept)
            continue
        files = B.read(build_bundle(ed, key=private, table=table, kept=kept)).files
        alone = bundle_files.source_of(published_inputs(ed))
        assert {n: f for n, f in files.items() if n.startswith("inputs/")} == bundle_files.input_files(ed, alone), \
            ed.label
        assert files["inputs/states.json"] == states_bytes(alone.start, alone.state), ed.label
        recomputed = recompute_outputs(files, ed.list_date, "fast", ed.canonical_version)
        for name in (*B.OUTPUTS, B.CANONICAL):
            assert files[name] == recomputed[name], (ed.label, name)
    return len(editions)


def test_the_outputs_of_a_national_team_match_are_the_verifiers(tmp_path, key):  # noqa: F811
    _assert_outputs_are_the_verifiers(_published(_national_team_match(tmp_path), "cga-gomoku-2011"), key[0])


def test_the_outputs_of_a_history_of_several_editions_and_a_correction_are_the_verifiers(tmp_path, key):  # noqa: F811
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import correct_period, publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    editions = publish_due(rl, "officer", until=date(2021, 1, 1))
    first = editions[0]
    g = Game.objects.filter(event__in=first.events.all()).first()
    g.result = "0-1" if g.result == "1-0" else "1-0"
    g.save()
    correct_period(rl, first.list_date, "a result read wrongly", "officer")
    assert rl.editions.filter(is_correction=True).exists()
    # (the superseded edition's game was changed: it is refused a bundle now, as it always was; publishing had
    # written its bundle before)
    assert _assert_outputs_are_the_verifiers(rl, key[0], frozenset({first.pk})) > len(editions)


_QUIET = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@pytest.mark.parametrize("rules_name", RULE_SETS)
@settings(max_examples=4, deadline=None, suppress_health_check=_QUIET)
@given(data=histories())
def test_the_outputs_of_generated_histories_are_the_verifiers(tmp_path, key, rules_name, data):  # noqa: F811
    from django.db import transaction

    src = _history_folder(tmp_path / uuid.uuid4().hex / "h", data)
    with transaction.atomic():
        _assert_outputs_are_the_verifiers(_published(src, rules_name), key[0])
        transaction.set_rollback(True)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_SETS)
@settings(max_examples=200, deadline=None, suppress_health_check=_QUIET)
@given(data=histories())
def test_the_outputs_of_many_generated_histories_are_the_verifiers(tmp_path, key, rules_name, data):  # noqa: F811
    test_the_outputs_of_generated_histories_are_the_verifiers.hypothesis.inner_test(tmp_path, key, rules_name, data)


def test_a_bundle_is_refused_when_a_sheet_no_longer_gives_its_digest(tmp_path, key):  # noqa: F811
    from qiyuan.errors import Conflict
    from qiyuan.formats import edition_sheet as S
    from qiyuan.office import sheets
    from qiyuan.office.bundles import build_bundle
    from qiyuan.office.ratings.models import EditionSheet

    rl = _published(_national_team_match(tmp_path), "cga-gomoku-2011")
    ed = rl.editions.get()
    cols = sheets.entries(ed)
    cols["rating"] = [r + 1 if r is not None else None for r in cols["rating"]]
    EditionSheet.objects.filter(pk=ed.pk).update(entries=S.encode(cols, S.ENTRY_SCHEMA))
    sheets.forget()
    with pytest.raises(Conflict):
        build_bundle(ed, key=key[0])


def test_a_bundle_is_built_without_rating_the_edition_again(tmp_path, key, monkeypatch):  # noqa: F811
    from qiyuan.kit import verify
    from qiyuan.office import periods
    from qiyuan.office.bundles import build_bundle
    from qiyuan.rating import history

    rl = _published(_national_team_match(tmp_path), "cga-gomoku-2011")

    def refuse(*args, **kwargs):
        raise AssertionError("the engine was called")

    monkeypatch.setattr(history, "compute_history", refuse)
    monkeypatch.setattr(periods, "compute_history", refuse)
    monkeypatch.setattr(periods, "rate", refuse)
    monkeypatch.setattr(verify, "compute_history", refuse)
    data = build_bundle(rl.editions.get(), key=key[0])
    assert B.read(data).manifest.edition_digest == rl.editions.get().digest


def test_publishing_writes_each_new_editions_bundle_once_committed(tmp_path, key):  # noqa: F811
    from qiyuan.office import bundle_files
    from qiyuan.office.bundles import build_bundle
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    editions = publish_due(rl, "officer", until=date(2021, 1, 1))
    folder = bundle_files.bundle_dir()
    assert sorted(p.name for p in folder.glob("*.zip")) == sorted(bundle_files.bundle_name(e) for e in editions)
    assert not list(folder.glob(f"{bundle_files.BUILDING}*"))
    for ed in editions:
        stored = B.read(bundle_files.bundle_path(ed).read_bytes())
        again = B.read(build_bundle(ed, key=key[0]))
        assert stored.files == again.files  # (only the signing time may differ)


def test_a_publication_rolled_back_leaves_no_bundle(tmp_path, key, monkeypatch):  # noqa: F811
    from qiyuan.office import bundle_files, periods
    from qiyuan.office.imports import import_file
    from qiyuan.office.ratings.models import Edition

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    stored = []
    real = periods._store

    def store_then_fail(comp, actor, **kw):
        stored.append(real(comp, actor, **kw))
        if len(stored) == 2:
            raise RuntimeError("the machine stops")
        return stored[-1]

    monkeypatch.setattr(periods, "_store", store_then_fail)
    with pytest.raises(RuntimeError):
        periods.publish_due(rl, "officer", until=date(2021, 1, 1))
    assert not Edition.objects.exists()  # (one staged bundle was written, and removed with the transaction)
    assert not bundle_files.bundle_dir().exists() or not list(bundle_files.bundle_dir().iterdir())


def test_a_merged_records_bundles_written_at_publishing_are_those_built_later(tmp_path, key, make_player):  # noqa: F811
    """A merge between two publications: the bundles publishing wrote (from its computation, the duplicate's
    state carried on under the kept record) are the ones ``office bundles build`` writes from the sheets (the
    editions before the merge under the IDs they published), and each verifies from its own inputs."""
    from qiyuan.kit.verify import check
    from qiyuan.office import bundle_files
    from qiyuan.office.bundles import build_bundle
    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from qiyuan.office.registry.merge import merge_players

    from .test_periods_merge import _later_batch

    rl = make_list()
    src = history_dir(tmp_path)
    import_file(src, rl, "tester")
    publish_due(rl, "officer", until=date(2021, 1, 1))
    old = Player.objects.get(federation_id="T00001")
    keep = make_player(name="钱多多", gender=old.gender, birth_date=old.birth_date)
    merge_players(keep, old, "officer", force=True)
    import_file(_later_batch(tmp_path, src, date(2021, 3, 1), ["T00002", "T00003", "T00004", "T00005"]), rl, "t")
    ev = Event.objects.get(code="LATER1")
    Game.objects.create(event=ev, round=99, player1=keep, player2=Player.objects.get(federation_id="T00002"),
                        result="1-0")
    Entry.objects.create(event=ev, player=keep)
    publish_due(rl, "officer", until=date(2021, 7, 1))
    for ed in rl.editions.select_related("rating_list", "previous").order_by("list_date", "number"):
        stored = B.read(bundle_files.bundle_path(ed).read_bytes())
        assert stored.files == B.read(build_bundle(ed, key=key[0])).files, ed.label
        report = check(stored, key=key[1])  # (the chain across a merge is the verifier's matter, not this test's)
        assert report.identical, (ed.label, report.problems)
    assert keep.federation_id.encode() in stored.files["inputs/players.csv"]  # the last edition rates him
