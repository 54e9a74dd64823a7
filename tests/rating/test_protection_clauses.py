"""Clauses found on generated histories (issue 25): the champion rule in a team event without boards, the
reason given for Go's K, the others' scores behind a protection, and changes.csv's rows of events that did
not count for a newcomer. Each test names its clause."""

from __future__ import annotations

import csv
from datetime import date
from decimal import Decimal

import pytest
from rating_builders import BJSH, CGA, GO, change, entry, event, game, player, rate
from test_cga import national_team_event

from qiyuan.formats.rating_lists_csv import write_history
from qiyuan.rating.explain import render_explanation
from qiyuan.rating.rules import rules_as_dict, with_settings

#: The champion_formats every edition stored before issue 25 carries: without "team".
STORED_BEFORE = ["swiss", "round_robin", "match", "knockout"]


def team_event_without_boards():
    """A (2400) scores 2.5/3 against three 2000s in a team event whose games carry no board: he is its top
    scorer, and his draw costs him (raw ΣΔR < 0)."""
    players = [player("A", 2400), player("B", 2000), player("C", 2000), player("D", 2000)]
    ev = event("T", date(2011, 2, 1), fmt="team")
    games = [game("T", 1, "A", "B", "1-0"), game("T", 2, "A", "C", "1-0"), game("T", 3, "A", "D", "0.5-0.5")]
    return players, ev, games


@pytest.mark.parametrize("rules", [CGA, BJSH, GO], ids=lambda r: r.name)
def test_cga_6_4_bjsh_11_go_team_event_without_boards_keeps_the_champion_rule(rules):
    """spec/decisions.md: a team event without boards keeps the champion rule (per board only in a national
    team championship whose games carry boards) — under all three rule sets A stays at 2400, not 2397."""
    players, ev, games = team_event_without_boards()
    h = rate(rules, players, [ev], games)
    a = change(h, "A", "T")
    assert a.raw_delta < 0 and a.delta == 0 and "champion_protected" in a.notes
    assert entry(h, "A").rating == 2400
    assert "team" in rules.champion_formats


def test_cga_6_4_team_champion_rule_is_absent_from_editions_stored_before_it():
    """An edition stores every setting; one stored before lists champion_formats without "team" and, rebuilt
    from its stored settings, still publishes what it published (2397)."""
    players, ev, games = team_event_without_boards()
    stored = rules_as_dict(CGA) | {"champion_formats": STORED_BEFORE}
    old = with_settings(CGA, stored)
    h = rate(old, players, [ev], games)
    assert change(h, "A", "T").delta < 0 and entry(h, "A").rating == 2397


def test_cga_6_4_national_team_championship_with_boards_still_replaces_the_champion_rule():
    """With boards, the per-board rule takes the champion rule's place even now that team is a champion
    format: C2, ranked first but 0/1 on board 2, is not protected."""
    from rating_builders import standing

    players, ev, games = national_team_event()
    c2 = change(rate(CGA, players, [ev], games, [standing("T", "C2", 1)]), "C2", "T")
    assert c2.delta < 0 and "champion_protected" not in c2.notes


def test_go_k_10_for_everyone_the_explanation_gives_no_game_count():
    """Go 1995: K is 10 for every player; the explanation must not say 'fewer than 30 games' or 'at least'."""
    players = [player("A", 2000, games=5), player("B", 2000, games=50), player("C", 1900), player("D", 1900)]
    games = [game("E", 1, "A", "B", "1-0"), game("E", 2, "A", "C", "1-0"), game("E", 3, "B", "D", "1-0")]
    h = rate(GO, players, [event("E", date(2011, 3, 1))], games)
    by_id = {p.id: p for p in players}
    for pid in ("A", "B"):
        text = render_explanation(h, pid, by_id)
        assert "K = 10   (K is 10 for every player under cn-go-1995)" in text
        assert "fewer than 30" not in text and "at least 30" not in text


def test_cga_6_k_explanation_still_gives_the_game_count():
    players = [player("A", 1900, games=5), player("B", 1900), player("C", 1900), player("D", 1900)]
    games = [game("E", 1, "A", "B", "1-0"), game("E", 2, "A", "C", "1-0"), game("E", 3, "A", "D", "1-0")]
    h = rate(CGA, players, [event("E", date(2011, 3, 1))], games)
    assert "K = 25   (fewer than 30 games)" in render_explanation(h, "A", {p.id: p for p in players})


def test_cga_6_4_champion_protection_shows_the_others_scores():
    """冠军不降分 checked by a reader: the explanation gives the champion's score and the next best, with who."""
    players, ev, games = team_event_without_boards()
    games = [*games, game("T", 4, "B", "C", "1-0")]
    h = rate(CGA, players, [ev], games)
    text = render_explanation(h, "A", {p.id: p for p in players})
    assert "champion: highest score 2.5 (the next best: 1, by B)" in text


def test_cga_6_4_board_protection_shows_the_others_score_rates_on_his_board():
    """各台次得分率最高者 checked by a reader: every other player's score and games on that board."""
    players, ev, games = national_team_event()
    h = rate(CGA, players, [ev], games)
    text = render_explanation(h, "A1", {p.id: p for p in players})
    assert "best score rate on board 1: 0.5/1; the others on board 1: B1 0.5/1" in text


def test_formats_changes_csv_has_no_newcomer_row_with_0_games(tmp_path):
    """docs/formats.md: 0-game rows are `not_rated`. U, a newcomer, meets only two rated players in E1 (the
    event does not count for him: too few rated opponents) and four in E2: E1's row is not_rated with 0
    games and no Ru; E2's is his newcomer row."""
    players = [player("U"), *(player(f"R{i}", 2000) for i in range(4))]
    e1, e2 = event("E1", date(2011, 2, 1)), event("E2", date(2011, 3, 1))
    games = [game("E1", 1, "U", "R0", "1-0"), game("E1", 2, "U", "R1", "0-1"),
             *(game("E2", i + 1, "U", f"R{i}", "1-0" if i % 2 else "0-1") for i in range(4))]
    h = rate(CGA, players, [e1, e2], games)
    assert change(h, "U", "E1").method == "newcomer" and change(h, "U", "E1").games == 0  # the engine's record
    write_history(tmp_path, h, players)
    with (tmp_path / "changes.csv").open(encoding="utf-8", newline="") as fh:
        rows = {(r["player_id"], r["event_id"]): r for r in csv.DictReader(fh)}
    assert rows["U", "E1"]["method"] == "not_rated" and rows["U", "E1"]["games"] == "0"
    assert rows["U", "E1"]["Ru"] == "" and rows["U", "E1"]["We"] == ""
    assert rows["U", "E2"]["method"] == "newcomer" and rows["U", "E2"]["games"] == "4" and rows["U", "E2"]["Ru"]
    assert not [r for r in rows.values() if r["method"] == "newcomer" and r["games"] == "0"]
    assert Decimal(rows["U", "E2"]["W"]) == 2
