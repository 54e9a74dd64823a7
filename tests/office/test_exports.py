"""Exports of editions: CSV, XLSX, TXT, PDF and the full history — never an ID number, birth year only."""

from __future__ import annotations

import csv
import zipfile
from datetime import date

import pytest

from tests.support import sheets

from ._o2_fixtures import make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(tmp_path, resident_id):
    """A list whose players have real ID numbers and birth dates in the registry."""
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due

    from ._o2_fixtures import history_dir

    src = history_dir(tmp_path)
    rl = make_list()
    import_file(src, rl, "tester")
    for i, p in enumerate(Player.objects.order_by("pk")):
        born = date(2008, 1 + i % 12, 1 + i % 27)
        p.birth_date = born
        p.id_number = resident_id(born, p.gender or "M")
        p.save()
    publish_due(rl, "officer")
    return rl


def _secrets():
    from qiyuan.office.federation.models import Player

    ids = [p.id_number for p in Player.objects.all()]
    births = [p.birth_date.isoformat() for p in Player.objects.all()]
    return ids, births


def _text(path, fmt) -> str:
    if fmt == "xlsx":
        with zipfile.ZipFile(path) as z:
            return "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    if fmt == "pdf":
        return path.read_bytes().decode("latin-1")
    return path.read_text(encoding="utf-8-sig")


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "txt", "pdf"])
def test_public_exports_contain_no_id_number_and_no_birth_date(office, tmp_path, fmt):
    from qiyuan.office.exports import export_edition, find_edition

    out = tmp_path / f"list.{fmt}"
    n = export_edition(find_edition(office), fmt, out)
    assert n > 0
    text = _text(out, fmt)
    ids, births = _secrets()
    assert not any(i in text for i in ids)
    assert not any(b in text for b in births)
    assert not any(b.replace("-", "") in text for b in births)


def test_csv_export_shows_birth_year_and_rank_change(office, tmp_path):
    from qiyuan.office.exports import export_edition, find_edition

    out = tmp_path / "l.csv"
    export_edition(find_edition(office), "csv", out)
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert rows and all(r["birth_year"] == "2008" for r in rows)
    assert any(r["change"] not in ("", "0") for r in rows)
    assert {r["status"] for r in rows} <= {"active", "inactive", "removed"}


def test_older_and_numbered_editions_can_be_exported(office, tmp_path):
    from qiyuan.office.exports import find_edition
    from qiyuan.office.errors import OfficeError

    first = find_edition(office, 1)
    assert first.list_date == office.editions.order_by("list_date").first().list_date
    assert find_edition(office, list_date=first.list_date) == first
    with pytest.raises(OfficeError):
        find_edition(office, 99)


def test_full_history_one_row_per_player_per_event_with_before_and_after(office, tmp_path):
    from decimal import Decimal

    from qiyuan.office.exports import export_history
    from qiyuan.office.ratings.models import Edition

    out = tmp_path / "history.csv"
    n = export_history(out, office)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert n == len(rows) == sum(len(sheets.changes(ed)) for ed in Edition.objects.all())
    rated = [r for r in rows if r["before"]]
    assert rated and all(Decimal(r["after"]) == Decimal(r["before"]) + Decimal(r["delta"]) for r in rated)
    ids, births = _secrets()
    text = out.read_text(encoding="utf-8")
    assert not any(i in text for i in ids) and not any(b in text for b in births)


def test_list_export_cli(office, tmp_path):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    out = tmp_path / "x.txt"
    r = CliRunner().invoke(app, ["office", "list", "export", "--list", "CGA", "--format", "txt", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8").splitlines()[0].split()[:2] == ["Rank", "ID"]
    bad = CliRunner().invoke(app, ["office", "list", "export", "--list", "CGA", "--format", "doc", "--out", str(out)])
    assert bad.exit_code == 2
