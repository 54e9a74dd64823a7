"""The rules page in words (规则说明): what each rule set says, article by article, written from its settings.

Each section names the articles of the official text it follows (CGA 第二条, Beijing–Shanghai 五、, Go 二、) and
states every setting in a sentence — "K = 25 for the first 30 rated games" — never the setting's key or a raw
value (the keys are in docs/rating.md). ``DESCRIBED`` lists the settings the sentences cover; a test fails when
the rule set gains a setting the page does not explain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from qiyuan.rating import rules as R
from qiyuan.rating.eligibility import eligibility_clauses
from qiyuan.rating.rules import RuleSet

from ..display import english
from ..labels import EVENT_FORMATS

MONTH_DAY = {
    1: gettext_lazy("1月1日"), 2: gettext_lazy("2月1日"), 3: gettext_lazy("3月1日"), 4: gettext_lazy("4月1日"),
    5: gettext_lazy("5月1日"), 6: gettext_lazy("6月1日"), 7: gettext_lazy("7月1日"), 8: gettext_lazy("8月1日"),
    9: gettext_lazy("9月1日"), 10: gettext_lazy("10月1日"), 11: gettext_lazy("11月1日"), 12: gettext_lazy("12月1日"),
}

#: The articles of each official text a section follows (shown beside the section's title).
ARTICLES = {
    "cga-gomoku-2011": {
        "publication": gettext_lazy("第二条（一）（二），第六条（三）"),
        "k": gettext_lazy("第六条（二）"),
        "expected": gettext_lazy("第五条（七）（十一），第六条（一）（二）（五）"),
        "newcomer": gettext_lazy("第二条（三），第五条（十二），第七条，第八条"),
        "start": gettext_lazy("第八条"),
        "activity": gettext_lazy("第二条（四）至（六）"),
        "champion": gettext_lazy("第六条（四）"),
        "eligibility": gettext_lazy("第四条，第五条"),
    },
    "bjsh-gomoku-2007": {
        "publication": gettext_lazy("五、十一、"),
        "k": gettext_lazy("十一、"),
        "expected": gettext_lazy("十一、"),
        "newcomer": gettext_lazy("十二、"),
        "start": gettext_lazy("十三、十四、"),
        "activity": gettext_lazy("五、"),
        "champion": gettext_lazy("十一、"),
        "eligibility": gettext_lazy("六、七、九、"),
    },
    "cn-go-1995": {
        "publication": gettext_lazy("二、"),
        "k": gettext_lazy("五、"),
        "expected": gettext_lazy("五、"),
        "newcomer": gettext_lazy("五、"),
        "start": gettext_lazy("一、三、"),
        "activity": gettext_lazy("二、"),
        "champion": gettext_lazy("五、"),
        "eligibility": gettext_lazy("四、"),
    },
}

_NUMERALS = "一二三四五六七八九十"


def chinese_number(n: int) -> str:
    """1 → 一, 12 → 十二, 20 → 二十 (article numbers)."""
    if n <= 10:
        return _NUMERALS[n - 1]
    tens, units = divmod(n, 10)
    return ("" if tens == 1 else _NUMERALS[tens - 1]) + "十" + (_NUMERALS[units - 1] if units else "")


def number_of(chinese: str) -> int | None:
    """一 → 1, 十二 → 12, 二十 → 20 (None if not a numeral of 1–99)."""
    for n in range(1, 100):
        if chinese_number(n) == chinese:
            return n
    return None


_CLAUSE = re.compile(r"^(CGA Art\.|BJSH §|Go §)\s*(\d+)(.*)$")
_SUB = re.compile(r"\(([一二三四五六七八九十]+)\)")


def clause_label(code: str) -> str:
    """A clause as the page's language writes it: ``CGA Art. 5(一)`` → 第五条（一） or Art. 5(1); ``BJSH §7`` → 七、."""
    m = _CLAUSE.match(code)
    if m is None:
        return code
    if english():
        return _SUB.sub(lambda s: f"({number_of(s.group(1)) or s.group(1)})", code)
    text, number, rest = m.groups()
    rest = rest.replace("(", "（").replace(")", "）")
    number = chinese_number(int(number))
    return f"第{number}条{rest}" if text.startswith("CGA") else f"{number}、{rest}"


@dataclass
class Section:
    key: str
    title: str
    articles: str
    sentences: list[str] = field(default_factory=list)
    clauses: list[tuple[str, str]] = field(default_factory=list)


def _window(rules: RuleSet) -> str:
    if rules.newcomer_window == R.WINDOW_CALENDAR_YEARS:
        return _("连续 %(n)s 个年度") % {"n": rules.newcomer_window_length}
    return _("%(n)s 个月") % {"n": rules.newcomer_window_length}


