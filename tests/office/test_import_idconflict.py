"""A name-and-association match whose registry ID number differs from the report's: shown, refused unless
overridden, noted — and every pending match as data for the desk (``ImportRefused.pending_matches``)."""

from __future__ import annotations

from datetime import date

import pytest

from ._o2_fixtures import confirm_all

from .test_import_report import _ranks, field_of, office, write  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def shao(office, tmp_path, resident_id, make_player):
    rows = field_of(resident_id)
    rows[1] = ("邵斌", "m", resident_id(date(1990, 3, 4), "M", region="120101"), "TJ")
    known = make_player(name="邵斌", gender="M", association="TJ", birth_date=date(1990, 3, 4),
                        id_number=resident_id(date(1990, 3, 4), "M", region="120102"))
    return write(tmp_path / "r.xlsx", rows), rows[1], known


def test_an_id_conflict_is_shown_in_the_pending_match(office, shao):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import NeedsConfirmation, import_file

    path, row, known = shao
    with pytest.raises(NeedsConfirmation) as exc:
        import_file(path, office, "officer", options=confirm_all())
    assert not Event.objects.exists()
    [m] = exc.value.pending_matches
    assert (m.number, m.name, m.association) == (2, "邵斌", "TJ")
    assert m.id_masked and m.id_masked != row[2] and "*" in m.id_masked  # masked
    [c] = m.candidates
    assert c.federation_id == known.federation_id and c.id_conflict and c.id_masked == known.masked_id_number
    assert "differs from the report's" in exc.value.messages[0]


def test_confirming_a_candidate_with_another_id_needs_an_override_and_is_noted(office, shao):
    from qiyuan.office.events.models import Entry, Event, ImportBatch
    from qiyuan.office.imports import NeedsConfirmation, Options, import_file

    path, row, known = shao
    with pytest.raises(NeedsConfirmation) as exc:
        import_file(path, office, "officer", options=confirm_all(confirm={"2": known.federation_id}))
    assert exc.value.pending_matches[0].candidates[0].id_conflict and not Event.objects.exists()
    with pytest.raises(NeedsConfirmation):
        import_file(path, office, "officer", options=Options(confirm_all=True))  # never taken wholesale
    import_file(path, office, "officer", options=confirm_all(confirm={"2": known.federation_id + "!"}))
    assert Entry.objects.get(number=2).player == known
    notes = ImportBatch.objects.get().notes
    assert any("differs from the registry's" in n and known.federation_id in n and "override" in n for n in notes)
    assert all(row[2] not in n for n in notes)  # masked in the note too
