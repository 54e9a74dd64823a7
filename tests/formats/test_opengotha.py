"""OpenGotha tournament files: the real ones of ../shared/data/opengotha, and bad files listed at once."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from qiyuan.formats.errors import InputError
from qiyuan.formats.opengotha import read_opengotha
from qiyuan.rating.model import Result

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "opengotha"


def test_juvisy_2019_reads_players_games_and_parameters():
    t = read_opengotha(DATA / "tournoi-de-juvisy-2019.xml")
    assert (t.name, t.location, t.director) == ("Tournoi de Juvisy", "Juvisy", "Brice CHARTIER")
    assert (t.start_date, t.end_date, t.rounds) == (date(2019, 10, 26), date(2019, 10, 28), 4)
    assert len(t.players) == 19 and len(t.games) == 36
    by_key = {p.key: p for p in t.players}
    assert by_key["NEMOANDRÉ"].name == "Nemo André" and by_key["NEMOANDRÉ"].dan == "2k"
    first = [g for g in t.games if g.round == 1 and g.white == "MINIERIDAVIDE"][0]
    assert first.black == "DAGUENETMATHIEU" and first.result is Result.LOSS  # white won: black lost


def test_juvisy_agrees_with_its_h9_export():
    """The .h9 export gives Minieri Davide 4 wins; the XML must say the same."""
    t = read_opengotha(DATA / "tournoi-de-juvisy-2019.xml")
    wins = sum(1 for g in t.games if (g.white == "MINIERIDAVIDE" and g.result is Result.LOSS)
               or (g.black == "MINIERIDAVIDE" and g.result is Result.WIN))
    assert wins == 4


def test_championnat_2020_unknown_results_are_unplayed_and_noted():
    t = read_opengotha(DATA / "championnat-de-france-open-2020.xml")
    assert len(t.players) == 23 and len(t.games) == 77 and t.rounds == 7
    unknown = [g for g in t.games if g.raw_result == "RESULT_UNKNOWN"]
    assert len(unknown) == 11 and all(g.result is Result.NOT_PLAYED for g in unknown)
    assert len(t.notes) == 11
    assert t.time_control == "80"


def test_bad_file_lists_every_problem(tmp_path):
    src = (DATA / "tournoi-de-juvisy-2019.xml").read_text(encoding="utf-8")
    src = src.replace('whitePlayer="MINIERIDAVIDE"', 'whitePlayer="NOBODY"', 1)
    src = src.replace('result="RESULT_BLACKWINS"', 'result="RESULT_MAYBE"', 1)
    src = src.replace('beginDate="2019-10-26"', 'beginDate="26/10/2019"')
    bad = tmp_path / "bad.xml"
    bad.write_text(src, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_opengotha(bad)
    text = str(exc.value)
    assert "NOBODY" in text and "RESULT_MAYBE" in text and "beginDate" in text
    assert len(exc.value.problems) == 3


def test_not_an_opengotha_file(tmp_path):
    f = tmp_path / "x.xml"
    f.write_text("<html/>", encoding="utf-8")
    with pytest.raises(InputError, match="not an OpenGotha"):
        read_opengotha(f)
    f.write_text("this is not xml", encoding="utf-8")
    with pytest.raises(InputError, match="not a readable"):
        read_opengotha(f)
