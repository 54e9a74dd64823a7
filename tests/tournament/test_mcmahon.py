"""McMahon pairing for Go: a 40-player 5-round event with handicaps, handicaps as OpenGotha gave them, byes."""

from __future__ import annotations

import gettext
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats.opengotha import gotha_event, read_opengotha
from qiyuan.locale.catalogue import LOCALE
from qiyuan.tournament import go
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.eventfile import add_player, enter_result, new_event, pair_next
from qiyuan.tournament.go_tiebreaks import compute
from qiyuan.tournament.mcmahon import handicap_for, pair_go_round
from qiyuan.tournament.model import Entrant

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "opengotha"
CLUBS = ("北京", "上海", "杭州", "成都")


def _go_event(n: int, fmt: str = "go_mcmahon", seed: int = 1):
    rng = random.Random(seed)
    t = new_event("围棋赛", fmt=fmt, rounds=5)
    s = go.settings(t)
    s.bar, s.floor, s.hd_basis, s.hd_correction, s.hd_ceiling, s.hd_none_from = 2, -15, "rank", 1, 9, 0
    go.set_settings(t, s)
    ranks = {}
    for i in range(1, n + 1):
        add_player(t, Entrant(0, f"棋手{i}", club=CLUBS[i % 4], rating=2000 - 10 * i))
        ranks[i] = rng.randint(-20, 4)
    ps = go.players(t)
    for i, r in ranks.items():
        ps[i].grade = ps[i].rank = r
    go.set_players(t, ps)
    return t, rng


def _play(t, rng, rounds=5):
    for rnd in range(1, rounds + 1):
        pairing = pair_next(t)
        for black, white in pairing.boards:
            enter_result(t, rnd, black, rng.choice(["1-0", "0-1"]))
    return t


def test_forty_players_five_rounds_mcmahon_with_handicaps_no_repeat():
    t, rng = _go_event(40)
    _play(t, rng)
    seen = set()
    ps = go.players(t)
    stones = 0
    for e in t.entrants:
        assert len(e.rounds) == 5
        for rnd, c in enumerate(e.rounds, start=1):
            assert c.opponent is not None  # 40 players: nobody sits out
            pair = (min(e.number, c.opponent), max(e.number, c.opponent))
            if c.colour == "b":
                assert pair not in seen, f"repeat {pair}"
                seen.add(pair)
                h = ps[e.number].handicaps.get(rnd, 0)
                stones += h
                if h:  # the weaker player takes black
                    assert ps[e.number].rank <= ps[c.opponent].rank
                assert ps[c.opponent].handicaps.get(rnd, 0) == h
    assert len(seen) == 100 and stones > 0


def test_pairing_stays_inside_score_groups_when_it_can():
    t, rng = _go_event(40, seed=3)
    _play(t, rng, rounds=2)
    s, ps = go.settings(t), go.players(t)
    mms = compute(t, s, ps, upto=2)["MMS"]
    p = pair_go_round(t, 3)
    diffs = sorted(abs(mms[b.black] - mms[b.white]) for b in p.boards)
    assert sum(1 for d in diffs if d == 0) >= len(diffs) // 2  # most boards inside one McMahon score


def test_explanations_name_every_board_and_translate():
    t, rng = _go_event(11)
    p = pair_go_round(t, 1)
    assert p.bye is not None and len(p.boards) == 5
    text = "\n".join(p.explanation)
    assert "pairing bye" in text and text.count("board ") == 5
    zh = gettext.translation("django", localedir=str(LOCALE), languages=["zh_Hans"]).gettext
    for line in p.explanation:  # every part of every line has its Chinese translation
        chinese = line.text(zh)
        assert not re.search(r"[A-Za-z]{3,}", chinese.replace("komi", "")), chinese
    board_line = next(x for x in p.explanation if x.startswith("board 1"))
    assert board_line.text(zh).startswith("第 1 台：")


