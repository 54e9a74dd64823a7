"""The public filters (筛选条件) of list and event pages, read from a query string and validated.

The pages, their downloads and the API read the same parameters through these classes, so a download or an API
page holds exactly what the page shows. A value that cannot be used is ignored and reported as a ``Problem``
(English template, translated on the page; the API answers 400 with the problems); the rest of the filters
still apply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.db.models import Q
from django.utils.translation import gettext_lazy

from qiyuan.errors import Problem, problem
from qiyuan.people.grades import DAN_GRADES
from qiyuan.rating import results as R

#: Age groups: "U16" = under 16 on 1 January of the list's year, i.e. born in the list's year minus 16 or later
#: (FIDE's convention for youth lists).
AGE_GROUPS = (8, 10, 12, 14, 16, 18, 20)
STATUSES = (R.ACTIVE, R.INACTIVE, R.UNRATED, R.REMOVED)
LISTED = (R.ACTIVE, R.INACTIVE)  # shown unless a status is chosen
QUERY_MAX = 50
FIRST_YEAR, LAST_YEAR = 1900, 2200
MAX_PAGE = 100_000
EVENT_FORMATS = ("swiss", "round_robin", "double_round_robin", "knockout", "team", "match")
EVENT_STATUSES = ("pending", "rated")
#: Sort orders of a list page: its published order, or by the change since the previous edition.
LIST_ORDERS = ("position", "-change", "change")


#: What each parameter is called in a message (translated when the message is shown).
FIELDS = {
    "gender": gettext_lazy("性别"), "age": gettext_lazy("年龄组"), "born_from": gettext_lazy("出生年份（从）"),
    "born_to": gettext_lazy("出生年份（至）"), "association": gettext_lazy("所属单位"), "status": gettext_lazy("状态"),
    "dan": gettext_lazy("段级位"), "q": gettext_lazy("查找内容"), "order": gettext_lazy("排序"),
    "page": gettext_lazy("页码"), "list": gettext_lazy("等级分榜"), "format": gettext_lazy("赛制"),
    "year": gettext_lazy("年份"), "city": gettext_lazy("城市"), "month": gettext_lazy("月份"),
}


def filter_problem(message: str, where: str, **params) -> Problem:
    """A problem with the query parameter ``where`` (its name in the message: ``{field}``)."""
    return problem(message, column=where, code=f"filter.{where}", field=FIELDS.get(where, where), **params)


def page_number(params, problems: list[Problem]) -> int:
    """``page`` (1 when absent or bad; a bad one is reported)."""
    raw = params.get("page", "")
    if raw == "":
        return 1
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        problems.append(filter_problem("{field} must be a whole number from 1 to {max}, not “{value}”", "page",
                                       max=MAX_PAGE, value=raw[:20]))
        return 1
    return int(raw)


def text_query(params, problems: list[Problem], name: str = "q") -> str:
    """A name search (``q``): trimmed, at most 50 characters (longer is cut and reported)."""
    q = " ".join(params.get(name, "").split())
    if len(q) > QUERY_MAX:
        problems.append(filter_problem(
            "the search text is longer than {max} characters: only the first {max} are used", name, max=QUERY_MAX))
        q = q[:QUERY_MAX]
    return q


def year(params, name: str, problems: list[Problem]) -> int | None:
    raw = params.get(name, "").strip()
    if raw == "":
        return None
    if raw.isdigit() and FIRST_YEAR <= int(raw) <= LAST_YEAR:
        return int(raw)
    problems.append(filter_problem("{field} must be a year from {first} to {last}, not “{value}”", name,
                         first=FIRST_YEAR, last=LAST_YEAR, value=raw[:20]))
    return None


def choice(params, name: str, allowed, problems: list[Problem]) -> str:
    raw = params.get(name, "")
    if raw == "" or raw in allowed:
        return raw
    problems.append(filter_problem("{field}: “{value}” is not one of the choices", name, value=raw[:20]))
    return ""


class _QueryString:
    def pairs(self) -> dict[str, str]:
        raise NotImplementedError

    def querystring(self) -> str:
        """The normalised filters as a query string prefix (``a=1&b=2&``, or empty)."""
        text = urlencode(self.pairs())
        return text + "&" if text else ""

    @property
    def active(self) -> bool:
        return bool(self.pairs())


@dataclass
class ListFilters(_QueryString):
    """A list page's filters: gender, age group, birth years, association, status, dan, name, page, order."""

    list_year: int
    gender: str = ""
    age: int | None = None
    born_from: int | None = None
    born_to: int | None = None
    association: str = ""
    status: str = ""
    dan: str = ""
    q: str = ""
    order: str = ""
    page: int = 1
    problems: list[Problem] = field(default_factory=list)

    #: the query parameters these filters read
    PARAMS = frozenset({"q", "gender", "age", "born_from", "born_to", "association", "status", "dan", "page",
                        "order"})

    @classmethod
    def read(cls, params, list_year: int, associations: set[str] | None = None) -> ListFilters:
        """The filters of a query string; ``associations`` (the registry's codes) to check ``association``."""
        problems: list[Problem] = []
        f = cls(list_year=list_year, problems=problems)
        f.gender = choice(params, "gender", ("M", "F"), problems)
        age = params.get("age", "")
        if age:
            number = age[1:] if age[:1] in "Uu" else ""
            if number.isdigit() and int(number) in AGE_GROUPS:
                f.age = int(number)
            else:
                problems.append(filter_problem("{field}: “{value}” is not one of the age groups U8 to U20", "age",
                                               value=age[:20]))
        f.born_from = year(params, "born_from", problems)
        f.born_to = year(params, "born_to", problems)
        if f.born_from and f.born_to and f.born_from > f.born_to:
            problems.append(filter_problem("the last birth year ({to}) is before the first ({frm})", "born_to",
                                           to=f.born_to, frm=f.born_from))
        f.association = params.get("association", "").strip()
        if f.association and associations is not None and f.association not in associations:
            problems.append(filter_problem("there is no association with the code “{value}”", "association",
                                 value=f.association[:20]))
            f.association = ""
        f.status = choice(params, "status", STATUSES + ("all",), problems)
        dan = params.get("dan", "")
        if dan and dan not in ("dan", "kyu") and dan not in DAN_GRADES:
            problems.append(filter_problem("{field}: “{value}” is neither dan, kyu nor a grade such as 3d or 2k",
                                           "dan", value=dan[:20]))
            dan = ""
        f.dan = dan
        f.q = text_query(params, problems)
        f.order = choice(params, "order", LIST_ORDERS, problems)
        f.page = page_number(params, problems)
        return f

    def pairs(self) -> dict[str, str]:
        """The normalised filters (without the page), as query parameters."""
        pairs = {
            "q": self.q, "gender": self.gender, "age": f"U{self.age}" if self.age else "",
            "born_from": str(self.born_from or ""), "born_to": str(self.born_to or ""),
            "association": self.association, "status": self.status, "dan": self.dan,
            "order": "" if self.order == "position" else self.order,
        }
        return {k: v for k, v in pairs.items() if v}

    def statuses(self) -> tuple[str, ...] | None:
        """The entry statuses shown (None: all)."""
        if self.status == "all":
            return None
        return (self.status,) if self.status else LISTED

    def players(self, qs, search=None):
        """Filter a query set of players by the player filters (None when none is set: every player stays);
        ``search(q) -> player ids`` for the name search."""
        if not (self.gender or self.age or self.born_from or self.born_to or self.association or self.dan
                or (self.q and search is not None)):
            return None
        if self.gender:
            qs = qs.filter(gender=self.gender)
        if self.age:
            qs = qs.filter(birth_date__year__gte=self.list_year - self.age)
        if self.born_from:
            qs = qs.filter(birth_date__year__gte=self.born_from)
        if self.born_to:
            qs = qs.filter(birth_date__year__lte=self.born_to)
        if self.association:
            qs = qs.filter(association__code=self.association)
        if self.dan == "dan":
            qs = qs.filter(dan__endswith="d")
        elif self.dan == "kyu":
            qs = qs.filter(dan__endswith="k")
        elif self.dan:
            qs = qs.filter(dan=self.dan)
        if self.q and search is not None:
            qs = qs.filter(pk__in=search(self.q))
        return qs

    def apply(self, qs, search=None):
        """Filter a query set of edition entries; ``search(q) -> player ids`` for the name search."""
        if self.gender:
            qs = qs.filter(player__gender=self.gender)
        if self.age:
            qs = qs.filter(player__birth_date__year__gte=self.list_year - self.age)
        if self.born_from:
            qs = qs.filter(player__birth_date__year__gte=self.born_from)
        if self.born_to:
            qs = qs.filter(player__birth_date__year__lte=self.born_to)
        if self.association:
            qs = qs.filter(player__association__code=self.association)
        if self.status and self.status != "all":
            qs = qs.filter(status=self.status)
        elif not self.status:
            qs = qs.filter(status__in=LISTED)
        if self.dan == "dan":
            qs = qs.filter(player__dan__endswith="d")
        elif self.dan == "kyu":
            qs = qs.filter(player__dan__endswith="k")
        elif self.dan:
            qs = qs.filter(player__dan=self.dan)
        if self.q and search is not None:
            qs = qs.filter(player_id__in=search(self.q))
        return qs


