"""The rules page (规则): each rule set's settings and the lookup tables 附表1/附表2."""

from __future__ import annotations

from decimal import Decimal

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_page

from qiyuan.rating import tables


def table2_bands() -> list[tuple[int, int | None, Decimal, Decimal]]:
    """附表2 as printed: (|D| from, |D| to or None for "and above", H, L)."""
    bands: list[tuple[int, int | None, Decimal, Decimal]] = []
    start = 0
    values = tables.PD_HUNDREDTHS
    for d in range(1, len(values) + 1):
        if d == len(values) or values[d] != values[start]:
            hi = None if d == len(values) else d - 1
            h = Decimal(values[start]).scaleb(-2)
            bands.append((start, hi, h, Decimal(1) - h))
            start = d
    return bands


def table1_rows() -> list[tuple[Decimal, int | None]]:
    """附表1: (p, dp) from p = 1.00 down to 0.00."""
    return [(Decimal(i).scaleb(-2), tables.DP_BY_P_HUNDREDTHS[i]) for i in range(100, -1, -1)]


#: What each setting means, for the reader of the rules page (the key is shown beside it).
SETTING_LABELS = {
    "publication_months": _("公布月份（每年）"),
    "k_new": _("新棋手的 K"),
    "k_new_games": _("新棋手 K 适用的对局数"),
    "k_established": _("一般棋手的 K"),
    "k_top": _("高分棋手的 K"),
    "k_latch_rating": _("高分 K 的门槛（一旦达到即永久适用）"),
    "we_swiss": _("积分编排制的预期得分算法"),
    "we_team": _("团体赛的预期得分算法"),
    "we_match": _("对抗赛的预期得分算法"),
    "we_knockout": _("淘汰赛的预期得分算法"),
    "we_round_robin": _("循环赛的预期得分算法"),
    "cap": _("等级分差上限"),
    "rr_unrated_opponent": _("循环赛中对无等级分对手的处理"),
    "newcomer_method": _("新棋手的定分方法"),
    "start_rating_male": _("男子起始（临时）等级分"),
    "start_rating_female": _("女子起始（临时）等级分"),
    "newcomer_min_rated_opponents": _("每场比赛至少有等级分的对手数"),
    "newcomer_bonus_per_half_point": _("超过 50% 时每半分的加分"),
    "round_ra_first": _("先将 Ra 取整"),
    "dp_at_extremes": _("得分率 0 或 1 时的 dp"),
    "newcomer_min_games": _("首次定分所需对局数"),
    "newcomer_window": _("首次定分的期限类型"),
    "newcomer_window_length": _("首次定分的期限长度"),
    "zero_score_rule": _("零分规则"),
    "dan_start": _("以段级位定起始等级分"),
    "dan_start_registered_by": _("以段级位定分的注册截止日"),
    "dan_start_kyu": _("级位也可定起始等级分"),
    "reference_rating_start": _("以参考等级分定起始等级分"),
    "activity_window_months": _("活跃判定期（月）"),
    "activity_min_games": _("活跃所需对局数"),
    "reactivation_window_months": _("恢复活跃的判定期（月）"),
    "reactivation_min_games": _("恢复活跃所需对局数"),
    "removal_after_months": _("不活跃多少个月后除名"),
    "champion_rule": _("冠军不降分"),
    "champion_max_days": _("冠军规则适用的最长赛期（天）"),
    "champion_formats": _("冠军规则适用的赛制"),
    "international_min_score": _("国际比赛得分率达到此值不降分"),
}


def rule_sets() -> list[dict]:
    """Every built-in rule set as ``{"name", "title", "settings": [(key, label, value)]}``."""
    from qiyuan.rating import rules

    out = []
    for name in rules.BUILTIN_RULES:
        data = rules.rules_as_dict(rules.load_rules(name))
        title = data.get("title") or data.get("name") or name
        settings = [(k, SETTING_LABELS.get(k, ""), _flat(v)) for k, v in data.items() if k not in ("name", "title")]
        out.append({"name": name, "title": title, "settings": settings})
    return out


def _flat(value) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_flat(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_flat(v) for v in value)
    if value is None:
        return "—"
    return str(value)


@cache_page(3600)
def rules_page(request, name: str | None = None):
    sets = rule_sets()
    if name is not None and name not in {s["name"] for s in sets}:
        raise Http404("no such rule set")
    return render(
        request,
        "portal/rules.html",
        {
            "sets": [s for s in sets if name is None or s["name"] == name],
            "table1": table1_rows(),
            "table2": table2_bands(),
            "dan_table": list(tables.DAN_KYU_RATINGS.items()),
        },
    )
