"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), one event = one rating period.

The update is Glickman's steps 2–8 vectorized over the players of an event
with NumPy (the Illinois iteration of step 5 included), on his scale
μ = (r − 1500)/173.7178, φ = RD/173.7178. It is checked against Glickman's
worked example and against the ``glicko2-py`` library (tests/sandbox): a
per-player library call costs too much for two million games, and the most
used Python package (``glicko2``) gets step 5 wrong when μ ≠ 0 (see
docs/decisions.md).

Starts: its own (players.csv's published rating, else the shared prior's
entry mean of his group, ``prior``), RD 200 for a player who holds one and
``rd_new`` (the prior's strength; default 350) for a newcomer, σ = 0.06,
τ = 0.5 by default; τ is tuned on the burn-in (``tuning``). A player not seen
yet is predicted from his start and RD (the prior). ``advantage`` (rating
points, 0 by default) is added to Black's μ in every expected score
(``GameSet.black``; nothing where the colours are not known), predicting and
learning alike: the colour term, for analysis. Between his events a
player's RD grows as in step 6, by σ² for every month (30.44 days) in which
he played nothing, up to 350. A game between A and B is predicted as
E = 1 / (1 + exp(−g(√(φ_A² + φ_B²)) · (μ_A − μ_B))).
"""

from __future__ import annotations

import numpy as np

from qiyuan.sandbox.games import LEARN, GameSet
from qiyuan.sandbox.prediction import Prediction, Progress, tick

SCALE = 173.7178  # Glickman's conversion between the Glicko and Glicko-2 scales
TAU = 0.5  # system constant τ
EPSILON = 1e-6  # convergence tolerance of step 5
RD_HELD, RD_NEW, RD_MAX = 200.0, 350.0, 350.0
VOLATILITY = 0.06
PERIOD_DAYS = 365.25 / 12


def g(phi: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(1.0 + 3.0 * phi**2 / np.pi**2)


def new_volatility(sigma: np.ndarray, phi: np.ndarray, v: np.ndarray, delta: np.ndarray,
                   tau: float = TAU, epsilon: float = EPSILON) -> np.ndarray:
    """Step 5: σ′ as the root of f by the Illinois algorithm, for every player at once."""
    a = np.log(sigma**2)
    phi2 = phi**2

    def f(x: np.ndarray) -> np.ndarray:
        ex = np.exp(x)
        return ex * (delta**2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau**2

    with np.errstate(all="ignore"):  # entries already converged may compute nonsense; they are not used
        big = delta**2 > phi2 + v
        B = np.where(big, np.log(np.where(big, delta**2 - phi2 - v, 1.0)), a - tau)
        k = np.ones_like(a)
        while True:
            more = ~big & (f(a - k * tau) < 0)
            if not more.any():
                break
            k = np.where(more, k + 1, k)
        B = np.where(big, B, a - k * tau)
        A = a.copy()
        fA, fB = f(A), f(B)
        active = np.abs(B - A) > epsilon
        while active.any():
            C = A + (A - B) * fA / (fB - fA)
            fC = f(C)
            cross = fC * fB <= 0
            A, fA = np.where(active & cross, B, A), np.where(active, np.where(cross, fB, fA / 2.0), fA)
            B, fB = np.where(active, C, B), np.where(active, fC, fB)
            active = np.abs(B - A) > epsilon
    return np.exp(A / 2.0)


def rate_period(mu: np.ndarray, phi: np.ndarray, sigma: np.ndarray, side: np.ndarray, opp_mu: np.ndarray,
                opp_phi: np.ndarray, score: np.ndarray, tau: float = TAU, edge: np.ndarray | float = 0.0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Steps 3–8 for players 0 … n−1 (``mu``/``phi``/``sigma``): each of their games is a side
    (``side`` = the player, the opponent's μ and φ, his score; ``edge`` his colour's advantage in μ units).
    Every player has at least one game."""
    n = mu.shape[0]
    gj = g(opp_phi)
    ej = 1.0 / (1.0 + np.exp(-gj * (mu[side] + edge - opp_mu)))
    v = 1.0 / np.bincount(side, gj**2 * ej * (1.0 - ej), n)
    improvement = np.bincount(side, gj * (score - ej), n)
    sigma_new = new_volatility(sigma, phi, v, v * improvement, tau)
    phi_star = np.sqrt(phi**2 + sigma_new**2)
    phi_new = 1.0 / np.sqrt(1.0 / phi_star**2 + 1.0 / v)
    return mu + phi_new**2 * improvement, phi_new, sigma_new


def predict_glicko2(games: GameSet, start: np.ndarray, held: np.ndarray, *, tau: float = TAU, rd_new: float = RD_NEW,
                    advantage: float = 0.0, progress: Progress | None = None) -> Prediction:
    adv_all = advantage / SCALE * games.black.astype(np.float64)  # player1's colour advantage in μ, per game
    mu = (start - 1500.0) / SCALE
    phi = np.where(held, min(RD_HELD, rd_new), rd_new) / SCALE
    rd_max = max(RD_MAX, rd_new) / SCALE
    sigma = np.full(start.shape[0], VOLATILITY)
    first_day = float(games.event_start.min())
    last = np.full(start.shape[0], first_day)
    known = held.copy()
    expected = np.full(games.player1.shape[0], 0.5)
    covered = np.zeros(games.player1.shape[0], bool)
    batches = list(games.batches())
    tick(progress, "glicko2", 0, len(batches))
    for n, (kind, events) in enumerate(batches, start=1):
        part = games.games_of_events(events)
        a, b = games.player1[part], games.player2[part]
        day = games.event_start[games.event[part]].astype(np.float64)
        if kind == LEARN:  # the events share no player: each player has one day
            who, first, inverse = np.unique(np.concatenate([a, b]), return_index=True, return_inverse=True)
            ia, ib = inverse[: a.shape[0]], inverse[a.shape[0]:]
            mu_now, phi_now = mu[who], _phi_at(phi[who], sigma[who], last[who], np.concatenate([day, day])[first],
                                               rd_max)
            side = np.concatenate([ia, ib])
            opp = np.concatenate([ib, ia])
            score = np.concatenate([games.score[part], 1.0 - games.score[part]])
            edge = np.concatenate([adv_all[part], -adv_all[part]])
            mu[who], phi[who], sigma[who] = rate_period(mu_now, phi_now, sigma[who], side, mu_now[opp],
                                                        phi_now[opp], score, tau, edge)
            end = games.event_end[games.event[part]].astype(np.float64)
            last[who] = np.concatenate([end, end])[first]
            known[who] = True
        else:
            phi_a = _phi_at(phi[a], sigma[a], last[a], day, rd_max)
            phi_b = _phi_at(phi[b], sigma[b], last[b], day, rd_max)
            expected[part] = 1.0 / (1.0 + np.exp(-g(np.sqrt(phi_a**2 + phi_b**2)) * (mu[a] + adv_all[part] - mu[b])))
            covered[part] = known[a] & known[b]
        tick(progress, "glicko2", n, len(batches))
    return Prediction("glicko2", expected, covered)


def _phi_at(phi: np.ndarray, sigma: np.ndarray, last: np.ndarray, day: np.ndarray,
            phi_max: float = RD_MAX / SCALE) -> np.ndarray:
    """φ on ``day``: grown by σ² for each month without an event since ``last`` (step 6), at most
    ``phi_max`` (RD 350, or the newcomer's RD when that is larger)."""
    idle = np.maximum(0.0, (day - last) / PERIOD_DAYS - 1.0)
    return np.minimum(np.sqrt(phi**2 + idle * sigma**2), phi_max)
