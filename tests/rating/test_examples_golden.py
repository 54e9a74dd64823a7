"""Golden tests: every worked example of spec/examples.json, exactly, at every step shown."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from rating_builders import BJSH, CGA, EXAMPLES, GO, change, entry, event, game, player, rate, round_robin

from qiyuan.rating.newcomer import round_robin_dpa, round_robin_ra


def test_bjsh_2007_section16_worked_example_every_game():
    ex = EXAMPLES["bjsh_2007_section16"]
    # K as given: A has reached 2400 (K 10); B and C have played their 30 games (K 15).
    players = [player(p, v["rating"], games=30) for p, v in ex["players"].items()]
    ev = event("E", date(2008, 3, 1))
    games = [game("E", i + 1, a, b, {"1": "1-0", "0.5": "0.5-0.5", "0": "0-1"}[r])
             for i, (a, b, r) in enumerate(ex["games"])]
    h = rate(BJSH, players, [ev], games)
    for row in ex["per_game"]:
        c = change(h, row["player"], "E")
        assert c.K == row["K"]
        [line] = [ln for ln in c.lines if ln.opponent_id == row["opponent"]]
        assert line.D == row["D"]
        assert line.We == Decimal(row["We"])
        assert line.W == Decimal(row["W"])
        assert line.K == row["K"]
        assert line.dR == Decimal(row["dR"])
    for p, value in ex["new_unrounded"].items():
        assert entry(h, p).exact == Decimal(value)
    for p, value in ex["published"].items():
        assert entry(h, p).rating == value


# The FIDE 2003 field: rated A B D F G J with 8/7/6/4/3/1, unrated C E H I with 7/6/2/1 (n = 9).
FIDE_RR = [("A", "B", "1-0"), ("A", "D", "1-0"), ("A", "F", "1-0"), ("A", "G", "1-0"), ("A", "J", "1-0"),
           ("A", "C", "1-0"), ("A", "E", "1-0"), ("A", "H", "1-0"), ("A", "I", "0-1"), ("B", "D", "1-0"),
           ("B", "F", "1-0"), ("B", "G", "1-0"), ("B", "J", "1-0"), ("B", "C", "1-0"), ("B", "E", "0-1"),
           ("B", "H", "1-0"), ("B", "I", "1-0"), ("D", "F", "1-0"), ("D", "G", "1-0"), ("D", "J", "1-0"),
           ("D", "C", "0-1"), ("D", "E", "1-0"), ("D", "H", "1-0"), ("D", "I", "1-0"), ("F", "G", "1-0"),
           ("F", "J", "1-0"), ("F", "C", "0-1"), ("F", "E", "0-1"), ("F", "H", "1-0"), ("F", "I", "1-0"),
           ("G", "J", "1-0"), ("G", "C", "0-1"), ("G", "E", "0-1"), ("G", "H", "1-0"), ("G", "I", "1-0"),
           ("J", "C", "0-1"), ("J", "E", "0-1"), ("J", "H", "0-1"), ("J", "I", "1-0"), ("C", "E", "1-0"),
           ("C", "H", "1-0"), ("C", "I", "1-0"), ("E", "H", "1-0"), ("E", "I", "1-0"), ("H", "I", "1-0")]
FIDE_RATED = dict(zip("ABDFGJ", (2600, 2500, 2400, 2150, 2300, 2300)))
FIDE_UNRATED = {"C": "7", "E": "6", "H": "2", "I": "1"}


def fide_history(rules=CGA):
    players = [player(p, r) for p, r in FIDE_RATED.items()] + [player(p) for p in FIDE_UNRATED]
    ev = event("RR", date(2011, 3, 1), days=9, fmt="round_robin")
    return rate(rules, players, [ev], round_robin("RR", FIDE_RR))


def test_fide_2003_round_robin_ra_from_rar_and_dpa():
    ex = EXAMPLES["fide_2003_round_robin_newcomers"]
    ratings = [int(r) for r, _ in ex["rated"]]
    dpa = round_robin_dpa((Decimal(w), 9) for _, w in ex["rated"])
    assert sum(ratings) == 2375 * len(ratings)
    assert dpa == Decimal("29.5")
    assert round_robin_ra(ratings, dpa, 9) == Decimal(ex["Ra"])


def test_fide_2003_round_robin_newcomers_ru_and_published():
    ex = EXAMPLES["fide_2003_round_robin_newcomers"]
    h = fide_history()
    by_score = {v: k for k, v in FIDE_UNRATED.items()}
    for row in ex["unrated_ru"]:
        pid = by_score[row["score"]]
        c = change(h, pid, "RR")
        assert c.method == "newcomer"
        assert c.Rc == Decimal(ex["Ra"])
        assert c.W == Decimal(row["score"]) and c.N == row["games"] == c.games
        assert c.ru == Decimal(row["Ru"])
        e = entry(h, pid)
        assert (e.rating, e.status, e.games) == (row["published"], "active", 9)


def test_fide_2003_round_robin_ra_rounded_first_gives_2032_for_player_i():
    from dataclasses import replace
    h = fide_history(replace(CGA, round_ra_first=True))
    assert change(h, "I", "RR").ru == Decimal("2032.1")  # 2348 − 351 × 0.9
    assert entry(h, "I").rating == 2032


def test_cn_go_1995_round_robin_expected_scores():
    ex = EXAMPLES["cn_go_1995_round_robin_expected"]
    ids = "PQRS"
    players = [player(p, r) for p, r in zip(ids, ex["ratings"])]
    ev = event("G", date(1995, 3, 1), fmt="round_robin")
    games = round_robin("G", [(a, b, "1-0") for i, a in enumerate(ids) for b in ids[i + 1:]])
    h = rate(GO, players, [ev], games)
    for pid, we in zip(ids, ex["We"]):
        c = change(h, pid, "G")
        assert c.method == "go_round_robin"
        assert c.Rc == Decimal(ex["mean_all"])
        assert c.We == Decimal(we)
    assert sum(change(h, p, "G").We for p in ids) == 6


def test_cga_2011_swiss_rated_averaging():
    ex = EXAMPLES["cga_2011_swiss_rated"]
    me = player("X", ex["R"], games=40)
    opps = [player(f"O{i}", r) for i, r in enumerate(ex["rated_opponents"])]
    ev = event("S", date(2011, 3, 1))
    results = ["1-0", "1-0", "0-1"]  # W = 2
    games = [game("S", i + 1, "X", o.id, r) for i, (o, r) in enumerate(zip(opps, results))]
    c = change(rate(CGA, [me, *opps], [ev], games), "X", "S")
    assert c.method == "averaging" and c.K == ex["K"] and c.W == Decimal(ex["W"])
    assert c.D == ex["D"] and Decimal(ex["R"]) - c.D == ex["Rc_rounded"]
    assert c.Pd == Decimal(ex["Pd"]) and c.We == Decimal(ex["We"]) and c.delta == Decimal(ex["dR"])


def test_cga_2011_swiss_newcomer_ru():
    ex = EXAMPLES["cga_2011_swiss_newcomer"]
    for case in ex["cases"]:
        opps = [player(f"O{i}", r) for i, r in enumerate(ex["rated_opponents"])]
        wins = int(Decimal(case["W"]))
        results = ["1-0"] * wins + ["0-1"] * (len(opps) - wins)
        ev = event("S", date(2011, 3, 1))
        games = [game("S", i + 1, "U", o.id, r) for i, (o, r) in enumerate(zip(opps, results))]
        c = change(rate(CGA, [player("U"), *opps], [ev], games), "U", "S")
        assert c.Rc == Decimal(ex["Rc"])
        assert c.ru == Decimal(case["Ru"])
