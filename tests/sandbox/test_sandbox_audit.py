"""``rules audit``: the incentives of a rule set, by hand on small histories and on the real one."""

from __future__ import annotations

import csv
from datetime import date

import pytest
from sandbox_builders import event, game, player, real_files, write_files
from test_sandbox_cli import history, run

from qiyuan.formats.history_csv import read_history
from qiyuan.rating.rules import BUILTIN_RULES, with_settings
from qiyuan.rating.tables import pd_hundredths
from qiyuan.sandbox.audit import audit

CGA = BUILTIN_RULES["cga-gomoku-2011"]
CAP400 = with_settings(CGA, {"name": "cga-cap-400", "cap": 400})
FIDE_2025 = with_settings(CGA, {"name": "cga-fide-2025", "cap": 400, "cap_bands": [[1990, "none"]]})


def small():
    """A (2000, latched: K 10), W (1500), B (1890), C (1895) on the starting list; A loses to B and C, then
    beats W (only A has a weaker player more than 400 below him)."""
    players = [player("A", 2000), player("W", 1500), player("B", 1890), player("C", 1895)]
    events = [event("E1", date(2011, 3, 1)), event("E2", date(2011, 9, 1))]
    games = [game("E1", 1, "A", "B", "0-1"), game("E1", 2, "A", "C", "0-1"), game("E1", 3, "A", "W", "1-0"),
             game("E2", 1, "B", "C", "1-0")]
    return players, events, games


def strategies(rules, players, events, games):
    return {s.name: s for s in audit(rules, players, events, games).strategies}


def test_audit_cap_farming_is_found_only_where_a_cap_cuts_the_table():
    """A against W: D = 500. Without a cap 附表2's PD(500) is both the truth and We: no gain. With the
    400-point cap, We is PD(400): A gains K × (PD(500) − PD(400)) = 10 × (PD(500) − 0.92) a game. With
    players rated 1990+ exempt (FIDE from October 2025), A is rated on the real difference again."""
    players, events, games = small()
    assert not strategies(CGA, players, events, games)["cap farming"].found
    farm = strategies(CAP400, players, events, games)["cap farming"]
    assert farm.found and farm.effect == pytest.approx(10 * (pd_hundredths(500) - pd_hundredths(400)) / 100)
    assert farm.control_mean == 0 and farm.se == 0  # the table is the control; one case per list, the same arithmetic
    assert "D 500, counted 400" in str(farm.example)
    assert strategies(FIDE_2025, players, events, games)["cap farming"].effect == 0
    floor = with_settings(CAP400, {"far_below_not_rated": [1990, 400]})  # no rated game 400+ below for A
    assert strategies(floor, players, events, games)["cap farming"].effect == 0


def test_audit_withdrawing_after_a_loss_counts_the_later_games():
    """A lost his first game of E1 to B; had he withdrawn, his later games (a loss to C: 10 × (0 − PD(105)),
    a win over W: 10 × (1 − PD(500))) would not have counted: per game, minus their mean. One case and
    no control group (every other player of E1 played once): an effect, but not found — no finding from
    a single player."""
    players, events, games = small()
    w = strategies(CGA, players, events, games)["withdrawing after a loss"]
    later = 10 * (0 - pd_hundredths(105) / 100) + 10 * (1 - pd_hundredths(500) / 100)
    assert w.cases == 1 and w.mean_per_game == pytest.approx(-later / 2)
    assert w.control_cases == 0 and not w.found


def test_audit_effects_are_measured_against_a_control_group_with_a_clustered_se():
    """Two events, each with a player who lost his first game and then lost again (treated) and one who won
    his first and then lost (control): the effect is the treated mean minus the control mean, its SE the
    two groups' clustered errors combined; an effect not two SEs above 0.05 is not found."""
    players = [player(p, 2000) for p in "ABCDEFGH"]
    events = [event("E1", date(2011, 3, 1)), event("E2", date(2011, 5, 1))]
    games = [game("E1", 1, "A", "B", "0-1"), game("E1", 2, "A", "C", "0-1"), game("E1", 2, "B", "D", "0-1"),
             game("E1", 1, "C", "D", "1-0"),
             game("E2", 1, "E", "F", "0-1"), game("E2", 2, "E", "G", "0-1"), game("E2", 2, "F", "H", "1-0"),
             game("E2", 1, "G", "H", "1-0")]
    w = strategies(CGA, players, events, games)["withdrawing after a loss"]
    assert w.cases >= 2 and w.control_cases >= 2
    assert w.effect == pytest.approx(w.mean_per_game - w.control_mean)
    assert w.se > 0 and w.found == (w.effect - 2 * w.se >= 0.05)


def test_audit_without_protected_players_reports_no_case():
    players, events, games = small()
    s = strategies(CGA, players, events, games)
    assert s["board protection"].cases == 0 and not s["board protection"].found


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    return real_files(tmp_path_factory)


def test_audit_on_the_real_history_finds_cap_farming_when_a_variant_models_the_fide_cap(real, tmp_path):
    """CGA as published (附表2 to 735, no cap): no farming. The variant with FIDE's 400-point rule (as before
    October 2025): farming found, a K-25 player against the weakest listed player."""
    variant = tmp_path / "cap400.toml"
    variant.write_text('base = "cga-gomoku-2011"\nname = "cga-cap-400"\ncap = 400\n', encoding="utf-8")
    out = tmp_path / "audit.csv"
    result = run("rules", "audit", variant, *history(real), "--csv", out)
    assert "incentive audit of cga-cap-400" in result.stdout
    with out.open(encoding="utf-8", newline="") as fh:
        rows = {r["strategy"]: r for r in csv.DictReader(fh)}
    assert rows["cap farming"]["found"] == "yes" and float(rows["cap farming"]["effect_per_game"]) > 0.05
    assert float(rows["cap farming"]["se"]) > 0  # clustered by list date
    data = read_history(real["players"], real["events"], real["games"])
    assert not strategies(CGA, data.players, data.events, data.games)["cap farming"].found


def test_audit_bad_input_exit_2(tmp_path):
    files = write_files(tmp_path, "id,name,gender,rating,games\n", "id\n", "x\n")
    result = run("rules", "audit", "no-such-rules", *history(files), exit_code=2)
    assert "unknown rule set 'no-such-rules'" in result.stderr and "nothing written" in result.stderr
