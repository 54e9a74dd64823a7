"""The demo federation: built through the real import paths, every list published and verified; a round trip."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_demo_round_trip_import_compute_publish_verify(tmp_path):
    from qiyuan.office.events.models import Event, RejectedReport
    from qiyuan.office.ratings.models import Edition, RatingList
    from qiyuan.office.demo import _report, build_demo
    from qiyuan.office.imports import Options, import_file
    from qiyuan.office.periods import compute_period, due_date, publish_period
    from qiyuan.office.verify import verify_all

    summary = build_demo(seed=3)
    assert summary.verified and summary.lists == ["CGA", "GO"]
    assert summary.players == 420 and summary.games > 10000 and summary.editions >= 24
    assert len(summary.tops["CGA"]) == 10 and len(summary.tops["GO"]) == 10
    cga = RatingList.objects.get(code="CGA")
    # two list calendars: CGA January/July, Go every four months; both published to 1 January 2025
    dates = {rl.code: sorted({e.list_date for e in rl.editions.all()}) for rl in RatingList.objects.all()}
    assert {d.month for d in dates["CGA"]} == {1, 7} and {d.month for d in dates["GO"]} == {1, 5, 9}
    assert dates["CGA"][-1] == dates["GO"][-1] == date(2025, 1, 1)
    assert date(2024, 9, 1) in dates["GO"]
    # the late report was rated by a correction of its own period
    corr = Edition.objects.get(rating_list=cga, list_date=date(2024, 7, 1), number=2)
    assert corr.is_correction and "late report" in corr.reason
    assert Event.objects.filter(name__startswith="2024年全国五子棋团体锦标赛").get() in corr.events.all()
    assert not RejectedReport.objects.exists()
    _bundles_hold_no_personal_data(summary)
    assert summary.witnessed == 2
    _two_witnesses_countersign_each_head()

    # one more round: a new report, computed for review, published, verified
    import random

    from qiyuan.office.federation.models import Player
    from qiyuan.office.demo import _P

    players = [_P(p.federation_id, p.name, p.gender, 2000, p.association.code, p.id_number, p.birth_date, p.dan)
               for p in Player.objects.filter(federation_id__lte="CN000300").select_related("association")]
    path = _report(random.Random(1), tmp_path / "new.xlsx", "2025年全国五子棋公开赛", date(2025, 3, 1), players, 30,
                   "swiss", 7)
    result = import_file(path, cga, "officer", options=Options(received_on=date(2025, 3, 10), confirm_all=True))
    assert result.new_players == 0  # everyone matched by ID number
    d = due_date(cga, cga.rules())
    assert d == date(2025, 7, 1)
    comp = compute_period(cga, d)
    assert [e.code for e in comp.events] == [result.events[0].code]
    ed = publish_period(cga, d, "officer")
    assert ed.digest == comp.digest
    assert verify_all().ok


def _two_witnesses_countersign_each_head():
    """Issue 32: the demo's two witnesses countersign both lists' heads; the verifier accepts them."""
    from django.test import Client

    from qiyuan.formats import chain_head as H
    from qiyuan.formats import signing
    from qiyuan.kit.chain import read_witness_list

    for code in ("CGA", "GO"):
        chain = Client().get(f"/api/v1/lists/{code}/chain").json()
        items = read_witness_list(Client().get(f"/api/v1/lists/{code}/witnesses").content, "w")
        assert len(items) == 2
        head = chain["head"].encode()
        for item in items:
            c = H.read_countersignature(item)
            assert c.head.same_chain(H.read_head(head))
            assert signing.verifies(signing.load_public(c.public_key), c.head_text, c.signature)


def _run(args, home: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env["QIYUAN_HOME"] = str(home)
    return subprocess.run([str(Path(sys.executable).parent / "qiyuan"), *args], cwd=home, env=env,
                          capture_output=True, text=True, timeout=300)


def test_demo_keep_says_it_exists(tmp_path):
    (tmp_path / "var").mkdir()
    (tmp_path / "var" / "qiyuan.sqlite3").write_bytes(b"")
    r = _run(["demo", "--keep"], tmp_path)
    assert r.returncode == 0 and "exists" in r.stdout


@pytest.mark.slow
def test_demo_cli_builds_and_rebuilds_cleanly(tmp_path):
    first = _run(["demo"], tmp_path)
    assert first.returncode == 0, first.stderr
    assert "verified: identical" in first.stdout and "top 10" in first.stdout
    again = _run(["demo"], tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split("\n", 2)[1] == first.stdout.split("\n", 2)[1]  # same counts: rebuilt, not doubled


def _bundles_hold_no_personal_data(summary) -> None:
    """Issue 20, privacy: every edition of the demo has a signed bundle, and no file of any bundle holds an ID
    number, a passport number or a full birth date (players.csv: ID, name, sex, rating, grade, registration)."""
    import io
    import zipfile

    from qiyuan.office.bundles import bundle_path
    from qiyuan.office.federation.models import Player
    from qiyuan.office.ratings.models import Edition

    editions = list(Edition.objects.select_related("rating_list"))
    assert summary.bundles == len(editions) > 20
    people = list(Player.objects.values_list("id_number", "birth_date"))  # (a passport's number is its id_number)
    secrets = {i for i, _b in people if i}
    births = {b.isoformat() for _i, b in people if b} | {b.strftime("%Y%m%d") for _i, b in people if b}
    assert len(secrets) > 300 and births
    for ed in editions:
        with zipfile.ZipFile(io.BytesIO(bundle_path(ed).read_bytes())) as z:
            for name in z.namelist():
                text = z.read(name).decode("utf-8", "replace")
                found = [x for x in secrets if x in text]
                assert not found, (ed, name, found[:3])
                if name == "inputs/players.csv":
                    assert not [b for b in births if b in text], (ed, name)
                    assert text.splitlines()[0] == "id,name,gender,rating,dan,dan_granted_by,registered_on"
