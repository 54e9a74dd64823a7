"""A rule set as the TOML file ``qiyuan rate --rules`` reads (规则设置文件): ``base`` and every setting, so the
file alone gives back the same rule set whatever the built-in's defaults become."""

from __future__ import annotations

from qiyuan.rating.rules import RuleSet, rules_as_dict


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def rules_toml(rules: RuleSet, base: str) -> str:
    """The variant file of ``rules``: ``base = "<built-in>"``, then every setting (overriding all of the base's)."""
    lines = [f"base = {toml_value(base)}"]
    lines += [f"{key} = {toml_value(value)}" for key, value in rules_as_dict(rules).items()]
    return "\n".join(lines) + "\n"