def _join(items: list[str]) -> str:
    return _("、").join(items)


def _publication(r: RuleSet) -> list[str]:
    return [
        _("等级分每年公布 %(n)s 次：%(dates)s。") % {"n": len(r.publication_months),
                                                "dates": _join([str(MONTH_DAY[m]) for m in r.publication_months])},
        _("比赛以结束日期计入统计期：在两次公布之间结束的比赛，计入下一次公布的等级分。"),
        _("公布的等级分取整数（四舍五入）；计算过程中的小数不舍入，一个统计期内各次比赛的变化值累加后才取整。"),
        *_list_order(r),
        UNPLAYED_WORDS[r.unplayed_mark],
    ]


TIE_WORDS = {
    R.TIE_PINYIN: gettext_lazy("名册按等级分由高到低排列；等级分相同者按姓名拼音排列。"),
    R.TIE_STROKES: gettext_lazy("名册按等级分由高到低排列；等级分相同者按姓氏笔画排列。"),
    R.TIE_ID: gettext_lazy("名册按等级分由高到低排列；等级分相同者按棋手编号排列。"),
}

INACTIVE_ORDER_WORDS = {
    R.INACTIVE_BY_RATING: gettext_lazy("不活跃棋手名册与等级分名册排列方法相同。"),
    R.INACTIVE_BY_PINYIN: gettext_lazy("不活跃棋手名册按姓名拼音排列。"),
}

UNPLAYED_WORDS = {
    R.UNPLAYED_PLUS_MINUS: gettext_lazy("竞赛报告中没有实际进行的对局记作 +（判胜）和 −（判负）。"),
    R.UNPLAYED_STAR: gettext_lazy("竞赛报告中没有实际进行的对局记作 *。"),
}


def _list_order(r: RuleSet) -> list[str]:
    out = [str(TIE_WORDS[r.list_tie_order])]
    if r.list_new_by_registration:
        out.append(_("等级分相同时，首次获得等级分的棋手排在后面，按注册先后排列。"))
    out.append(str(INACTIVE_ORDER_WORDS[r.inactive_list_order]))
    return out


def _k(r: RuleSet) -> list[str]:
    if r.k_new == r.k_established and (r.k_latch_rating is None or r.k_top == r.k_new):
        return [_("换算系数 K 始终为 %(k)s。") % {"k": r.k_new}]
    out = [_("换算系数 K：前 %(games)s 局计算等级分的对局 K = %(new)s，以后 K = %(est)s。")
           % {"games": r.k_new_games, "new": r.k_new, "est": r.k_established}]
    if r.k_latch_rating is not None:
        out.append(_("公布的等级分一经达到 %(latch)s 分，以后即使再降也永远取 K = %(top)s。")
                   % {"latch": r.k_latch_rating, "top": r.k_top})
    return out


METHOD_WORDS = {
    R.WE_AVERAGING: gettext_lazy("按所遇对手的平均等级分 Rc 计算：We = N × Pd，Pd 由 D = R − Rc（Rc 四舍五入取整）查附表2。"),
    R.WE_PER_GAME: gettext_lazy("逐局计算：We 为各局 PD(D) 之和，D = 本人等级分 − 对手等级分。"),
    R.WE_GO_ROUND_ROBIN: gettext_lazy("围棋循环赛公式：We = M × Pa − ½，M 为参赛人数，Pa 由本人等级分与全体参赛者平均等级分之差查附表2。"),
}

UNRATED_OPPONENT_WORDS = {
    R.RR_UNRATED_EVENT_RU: gettext_lazy("循环赛中，与无等级分对手的对局以该对手本次比赛的表现分 Ru（取整）作为他的等级分计算。"),
    R.RR_UNRATED_RA: gettext_lazy("循环赛中，与无等级分对手的对局以本次比赛的 Ra 作为他的等级分计算。"),
    R.RR_UNRATED_PROVISIONAL: gettext_lazy("循环赛中，与无等级分对手的对局以他的暂定等级分计算。"),
    R.RR_UNRATED_NOT_RATED: gettext_lazy("有等级分的棋手只根据他与有等级分对手的对局计算等级分。"),
}


