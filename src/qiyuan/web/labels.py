"""Translated labels (显示名称) of the codes the office stores: event formats, organiser
levels, arbiter grades. Pages show these, never the raw code."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

#: 赛制
EVENT_FORMATS = {
    "swiss": gettext_lazy("积分编排制（瑞士制）"),
    "round_robin": gettext_lazy("循环制"),
    "double_round_robin": gettext_lazy("双循环"),
    "knockout": gettext_lazy("淘汰制"),
    "team": gettext_lazy("团体赛"),
    "match": gettext_lazy("对抗赛"),
}

#: 主办单位级别 (CGA Art. 4, BJSH §6), keys of ``qiyuan.rating.eligibility.OrganiserLevel``
ORGANISER_LEVELS = {
    "state": gettext_lazy("国家级（国家体育总局、棋牌运动管理中心、中国围棋协会）"),
    "regional": gettext_lazy("地区级（地区体育局、棋院）"),
    "local": gettext_lazy("本地区棋类组织（协会、委员会）"),
    "other": gettext_lazy("其他（俱乐部、学校、商业机构）"),
}


def event_format_label(code: str) -> str:
    """The format's name in the page's language (the code itself if unknown)."""
    return str(EVENT_FORMATS.get(code, code))


def organiser_level_choices(blank: bool = False) -> list[tuple[str, object]]:
    """Form choices of the organiser levels, translated; with a blank first choice if asked."""
    return ([("", "—")] if blank else []) + list(ORGANISER_LEVELS.items())
