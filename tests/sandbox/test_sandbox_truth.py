"""The synthetic histories with known strengths (bench/synth_history.py) and the sandbox against their truth."""

from __future__ import annotations

import csv
import sys

import pytest
from sandbox_builders import BENCH

from qiyuan.formats.history_csv import read_history
from qiyuan.formats.sandbox_files import read_colours

sys.path.insert(0, str(BENCH))
from synth_history import EVENTS_PER_YEAR, FIELD, PLAYERS, ROUNDS, YEARS, generate  # noqa: E402


def test_the_generator_writes_the_stated_federation(tmp_path):
    """480 players, 6 Swiss events a year of 48 players and 8 rounds for 10 years, about 12 % draws, every
    game's colours and its true expected score; the same seed gives the same files."""
    paths = generate(1, tmp_path / "a")
    data = read_history(paths["players"], paths["events"], paths["games"])
    assert len(data.players) == PLAYERS and len(data.events) == YEARS * EVENTS_PER_YEAR == 60
    assert len(data.games) == 60 * FIELD // 2 * ROUNDS == 11_520
    with paths["games"].open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    draws = sum(r["result"] == "0.5-0.5" for r in rows) / len(rows)
    assert 0.10 <= draws <= 0.14
    assert set(read_colours(paths["games"], data.games).tolist()) == {-1, 1}
    with paths["truth"].open(encoding="utf-8", newline="") as f:
        assert len(list(csv.DictReader(f))) == 11_520
    assert generate(1, tmp_path / "b")["games"].read_bytes() == paths["games"].read_bytes()


@pytest.mark.slow
def test_the_sandbox_orders_the_systems_as_the_truth_does(tmp_path):
    """Seed 1 (about half a minute): the measured order of the rows is the true one (pairs within two
    clustered SEs may swap) and WHR's tuned w² is within a factor 3 of the true 10."""
    from bench_sandbox_truth import measure

    m = measure(1, tmp_path)
    assert not m["swaps"] and 10 / 3 <= m["w2"] <= 30
