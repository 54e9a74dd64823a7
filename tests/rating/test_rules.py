"""Rule sets: the built-ins, TOML variants and their errors, and `qiyuan rules list/show`."""

from __future__ import annotations

import tomllib
from datetime import date
from decimal import Decimal

import pytest
import typer
from typer.testing import CliRunner

from qiyuan.cli.rules_cmd import register_rules
from qiyuan.rating.rules import (BUILTIN_RULES, SETTING_NAMES, RulesError, load_rules, rules_as_dict,
                                 rules_from_mapping)


def test_the_three_builtin_rule_sets():
    assert set(BUILTIN_RULES) == {"cga-gomoku-2011", "bjsh-gomoku-2007", "cn-go-1995"}
    cga, bjsh, go = (BUILTIN_RULES[n] for n in ("cga-gomoku-2011", "bjsh-gomoku-2007", "cn-go-1995"))
    assert (cga.publication_months, bjsh.publication_months, go.publication_months) == ((1, 7), (1, 4, 7, 10), (1, 7))
    assert (cga.k_latch_rating, bjsh.k_latch_rating, go.k_latch_rating) == (2000, 2400, None)
    assert (cga.we_swiss, cga.we_round_robin, go.we_round_robin, go.we_knockout) == (
        "averaging", "per_game", "go_round_robin", "per_game")
    assert cga.cap is None and cga.newcomer_bonus_per_half_point == Decimal("12.5")
    assert (bjsh.start_rating_male, bjsh.start_rating_female, bjsh.champion_max_days) == (2200, 2040, 20)
    assert go.international_min_score == Decimal("0.5") and go.activity_window_months is None


def test_load_rules_by_name():
    assert load_rules("cn-go-1995") is BUILTIN_RULES["cn-go-1995"]


def test_toml_variant_overrides_settings(tmp_path):
    path = tmp_path / "cap400.toml"
    path.write_text('base = "cga-gomoku-2011"\nname = "cga-cap400"\ncap = 400\nwe_round_robin = "averaging"\n'
                    'publication_months = [1, 4, 7, 10]\nnewcomer_bonus_per_half_point = "15"\n'
                    'dan_start_registered_by = "2011-12-31"\nk_latch_rating = "none"\n', encoding="utf-8")
    rules = load_rules(str(path))
    assert rules.name == "cga-cap400" and rules.cap == 400 and rules.we_round_robin == "averaging"
    assert rules.publication_months == (1, 4, 7, 10) and rules.newcomer_bonus_per_half_point == Decimal(15)
    assert rules.dan_start_registered_by == date(2011, 12, 31) and rules.k_latch_rating is None
    assert rules.k_new == 25  # not overridden: from the base


@pytest.mark.parametrize("value, expected", [(350, 350), (400, 400), ("none", None)])
def test_cap_takes_none_350_or_400(tmp_path, value, expected):
    path = tmp_path / "cap.toml"
    path.write_text(f'base = "cga-gomoku-2011"\ncap = {value!r}\n'.replace("'", '"'), encoding="utf-8")
    assert load_rules(path).cap == expected


def test_toml_variant_without_a_name_is_named_after_base_and_file(tmp_path):
    path = tmp_path / "fed.toml"
    path.write_text('base = "bjsh-gomoku-2007"\n', encoding="utf-8")
    assert load_rules(path).name == "bjsh-gomoku-2007+fed"


@pytest.mark.parametrize("text,message", [
    ('base = "cga-gomoku-2011"\nkk = 3\n', "unknown setting 'kk'"),
    ('base = "cga-gomoku-2011"\ncap = -1\n', "setting 'cap'"),
    ('base = "cga-gomoku-2011"\ncap = 0\n', "setting 'cap'"),
    ('base = "cga-gomoku-2011"\ncap = 300\n', "setting 'cap': expected none, 350 or 400, got 300"),
    ('base = "cga-gomoku-2011"\nwe_swiss = "magic"\n', "setting 'we_swiss': expected one of averaging"),
    ('base = "cga-gomoku-2011"\nround_ra_first = 1\n', "setting 'round_ra_first': expected true or false"),
    ('base = "cga-gomoku-2011"\nnewcomer_bonus_per_half_point = 12.5\n', "write the number as a string"),
    ('base = "cga-gomoku-2011"\npublication_months = [13]\n', "setting 'publication_months'"),
    ('base = "cga-gomoku-2011"\nchampion_formats = ["blitz"]\n', "setting 'champion_formats'"),
    ('base = "cga-gomoku-2011"\ndan_start_registered_by = "31.12.2007"\n', "setting 'dan_start_registered_by'"),
    ('base = "chess"\n', "setting 'base': unknown rule set 'chess'"),
    ('cap = 400\n', "missing 'base'"),
    ('base = "cga-gomoku-2011"\ncap = \n', "not valid TOML"),
])
def test_toml_variant_errors_name_the_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError, match=message) as info:
        load_rules(path)
    assert str(path) in str(info.value)


