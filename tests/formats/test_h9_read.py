"""Issue 31 (5): an EGD ``.h9`` read as a Go event — the players, games, colours and handicaps OpenGotha's own
file holds — for ``qiyuan standings`` and ``office import``; bad input refused by line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiyuan.errors import InputError
from qiyuan.formats.h9 import read_h9, write_h9
from qiyuan.formats.opengotha import gotha_event, read_opengotha
from qiyuan.tournament import go
from qiyuan.tournament.go_tiebreaks import standings

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "opengotha"
CASES = Path(__file__).resolve().parent / "opengotha_cases"


def _games(t) -> set[tuple]:
    """Every board: (round, the two names, the first's colour and result, the stones)."""
    ps = go.players(t)
    names = {e.number: e.name for e in t.entrants}
    return {(r, names[e.number], names[c.opponent], c.colour, c.result, ps[e.number].handicaps.get(r, 0))
            for e in t.entrants for r, c in enumerate(e.rounds, start=1) if c.opponent is not None}


def test_the_juvisy_h9_reads_as_the_event_opengotha_kept():
    ours = read_h9((SHARED / "tournoi-de-juvisy-2019.h9").read_bytes(), "juvisy.h9")
    gold = gotha_event(read_opengotha(SHARED / "tournoi-de-juvisy-2019.xml"))
    assert _games(ours) == _games(gold)
    assert (ours.name, ours.city, ours.start_date, ours.end_date) == (gold.name, gold.city, gold.start_date,
                                                                      gold.end_date)
    assert [p.rank for p in go.players(ours).values()] == \
        [go.players(gold)[n].rank for n in sorted(go.players(gold), key=lambda n: [r.number for r in standings(
            gold, go.settings(gold), go.players(gold))].index(n))]
    s = go.settings(ours)
    assert s.criteria == ["MMS", "SOSM", "SOSOSM"] and s.komi == go.settings(gold).komi
    # standings from the games agree with the values the file wrote
    rows = standings(ours, s, go.players(ours))
    assert [r.values["MMS"] // 2 for r in rows][:4] == [36, 33, 33, 33]
    assert [r.values["SOSOSM"] // 2 for r in rows][:3] == [503, 512, 496]


@pytest.mark.parametrize("case", ["both-results.xml", "chinese-names.xml", "criteria-nbw-sosw-exr-rating.xml",
                                  "online.xml"])
def test_what_qiyuan_writes_it_reads_back_to_the_same_h9(case):
    """Every line but CM (the .h9 gives the adjusted time, not the overtime: it reads as sudden death)."""
    data = write_h9(gotha_event(read_opengotha(CASES / case)), pins=True).decode("latin-1")
    again = write_h9(read_h9(data.encode("latin-1"), case), pins=True).decode("latin-1")
    assert [x for x in again.splitlines() if not x.startswith("; CM[")] == \
        [x for x in data.splitlines() if not x.startswith("; CM[")]


@pytest.mark.parametrize("text, line, column, what", [
    ("; EV[x]\n   1 Foo Bar 3D FR 75Ju 36 0 2+/w0 x\n   2 Baz Qux 2K FR xxxx 30 1-/b0\n", 2, 36, "not a round"),
    ("; EV[x]\n   1 Foo Bar FR 75Ju 36 0 2+/w0\n", 2, 6, "a rank"),
    ("; EV[x]\n   1 Foo Bar 3D FR 75Ju 36 0 7+/w0\n   2 Baz Qux 2K FR xxxx 30 1-/b0\n", 2, 30, "not a row"),
    ("; DT[26/10/2019]\n   1 Foo Bar 3D FR 75Ju 36 0 2+/w0\n   2 Baz Qux 2K FR xxxx 30 1-/b0\n", 1, 3, "DT"),
    ("   1 Foo Bar 3D FR 75Ju 36 0 2+/w0\n   2 Baz Qux 2K FR xxxx 30 1=/b0\n", 1, 30, "do not agree"),
    ("   1 Foo Bar 3D FR 75Ju 36 0 2+/w0 |12a\n   2 Baz Qux 2K FR xxxx 30 1-/b0\n", 1, 36, "PIN"),
])
def test_bad_h9_refused_by_line_and_column(text, line, column, what):
    with pytest.raises(InputError) as exc:
        read_h9(text.encode("latin-1"), "bad.h9")
    p = exc.value.problems[0]
    assert (p.line, p.column) == (line, column) and what in str(exc.value), str(exc.value)


def test_not_an_h9():
    with pytest.raises(InputError, match="no player rows"):
        read_h9(b"; just a comment\n", "x.h9")
