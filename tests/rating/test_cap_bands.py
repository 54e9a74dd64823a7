"""The cap by rating band (``cap_bands``): a setting for the incentive audit (FIDE's 400-point rule and its
2650 exemption of October 2025). Both engines agree (``rate`` checks the fast engine against the reference)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from rating_builders import CGA, change, event, game, player, rate

from qiyuan.rating.rules import RulesError, rules_as_dict, with_settings

CAP400 = with_settings(CGA, {"name": "cap400", "cap": 400})
FIDE_2025 = with_settings(CGA, {"name": "fide-2025", "cap": 400, "cap_bands": [[2650, "none"]]})


def farming():
    """A 2700 and a 2500 each beat three 1800s (Swiss, averaging; K 10, both latched above 2000)."""
    players = [player("T", 2700), player("S", 2500), *(player(f"W{i}", 1800) for i in range(6))]
    ev = event("E", date(2011, 3, 1))
    games = [*(game("E", r + 1, "T", f"W{r}", "1-0") for r in range(3)),
             *(game("E", r + 1, "S", f"W{r + 3}", "1-0") for r in range(3))]
    return players, [ev], games


def test_cga_6_cap_by_rating_band_exempts_the_top_band():
    """With cap 400 both farm: We = 3 × PD(400) = 2.76, ΔR = 10 × 0.24 = +2.40. With the 2650 band
    uncapped, T (2700) is rated on the real difference (PD(900) = 1.00: We 3, ΔR 0); S (2500) keeps the cap."""
    players, events, games = farming()
    capped = rate(CAP400, players, events, games)
    assert change(capped, "T", "E").delta == change(capped, "S", "E").delta == Decimal("2.40")
    banded = rate(FIDE_2025, players, events, games)
    assert change(banded, "T", "E").delta == 0 and "rating_difference_capped" not in change(banded, "T", "E").notes
    assert change(banded, "S", "E").delta == Decimal("2.40")
    assert FIDE_2025.cap_for(2649) == 400 and FIDE_2025.cap_for(2650) is None


def test_cap_bands_round_trip_and_bad_values():
    assert with_settings(CGA, rules_as_dict(FIDE_2025)) == FIDE_2025  # as stored and as `rules show --toml` prints
    assert rules_as_dict(FIDE_2025)["cap_bands"] == [[2650, "none"]]
    assert "cap_bands" not in {k for k, v in rules_as_dict(CGA).items() if v}  # built-ins: no band
    for bad, message in (([2650, "none"], "pairs"), ([[2650]], "pairs"), ([[-1, 400]], "≥ 0"),
                         ([[2600, 0]], "≥ 1"), ([[2600, 400], [2600, 350]], "twice"), ("x", "pairs")):
        with pytest.raises(RulesError, match=message):
            with_settings(CGA, {"cap_bands": bad})


def test_an_old_stored_settings_dict_without_cap_bands_means_no_band():
    stored = {k: v for k, v in rules_as_dict(replace(CGA, cap=400)).items() if k != "cap_bands"}
    assert with_settings(CGA, stored).cap_bands == ()


FAR_BELOW = with_settings(CGA, {"name": "far-below", "far_below_not_rated": [2600, 500]})


def test_cga_6_far_below_not_rated_leaves_out_a_strong_players_games_against_much_weaker_ones():
    """far_below_not_rated = [2600, 500]: T (2700) is not rated on his games against the 1800s (900 below),
    which stay rated for them; S (2500) is below the rating and keeps his."""
    players, events, games = farming()
    h = rate(FAR_BELOW, players, events, games)
    t = change(h, "T", "E")
    assert t.games == 0 and t.delta == 0 and "far_below_not_rated" in t.notes
    assert change(h, "S", "E").games == 3 and change(h, "W0", "E").games == 1
    assert with_settings(CGA, rules_as_dict(FAR_BELOW)) == FAR_BELOW
    for bad in ([2600], [2600, -1], "x", [True, 3]):
        with pytest.raises(RulesError, match="far_below_not_rated"):
            with_settings(CGA, {"far_below_not_rated": bad})
