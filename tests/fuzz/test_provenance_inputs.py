"""Fuzz the verifier's reading of version 3's added inputs: any bytes give named problems, never an error."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.errors import Problem
from qiyuan.formats import edition_bundle as B
from qiyuan.kit.provenance import input_problems

SEED = B.provenance_csv([("E1", 1, "A", "B", "phones", "x:player1:phone:20240302T1015Z", "", "trf", "ab" * 32)])
GAMES = b"event_id,round,player1,player2,result,board\nE1,1,A,B,1-0,\n"


def _mutated(data: bytes, at: int, insert: bytes, cut: int) -> bytes:
    at %= len(data) + 1
    return data[:at] + insert + data[at + cut:]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 400), st.binary(max_size=12), st.integers(0, 8),
       st.binary(max_size=80), st.sampled_from([b"", GAMES, b"\xff", b"round\n"]))
def test_any_provenance_or_head_bytes_give_problems_never_an_error(raw, at, insert, cut, head, games):
    for data in (raw, _mutated(SEED, at, insert, cut)):
        found = input_problems({B.PROVENANCE: data, B.AUDIT_HEAD: head, "inputs/games.csv": games}, 3)
        assert all(isinstance(p, Problem) and str(p) for p in found)