@dataclass
class EventFilters(_QueryString):
    """The events page's filters: list, format, year, status, name."""

    rating_list: str = ""
    format: str = ""
    year: int | None = None
    status: str = ""
    q: str = ""
    page: int = 1
    problems: list[Problem] = field(default_factory=list)

    PARAMS = frozenset({"list", "format", "year", "status", "q", "page"})

    @classmethod
    def read(cls, params, lists: set[str]) -> EventFilters:
        problems: list[Problem] = []
        f = cls(problems=problems)
        f.rating_list = choice(params, "list", sorted(lists), problems)
        f.format = choice(params, "format", EVENT_FORMATS, problems)
        f.year = year(params, "year", problems)
        f.status = choice(params, "status", EVENT_STATUSES, problems)
        f.q = text_query(params, problems)
        f.page = page_number(params, problems)
        return f

    def pairs(self) -> dict[str, str]:
        pairs = {"list": self.rating_list, "format": self.format, "year": str(self.year or ""),
                 "status": self.status, "q": self.q}
        return {k: v for k, v in pairs.items() if v}

    def apply(self, qs):
        if self.rating_list:
            qs = qs.filter(rating_list__code=self.rating_list)
        if self.format:
            qs = qs.filter(format=self.format)
        if self.year:
            qs = qs.filter(end_date__year=self.year)
        if self.status:
            qs = qs.filter(status=self.status)
        if self.q:
            qs = qs.filter(Q(name__icontains=self.q) | Q(code__icontains=self.q) | Q(city__icontains=self.q))
        return qs


