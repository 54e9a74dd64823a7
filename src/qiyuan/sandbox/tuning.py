"""The forward protocol: the baselines' settings tuned on the burn-in only, then frozen for the test.

Everything before ``--from`` is the burn-in: the events that ended before
it. Each baseline predicts every burn-in event from the burn-in events that
ended before it started (as in the test), once per point of a grid; the
point with the lowest mean log loss over the burn-in games is kept (the
first such point in grid order on a tie). The grid (Coulom, *Whole-History
Rating*, 2008, tunes the same parameters on earlier games):

* Elo: the scale × K per point of scale (``ELO_SCALE`` × ``ELO_K_PER_SCALE``:
  K/scale is the step in logistic units, the scale how far apart the
  players.csv ratings and the prior put the players);
* Glicko-2: τ (``GLICKO_TAU``; a newcomer's RD is the shared prior's strength);
* WHR: w² (``WHR_W2``, Elo² per day), then its virtual draws at that w²
  (``WHR_VIRTUAL``, with the prior's own value), then w² again at those draws.

Every system starts from the same prior (``prior``), fitted on the burn-in.
A value chosen at the edge of its grid (the grid's first or last point) is
flagged (``Choice.edges``): the best may lie beyond it; the command warns.

WHR's grid shares one run's work budget (``WhrSettings.budget`` split over its
points), so on a large history each point refits at fewer dates. The test
games are never seen by the search; then every system learns the
whole burn-in (its warm-up) and predicts the test with the chosen values.
A burn-in without a played game leaves the defaults (``Tuned.searched``
false).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import Problem, joined, problem
from qiyuan.sandbox import elo, glicko2
from qiyuan.sandbox.elo import predict_elo
from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.glicko2 import predict_glicko2
from qiyuan.sandbox.metrics import game_log_loss
from qiyuan.sandbox.prediction import Progress
from qiyuan.sandbox.prior import Prior
from qiyuan.sandbox.whr import WhrSettings, predict_whr

ELO_SCALE = (200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0, 12800.0)
ELO_K_PER_SCALE = (0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.18, 0.27, 0.4)  # K = this × scale (textbook 32/400: 0.08)
GLICKO_TAU = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 1.2, 2.0)
WHR_W2 = (0.002, 0.01, 0.05, 0.25, 1.0, 2.0, 4.0, 7.0, 12.9, 20.0, 40.0, 120.0, 400.0, 1600.0)
WHR_VIRTUAL = (1, 2, 3, 4, 6, 8, 12, 16, 24)


@dataclass(frozen=True)
class Choice:
    """One baseline's tuned values, the grid searched and the burn-in log loss of the choice."""

    system: str
    values: dict[str, float]
    grid: dict[str, tuple[float, ...]]
    burn_in_log_loss: float  # nan: not searched

    @property
    def edges(self) -> list[str]:
        """The settings chosen at their grid's first or last point (the best may lie beyond)."""
        out = []
        for key, grid in self.grid.items():
            value = self.values.get(key) if key != "K/scale" else self.values["K"] / self.values["scale"]
            if len(grid) > 1 and value is not None and (math.isclose(value, grid[0]) or math.isclose(value, grid[-1])):
                out.append(key)
        return out

    def describe(self) -> Problem:
        """The values chosen, the grid and the burn-in log loss, as a template the reader's language fills
        (``elo: K = 24, scale = 800 — grid …``)."""
        chosen = joined([problem("{name} = {value}", name=setting_name(k), value=_num(v)) for k, v in self.values.items()])
        if self.burn_in_log_loss != self.burn_in_log_loss:  # nan
            return problem("{system}: {chosen} (defaults: no burn-in game to tune on)", system=self.system,
                           chosen=chosen)
        grid = joined([problem("{name} ∈ {values}", name=setting_name(k), values="{" + ", ".join(map(_num, g)) + "}")
                       for k, g in self.grid.items()], " × ")
        if not self.edges:
            return problem("{system}: {chosen} — grid {grid}; burn-in log loss {loss}", system=self.system,
                           chosen=chosen, grid=grid, loss=f"{self.burn_in_log_loss:.4f}")
        return problem("{system}: {chosen} — grid {grid}; burn-in log loss {loss} — warning: {names} at the edge of "
                       "its grid, the best may lie beyond", system=self.system, chosen=chosen, grid=grid,
                       loss=f"{self.burn_in_log_loss:.4f}", names=joined([setting_name(k) for k in self.edges]))


#: the tuned settings as people name them (docs/rating.md, "The protocol"): symbols as they are, words translated
SETTING_NAMES = {"scale": problem("scale"), "K/scale": problem("K per point of scale"), "tau": "τ",
                 "rd_new": problem("a newcomer's RD"), "w2": "w²",
                 "virtual_games": problem("virtual draws")}


