"""Translated labels (显示名称) of the codes the office stores: event formats, organiser levels, list statuses,
sexes, calculation methods and the notes of the rules that acted. Pages and the API's human-readable fields
show these, never the raw code (the API's code fields keep the codes: they are its stable vocabulary)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from qiyuan.rating import results as R

#: 赛制
EVENT_FORMATS = {
    "swiss": gettext_lazy("积分编排制（瑞士制）"),
    "round_robin": gettext_lazy("循环制"),
    "double_round_robin": gettext_lazy("双循环"),
    "knockout": gettext_lazy("淘汰制"),
    "team": gettext_lazy("团体赛"),
    "match": gettext_lazy("对抗赛"),
    "go_mcmahon": gettext_lazy("围棋麦克马洪制（让子）"),
    "go_swiss": gettext_lazy("围棋积分编排制（不让子）"),
}

#: 主办单位级别 (CGA Art. 4, BJSH §6), keys of ``qiyuan.rating.eligibility.OrganiserLevel``
ORGANISER_LEVELS = {
    "state": gettext_lazy("国家级（国家体育总局、棋牌运动管理中心、中国围棋协会）"),
    "regional": gettext_lazy("地区级（地区体育局、棋院）"),
    "local": gettext_lazy("本地区棋类组织（协会、委员会）"),
    "other": gettext_lazy("其他（俱乐部、学校、商业机构）"),
}

#: A player's status on a published list (名册状态)
LIST_STATUSES = {
    R.ACTIVE: gettext_lazy("活跃"),
    R.INACTIVE: gettext_lazy("不活跃"),
    R.UNRATED: gettext_lazy("暂无等级分"),
    R.REMOVED: gettext_lazy("除名"),
}

#: A player's registration status (注册状态, ``Player.Status``)
REGISTRATION_STATUSES = {
    "active": gettext_lazy("已注册"),
    "suspended": gettext_lazy("停赛"),
    "retired": gettext_lazy("退役"),
}

#: 性别 (the registry's M/F; a TRF's m/w)
SEXES = {"M": gettext_lazy("男"), "F": gettext_lazy("女"), "m": gettext_lazy("男"), "w": gettext_lazy("女")}

#: An event's state in the office (``Event.Status``)
EVENT_STATUSES = {"pending": gettext_lazy("待计算"), "rated": gettext_lazy("已计算")}

#: The game a list is kept for (``RatingList.Game``)
GAMES = {"gomoku": gettext_lazy("五子棋"), "go": gettext_lazy("围棋")}

#: How a rating change was computed (``EventChange.method``)
METHODS = {
    R.METHOD_PER_GAME: gettext_lazy("逐局计算：We = Σ PD(R − 对手等级分)"),
    R.METHOD_AVERAGING: gettext_lazy("平均等级分法：We = N × PD(R − Rc)"),
    R.METHOD_GO_ROUND_ROBIN: gettext_lazy("围棋循环赛：We = M × Pa − ½"),
    R.METHOD_NEWCOMER: gettext_lazy("无等级分棋手：本次比赛的表现分 Ru"),
    R.METHOD_PROVISIONAL: gettext_lazy("新棋手：由暂定等级分逐局计算 ΔR = K × (W − We)"),
    R.METHOD_NOT_RATED: gettext_lazy("不计算等级分"),
}

#: The rules that acted on a change (``EventChange.notes``)
NOTES = {
    R.NOTE_CHAMPION_PROTECTED: gettext_lazy("冠军不降分：ΔR 为负时按 0 计"),
    R.NOTE_CHAMPION_RULE_LONG_EVENT: gettext_lazy("获得冠军，但赛期过长，不适用冠军不降分"),
    R.NOTE_INTERNATIONAL_PROTECTED: gettext_lazy("国际比赛得分率不低于 50%：不降分"),
    R.NOTE_ZERO_SCORE_IGNORED: gettext_lazy("本次比赛得分为零：其成绩不予考虑"),
    R.NOTE_ZERO_SCORE_OPPONENT: gettext_lazy("与得分为零的无等级分棋手的对局不予考虑"),
    R.NOTE_FEW_RATED_OPPONENTS: gettext_lazy("所遇有等级分对手少于 3 名：本次比赛不计入"),
    R.NOTE_FORFEIT: gettext_lazy("没有实际进行的对局（弃权等）不计算等级分"),
    R.NOTE_UNRATED_OPPONENTS: gettext_lazy("与无等级分对手的对局不计算等级分"),
    R.NOTE_NO_RATED_GAMES: gettext_lazy("本次比赛没有计算等级分的对局"),
    R.NOTE_CAP: gettext_lazy("等级分差按上限计算"),
    R.NOTE_UNRATED_NOT_RATED: gettext_lazy("没有等级分也没有段位：其对局不计算等级分"),
    R.NOTE_FAR_BELOW: gettext_lazy("与比他低得过多的对手的对局不计算他的等级分"),
}


#: An arbiter's level (裁判员等级, ``federation.Arbiter.Level``)
ARBITER_LEVELS = {
    "international": gettext_lazy("国际级裁判"), "national": gettext_lazy("国家级裁判"),
    "first": gettext_lazy("一级裁判"), "second": gettext_lazy("二级裁判"), "third": gettext_lazy("三级裁判"),
}

#: The desk's roles (``qiyuan.web.desk.permissions.ROLES``)
ROLES = {"arbiter": gettext_lazy("裁判"), "officer": gettext_lazy("等级分管理员"), "admin": gettext_lazy("管理员")}

#: What an arbiter did to a desk event (``qiyuan.tournament.arbiter.ACTIONS``: the undo trail's actions)
EVENT_ACTIONS = {
    "create": gettext_lazy("创建比赛"), "add_player": gettext_lazy("录入棋手"),
    "add_players": gettext_lazy("按名单录入棋手"), "tie_decision": gettext_lazy("决定同分名次"), "draw": gettext_lazy("排定签号"),
    "pair": gettext_lazy("编排"), "set_pairing": gettext_lazy("人工编排"), "override": gettext_lazy("调整一台"),
    "undo_round": gettext_lazy("撤销编排"), "results": gettext_lazy("录入结果"), "withdraw": gettext_lazy("退赛"),
    "reinstate": gettext_lazy("恢复参赛"), "excuse": gettext_lazy("请假"), "keep_apart": gettext_lazy("同单位回避"),
    "categories": gettext_lazy("组别奖"), "details": gettext_lazy("比赛信息"), "finish": gettext_lazy("结束比赛"),
    "reopen": gettext_lazy("重新开放"), "check_in": gettext_lazy("签到截止"),
}

#: The built-in rule sets by their official titles (规则集)
RULE_SETS = {
    "cga-gomoku-2011": gettext_lazy("中国围棋协会五子棋项目等级分制度实施办法（暂行，2011）"),
    "bjsh-gomoku-2007": gettext_lazy("京沪五子棋棋手等级分制和技术等级标准实施细则（2007）"),
    "cn-go-1995": gettext_lazy("中国围棋等级分（1995 年试行）"),
}


def _label(table: dict, code) -> str:
    """The code's label in the page's language; an unknown code is shown as given (never hidden)."""
    if code is None or code == "":
        return ""
    return str(table.get(code, code))


def event_format_label(code: str) -> str:
    """The format's name in the page's language (the code itself if unknown)."""
    return _label(EVENT_FORMATS, code)


def list_status_label(code: str) -> str:
    return _label(LIST_STATUSES, code)


def registration_status_label(code: str) -> str:
    return _label(REGISTRATION_STATUSES, code)


def sex_label(code: str) -> str:
    return _label(SEXES, code)


def event_status_label(code: str) -> str:
    return _label(EVENT_STATUSES, code)


def method_label(code: str) -> str:
    return _label(METHODS, code)


def note_label(code: str) -> str:
    return _label(NOTES, code)


def arbiter_level_label(code: str) -> str:
    return _label(ARBITER_LEVELS, code)


def role_label(code: str) -> str:
    return _label(ROLES, code)


def event_action_label(code: str) -> str:
    return _label(EVENT_ACTIONS, code)


def rule_set_title(name: str) -> str:
    return _label(RULE_SETS, name)


def organiser_level_choices(blank: bool = False) -> list[tuple[str, object]]:
    """Form choices of the organiser levels, translated; with a blank first choice if asked."""
    return ([("", "—")] if blank else []) + list(ORGANISER_LEVELS.items())


#: what an import read (导入的文件种类)
IMPORT_KINDS = {
    "report": gettext_lazy("竞赛报告"),
    "trf": gettext_lazy("TRF 文件"),
    "history": gettext_lazy("历史数据（CSV）"),
    "opengotha": gettext_lazy("OpenGotha 文件"),
    "h9": gettext_lazy("欧洲围棋数据库成绩文件（.h9）"),
}


def import_kind_label(code: str) -> str:
    return str(IMPORT_KINDS.get(code, code))
