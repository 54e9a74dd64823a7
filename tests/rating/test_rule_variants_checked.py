"""Issue 18, item 7: a rule variant is checked field by field against the settings' types — by one validator for
``rules show``, ``rate --rules`` and ``office list add --overrides`` — and never ends in an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.rating.rules import (
    BUILTIN_RULES,
    SETTING_NAMES,
    RulesError,
    base_name,
    load_rules,
    rules_from_mapping,
    rules_with_overrides,
)

runner = CliRunner()


def variant(tmp_path: Path, text: str | bytes, name: str = "v.toml") -> Path:
    path = tmp_path / name
    (path.write_bytes if isinstance(text, bytes) else lambda t: path.write_text(t, encoding="utf-8"))(text)
    return path


@pytest.mark.parametrize("text,reason", [
    ("base = [1,2]\n", "setting 'base': unknown rule set [1, 2]"),
    ('base = "cga-gomoku-2011"\nk_new = "forty"\n', "setting 'k_new': expected a whole number"),
    ('base = "cga-gomoku-2011"\nk_new = 100000000000000000\n', "setting 'k_new': expected a whole number from 0"),
    ('base = "cga-gomoku-2011"\nnewcomer_bonus_per_half_point = "NaN"\n', "setting 'newcomer_bonus_per_half_point': expected a decimal"),
    ('base = "cga-gomoku-2011"\nnewcomer_bonus_per_half_point = [1]\n', "setting 'newcomer_bonus_per_half_point': expected a decimal"),
    ('base = "cga-gomoku-2011"\ncap = [350]\n', "setting 'cap': expected none, 350 or 400"),
    ('base = "cga-gomoku-2011"\nwe_swiss = {a = 1}\n', "setting 'we_swiss': expected one of"),
    ('base = "cga-gomoku-2011"\npublication_months = [[1]]\n', "setting 'publication_months'"),
    (b'base = "cga-gomoku-2011"\nname = "\xff\xfe"\n', "not UTF-8 text"),
    ("base = \n", "not valid TOML"),
])
def test_rules_show_and_rate_refuse_a_bad_variant_with_the_setting_named(tmp_path, text, reason):
    path = variant(tmp_path, text)
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert reason in str(info.value)
    shown = runner.invoke(app, ["rules", "show", str(path)])
    assert shown.exit_code == 2 and reason in shown.output, shown.output
    assert "internal error" not in shown.output


def test_rate_with_a_bad_variant_is_bad_input(tmp_path):
    path = variant(tmp_path, "base = [1,2]\n")
    for name in ("players", "events", "games"):
        (tmp_path / f"{name}.csv").write_text("id\n", encoding="utf-8")
    r = runner.invoke(app, ["rate", "--rules", str(path), "--players", str(tmp_path / "players.csv"),
                            "--events", str(tmp_path / "events.csv"), "--games", str(tmp_path / "games.csv"),
                            "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "setting 'base'" in r.output and "internal error" not in r.output, r.output


def test_base_name_of_a_bad_variant_is_a_refusal(tmp_path):
    with pytest.raises(RulesError, match="setting 'base'"):
        base_name(variant(tmp_path, "base = [1,2]\n"))
    with pytest.raises(RulesError, match="not UTF-8"):
        base_name(variant(tmp_path, b"base = '\xff'\n"))


def test_overrides_use_the_same_validator():
    with pytest.raises(RulesError, match="setting 'base': the list keeps rule set cga-gomoku-2011"):
        rules_with_overrides("cga-gomoku-2011", "base = [1,2]\n", name="x")
    with pytest.raises(RulesError, match="not UTF-8"):
        rules_with_overrides("cga-gomoku-2011", b"k_new = 40\n\xff", name="x")
    with pytest.raises(RulesError, match="setting 'k_new'"):
        rules_with_overrides("cga-gomoku-2011", "k_new = -4\n", name="x")
    assert rules_with_overrides("cga-gomoku-2011", "k_new = 40\n", name="x").k_new == 40


# -- fuzz ------------------------------------------------------------------------------------------------

_scalar = st.one_of(st.booleans(), st.integers(min_value=-2 ** 64, max_value=2 ** 64), st.text(max_size=10),
                    st.sampled_from(["none", "off", "NaN", "Infinity", "1e999", "12.5", "2024-02-30", "2024-01-01",
                                     "averaging", "per_game", "swiss", "pinyin"]))
_value = st.one_of(_scalar, st.lists(_scalar, max_size=3), st.dictionaries(st.text(max_size=3), _scalar, max_size=2))
_settings = st.dictionaries(st.sampled_from([*SETTING_NAMES, "base", "bogus"]), _value, max_size=6)


def _check_variant(data: dict, base: str | None) -> None:
    if base is not None:
        data = {"base": base, **data}
    try:
        rules = rules_from_mapping(data, source="fuzz.toml")
    except RulesError as exc:
        assert str(exc).strip()
        return
    assert rules.name


def _check_text(text: str | bytes) -> None:
    try:
        rules_with_overrides("cga-gomoku-2011", text, name="fuzz")
    except RulesError as exc:
        assert str(exc).strip()


_lines = st.lists(st.one_of(st.sampled_from([f"{k} = " for k in SETTING_NAMES]).flatmap(
    lambda k: st.sampled_from(["1", "-1", "[1,2]", '"x"', "true", "{a=1}", "1e400", "nan", '"2024-01-01"', ""]).map(
        lambda v: k + v)), st.text(max_size=20)), max_size=5).map("\n".join)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.one_of(_lines, st.binary(max_size=40)))
def test_fuzzed_overrides_text_is_accepted_or_refused_clearly(text):
    _check_text(text)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(_settings, st.one_of(st.none(), st.sampled_from(list(BUILTIN_RULES))))
def test_fuzzed_variants_are_accepted_or_refused_clearly(data, base):
    _check_variant(data, base)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(_settings, st.one_of(st.none(), st.sampled_from(list(BUILTIN_RULES))))
def test_fuzzed_variants_many(data, base):
    _check_variant(data, base)


# -- dan grant policies (another settings file read by the office) ------------------------------------------

_EXAMPLE = (Path(__file__).resolve().parents[2] / "src/qiyuan/data/grant-policy-example.toml").read_text(encoding="utf-8")


def _check_policy(text: str) -> None:
    from qiyuan.grading.policy import PolicyError, policy_from_toml

    try:
        policy_from_toml(text, file="policy.toml")
    except PolicyError as exc:
        assert str(exc).strip()


@st.composite
def _mangled_policy(draw):
    lines = _EXAMPLE.splitlines()
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        key = lines[i].split("=")[0] if "=" in lines[i] else draw(st.sampled_from(["grade", "since", "capped"]))
        lines[i] = key + "= " + draw(st.sampled_from(['"9d"', '"99d"', "[1,2]", "-1", '"2030-02-30"', "true", "{a=1}",
                                                       '"x"', "1e400", '"0.2"', '"NaN"', "1.5", '""']))
    return "\n".join(lines)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.one_of(_mangled_policy(), st.text(max_size=60)))
def test_fuzzed_dan_policies_are_read_or_refused_clearly(text):
    _check_policy(text)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.one_of(_mangled_policy(), st.text(max_size=200)))
def test_fuzzed_dan_policies_many(text):
    _check_policy(text)