def _expected(r: RuleSet) -> list[str]:
    out = [_("每次比赛的变化值 ΔR = K × (W − We)：W 为实得局分（胜 1、和 ½、负 0），We 为预期局分，由等级分差 D 查附表2 得出。")]
    for fmt in ("swiss", "round_robin", "team", "match", "knockout"):
        out.append(_("%(format)s：%(method)s") % {"format": EVENT_FORMATS[fmt],
                                                  "method": METHOD_WORDS[getattr(r, f"we_{fmt}")]})
    if r.cap is None:
        out.append(_("等级分差不设上限（D 超过 735 分时按附表2 取 1.00 与 0.00）。"))
    else:
        out.append(_("等级分差超过 %(cap)s 分时按 %(cap)s 分计算。") % {"cap": r.cap})
    if r.far_below_not_rated is not None:
        out.append(_("等级分在 %(rating)s 分以上的棋手，与比他低 %(gap)s 分以上的对手的对局不计算他的等级分。")
                   % {"rating": r.far_below_not_rated[0], "gap": r.far_below_not_rated[1]})
    for lo, cap in r.cap_bands:
        if cap is None:
            out.append(_("等级分在 %(rating)s 分以上的棋手，等级分差不设上限。") % {"rating": lo})
        else:
            out.append(_("等级分在 %(rating)s 分以上的棋手，等级分差超过 %(cap)s 分时按 %(cap)s 分计算。")
                       % {"rating": lo, "cap": cap})
    if r.colour_advantage:  # (a federation's variant only: every official rule set leaves it at 0)
        out.append(_("已知执黑方的对局，执黑方的等级分差 D 加 %(points)s 分、执白方减 %(points)s 分（在上限之后），再查附表2。")
                   % {"points": r.colour_advantage})
    out.append(str(UNRATED_OPPONENT_WORDS[r.rr_unrated_opponent]))
    out.append(_("没有实际进行的对局（弃权、轮空等），无论何种原因，一律不计算等级分。"))
    return out


def _newcomer(r: RuleSet) -> list[str]:
    if r.newcomer_method == R.NEWCOMER_NOT_RATED:
        return [_("没有等级分也没有段位的棋手，其对局不计算等级分。")]
    out = []
    if r.newcomer_method == R.NEWCOMER_PERFORMANCE:
        if r.newcomer_min_rated_opponents:
            out.append(_("无等级分棋手必须在一次比赛中至少与 %(n)s 名有等级分棋手相遇，这次比赛才为他计算表现分 Ru。")
                       % {"n": r.newcomer_min_rated_opponents})
        out.append(_("表现分 Ru：得分率 p = 0.5 时 Ru = Rc；p 高于 0.5 时每多得半分加 %(bonus)s 分；p 低于 0.5 时 "
                     "Ru = Rc + dp（循环赛为 Rc + dp × n/(n+1)），dp 查附表1。") % {"bonus": r.newcomer_bonus_per_half_point})
        out.append(_("循环赛中无等级分棋手的平均等级分 Ra = Rar − Dpa × n/(n+1)。") + (
            _("Ra 先四舍五入取整。") if r.round_ra_first else _("Ra 不先取整。")))
        out.append(_("在%(window)s内累计下满 %(games)s 局，公布首次等级分：各次比赛 Ru 按对局数加权的平均值。")
                   % {"window": _window(r), "games": r.newcomer_min_games})
        out.append(_("参赛时的暂定等级分：男子 %(m)s，女子 %(f)s（供编排和对手的计算使用）。")
                   % {"m": r.start_rating_male, "f": r.start_rating_female})
    else:
        out.append(_("新棋手以暂定等级分参赛：男子 %(m)s，女子 %(f)s，按 ΔR = K × (W − We) 逐局计算变化。")
                   % {"m": r.start_rating_male, "f": r.start_rating_female})
        out.append(_("在%(window)s内累计下满 %(games)s 局，公布首次等级分。")
                   % {"window": _window(r), "games": r.newcomer_min_games})
    if r.dp_at_extremes is None:
        out.append(_("得分率为 0 或 1 时 dp 为不定值。"))
    else:
        out.append(_("得分率为 0 或 1 时 dp 取 ±%(dp)s。") % {"dp": r.dp_at_extremes})
    out.append({
        R.ZERO_SCORE_REPEAT: _("无等级分棋手在比赛中得分为零时，他的成绩及与他对局的对手的成绩都不予考虑；去掉后若又有无等级分棋手得零分，照此重复。"),
        R.ZERO_SCORE_ONCE: _("无等级分棋手在比赛中得分为零时，他的成绩及与他对局的对手的成绩都不予考虑（只做一次）。"),
        R.ZERO_SCORE_OFF: _("不适用零分规则。"),
    }[r.zero_score_rule])
    return out


def _start(r: RuleSet) -> list[str]:
    out = []
    if r.dan_start:
        text = _("尚无等级分的棋手按段级位直接获得等级分（见下面的段级位表）。")
        if r.dan_start_registered_by is not None:
            text += _("限 %(date)s 以前注册的棋手。") % {"date": r.dan_start_registered_by.isoformat()}
            if r.dan_start_granted_by:
                text += _("此后注册的棋手，持有%(bodies)s授予的段位（不含级位）者仍按段级位表取得等级分。") % {
                    "bodies": _join([_(b) for b in r.dan_start_granted_by])}
        if not r.dan_start_kyu:
            text += _("只限段位，级位不换算。")
        out.append(text)
    else:
        out.append(_("段级位不直接换算为等级分：无等级分棋手按上面的新棋手规则取得等级分。"))
    if r.reference_rating_start:
        out.append(_("国际组织或外国公布的参考等级分也可作为起始等级分；与段级位都有时取较高者。"))
    return out