def test_toml_variant_lists_every_problem_at_once():
    with pytest.raises(RulesError) as info:
        rules_from_mapping({"base": "cga-gomoku-2011", "kk": 1, "cap": "big", "k_new": "x"})
    text = str(info.value)
    assert "'kk'" in text and "'cap'" in text and "'k_new'" in text


def test_unknown_name_and_missing_file():
    with pytest.raises(RulesError, match="unknown rule set 'fide'"):
        load_rules("fide")
    with pytest.raises(RulesError, match="no such file"):
        load_rules("/nonexistent/variant.toml")


@pytest.mark.parametrize("name", list(BUILTIN_RULES))
def test_rules_as_dict_has_every_setting_and_round_trips(name):
    rules = BUILTIN_RULES[name]
    settings = rules_as_dict(rules, every=True)
    assert tuple(settings) == SETTING_NAMES
    assert rules_from_mapping({"base": name, **settings}) == rules
    assert rules_from_mapping({"base": name, **rules_as_dict(rules)}) == rules  # colour_advantage 0 left out


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """qiyuan (test harness)"""

    register_rules(app)
    return app


def test_rules_list_command():
    result = CliRunner().invoke(_app(), ["rules", "list"])
    assert result.exit_code == 0
    for name in BUILTIN_RULES:
        assert name in result.output


def test_rules_show_command_prints_every_setting():
    result = CliRunner().invoke(_app(), ["rules", "show", "bjsh-gomoku-2007"])
    assert result.exit_code == 0
    assert "champion_max_days" in result.output and "2400" in result.output


@pytest.mark.parametrize("name", list(BUILTIN_RULES))
def test_rules_show_toml_is_a_valid_variant_file(tmp_path, name):
    result = CliRunner().invoke(_app(), ["rules", "show", name, "--toml"])
    assert result.exit_code == 0
    assert tomllib.loads(result.output)["base"] == name
    path = tmp_path / "go.toml"
    path.write_text(result.output, encoding="utf-8")
    assert load_rules(path) == BUILTIN_RULES[name]


def test_rules_show_toml_of_a_variant_file_round_trips(tmp_path):
    variant = tmp_path / "v.toml"
    variant.write_text('base = "bjsh-gomoku-2007"\nname = "fed"\ncap = 400\n', encoding="utf-8")
    result = CliRunner().invoke(_app(), ["rules", "show", str(variant), "--toml"])
    assert result.exit_code == 0
    assert tomllib.loads(result.output)["base"] == "bjsh-gomoku-2007"
    again = tmp_path / "again.toml"
    again.write_text(result.output, encoding="utf-8")
    assert load_rules(again) == load_rules(variant)


def test_rules_show_a_variant_file_and_a_bad_one(tmp_path):
    good = tmp_path / "v.toml"
    good.write_text('base = "cga-gomoku-2011"\ncap = 350\n', encoding="utf-8")
    result = CliRunner().invoke(_app(), ["rules", "show", str(good)])
    assert result.exit_code == 0 and "350" in result.output
    bad = tmp_path / "b.toml"
    bad.write_text('base = "cga-gomoku-2011"\ncapp = 350\n', encoding="utf-8")
    result = CliRunner().invoke(_app(), ["rules", "show", str(bad)])
    assert result.exit_code == 2 and "unknown setting 'capp'" in result.output


def test_every_setting_has_a_one_line_meaning():
    from qiyuan.rating.rules import SETTING_HELP

    assert set(SETTING_HELP) == set(SETTING_NAMES)
