"""Issue 18: what a single event's import checks — probable duplicates (item 3), facts never assumed (item 2),
foreign entrants proposed (item 6), errors a person can act on (item 5)."""

from __future__ import annotations

from datetime import date

import pytest

from .test_import_report import _ranks, field_of, office, write  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def test_a_copy_under_another_name_and_dates_is_a_probable_duplicate(office, tmp_path, resident_id):
    """Item 3: the same report with the dates shifted and a new name was imported without a word."""
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.events.models import Event, RejectedReport
    from qiyuan.office.imports import ImportRefused, Options, import_file

    rows = field_of(resident_id)
    first = import_file(write(tmp_path / "a.xlsx", rows), office, "officer").events[0]
    copy = write(tmp_path / "b.xlsx", rows, name="2024年某某公开赛", start=date(2024, 9, 20))
    with pytest.raises(ImportRefused) as exc:
        import_file(copy, office, "officer", options=Options(confirm_all=True))
    (p,) = exc.value.problems
    assert p.code == "import.duplicate" and p.params["event"] == first.code and p.params["percent"] == 100
    assert Event.objects.count() == 1 and RejectedReport.objects.count() == 1
    with pytest.raises(ImportRefused, match="needs a reason"):  # a confirmation without a reason is none
        import_file(copy, office, "officer", options=Options(duplicate_of=first.code))
    result = import_file(copy, office, "officer", options=Options(duplicate_of=first.code,
                                                                  duplicate_reason="the return match, same pairings"))
    assert Event.objects.count() == 2 and any("probable duplicate" in n for n in result.notes)
    entry = AuditLog.objects.filter(action="import").order_by("-id").first()
    assert entry.detail["duplicate_of"] == first.code and "return match" in entry.detail["duplicate_reason"]


def test_an_event_sharing_few_games_is_not_a_duplicate(office, tmp_path, resident_id):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import import_file

    rows = field_of(resident_id)
    import_file(write(tmp_path / "a.xlsx", rows), office, "officer")
    import_file(write(tmp_path / "b.xlsx", rows[::-1], name="另一比赛", start=date(2024, 10, 1)), office,
                "officer")  # the same players, other pairings: few of the stored event's games again
    assert Event.objects.count() == 2