def _activity(r: RuleSet) -> list[str]:
    if r.activity_window_months is None:
        return [_("不区分活跃与不活跃：所有有等级分的棋手都列入名册。")]
    out = [_("有等级分的棋手连续 %(window)s 个月内完成的计分局少于 %(min)s 局，列为不活跃棋手；不活跃棋手在 %(rwindow)s "
             "个月内完成 %(rmin)s 局以上，恢复为活跃棋手。不活跃棋手名册与等级分名册同时公布。")
           % {"window": r.activity_window_months, "min": r.activity_min_games,
              "rwindow": r.reactivation_window_months, "rmin": r.reactivation_min_games}]
    if r.removal_after_months is None:
        out.append(_("不活跃棋手不除名。"))
    else:
        out.append(_("不活跃棋手连续在榜 %(n)s 个月将被除名，此后按无等级分棋手对待。") % {"n": r.removal_after_months})
    return out


def _champion(r: RuleSet) -> list[str]:
    out = []
    if r.champion_rule:
        text = _("获得冠军的棋手在该次比赛中不降分（ΔR 为负时按 0 计），适用于：%(formats)s。") % {
            "formats": _join([str(EVENT_FORMATS.get(f, f)) for f in r.champion_formats])}
        if r.champion_max_days is not None:
            text += _("赛程超过 %(days)s 天的比赛不适用。") % {"days": r.champion_max_days}
        out.append(text)
    else:
        out.append(_("没有冠军不降分的规定。"))
    if r.board_rule:
        out.append(_("全国团体赛中，各台次得分率最高者也同样不降分（得分率相同者都不降分）。"))
    if r.international_min_score is not None:
        out.append(_("在国际比赛中得分率不低于 %(p)s 的棋手不降分。") % {"p": r.international_min_score})
    return out


#: the settings the sentences above explain (a test checks that every setting of RuleSet is here)
DESCRIBED = frozenset({
    "name", "title", "publication_months", "k_new", "k_new_games", "k_established", "k_top", "k_latch_rating",
    "we_swiss", "we_team", "we_match", "we_knockout", "we_round_robin", "cap", "cap_bands", "far_below_not_rated",
    "rr_unrated_opponent",
    "newcomer_method", "start_rating_male", "start_rating_female", "newcomer_min_rated_opponents",
    "newcomer_bonus_per_half_point", "round_ra_first", "dp_at_extremes", "newcomer_min_games", "newcomer_window",
    "newcomer_window_length", "zero_score_rule", "dan_start", "dan_start_registered_by", "dan_start_kyu",
    "reference_rating_start", "activity_window_months", "activity_min_games", "reactivation_window_months",
    "reactivation_min_games", "removal_after_months", "champion_rule", "champion_max_days", "champion_formats",
    "international_min_score", "list_tie_order", "list_new_by_registration", "inactive_list_order", "unplayed_mark",
    "dan_start_granted_by", "board_rule", "eligibility", "colour_advantage",
})

SECTIONS = (
    ("publication", gettext_lazy("等级分的公布与取整"), _publication),
    ("k", gettext_lazy("换算系数 K"), _k),
    ("expected", gettext_lazy("等级分的计算"), _expected),
    ("newcomer", gettext_lazy("无等级分棋手"), _newcomer),
    ("start", gettext_lazy("初始等级分"), _start),
    ("activity", gettext_lazy("活跃与不活跃棋手"), _activity),
    ("champion", gettext_lazy("冠军不降分"), _champion),
)


def sections(family: str, rules: RuleSet) -> list[Section]:
    """The rule set in words, section by section, each with the articles of the official text it follows."""
    refs = ARTICLES.get(family, {})
    out = [Section(key, str(title), str(refs.get(key, "")), render(rules)) for key, title, render in SECTIONS]
    out.append(Section("eligibility", _("可计算等级分的比赛"), str(refs.get("eligibility", "")),
                       clauses=eligibility_checks(rules)))
    return out


def eligibility_checks(rules: RuleSet) -> list[tuple[str, str]]:
    """The conditions the rule set checks before an event is rated (``RuleSet.eligibility``), each as (clause,
    what it asks) in the page's language."""
    return [(clause_label(c.clause), _(c.summary)) for c in eligibility_clauses(rules)]