def test_bye_goes_to_the_lowest_score_without_one():
    t, rng = _go_event(9, seed=5)
    byes = []
    for rnd in range(1, 5):
        pairing = pair_next(t)
        byes += pairing.byes
        for black, _ in pairing.boards:
            enter_result(t, rnd, black, "1-0")
    assert len(byes) == len(set(byes)) == 4


def test_go_swiss_has_no_handicap():
    t, rng = _go_event(12, fmt="go_swiss")
    _play(t, rng, rounds=3)
    assert not any(p.handicaps for p in go.players(t).values())


def test_handicaps_of_juvisy_reproduced_from_the_scores_before_each_round():
    """OpenGotha's 36 games: MMS difference, each side held at 1d (no-handicap grade), less 1, at most 9."""
    t = gotha_event(read_opengotha(DATA / "tournoi-de-juvisy-2019.xml"))
    s, ps = go.settings(t), go.players(t)
    checked = 0
    for rnd in range(1, 5):
        mms = compute(t, s, ps, upto=rnd - 1)["MMS"]
        for e in t.entrants:
            c = e.rounds[rnd - 1]
            if c.opponent and c.colour == "b":
                o = c.opponent
                got = handicap_for(s, mms[e.number] // 2, ps[e.number].rank, mms[o] // 2, ps[o].rank)
                assert got == ps[e.number].handicaps.get(rnd, 0), (rnd, e.name)
                checked += 1
    assert checked == 36


def test_imported_juvisy_continues_with_a_fifth_round():
    t = gotha_event(read_opengotha(DATA / "tournoi-de-juvisy-2019.xml"))
    t.rounds_planned = 5
    pairing = pair_next(t)
    assert pairing.number == 5 and len(pairing.boards) == 9  # Daguenet stays absent (not participating)
    for a, b in pairing.boards:
        assert b not in {c.opponent for c in t.entrants[a - 1].rounds[:4]}


def test_unpairable_field_is_refused():
    t, rng = _go_event(2)
    t.rounds_planned = 3
    pair_next(t)
    enter_result(t, 1, 1, "1-0")
    with pytest.raises(EventError, match="without a repeat"):
        pair_next(t)


def test_a_hand_made_pairing_gets_its_stones_too():
    from qiyuan.tournament.eventfile import set_pairing

    t, rng = _go_event(4, seed=2)
    ps = go.players(t)
    weakest = min(ps, key=lambda n: ps[n].rank)
    strongest = max(ps, key=lambda n: ps[n].rank)
    others = [n for n in ps if n not in (weakest, strongest)]
    set_pairing(t, 1, [(weakest, strongest), tuple(others)], None)
    s = go.settings(t)
    expected = handicap_for(s, 0, ps[weakest].rank, 0, ps[strongest].rank)
    assert expected > 0 and go.players(t)[weakest].handicaps == {1: expected}


@settings(max_examples=15, deadline=None)
@given(n=st.integers(3, 24), rounds=st.integers(1, 4), seed=st.integers(0, 10**6),
       fmt=st.sampled_from(["go_mcmahon", "go_swiss"]))
def test_every_round_pairs_everyone_present_once_no_repeat_no_second_bye(n, rounds, seed, fmt):
    t, rng = _go_event(n, fmt=fmt, seed=seed)
    rounds = min(rounds, n - 1 if n % 2 == 0 else n)  # a round robin's worth at most
    met, byes = set(), []
    for rnd in range(1, rounds + 1):
        try:
            pairing = pair_next(t)
        except EventError:  # only when no pairing without a repeat exists
            break
        seen = [x for b in pairing.boards for x in b] + list(pairing.byes)
        assert sorted(seen) == list(range(1, n + 1))
        for a, b in pairing.boards:
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            enter_result(t, rnd, a, rng.choice(["1-0", "0-1"]))
        byes += pairing.byes
    assert len(byes) == len(set(byes))
