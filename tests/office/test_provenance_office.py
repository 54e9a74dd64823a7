"""Issue 37 item 1 (provenance on every rated game) and issue 32 item 5 (the audit log's head in each new edition):
carried from the event file into the office by the import, stored per game, in new editions' inputs digest and
bundle under canonical version 3; ``office verify`` finds a tampered provenance row and a deleted audit log;
editions written in an older version verify as published."""

from __future__ import annotations

from datetime import date

import pytest

from qiyuan.office import sheets
from qiyuan.formats.trf import write_trf
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import hall
from qiyuan.tournament.model import Entrant

from ._o2_fixtures import make_list as _make_list
from ._o2_fixtures import stated


def make_list():
    return _make_list(code="GO", rules="cn-go-1995", game="go")

pytestmark = pytest.mark.django_db
A = hall.Act


def _event_file(path, *, records: bool = True):
    """A finished 2-round event of 6 players: round 1's first board by both phones and the arbiter's signature,
    its second board typed at the desk, its third at the terminal; round 2 without records (the file alone)."""
    t = ev.new_event("来源杯", fmt="swiss", rounds=2, start=date(2024, 3, 2), end=date(2024, 3, 3))
    for i in range(6):
        ev.add_player(t, Entrant(0, f"来源棋手{i + 1}", rating=1800 - 10 * i, sex="m"))
    for rnd in (1, 2):
        ev.pair_next(t)
        ev.enter_results(t, rnd, [(b.first, "1-0") for b in hall.boards_of(t, rnd)])
    if records:
        b1, b2, b3 = hall.boards_of(t, 1)
        hall.record_provenance(t, [
            hall.Provenance(1, b1.board, b1.result, (
                A("reported", str(b1.first), f"p{b1.first}.1", "20240302T101500Z"),
                A("confirmed", str(b1.second), f"p{b1.second}.1", "20240302T101600Z"),
                A("signed", "裁判甲", "arbiter", "20240302T102000Z"))),
            hall.Provenance(1, b2.board, b2.result, (A("typed", "desk-user", "desk", "20240302T103000Z"),)),
            hall.Provenance(1, b3.board, b3.result, (A("typed", "cli-user", "cli", "20240302T104000Z"),))])
    path.write_text(write_trf(t), encoding="utf-8")
    return path


@pytest.fixture
def published(tmp_path):
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    rl = make_list()
    import_file(_event_file(tmp_path / "source.trf"), rl, "officer", options=stated())
    return rl, publish_due(rl, "officer", until=date(2024, 7, 1))


def test_the_import_stores_how_each_games_result_was_entered(published):
    from qiyuan.office.events.models import Game

    got = sorted(Game.objects.values_list("round", "entered", "entered_at"))
    assert got == [(1, "desk", "20240302T103000Z"), (1, "phones", "20240302T102000Z"),
                   (1, "terminal", "20240302T104000Z"), (2, "file", ""), (2, "file", ""), (2, "file", "")]
    acts = Game.objects.get(entered="phones").entered_acts
    assert acts == ("reported:player1:phone:20240302T101500Z confirmed:player2:phone:20240302T101600Z "
                    "signed:arbiter:hall:20240302T102000Z") or "player2:phone:20240302T101500Z" in acts
    assert "裁判甲" not in "".join(Game.objects.values_list("entered_acts", flat=True))  # roles, never names


def test_a_file_from_elsewhere_is_its_games_only_source(tmp_path):
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file

    import_file(_event_file(tmp_path / "plain.trf", records=False), make_list(), "officer", options=stated())
    assert set(Game.objects.values_list("entered", "entered_acts")) == {("file", "")}


