"""A withdrawn player is pre-filled ``0000 - Z`` for the round to be paired and every
remaining round (JaVaFo / bbpPairings; spec gomoku-swiss.md, TRF conventions) in what
`event export` and `pair -o` write, so an external engine never pairs him; the file
still round-trips identically."""

from __future__ import annotations

from pathlib import Path

from qiyuan.formats.trf import read_trf, write_trf
from tests.cli.test_tournament_cli import run, small_event


def cells(path: Path, number: int) -> list[str]:
    """The round cells of player ``number``'s 001 line, as written."""
    row = next(x for x in path.read_text(encoding="utf-8").splitlines()
               if x.startswith("001") and int(x[4:8]) == number)
    body = row[89:]
    return [body[i + 2: i + 10] for i in range(0, len(body), 10)]


def played_round_one(tmp_path: Path, rounds: int | None) -> Path:
    ev = small_event(tmp_path, 6, rounds)
    run("event", "pair", ev)
    t = read_trf(ev)
    for e in t.entrants:
        c = e.rounds[0]
        if c.colour == "b":
            run("event", "result", ev, 1, f"{e.number} 1-0")
    run("event", "withdraw", ev, 3)
    return ev


def test_export_prefills_every_remaining_round(tmp_path: Path):
    ev = played_round_one(tmp_path, 5)
    out = tmp_path / "out.trf"
    run("event", "export", ev, out)
    assert cells(out, 3)[1:] == ["0000 - Z"] * 4  # rounds 2..5
    assert len(cells(out, 1)) == 1
    text = out.read_text(encoding="utf-8")
    assert write_trf(read_trf(out)) == text  # round trip identical
    assert read_trf(out) == read_trf(ev)


def test_pair_output_prefills_remaining_rounds(tmp_path: Path):
    ev = played_round_one(tmp_path, 4)
    out = tmp_path / "r2.trf"
    r = run("pair", ev, "-o", out)
    paired = {int(x) for row in r.stdout.splitlines()[1:] for x in row.split()}
    assert 3 not in paired and {1, 2, 4, 5, 6} <= paired
    assert cells(out, 3)[1:] == ["0000 - Z"] * 3  # round 2 (just paired) .. 4
    assert write_trf(read_trf(out)) == out.read_text(encoding="utf-8")


def test_unknown_number_of_rounds_prefills_the_round_to_be_paired(tmp_path: Path):
    ev = played_round_one(tmp_path, None)
    assert cells(ev, 3)[1:] == ["0000 - Z"]
    t = read_trf(ev)
    assert len(t.entrants[2].rounds) == 1 and t.entrants[2].withdrawn_after == 1
    run("event", "pair", ev)  # our own engine skips him too
    assert read_trf(ev).entrants[2].rounds[1].opponent is None


def test_finished_event_has_no_prefill(tmp_path: Path):
    ev = played_round_one(tmp_path, 1)
    assert len(cells(ev, 3)) == 1
