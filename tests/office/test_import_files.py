"""Importing OpenGotha and TRF files: real files, registry matching with confirmation, eligibility, refusals."""

from __future__ import annotations

from datetime import date

import pytest

from tests.support import sheets

from ._o2_fixtures import FACTS, SHARED, make_list, stated

pytestmark = pytest.mark.django_db

JUVISY = SHARED / "data" / "opengotha" / "tournoi-de-juvisy-2019.xml"
CDF = SHARED / "data" / "opengotha" / "championnat-de-france-open-2020.xml"
LICHESS = SHARED / "data" / "trf" / "lichess-swiss-2020-05-29.trf"


def test_opengotha_juvisy_into_the_go_list_and_published():
    from qiyuan.office.events.models import Entry, Event, Game
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from qiyuan.office.verify import verify_all

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    result = import_file(JUVISY, go, "officer", options=stated())
    ev = Event.objects.get()
    assert (ev.name, ev.start_date, ev.end_date, ev.format) == ("Tournoi de Juvisy", date(2019, 10, 26),
                                                                date(2019, 10, 28), "swiss")
    assert result.new_players == 19 == Player.objects.count() == Entry.objects.count()
    assert Game.objects.count() == 36
    assert Player.objects.get(name="Li Boyuan").dan == "2d"
    assert ev.eligibility["eligible"] is True and ev.eligibility["family"] == "cn-go-1995"
    eds = publish_due(go, "officer")
    assert [e.list_date for e in eds] == [date(2020, 1, 1)]
    assert any(c["method"] != "not_rated" for c in sheets.changes(eds[0]))
    assert verify_all().ok


def test_opengotha_unknown_results_are_noted_not_rated():
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    result = import_file(CDF, go, "officer", options=stated())
    assert Game.objects.filter(result="--").count() == 11
    assert any("has no result" in n for n in map(str, result.notes))


def test_go_4_event_not_approved_at_state_level_is_rejected_and_kept():
    from qiyuan.office.events.models import Event, RejectedReport
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import ImportRefused, Options, import_file

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    with pytest.raises(ImportRefused) as exc:
        import_file(JUVISY, go, "officer", options=stated(organiser_level="regional"))
    assert exc.value.rejected
    assert any("Go §4" in p for p in exc.value.messages)
    assert not Event.objects.exists() and not Player.objects.exists()
    rej = RejectedReport.objects.get()
    assert rej.filename == JUVISY.name and any("Go §4" in r for r in rej.reasons) and rej.content


def test_same_opengotha_file_twice_is_refused():
    from qiyuan.office.events.models import Event
    from qiyuan.office.imports import ImportRefused, import_file

    go = make_list(code="GO", rules="cn-go-1995", game="go")
    import_file(JUVISY, go, "officer", options=stated())
    with pytest.raises(ImportRefused, match="already imported"):
        import_file(JUVISY, go, "officer", options=stated())
    assert Event.objects.count() == 1


def test_name_match_needs_confirmation_never_silent(make_player):
    from qiyuan.office.events.models import Event
    from qiyuan.office.federation.models import Player
    from qiyuan.office.imports import NeedsConfirmation, Options, import_file

    known = make_player(name="Nemo André", gender="M", association=None)
    go = make_list(code="GO", rules="cn-go-1995", game="go")
    with pytest.raises(NeedsConfirmation) as exc:
        import_file(JUVISY, go, "officer", options=stated(confirm_all=False))
    matches = [str(m.text) for m in exc.value.pending_matches if m.candidates]  # the others: proposed new players
    assert len(matches) == 1
    assert known.federation_id in matches[0] and "--confirm" in matches[0]
    assert not Event.objects.exists()
    # confirm by name: the registry player is used, not a new one
    import_file(JUVISY, go, "officer", options=stated(confirm={"Nemo André": known.federation_id}))
    assert Event.objects.get().entries.filter(player=known).exists()
    assert Player.objects.filter(name="Nemo André").count() == 1


def test_trf_without_arbiters_or_time_control_is_not_eligible_for_cga():
    from qiyuan.office.events.models import Event, RejectedReport
    from qiyuan.office.imports import ImportRefused, import_file

    cga = make_list()
    with pytest.raises(ImportRefused) as exc:
        import_file(LICHESS, cga, "officer", options=stated())
    text = "\n".join(exc.value.messages)
    assert "CGA Art. 5(一)" in text
    assert not Event.objects.exists()
    assert RejectedReport.objects.get().reasons == exc.value.messages


def test_import_cli_lists_problems_and_exits_2(tmp_path):
    from typer.testing import CliRunner

    from qiyuan.cli import app

    make_list(code="GO", rules="cn-go-1995", game="go")
    make_list()
    r = CliRunner().invoke(app, ["office", "import", str(JUVISY), "--list", "GO", "--organiser-level", "other", *FACTS])
    assert r.exit_code == 2 and "Go §4" in r.output
    ok = CliRunner().invoke(app, ["office", "import", str(JUVISY), "--list", "GO", "--organiser-level", "state",
                                           *FACTS])
    assert ok.exit_code == 0, ok.output
    assert "19 new player(s)" in ok.output
    again = CliRunner().invoke(app, ["office", "import", str(JUVISY), "--list", "GO", "--organiser-level", "state",
                                           *FACTS])
    assert again.exit_code == 2 and "already imported" in again.output