def test_a_new_edition_carries_provenance_and_the_audit_head_and_verifies(published):
    from qiyuan.formats.canonical_text import CURRENT_VERSION
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.canonical import stored_inputs
    from qiyuan.office.verify import verify_all

    rl, eds = published
    ed = eds[-1]
    assert CURRENT_VERSION == ed.canonical_version == 3
    mine = AuditLog.objects.get(action="edition.publish", object_id=str(ed.pk))
    assert ed.audit_head == {"entries": mine.seq - 1, "head": AuditLog.objects.get(seq=mine.seq - 1).hash}
    parts = stored_inputs(ed.pk, published=set(sheets.entries(ed, "federation_id")["federation_id"]))
    assert sorted(r[4] for r in parts["provenance"]) == ["desk", "file", "file", "file", "phones", "terminal"]
    assert {r[7] for r in parts["provenance"]} == {"trf"} and all(len(r[8]) == 64 for r in parts["provenance"])
    assert parts["audit_head"] == [(ed.audit_head["entries"], ed.audit_head["head"])]
    assert verify_all().ok, verify_all().differences


def test_verify_finds_a_tampered_provenance_row(published):
    from qiyuan.office.events.models import Game
    from qiyuan.office.verify import verify_all

    Game.objects.filter(entered="file").update(entered="phones")  # a result passed off as confirmed by phones
    report = verify_all()
    assert any("changed since publication" in d for d in report.differences), report.differences


def test_verify_finds_a_deleted_audit_log(published):
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.verify import verify_all

    AuditLog.objects.all().delete()
    report = verify_all()
    assert any("today's log does not hold that entry" in d for d in report.differences), report.differences


def test_verify_finds_a_log_rewritten_with_its_hashes_recomputed(published):
    """A log whose early entries were edited and the whole chain hashed again chains — but not through the head
    the edition recorded."""
    from qiyuan.office.audit.chain import GENESIS, entry_hash
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.records import chain_check
    from qiyuan.office.verify import verify_all

    previous = GENESIS
    for row in AuditLog.objects.order_by("seq"):
        if row.seq == 1:
            row.actor = "someone else"
        h = entry_hash(previous, row.seq, row.at, row.actor, row.action, row.object_type, row.object_id, row.detail)
        AuditLog.objects.filter(pk=row.pk).update(actor=row.actor, hash=h)
        previous = h
    assert not chain_check().problems  # the chain itself holds …
    assert any("rewritten since" in d for d in verify_all().differences)  # … the edition's head does not


def test_an_edition_of_version_2_verifies_as_published_without_them(tmp_path, monkeypatch):
    from qiyuan.office import canonical
    from qiyuan.office.canonical import stored_inputs
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from qiyuan.office.verify import verify_all

    monkeypatch.setattr(canonical, "CURRENT_VERSION", 2)  # published before version 3 existed
    rl = make_list()
    import_file(_event_file(tmp_path / "old.trf"), rl, "officer", options=stated())
    (ed,) = publish_due(rl, "officer", until=date(2024, 7, 1))
    monkeypatch.undo()
    assert ed.canonical_version == 2 and ed.audit_head == {}
    assert "provenance" not in stored_inputs(ed.pk, published=set()) and verify_all().ok


def test_the_bundle_carries_both_and_a_tampered_provenance_row_fails_its_files(published, tmp_path):
    import csv
    import io

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from qiyuan.formats import edition_bundle as B
    from qiyuan.kit.build import build
    from qiyuan.kit.verify import check
    from qiyuan.office.bundles import build_bundle

    rl, eds = published
    key = Ed25519PrivateKey.generate()
    bundle = B.read(build_bundle(eds[-1], key=key))
    assert bundle.manifest.canonical_version == 3
    rows = list(csv.reader(io.StringIO(bundle.files[B.PROVENANCE].decode("utf-8"))))
    assert tuple(rows[0]) == B.PROVENANCE_HEADER and len(rows) == 7
    assert sorted(r[4] for r in rows[1:]) == ["desk", "file", "file", "file", "phones", "terminal"]
    assert b'"head"' in bundle.files[B.AUDIT_HEAD]
    assert check(bundle, key=key.public_key()).identical
    forged = dict(bundle.files)
    forged[B.PROVENANCE] = bundle.files[B.PROVENANCE].replace(b",file,", b",phones,", 1)
    report = check(B.Bundle(forged, bundle.manifest, bundle.manifest_bytes, bundle.signature), key=key.public_key())
    assert report.ok["files"] is False and not report.identical
    missing = {k: v for k, v in bundle.files.items() if k not in (B.PROVENANCE, B.MANIFEST)}
    with pytest.raises(ValueError, match="provenance.csv"):  # a version-3 bundle is never built without it
        build(missing, private_key=key, list_code="CGA", list_date="2024-07-01", number=1,
              edition_digest="0" * 64, canonical_version=3)


