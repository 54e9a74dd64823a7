"""Go events from the terminal: a 40-player 5-round McMahon with handicaps, OpenGotha in and out, .h9, standings."""

from __future__ import annotations

import random
from pathlib import Path
from unittest import mock

import pytest
import typer
import typer.testing
from typer.testing import CliRunner

import qiyuan.cli.go  # noqa: F401  (registers the Go commands on the event group)
from qiyuan.cli.tournament import register
from qiyuan.formats.trf import read_trf
from qiyuan.tournament import go

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "opengotha"
JUVISY = DATA / "tournoi-de-juvisy-2019.xml"


app = typer.Typer()
register(app)


@app.callback()
def _root() -> None:
    """qiyuan (test harness: the tournament and Go commands only)."""


COMMAND = typer.main.get_command(app)  # built once: typer would rebuild it on every invoke


def run(*args, ok=True):
    with mock.patch.object(typer.testing, "_get_command", lambda _app: COMMAND):
        result = CliRunner().invoke(app, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


@pytest.mark.slow
def test_forty_player_mcmahon_with_handicaps_from_the_terminal(tmp_path):
    """Issue 21, done when: 40 players, 5 rounds, handicaps, no repeated pairing, from the terminal."""
    _terminal_event(tmp_path, 40, 5)


def test_twelve_player_mcmahon_from_the_terminal(tmp_path):
    _terminal_event(tmp_path, 12, 3)


def _terminal_event(tmp_path, players, rounds):
    ev = tmp_path / "go.trf"
    run("event", "new", ev, "--name", "围棋公开赛", "--format", "go_mcmahon", "--rounds", rounds)
    run("event", "go-settings", ev, "--bar", "3d", "--floor", "15k", "--handicap", "rank", "--correction", 1,
        "--ceiling", 9, "--no-handicap-from", "1d", "--criteria", "MMS,SOS,SOSOS", "--time", "60 byoyomi 30",
        "--komi", "7.5", "--rules", "chinese")
    rng = random.Random(7)
    for i in range(1, players + 1):
        run("event", "add-player", ev, f"棋手{i}", "--club", f"俱乐部{i % 5}")
        grade = rng.randint(-20, 4)
        run("event", "go-player", ev, i, "--grade", go.grade_text(grade), "--country", "CN")
    for rnd in range(1, rounds + 1):
        out = run("event", "pair", ev, "--explain")
        assert f"Round {rnd}" in out.stdout and "board 1:" in out.stdout
        t = read_trf(ev)
        items = [f"{e.number} {rng.choice(['1-0', '0-1'])}" for e in t.entrants
                 if e.rounds[rnd - 1].colour == "b"]
        run("event", "result", ev, rnd, *items)
    t = read_trf(ev)
    pairs = [frozenset((e.number, c.opponent)) for e in t.entrants for c in e.rounds if c.colour == "b"]
    boards = players // 2 * rounds
    assert len(pairs) == boards and len(set(pairs)) == boards  # no repeated pairing
    assert any(p.handicaps for p in go.players(t).values())
    st = run("standings", ev, "--csv").stdout.splitlines()
    assert st[0] == "place,number,name,rank,MMS,SOSM,SOSOSM" and len(st) == players + 1
    h9 = tmp_path / "go.h9"
    run("event", "export-h9", ev, "-o", h9)
    data = h9.read_bytes()
    assert b"Qi Shou" in data and b"?" not in data and b"; CL[A]" in data  # 棋手 in pinyin


def test_rank_above_the_grade_needs_the_directors_confirmation(tmp_path):
    ev = tmp_path / "go.trf"
    run("event", "new", ev, "--name", "Go", "--format", "go_mcmahon", "--rounds", 3)
    run("event", "add-player", ev, "张三")
    run("event", "go-player", ev, 1, "--grade", "3k")
    r = run("event", "go-player", ev, 1, "--rank", "1d", ok=False)
    assert r.exit_code == 2 and "claims 1d, above the official grade 3k" in r.stderr
    assert go.players(read_trf(ev))[1].rank == -3  # nothing written
    r = run("event", "go-player", ev, 1, "--rank", "1d", "--confirm")
    assert "warning: 张三 claims 1d" in r.stderr and go.players(read_trf(ev))[1].rank == 0


def test_criteria_changed_after_round_one_is_warned_and_recorded(tmp_path):
    ev = tmp_path / "go.trf"
    run("event", "new", ev, "--name", "Go", "--format", "go_swiss", "--rounds", 3)
    for i in range(4):
        run("event", "add-player", ev, f"P{i}")
    run("event", "pair", ev)
    r = run("event", "go-settings", ev, "--criteria", "NBW,SODOS,CUSS,DC")
    assert "criteria changed after round 1" in r.stderr
    s = go.settings(read_trf(ev))
    assert s.criteria == ["NBW", "SODOSM", "CUSSM", "DC"] and s.criteria_changes == [(1, ["NBW", "SOSW", "SOSOSW"])]
    assert run("event", "go-settings", ev, "--criteria", "SOSX", ok=False).exit_code == 2


def test_pairing_settings_changed_after_round_one_are_warned_and_recorded(tmp_path):
    """Issue 31: the terminal and the desk call one use case; a bar or komi changed after round 1 is warned, and
    the audit trail holds the change, old and new, and the round after which."""
    import json

    ev = tmp_path / "go.trf"
    run("event", "new", ev, "--name", "Go", "--format", "go_mcmahon", "--rounds", 3)
    for i in range(4):
        run("event", "add-player", ev, f"P{i}")
    r = run("event", "go-settings", ev, "--komi", "6.5")
    assert "warning" not in r.stderr  # before round 1: a plain change
    run("event", "pair", ev)
    r = run("event", "go-settings", ev, "--bar", "6d", "--komi", "6.5")
    assert "Go settings changed after round 1: bar 4d → 6d" in r.stderr and "komi" not in r.stderr.split("→ 6d")[1]
    entries = [json.loads(x) for x in (tmp_path / "go.trf.audit").read_text(encoding="utf-8").splitlines()]
    last = entries[-1]
    assert last["action"] == "event.go_settings" and last["after_round"] == 1
    assert last["changed"] == {"bar": ["4d", "6d"]}
    assert go.settings(read_trf(ev)).bar == 5


def test_opengotha_in_out_and_h9_straight_from_the_xml(tmp_path):
    ev, h9, back = tmp_path / "j.trf", tmp_path / "j.h9", tmp_path / "back.xml"
    run("event", "import-opengotha", JUVISY, "-o", ev)
    run("event", "export-h9", JUVISY, "-o", h9)
    gold = (DATA / "tournoi-de-juvisy-2019.h9").read_bytes().splitlines()
    assert [x for x in h9.read_bytes().splitlines() if b"Generated" not in x] == \
        [x for x in gold if b"Generated" not in x]
    run("event", "export-opengotha", ev, "-o", back)
    out = run("standings", back).stdout
    assert "Minieri Davide" in out.splitlines()[2] and "36" in out.splitlines()[2]


def test_bad_opengotha_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<?xml version='1.0'?><Tournament><Players>", encoding="utf-8")
    r = run("standings", bad, ok=False)
    assert r.exit_code == 2 and "OpenGotha" in r.stderr and "Traceback" not in r.stderr
    r = run("event", "export-h9", bad, "-o", tmp_path / "x.h9", ok=False)
    assert r.exit_code == 2 and not (tmp_path / "x.h9").exists()


@pytest.mark.django_db
def test_h9_takes_the_registrys_latin_name_of_a_matched_entrant(tmp_path, make_player):
    p = make_player("龚泽远", name_latin="Kung Tse-Yuan")
    ev, h9 = tmp_path / "go.trf", tmp_path / "go.h9"
    run("event", "new", ev, "--name", "Go", "--format", "go_mcmahon", "--rounds", 1)
    run("event", "add-player", ev, "龚泽远", "--player-id", p.federation_id)
    run("event", "add-player", ev, "吕安红")
    run("event", "go-settings", ev, "--time", "60 byoyomi 30")
    run("event", "pair", ev)
    run("event", "result", ev, 1, "1 1-0")
    run("event", "export-h9", ev, "-o", h9, "--registry")
    data = h9.read_bytes()
    assert b"Kung Tse-Yuan" in data and "Lü Anhong".encode("latin-1") in data and b"?" not in data


@pytest.mark.django_db
def test_rank_above_the_registrys_grade_is_flagged_at_entry(tmp_path, make_player):
    p = make_player("王小明", dan="2k")
    ev = tmp_path / "go.trf"
    run("event", "new", ev, "--name", "Go", "--format", "go_mcmahon", "--rounds", 1)
    run("event", "add-player", ev, "王小明", "--player-id", p.federation_id)
    r = run("event", "go-player", ev, 1, "--from-registry", "--rank", "1d", ok=False)
    assert r.exit_code == 2 and "claims 1d, above the official grade 2k" in r.stderr
    run("event", "go-player", ev, 1, "--from-registry")
    assert go.players(read_trf(ev))[1].grade == -2
    r = run("event", "go-player", ev, 1, "--from-registry", "--rank", "1d", "--confirm")
    assert "warning" in r.stderr and go.players(read_trf(ev))[1].rank == 0