def setting_name(key: str) -> Problem | str:
    return SETTING_NAMES.get(key, key)


@dataclass(frozen=True)
class Tuned:
    elo: Choice
    glicko2: Choice
    whr: Choice
    burn_in_games: int
    searched: bool

    def whr_settings(self, base: WhrSettings) -> WhrSettings:
        return dataclasses.replace(base, w2=self.whr.values["w2"], virtual_games=int(self.whr.values["virtual_games"]))


def _num(x: float) -> str:
    return f"{x:g}"


def burn_in(games: GameSet) -> tuple[GameSet, np.ndarray]:
    """The burn-in as a game set of its own (every burn-in event predicted, no test event learned) and
    the mask of its games."""
    until = games.from_date.toordinal()
    keep = games.event_end < until
    hi = np.where(keep, games.hi, games.lo)
    first = min(games.from_date, _first_day(games))
    gs = dataclasses.replace(games, hi=hi, from_date=first)
    return gs, keep[games.event]


def _first_day(games: GameSet) -> date:
    return date.fromordinal(int(games.event_start.min()))


def _loss(games: GameSet, mask: np.ndarray, expected: np.ndarray) -> float:
    return float(game_log_loss(expected[mask], games.score[mask]).mean())


def tune(games: GameSet, prior: Prior, start: np.ndarray, held: np.ndarray, whr: WhrSettings = WhrSettings(), *,
         unfitted: np.ndarray | None = None, progress: Progress | None = None) -> Tuned:
    """The baselines' settings on the burn-in, every system from the shared prior (``start``/``held``: the
    baselines' own starts, ``unfitted``: WHR's rating of a player with no game in its fit)."""
    gs, mask = burn_in(games)
    n = int(mask.sum())
    nan = float("nan")
    vg = prior.virtual_draws
    if n == 0:
        return Tuned(Choice("elo", {"K": elo.K, "scale": elo.SCALE}, {}, nan),
                     Choice("glicko2", {"tau": glicko2.TAU, "rd_new": prior.rd_new}, {}, nan),
                     Choice("whr", {"w2": whr.w2, "virtual_games": vg}, {}, nan), 0, False)
    virtual = tuple(sorted(set(WHR_VIRTUAL) | {vg}))
    total = len(ELO_K_PER_SCALE) * len(ELO_SCALE) + len(GLICKO_TAU) + 2 * len(WHR_W2) + len(virtual)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress("tuning on the burn-in", done, total)

    best = (np.inf, None)
    for scale in ELO_SCALE:
        for rate in ELO_K_PER_SCALE:
            k = rate * scale
            loss = _loss(gs, mask, predict_elo(gs, start, held, k=k, scale=scale).expected)
            if loss < best[0] - 1e-12:
                best = (loss, {"K": k, "scale": scale})
            tick()
    elo_choice = Choice("elo", best[1], {"scale": ELO_SCALE, "K/scale": ELO_K_PER_SCALE}, best[0])
    best = (np.inf, None)
    for tau in GLICKO_TAU:
        loss = _loss(gs, mask, predict_glicko2(gs, start, held, tau=tau, rd_new=prior.rd_new).expected)
        if loss < best[0] - 1e-12:
            best = (loss, {"tau": tau, "rd_new": prior.rd_new})
        tick()
    glicko_choice = Choice("glicko2", best[1], {"tau": GLICKO_TAU}, best[0])
    budget = max(whr.budget // (2 * len(WHR_W2) + len(virtual)), 1)  # the grid shares one run's budget

    def whr_loss(w2: float, games_: int) -> float:
        point = dataclasses.replace(whr, w2=w2, virtual_games=games_, budget=budget)
        return _loss(gs, mask, predict_whr(gs, point, unfitted=unfitted)[0].expected)

    best = (np.inf, None)
    for w2 in WHR_W2:
        best = min(best, (whr_loss(w2, vg), {"w2": w2, "virtual_games": vg}), key=_first)
        tick()
    for games_ in virtual:
        best = min(best, (whr_loss(best[1]["w2"], games_), {"w2": best[1]["w2"], "virtual_games": games_}),
                   key=_first)
        tick()
    for w2 in WHR_W2:
        best = min(best, (whr_loss(w2, best[1]["virtual_games"]),
                          {"w2": w2, "virtual_games": best[1]["virtual_games"]}), key=_first)
        tick()
    whr_choice = Choice("whr", best[1], {"w2": WHR_W2, "virtual_games": virtual}, best[0])
    return Tuned(elo_choice, glicko_choice, whr_choice, n, True)


def _first(pair: tuple) -> float:
    """Order of the candidates: by loss (``min`` keeps the earlier one on a tie)."""
    return pair[0]