@pytest.mark.parametrize("lang, words", [("zh-hans", ("成绩来源", "双方手机确认、裁判签字", "记录台录入", "终端录入")),
                                         ("en", ("Where the results came from", "signed by the arbiter",
                                                 "typed at the desk", "typed at the terminal"))])
def test_the_event_page_shows_where_the_results_came_from_naming_nobody(published, client, lang, words):
    from qiyuan.office.events.models import Event

    event = Event.objects.get()
    html = client.get(f"/events/{event.code}/", HTTP_ACCEPT_LANGUAGE=lang, headers={"cookie": f"django_language={lang}"}
                      ).content.decode()
    section = html[html.index('id="provenance"'):html.index('id="provenance-counts"') + 800]
    for w in words:
        assert w in section
    assert 'data-entered="file">' in section and event.import_batch.sha256 in section
    assert "裁判甲" not in html and "desk-user" not in html and "cli-user" not in html


def test_history_and_opengotha_games_came_in_their_files_alone(tmp_path):
    """A history folder (bulk-loaded) and an OpenGotha file record no provenance: each game is ``file``, with the
    kind and digest of the file it came in."""
    from qiyuan.office.canonical import stored_inputs
    from qiyuan.office.events.models import Game, ImportBatch
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    from ._o2_fixtures import SHARED, history_dir

    cga = _make_list()
    import_file(history_dir(tmp_path), cga, "tester")
    go = make_list()
    import_file(SHARED / "data" / "opengotha" / "tournoi-de-juvisy-2019.xml", go, "officer", options=stated())
    assert set(Game.objects.values_list("entered", "entered_acts", "entered_at")) == {("file", "", "")}
    for rl, kind in ((cga, "history"), (go, "opengotha")):
        ed = publish_due(rl, "officer")[0]
        rows = stored_inputs(ed.pk, published=set(sheets.entries(ed, "federation_id")["federation_id"]))["provenance"]
        sha = ImportBatch.objects.get(kind=kind).sha256
        assert rows and {(r[4], r[7], r[8]) for r in rows} == {("file", kind, sha)}


def test_a_signed_bundle_whose_provenance_leaves_a_game_out_is_named(published):
    """Even signed by the federation's own key (an office that dropped a row before signing), a game without its
    provenance row is named by the verifier."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from qiyuan.formats import edition_bundle as B
    from qiyuan.kit.build import build
    from qiyuan.kit.verify import check
    from qiyuan.office.bundles import build_bundle

    rl, eds = published
    key = Ed25519PrivateKey.generate()
    good = B.read(build_bundle(eds[-1], key=key))
    files = {k: v for k, v in good.files.items() if k != B.MANIFEST}
    files[B.PROVENANCE] = b"".join(files[B.PROVENANCE].splitlines(keepends=True)[:-1])
    m = good.manifest
    forged = B.read(build(files, private_key=key, list_code=m.list_code, list_date=m.list_date, number=m.number,
                          edition_digest=m.edition_digest, previous_digest=m.previous_digest,
                          canonical_version=m.canonical_version, chain_place=m.chain_place))
    report = check(forged, key=key.public_key())
    assert report.ok["signature"] is True and report.ok["files"] is False
    assert "1 game(s) without a row" in " ".join(map(str, report.problems["files"]))


def test_a_record_that_does_not_fit_the_pairings_is_noted_and_the_file_stands_alone(tmp_path, monkeypatch):
    import sys

    from qiyuan.office.imports import Options
    from qiyuan.tournament.errors import EventError

    P = sys.modules["qiyuan.office.imports.parse"]  # (the package's ``parse`` is the function of that name)

    path = _event_file(tmp_path / "odd.trf")

    def unfit(_t):
        raise EventError([])
    monkeypatch.setattr(P, "games_entered", unfit)
    parsed = P.parse_trf(path, Options())
    assert parsed.entered == {} and not parsed.problems
    assert any("does not fit its pairings" in str(n) for n in parsed.notes)
