"""Independent checks used by the tournament tests."""

from __future__ import annotations

import random

import numpy as np

from qiyuan.tournament.state import PlayerState

PRIME = 2_147_483_647  # 2**31 - 1: products of two residues fit in int64


def tutte_perfect(pool: list[int], met: dict[int, set[int]], had_bye: dict[int, bool], seed: int = 1) -> bool:
    """Does the "have not met" graph (plus a bye vertex if odd) have a perfect matching?

    Lovász's test: the Tutte matrix with random entries modulo a prime has
    full rank (with high probability) exactly when a perfect matching exists.
    Two independent draws must agree.
    """
    vs = list(pool) + ([0] if len(pool) % 2 else [])
    answers = {_tutte_rank_full(vs, met, had_bye, random.Random(seed + i)) for i in range(2)}
    return True in answers


def _tutte_rank_full(vs: list[int], met: dict[int, set[int]], had_bye: dict[int, bool], rng: random.Random) -> bool:
    n = len(vs)
    if n == 0:
        return True
    a = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            u, v = vs[i], vs[j]
            if u == 0:
                ok = not had_bye[v]
            elif v == 0:
                ok = not had_bye[u]
            else:
                ok = v not in met[u]
            if ok:
                x = rng.randrange(1, PRIME)
                a[i, j] = x
                a[j, i] = PRIME - x
    rank = 0
    for col in range(n):
        piv = next((r for r in range(rank, n) if a[r, col] % PRIME), None)
        if piv is None:
            continue
        a[[rank, piv]] = a[[piv, rank]]
        inv = pow(int(a[rank, col]), PRIME - 2, PRIME)
        a[rank] = (a[rank] * inv) % PRIME
        factors = a[:, col].copy()
        factors[rank] = 0
        a = (a - (factors[:, None] * a[rank][None, :]) % PRIME) % PRIME
        rank += 1
    return rank == n


def naive_opener(a: PlayerState, b: PlayerState, round_no: int) -> int:
    """The opener by the three rules, written out plainly."""
    def openings(s: PlayerState) -> float:
        return sum(1.0 if r == "b" else 0.5 if r == "U" else 0.0 for r in s.roles)

    if openings(a) < openings(b):
        return a.number
    if openings(b) < openings(a):
        return b.number

    def streak(s: PlayerState, role: str) -> bool:
        return s.roles[-2:] == (role, role)

    a_opens_bad = streak(a, "b") or streak(b, "w")
    b_opens_bad = streak(b, "b") or streak(a, "w")
    if a_opens_bad and not b_opens_bad:
        return b.number
    if b_opens_bad and not a_opens_bad:
        return a.number
    lo, hi = sorted((a.number, b.number))
    return lo if round_no % 2 else hi
