"""Issue 36 (4): the rule-set setting ``colour_advantage`` — points added to Black's rating difference D in We for
the games whose colour is known (games.csv's ``black``), 0 (off) in every official rule set, which then write,
store and digest exactly what they did before the setting existed."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.errors import InputError
from qiyuan.formats.history_csv import read_history
from qiyuan.formats.rules_toml import rules_toml
from qiyuan.rating.expected import RatedGame, averaging, go_round_robin, per_game
from qiyuan.rating.history import compute_history
from qiyuan.rating.rules import (BUILTIN_RULES, SETTING_NAMES, RulesError, load_rules, rules_as_dict,
                                 rules_from_mapping, rules_with_overrides, with_settings)
from qiyuan.rating.tables import expected_score

from tests.kit.chains import editions, new_key
from tests.rating.test_cli_rate import GAMES, files, rate, rows

CGA = BUILTIN_RULES["cga-gomoku-2011"]
W1, HALF = Decimal(1), Decimal("0.5")

#: sha256 of each official rule set's ``inputs/rules.toml`` (``rules_toml``) and of the settings the office stores
#: for an edition (``rules_as_dict`` as JSON), as they were before ``colour_advantage`` existed (commit 189eb0f)
SERIALIZED_BEFORE = {
    "cga-gomoku-2011": ("1f06e5d251f8ef99df31da1e04f7d42934effa53a914ea47fe9139e3046ffd1c",
                        "353e6a52141b72d55bf4e3c60ed116ba6449dbe930c17ec7df1ab12b85695b0c"),
    "bjsh-gomoku-2007": ("d96dc78340a15661736733e6de91489b9d6250adecc11033ab097c2ea44dba2b",
                         "34e88fe16f38a15329eec3aadf9857d9524dd37e2ad354bec6b166d1b0757596"),
    "cn-go-1995": ("e7db23de878c951509dc7dff0acf15af6a907bbeef3e95ccf49e93a374f0cd37",
                   "a203c97c250ee53e1f1adf82ec07accc637c2734284ebb4a754d212fa9c1d733"),
}
#: the edition digests of the kit's small CGA chain (tests/kit/chains.py) before the setting existed
DIGESTS_BEFORE = ["a0f1ebf2ab50e4bfb5045b4a5b1991e92f04dff1146e3fa5f166eac726ea93da",
                  "2f12f94c5b17aa3649a1f6c3d293796ce6a9999b0f13941034d242723639fddd",
                  "d8d6fe796758c1075b500d10d8b118e642b871435257e467f31e237b378770d8"]


# --------------------------------------------------------------------------------------- off by default


@pytest.mark.parametrize("name", list(BUILTIN_RULES))
def test_colour_advantage_off_leaves_every_official_rule_sets_serialized_form_unchanged(name):
    rules = BUILTIN_RULES[name]
    assert rules.colour_advantage == 0
    toml_sha, stored_sha = SERIALIZED_BEFORE[name]
    assert hashlib.sha256(rules_toml(rules, name).encode()).hexdigest() == toml_sha
    stored = rules_as_dict(rules)
    assert "colour_advantage" not in stored
    assert hashlib.sha256(json.dumps(stored, ensure_ascii=False).encode()).hexdigest() == stored_sha
    assert with_settings(BUILTIN_RULES[name], stored) == rules  # an edition stored before the setting reads back


def test_colour_advantage_off_leaves_a_published_editions_digest_unchanged():
    assert [m.edition_digest for _, _, m in editions(new_key()[0])] == DIGESTS_BEFORE


def test_colour_advantage_is_written_when_set_and_shown_always():
    variant = replace(CGA, colour_advantage=16)
    assert rules_as_dict(variant)["colour_advantage"] == 16
    assert "colour_advantage = 16\n" in rules_toml(variant, CGA.name)
    assert rules_from_mapping({"base": CGA.name, **rules_as_dict(variant)}) == variant
    assert tuple(rules_as_dict(CGA, every=True)) == SETTING_NAMES
    result = CliRunner().invoke(app, ["rules", "show", "cga-gomoku-2011"], env={"QIYUAN_LANG": "en", "COLUMNS": "400"})
    assert result.exit_code == 0 and "colour_advantage" in result.stdout and "Black's rating" in result.stdout


def test_colour_advantage_is_refused_in_a_lists_overrides():
    """The office's games carry no colours: a list's overrides cannot set it (a setting that could not act)."""
    with pytest.raises(RulesError, match="colour_advantage"):
        rules_with_overrides("cga-gomoku-2011", "colour_advantage = 16\n", name="x")
    assert rules_with_overrides("cga-gomoku-2011", "colour_advantage = 0\n", name="x").colour_advantage == 0


@pytest.mark.parametrize("bad", [1.5, "16", True, 401, -401])
def test_colour_advantage_must_be_whole_points_within_400(bad):
    with pytest.raises(RulesError, match="colour_advantage"):
        with_settings(CGA, {"colour_advantage": bad})


# --------------------------------------------------------------------------------------- the expected score


def test_colour_advantage_per_game_golden():
    """R 2000 beats 1950, K 15. D = 50 → PD 0.57, ΔR = 15 × 0.43 = 6.45. With colour_advantage 16:
    as Black D = 50 + 16 = 66 → PD 0.59 (band 62–68), ΔR = 15 × 0.41 = 6.15;
    as White D = 50 − 16 = 34 → 0.55, ΔR = 6.75; colour unknown: 6.45 as without the setting."""
    def delta(colour: int) -> tuple[int, Decimal, Decimal]:
        calc = per_game(2000, 15, [RatedGame(1, "B", 1950, W1, colour)], advantage=16)
        return calc.lines[0].D, calc.We, calc.delta

    assert delta(1) == (66, Decimal("0.59"), Decimal("6.15"))
    assert delta(-1) == (34, Decimal("0.55"), Decimal("6.75"))
    assert delta(0) == (50, Decimal("0.57"), Decimal("6.45"))


def test_colour_advantage_per_game_comes_after_the_cap():
    """2400 vs 1900 with cap 400: D = 500 → 400 (PD 0.92, band 392–411), then Black's 16: 416 → PD 0.93 (band
    412–432)."""
    calc = per_game(2400, 10, [RatedGame(1, "B", 1900, W1, 1)], cap=400, advantage=16)
    assert (calc.lines[0].D, calc.We, calc.capped) == (416, Decimal("0.93"), True)
    assert per_game(2400, 10, [RatedGame(1, "B", 1900, W1, 0)], cap=400, advantage=16).We == Decimal("0.92")


def test_colour_advantage_averaging_golden():
    """R 2000 against 1900 (Black), 2000 (Black), 2100 (White), scores 2 of 3, K 15; colour_advantage 30.
    Rc = 2000; C = 30 × (2 − 1) / 3 = 10; D = 2000 − [2000 − 10] = 10 → Pd 0.51; We = 3 × 0.51 = 1.53;
    ΔR = 15 × (2 − 1.53) = 7.05 (without the setting D = 0, We = 1.50, ΔR = 7.50)."""
    games = [RatedGame(1, "a", 1900, W1, 1), RatedGame(2, "b", 2000, W1, 1), RatedGame(3, "c", 2100, Decimal(0), -1)]
    calc = averaging(2000, 15, games, advantage=30)
    assert (calc.Rc, calc.D, calc.Pd, calc.We, calc.delta) == (2000, 10, Decimal("0.51"), Decimal("1.53"),
                                                              Decimal("7.05"))
    c = next(s for s in calc.steps if s.symbol == "C")
    assert c.value == Fraction(10) and isinstance(c.value, Fraction)
    assert averaging(2000, 15, games).D == 0


def test_colour_advantage_go_round_robin_golden():
    """Go 1995 round robin, R 2000 with 1900 (Black), 2100 (White), 2000 (Black), colour_advantage 30: M = 4,
    Rc = 8000 / 4 = 2000, C = 30 × 1 / 3 = 10, D = 10 → Pa 0.51, We = 4 × 0.51 − ½ = 1.54."""
    games = [RatedGame(1, "a", 1900, W1, 1), RatedGame(2, "b", 2100, HALF, -1), RatedGame(3, "c", 2000, W1, 1)]
    calc = go_round_robin(2000, 20, games, advantage=30)
    assert (calc.D, calc.Pd, calc.We) == (10, Decimal("0.51"), Decimal("1.54"))


def test_colour_advantage_rounds_rc_less_c_half_up_exactly():
    """Rc 2000, C = 16 × 1 / 3 = 16/3: Rc − C = 1994⅔ → 1995, D = 5 (exact: no float anywhere)."""
    games = [RatedGame(1, "a", 1900, W1, 1), RatedGame(2, "b", 2000, W1, 1), RatedGame(3, "c", 2100, W1, -1)]
    calc = averaging(2000, 15, games, advantage=16)
    assert calc.D == 5 and next(s for s in calc.steps if s.symbol == "Rc − C").value == Fraction(5984, 3)


_game = st.builds(RatedGame, st.integers(1, 9), st.sampled_from("abcdef"), st.integers(1000, 2800),
                  st.sampled_from([Decimal(0), HALF, W1]), st.just(0))


@settings(max_examples=60, deadline=None)
@given(rating=st.integers(1000, 2800), games=st.lists(_game, min_size=1, max_size=8),
       advantage=st.integers(-400, 400), cap=st.sampled_from([None, 350, 400]))
def test_colour_advantage_leaves_games_without_colour_unaffected(rating, games, advantage, cap):
    for method in (per_game, averaging, go_round_robin):
        assert method(rating, 15, games, cap, advantage) == method(rating, 15, games, cap)


# --------------------------------------------------------------------------------------- through the history


BLACK = ["P1", "P3", "P4", "P3", "P4", "", "P1", "P1", "P2", "P4", "P1", "P4", "P3", "P5", "P5", "P3", "P5"]


def coloured(games: str, black: list[str]) -> str:
    lines = games.strip().splitlines()
    return "\n".join([lines[0] + ",black"] + [f"{line},{b}" for line, b in zip(lines[1:], black)]) + "\n"


def test_the_history_reader_gives_each_game_its_colour(tmp_path):
    f = files(tmp_path, games=coloured(GAMES, BLACK))
    data = read_history(f["players"], f["events"], f["games"])
    assert data.games.black.tolist() == [1, -1, 1, 1, 1, 0, 1, 1, 1, 1, -1, 1, -1, 1, 1, -1, -1]
    assert read_history(f["players"], f["events"], files(tmp_path / "..", games=GAMES)["games"]).games.black is None


def test_a_black_that_is_neither_player_is_bad_input_to_rate(tmp_path):
    f = files(tmp_path, games=coloured(GAMES, ["P1", "P9", *BLACK[2:]]))
    with pytest.raises(InputError) as err:
        read_history(f["players"], f["events"], f["games"])
    (p,) = err.value.problems
    assert (p.line, p.column) == (3, "black")
    result = rate(f, tmp_path / "o", exit_code=2)
    assert "line 3, black" in result.stderr and "P9" in result.stderr and not (tmp_path / "o").exists()


def _variant(tmp_path, advantage: int):
    path = tmp_path / f"colour{advantage}.toml"
    path.write_text(f'base = "cga-gomoku-2011"\nname = "cga-colour"\ncolour_advantage = {advantage}\n',
                    encoding="utf-8")
    return path


def test_qiyuan_rate_applies_a_variants_colour_advantage(tmp_path):
    """E1 (Swiss, averaging): P1 (2100) is rated on one game, the draw with P3 (1850) in which P3 had Black:
    C = 16 × (−1) / 1 = −16, D = 2100 − [1850 + 16] = 234; without the colours (or at 0) D = 250."""
    f = files(tmp_path, games=coloured(GAMES, BLACK))
    rate(f, tmp_path / "on", rules=str(_variant(tmp_path, 16)))
    rate(f, tmp_path / "off", rules=str(_variant(tmp_path, 0)))
    rate(files(tmp_path / "..", games=GAMES), tmp_path / "plain", rules=str(_variant(tmp_path, 16)))
    rate(f, tmp_path / "official")

    def p1_e1(out) -> dict[str, str]:
        return next(c for c in rows(out / "changes.csv") if (c["player_id"], c["event_id"]) == ("P1", "E1"))

    assert Decimal(p1_e1(tmp_path / "on")["We"]) == expected_score(234) == Decimal("0.79")
    assert Decimal(p1_e1(tmp_path / "off")["We"]) == expected_score(250) == Decimal("0.81")
    assert (tmp_path / "on" / "changes.csv").read_bytes() != (tmp_path / "off" / "changes.csv").read_bytes()
    for same in ("off", "plain"):  # at 0, or with no colour known: what the official rule set gives
        for name in ("changes.csv", "2012-07-01.csv"):
            assert (tmp_path / same / name).read_bytes() == (tmp_path / "official" / name).read_bytes()


def test_colour_advantage_both_engines_agree(tmp_path):
    f = files(tmp_path, games=coloured(GAMES, BLACK))
    data = read_history(f["players"], f["events"], f["games"])
    rules = replace(CGA, colour_advantage=40)
    fast = compute_history(rules, data.players, data.events, data.games, engine="fast")
    ref = compute_history(rules, data.players, data.events, data.games, engine="reference")
    assert fast.changes == ref.changes and fast.lists == ref.lists
    plain = compute_history(CGA, data.players, data.events, data.games, engine="reference")
    assert ref.changes != plain.changes


def test_rules_evaluate_scores_a_variant_with_colour_advantage(tmp_path):
    f = files(tmp_path, games=coloured(GAMES, BLACK))
    variant = _variant(tmp_path, 30)
    assert load_rules(variant).colour_advantage == 30
    out = tmp_path / "scores.csv"
    args = ["rules", "evaluate", "--rules", "cga-gomoku-2011", "--rules", str(variant),
            "--players", f["players"], "--events", f["events"], "--games", f["games"], "--from", "2011-09-01",
            "--csv", out]
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    table = {r["system"]: r for r in rows(out)}
    assert {"cga-gomoku-2011", "cga-colour"} <= set(table)
    assert table["cga-colour"]["log_loss"] != table["cga-gomoku-2011"]["log_loss"]
