"""Issue 18: what a single event's import checks — probable duplicates (item 3), facts never assumed (item 2),
foreign entrants proposed (item 6), errors a person can act on (item 5)."""

from __future__ import annotations

from datetime import date

import pytest

from ._o2_fixtures import confirm_all
from .test_import_report import _ranks, field_of, office, write  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def test_a_copy_under_another_name_and_dates_is_a_probable_duplicate(office, tmp_path, resident_id):
    """Item 3: the same report with the dates shifted and a new name was imported without a word."""
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.events.models import Event, RejectedReport
    from qiyuan.office.imports import ImportRefused, Options, import_file

    rows = field_of(resident_id)
    first = import_file(write(tmp_path / "a.xlsx", rows), office, "officer", options=confirm_all()).events[0]
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
    assert Event.objects.count() == 2 and any("probable duplicate" in n for n in map(str, result.notes))
    entry = AuditLog.objects.filter(action="import").order_by("-id").first()
    assert entry.detail["duplicate_of"] == first.code and "return match" in entry.detail["duplicate_reason"]


def test_an_event_sharing_few_games_is_not_a_duplicate(office, tmp_path, resident_id):
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import import_file

    rows = field_of(resident_id)
    import_file(write(tmp_path / "a.xlsx", rows), office, "officer", options=confirm_all())
    import_file(write(tmp_path / "b.xlsx", rows[::-1], name="另一比赛", start=date(2024, 10, 1)), office,
                "officer")  # the same players, other pairings: few of the stored event's games again
    assert Event.objects.count() == 2


def test_one_bad_cell_makes_one_error_not_twenty(office, tmp_path, resident_id):
    """Item 5: a rating `abc` in one row and `7先9` in another gave 18 extra "opponent … out of range" lines."""
    from openpyxl import load_workbook

    from qiyuan.formats.report_xlsx import FIRST_ROW, LEAD, RESULTS_SHEET
    from qiyuan.office.imports import ImportRefused, Options, import_file

    path = write(tmp_path / "r.xlsx", field_of(resident_id, 10))
    wb = load_workbook(path)
    ws = wb[RESULTS_SHEET]
    ws.cell(FIRST_ROW, 8).value = "abc"
    ws.cell(FIRST_ROW + 3, len(LEAD) + 2).value = "7先9"
    wb.save(path)
    with pytest.raises(ImportRefused) as exc:
        import_file(path, office, "officer", options=Options(confirm_all=True))
    messages = exc.value.messages
    assert len(messages) == 2, messages
    assert any("'abc'" in m for m in messages) and any("7先9" in m for m in messages)
    assert not any("out of range" in m for m in messages)


def test_new_players_are_proposed_not_registered(office, tmp_path, resident_id):
    """Item 6: players found nowhere wait as proposals (an OpenGotha file registered 19 foreign players unasked)."""
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import NeedsConfirmation, Options, import_file

    path = write(tmp_path / "r.xlsx", field_of(resident_id))
    with pytest.raises(NeedsConfirmation) as exc:
        import_file(path, office, "officer")
    assert len(exc.value.pending_matches) == 12 and all(not m.candidates for m in exc.value.pending_matches)
    assert "proposed as a new player" in str(exc.value.pending_matches[0].text) and not Player.objects.exists()
    result = import_file(path, office, "officer", options=Options(confirm={str(n): "new" for n in range(1, 13)}))
    assert result.new_players == 12 == Player.objects.count()


def test_opengotha_foreign_players_wait_for_confirm_all(tmp_path):
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import NeedsConfirmation, import_file

    from ._o2_fixtures import make_list, stated
    from .test_import_files import JUVISY

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    with pytest.raises(NeedsConfirmation) as exc:
        import_file(JUVISY, go, "officer", options=stated(confirm_all=False))
    assert exc.value.pending_matches and not Player.objects.exists()
    import_file(JUVISY, go, "officer", options=stated())
    assert Player.objects.count() == len(exc.value.pending_matches)


