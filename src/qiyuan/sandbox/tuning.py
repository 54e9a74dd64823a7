"""The forward protocol: the baselines' settings tuned on the burn-in only, then frozen for the test.

Everything before ``--from`` is the burn-in: the events that ended before
it. Each baseline predicts every burn-in event from the burn-in events that
ended before it started (as in the test), once per point of a grid; the
point with the lowest mean log loss over the burn-in games is kept (the
first such point in grid order on a tie). The grid (Coulom, *Whole-History
Rating*, 2008, tunes the same parameters on earlier games):

* Elo: the scale × K per point of scale (``ELO_SCALE`` × ``ELO_K_PER_SCALE``:
  K/scale is the step in logistic units, the scale how far apart the
  rule set's starts put the players);
* Glicko-2: τ × a newcomer's RD (``GLICKO_TAU`` × ``GLICKO_RD``);
* WHR: w² (``WHR_W2``, Elo² per day).

WHR's grid shares one run's work budget (``WhrSettings.budget`` split over its
points), so on a large history each point refits at fewer dates. The test
games are never seen by the search; then every system learns the
whole burn-in (its warm-up) and predicts the test with the chosen values.
A burn-in without a played game leaves the defaults (``Tuned.searched``
false).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import Problem, joined, problem
from qiyuan.rating.model import Player
from qiyuan.rating.rules import RuleSet
from qiyuan.sandbox import elo, glicko2
from qiyuan.sandbox.elo import predict_elo
from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.glicko2 import predict_glicko2
from qiyuan.sandbox.metrics import game_log_loss
from qiyuan.sandbox.prediction import Progress
from qiyuan.sandbox.whr import WhrSettings, predict_whr

ELO_SCALE = (400.0, 800.0, 1600.0, 3200.0, 6400.0)
ELO_K_PER_SCALE = (0.03, 0.05, 0.08, 0.12, 0.18, 0.27)  # K = this × scale (the textbook 32/400 is 0.08)
GLICKO_TAU = (0.05, 0.1, 0.2, 0.5, 0.8, 1.2)
GLICKO_RD = (100.0, 150.0, 200.0, 250.0, 350.0, 500.0)
WHR_W2 = (0.01, 0.05, 0.25, 1.0, 4.0, 12.9, 40.0, 120.0, 400.0)


@dataclass(frozen=True)
class Choice:
    """One baseline's tuned values, the grid searched and the burn-in log loss of the choice."""

    system: str
    values: dict[str, float]
    grid: dict[str, tuple[float, ...]]
    burn_in_log_loss: float  # nan: not searched

    def describe(self) -> Problem:
        """The values chosen, the grid and the burn-in log loss, as a template the reader's language fills
        (``elo: K = 24, scale = 800 — grid …``)."""
        chosen = joined([problem("{name} = {value}", name=setting_name(k), value=_num(v)) for k, v in self.values.items()])
        if self.burn_in_log_loss != self.burn_in_log_loss:  # nan
            return problem("{system}: {chosen} (defaults: no burn-in game to tune on)", system=self.system,
                           chosen=chosen)
        grid = joined([problem("{name} ∈ {values}", name=setting_name(k), values="{" + ", ".join(map(_num, g)) + "}")
                       for k, g in self.grid.items()], " × ")
        return problem("{system}: {chosen} — grid {grid}; burn-in log loss {loss}", system=self.system, chosen=chosen,
                       grid=grid, loss=f"{self.burn_in_log_loss:.4f}")


#: the tuned settings as people name them (docs/rating.md, "The protocol"): symbols as they are, words translated
SETTING_NAMES = {"scale": problem("scale"), "K/scale": problem("K per point of scale"), "tau": "τ",
                 "rd_new": problem("a newcomer's RD"), "w2": "w²"}


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
        return dataclasses.replace(base, w2=self.whr.values["w2"])


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


def tune(games: GameSet, players: Sequence[Player], rules: RuleSet, whr: WhrSettings = WhrSettings(), *,
         progress: Progress | None = None) -> Tuned:
    gs, mask = burn_in(games)
    n = int(mask.sum())
    nan = float("nan")
    if n == 0:
        return Tuned(Choice("elo", {"K": elo.K, "scale": elo.SCALE}, {}, nan),
                     Choice("glicko2", {"tau": glicko2.TAU, "rd_new": glicko2.RD_NEW}, {}, nan),
                     Choice("whr", {"w2": whr.w2}, {}, nan), 0, False)
    total = len(ELO_K_PER_SCALE) * len(ELO_SCALE) + len(GLICKO_TAU) * len(GLICKO_RD) + len(WHR_W2)
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
            loss = _loss(gs, mask, predict_elo(gs, players, rules, k=k, scale=scale).expected)
            if loss < best[0] - 1e-12:
                best = (loss, {"K": k, "scale": scale})
            tick()
    elo_choice = Choice("elo", best[1], {"scale": ELO_SCALE, "K/scale": ELO_K_PER_SCALE}, best[0])
    best = (np.inf, None)
    for tau in GLICKO_TAU:
        for rd in GLICKO_RD:
            loss = _loss(gs, mask, predict_glicko2(gs, players, rules, tau=tau, rd_new=rd).expected)
            if loss < best[0] - 1e-12:
                best = (loss, {"tau": tau, "rd_new": rd})
            tick()
    glicko_choice = Choice("glicko2", best[1], {"tau": GLICKO_TAU, "rd_new": GLICKO_RD}, best[0])
    best = (np.inf, None)
    for w2 in WHR_W2:
        # the grid shares one run's budget: on a large history each point refits less often
        point = dataclasses.replace(whr, w2=w2, budget=max(whr.budget // len(WHR_W2), 1))
        loss = _loss(gs, mask, predict_whr(gs, point)[0].expected)
        if loss < best[0] - 1e-12:
            best = (loss, {"w2": w2})
        tick()
    whr_choice = Choice("whr", best[1], {"w2": WHR_W2}, best[0])
    return Tuned(elo_choice, glicko_choice, whr_choice, n, True)
