"""A synthetic federation (合成棋协) for the rating benchmark, as the four history CSV files.

Seeded and reproducible: the same --seed gives byte-identical files.
Defaults: 50,000 players (Chinese names, genders, some dan grades), 20 years,
2,000,000 games in a realistic mix of events — mostly Swiss (积分编排制) and
round robins (循环制), plus team events, matches and knock-outs — each
player with a hidden strength that decides his results (Elo odds, about one
draw in ten, a few forfeits).

    python bench/synth_federation.py --out bench/out/federation [--players N] [--games N] [--years N] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import polars as pl

SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
GIVEN = (
    "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉萍红娥玲芬燕鹏辉建国志宏文斌宇浩然欣怡子涵梓轩雨泽思远一鸣晓东海波俊峰"
    "嘉琪天佑博文雅婷佳怡晨曦紫萱昊天逸凡诗琪梦瑶子墨浩宇若汐清扬明哲书瑶安琪昕悦振华国庆立新卫东春梅秋月冬雪"
)
GRADES = [f"{n}d" for n in range(9, 0, -1)] + [f"{n}k" for n in range(1, 11)]

# (format, share of the games)
MIX = (("swiss", 0.66), ("round_robin", 0.22), ("team", 0.06), ("match", 0.02), ("knockout", 0.04))


@dataclass
class Spec:
    format: str
    size: int  # players
    rounds: int
    games: int


def _spec(rng: np.random.Generator, fmt: str) -> Spec:
    if fmt == "swiss":
        n = int(rng.integers(24, 161))
        r = int(rng.choice([5, 7, 7, 9, 9, 11])) if n > 20 else 5
        return Spec(fmt, n, r, (n // 2) * r)
    if fmt == "round_robin":
        n = int(rng.choice([6, 8, 10, 10, 12, 12, 14, 16]))
        cycles = 2 if rng.random() < 0.1 else 1
        return Spec(fmt, n, (n - 1) * cycles, n * (n - 1) // 2 * cycles)
    if fmt == "team":
        teams = int(rng.integers(6, 17)) // 2 * 2
        boards = 4
        r = int(rng.choice([5, 7]))
        return Spec(fmt, teams * boards, r, teams // 2 * boards * r)
    if fmt == "match":
        r = int(rng.choice([4, 6, 8, 10]))
        return Spec(fmt, 2, r, r)
    n = int(rng.choice([8, 16, 32]))
    return Spec(fmt, n, int(np.log2(n)), n - 1)


def _names(rng: np.random.Generator, count: int) -> list[str]:
    sur = rng.integers(0, len(SURNAMES), count)
    g1 = rng.integers(0, len(GIVEN), count)
    g2 = rng.integers(0, len(GIVEN), count)
    two = rng.random(count) < 0.7
    return [SURNAMES[s] + GIVEN[a] + (GIVEN[b] if t else "") for s, a, b, t in zip(sur, g1, g2, two)]


class Results:
    """Draws results from hidden strengths: codes 0 1-0, 1 0-1, 2 draw, 3 +-, 4 -+."""

    def __init__(self, rng: np.random.Generator, strength: np.ndarray):
        self.rng = rng
        self.strength = strength

    def play(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        rng = self.rng
        expected = 1.0 / (1.0 + 10.0 ** ((self.strength[b] - self.strength[a]) / 400.0))
        u = rng.random(a.shape[0])
        draw = rng.random(a.shape[0]) < 0.1
        res = np.where(u < expected, 0, 1).astype(np.int8)
        res[draw] = 2
        forfeit = rng.random(a.shape[0]) < 0.004
        res[forfeit] = np.where(rng.random(int(forfeit.sum())) < 0.5, 3, 4)
        return res


RESULT_TEXT = np.array(["1-0", "0-1", "0.5-0.5", "+-", "-+"])
POINTS = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, 0.0], [0.0, 1.0]])


def _swiss(res: Results, who: np.ndarray, rounds: int):
    rng = res.rng
    n = who.shape[0]
    score = np.zeros(n)
    out = []
    for r in range(1, rounds + 1):
        order = np.lexsort((rng.random(n), -score))
        half = n // 2 * 2
        a, b = order[0:half:2], order[1:half:2]
        result = res.play(who[a], who[b])
        score[a] += POINTS[result, 0]
        score[b] += POINTS[result, 1]
        out.append((np.full(a.shape[0], r), who[a], who[b], result))
    return out, score


def _round_robin(res: Results, who: np.ndarray, rounds: int):
    n = who.shape[0]
    score = np.zeros(n)
    i, j = np.triu_indices(n, 1)
    # Berger-like round numbers: pair (i, j) plays in round (i + j) mod (n - 1) + 1.
    base = (i + j) % (n - 1) + 1
    out = []
    for cycle in range(rounds // (n - 1)):
        a, b = (i, j) if cycle % 2 == 0 else (j, i)
        result = res.play(who[a], who[b])
        np.add.at(score, a, POINTS[result, 0])
        np.add.at(score, b, POINTS[result, 1])
        out.append((base + cycle * (n - 1), who[a], who[b], result))
    return out, score


def _team(res: Results, who: np.ndarray, rounds: int):
    rng = res.rng
    boards = 4
    teams = who.reshape(-1, boards)
    t = teams.shape[0]
    team_score = np.zeros(t)
    score = np.zeros(who.shape[0])
    out = []
    for r in range(1, rounds + 1):
        order = np.lexsort((rng.random(t), -team_score))
        ta, tb = order[0::2], order[1::2]
        a = teams[ta].ravel()
        b = teams[tb].ravel()
        result = res.play(a, b)
        pa = POINTS[result, 0].reshape(-1, boards).sum(axis=1)
        team_score[ta] += np.sign(pa - boards / 2) + 1
        team_score[tb] += 1 - np.sign(pa - boards / 2)
        ia = (ta[:, None] * boards + np.arange(boards)).ravel()
        ib = (tb[:, None] * boards + np.arange(boards)).ravel()
        score[ia] += POINTS[result, 0]
        score[ib] += POINTS[result, 1]
        out.append((np.full(a.shape[0], r), a, b, result))
    return out, score


def _match(res: Results, who: np.ndarray, rounds: int):
    out = []
    score = np.zeros(2)
    for r in range(1, rounds + 1):
        a, b = (who[:1], who[1:]) if r % 2 else (who[1:], who[:1])
        result = res.play(a, b)
        out.append((np.array([r]), a, b, result))
        i = 0 if r % 2 else 1
        score[i] += POINTS[result[0], 0]
        score[1 - i] += POINTS[result[0], 1]
    return out, score


def _knockout(res: Results, who: np.ndarray, rounds: int):
    rng = res.rng
    alive = np.arange(who.shape[0])
    score = np.zeros(who.shape[0])
    out = []
    for r in range(1, rounds + 1):
        a, b = alive[0::2], alive[1::2]
        result = res.play(who[a], who[b])
        score[a] += POINTS[result, 0]
        score[b] += POINTS[result, 1]
        first_wins = (result == 0) | (result == 3) | ((result == 2) & (rng.random(a.shape[0]) < 0.5))
        alive = np.where(first_wins, a, b)
        out.append((np.full(a.shape[0], r), who[a], who[b], result))
    return out, score


# Formats whose players are invited among those with some experience (most hold a rating).
INVITATIONAL = ("round_robin", "match", "knockout")
SEASONED_GAMES = 40

PLAY = {"swiss": _swiss, "round_robin": _round_robin, "team": _team, "match": _match, "knockout": _knockout}
DAYS = {"swiss": (2, 6), "round_robin": (3, 10), "team": (3, 8), "match": (1, 4), "knockout": (2, 5)}


def generate(out: Path, players: int, games: int, years: int, seed: int, start: date = date(2001, 1, 1)) -> dict:
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    horizon = int(years * 365.25)

    # Players: a founding generation holding ratings, the rest joining over the years.
    founders = max(1, players // 16)
    join = np.concatenate([np.zeros(founders, dtype=np.int64), rng.integers(0, horizon, players - founders)])
    join.sort()
    career = (365 + rng.exponential(6 * 365, players)).astype(np.int64)
    leave = join + career
    female = rng.random(players) < 0.22
    strength = rng.normal(1750, 230, players)
    rated = np.arange(players) < founders
    rating = np.where(rated, np.clip(np.round(strength + rng.normal(0, 60, players)), 1200, 2700), 0).astype(np.int64)
    has_dan = rng.random(players) < 0.2
    grade_index = np.clip(np.round((2600 - strength) / 45), 0, len(GRADES) - 1).astype(np.int64)
    ids = [f"P{i + 1:06d}" for i in range(players)]
    first_day = start
    players_frame = pl.DataFrame(
        {
            "id": ids,
            "name": _names(rng, players),
            "gender": np.where(female, "F", "M").tolist(),
            "dan": [GRADES[g] if d else "" for g, d in zip(grade_index, has_dan)],
            "rating": [str(r) if r else "" for r in rating.tolist()],
            "games": [str(int(g)) if r else "" for g, r in zip(rng.integers(30, 300, players), rating)],
            "k_latched": [("1" if r >= 2000 else "0") if r else "" for r in rating.tolist()],
            "registered_on": [(first_day + timedelta(days=int(d))).isoformat() for d in join.tolist()],
        }
    )
    players_frame.write_csv(out / "players.csv")

    # Events: draw sizes until the games are reached, then spread them over the years.
    fmts = [m[0] for m in MIX]
    share = np.array([m[1] for m in MIX])
    mean_games = {f: np.mean([_spec(np.random.default_rng(i), f).games for i in range(200)]) for f in fmts}
    prob = share / np.array([mean_games[f] for f in fmts])
    prob /= prob.sum()
    specs: list[Spec] = []
    total = 0
    while total < games:
        spec = _spec(rng, fmts[int(rng.choice(len(fmts), p=prob))])
        spec.games = min(spec.games, games - total) if spec.format == "swiss" else spec.games
        specs.append(spec)
        total += spec.games
    starts = np.sort(rng.integers(0, horizon - 10, len(specs)))
    res = Results(rng, strength)
    played = np.where(rated, SEASONED_GAMES, 0).astype(np.int64)  # games so far (founders are seasoned)
    event_rows = {k: [] for k in ("id", "name", "start_date", "end_date", "format", "international")}
    game_cols = {k: [] for k in ("event_id", "round", "player1", "player2", "result")}
    stand_cols = {k: [] for k in ("event_id", "player_id", "rank")}
    made = 0
    for number, (spec, day) in enumerate(zip(specs, starts.tolist()), start=1):
        pool = np.flatnonzero((join <= day) & (leave > day))
        if spec.format in INVITATIONAL:  # round robins, matches, knock-outs invite experienced players
            seasoned = pool[played[pool] >= SEASONED_GAMES]
            if seasoned.shape[0] >= spec.size:
                pool = seasoned
        if pool.shape[0] < spec.size:
            pool = np.flatnonzero(join <= day)
        if pool.shape[0] < spec.size:  # a small federation: anyone may come
            pool = np.arange(players)
        who = rng.choice(pool, size=spec.size, replace=False)
        rows, score = PLAY[spec.format](res, who, spec.rounds)
        eid = f"E{number:05d}"
        lo, hi = DAYS[spec.format]
        length = int(rng.integers(lo, hi + 1))
        event_rows["id"].append(eid)
        event_rows["name"].append(f"{2001 + day // 365}年第{number}届{_TITLE[spec.format]}")
        event_rows["start_date"].append((start + timedelta(days=day)).isoformat())
        event_rows["end_date"].append((start + timedelta(days=day + length - 1)).isoformat())
        event_rows["format"].append(spec.format)
        event_rows["international"].append("1" if rng.random() < 0.04 else "0")
        rnd = np.concatenate([r[0] for r in rows])
        a = np.concatenate([r[1] for r in rows])
        b = np.concatenate([r[2] for r in rows])
        result = np.concatenate([r[3] for r in rows])
        np.add.at(played, a, 1)
        np.add.at(played, b, 1)
        if spec.format == "swiss" and made + a.shape[0] > games:
            keep = games - made
            rnd, a, b, result = rnd[:keep], a[:keep], b[:keep], result[:keep]
        made += a.shape[0]
        game_cols["event_id"].append(np.full(a.shape[0], number, dtype=np.int32))
        game_cols["round"].append(rnd.astype(np.int32))
        game_cols["player1"].append(a.astype(np.int32))
        game_cols["player2"].append(b.astype(np.int32))
        game_cols["result"].append(result)
        if spec.format in ("swiss", "team"):  # official ranking with tie-breaks: one champion
            order = np.lexsort((rng.random(who.shape[0]), -score))
            stand_cols["event_id"].append(np.full(who.shape[0], number, dtype=np.int32))
            stand_cols["player_id"].append(who[order].astype(np.int32))
            stand_cols["rank"].append(np.arange(1, who.shape[0] + 1, dtype=np.int32))
    pl.DataFrame(event_rows).write_csv(out / "events.csv")
    id_series = pl.Series(ids)

    def ids_of(arr: np.ndarray) -> pl.Series:
        return id_series.gather(pl.Series(arr))

    def event_ids_of(arr: np.ndarray) -> pl.Series:
        return "E" + pl.Series(arr).cast(pl.String).str.zfill(5)

    pl.DataFrame(
        {
            "event_id": event_ids_of(np.concatenate(game_cols["event_id"])),
            "round": np.concatenate(game_cols["round"]),
            "player1": ids_of(np.concatenate(game_cols["player1"])),
            "player2": ids_of(np.concatenate(game_cols["player2"])),
            "result": RESULT_TEXT[np.concatenate(game_cols["result"])],
        }
    ).write_csv(out / "games.csv")
    pl.DataFrame(
        {
            "event_id": event_ids_of(np.concatenate(stand_cols["event_id"])),
            "player_id": ids_of(np.concatenate(stand_cols["player_id"])),
            "rank": np.concatenate(stand_cols["rank"]),
        }
    ).write_csv(out / "standings.csv")
    return {"players": players, "events": len(specs), "games": made}


_TITLE = {"swiss": "公开赛", "round_robin": "等级循环赛", "team": "团体赛", "match": "对抗赛", "knockout": "淘汰赛"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench/out/federation"))
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--years", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2011)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    info = generate(args.out, args.players, args.games, args.years, args.seed)
    print(
        f"synthetic federation in {args.out}: {info['players']:,} players, {info['events']:,} events, "
        f"{info['games']:,} games ({time.perf_counter() - t0:.1f} s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