def test_facts_are_never_assumed(office, tmp_path, resident_id):
    """Item 2: a report that declares nothing, imported without the officer's facts, is refused naming them;
    stated, they are used; a stated fact contradicting the report is refused unless overridden (audited)."""
    from qiyuan.office.audit.models import AuditLog
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import ImportRefused, Options, import_file

    bare = write(tmp_path / "bare.xlsx", field_of(resident_id), facts={})
    with pytest.raises(ImportRefused) as exc:
        import_file(bare, office, "officer", options=Options(confirm_all=True))
    (p,) = exc.value.problems
    assert p.code == "import.facts_missing" and "organiser level" in str(p.params["facts"])
    assert "national event" in str(p.params["facts"]) and "international event" in str(p.params["facts"])
    regional = Options(confirm_all=True, organiser_level="regional", national=True, international=False)
    with pytest.raises(ImportRefused, match="CGA Art. 4"):  # stated: regional fails Art. 4 (was passed as state)
        import_file(bare, office, "officer", options=regional)
    declared = write(tmp_path / "declared.xlsx", field_of(resident_id), name="另一赛事", start=date(2024, 10, 2))
    with pytest.raises(ImportRefused) as exc:
        import_file(declared, office, "officer", options=Options(confirm_all=True, international=True))
    assert exc.value.problems[0].code == "import.facts" and str(exc.value.problems[0].params["fact"]) == "international event"
    import_file(declared, office, "officer", options=Options(confirm_all=True, international=True,
                                                              override_facts=True))
    ev = Event.objects.get()
    assert ev.international is True and ev.national is True and ev.organiser_level == "state"
    assert AuditLog.objects.filter(action="import").last().detail["facts_overridden"] == {
        "international": ["no", "yes"]}


def test_a_trf_refusal_names_the_file_not_the_upload_path(tmp_path):
    """Item 5: a TRF refusal showed the server's upload path (…/var/uploads/<hash>/garbage.trf), on the page and
    in the rejected-reports table."""
    from qiyuan.office.events.models import RejectedReport
    from qiyuan.office.imports import ImportRefused, import_file

    from ._o2_fixtures import make_list, stated

    folder = tmp_path / "var" / "uploads" / "0123abcd"
    folder.mkdir(parents=True)
    (folder / "garbage.trf").write_text("012 x\n001 garbage\nXXX\n", encoding="utf-8")
    with pytest.raises(ImportRefused) as exc:
        import_file(folder / "garbage.trf", make_list(), "officer", options=stated())
    assert exc.value.messages and not any(str(tmp_path) in m or "uploads" in m for m in exc.value.messages)
    assert not any(str(tmp_path) in r or "uploads" in r for r in RejectedReport.objects.get().reasons)


def test_the_report_carries_lines_for_the_facts_and_the_reader_takes_them(tmp_path):
    """Item 2: the 竞赛报告 gains lines for the facts (rows 17–22); empty declares nothing; a bad value is a cell
    problem."""
    from openpyxl import load_workbook

    from qiyuan.errors import InputError
    from qiyuan.formats.report_xlsx import FACT_ROWS, INFO_SHEET, read_report

    from .test_import_report import field_of as rows_of

    def resident(born, gender):  # the report's ID numbers are not read here
        return ""

    path = write(tmp_path / "r.xlsx", rows_of(resident, 6), facts={"organiser_level": "regional", "national": False})
    assert read_report(path)[1].facts == {"organiser_level": "regional", "national": False}
    wb = load_workbook(path)
    wb[INFO_SHEET].cell(FACT_ROWS["international"][0], 2).value = "也许"
    wb.save(path)
    with pytest.raises(InputError) as exc:
        read_report(path)
    assert [str(p.column) for p in exc.value.problems] == [f"Sheet {INFO_SHEET}, cell B{FACT_ROWS['international'][0]}"]