_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
CITY_MAX = 100


@dataclass
class CalendarFilters(_QueryString):
    """The calendar's filters (赛事日历): list, city, month (``YYYY-MM``: events with a day in it)."""

    rating_list: str = ""
    city: str = ""
    month: tuple[int, int] | None = None
    problems: list[Problem] = field(default_factory=list)

    PARAMS = frozenset({"list", "city", "month"})

    @classmethod
    def read(cls, params, lists: set[str]) -> CalendarFilters:
        problems: list[Problem] = []
        f = cls(problems=problems)
        f.rating_list = choice(params, "list", sorted(lists), problems)
        f.city = params.get("city", "").strip()[:CITY_MAX]
        raw = params.get("month", "").strip()
        if raw:
            m = _MONTH.match(raw)
            if m and 1 <= int(m.group(2)) <= 12 and FIRST_YEAR <= int(m.group(1)) <= LAST_YEAR:
                f.month = (int(m.group(1)), int(m.group(2)))
            else:
                problems.append(filter_problem("{field} is written YYYY-MM, such as 2027-04, not “{value}”",
                                               "month", value=raw[:20]))
        return f

    def pairs(self) -> dict[str, str]:
        pairs = {"list": self.rating_list, "city": self.city,
                 "month": f"{self.month[0]:04d}-{self.month[1]:02d}" if self.month else ""}
        return {k: v for k, v in pairs.items() if v}

    def query(self) -> dict:
        """The filters as ``public_calendar``'s arguments."""
        return {"list_code": self.rating_list or None, "city": self.city or None, "month": self.month}
