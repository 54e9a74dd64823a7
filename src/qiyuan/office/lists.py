"""Rating lists (等级分名册): adding one, kept under one rule set (with a federation's overrides)."""

from __future__ import annotations

from qiyuan.errors import QiyuanError, problem
from qiyuan.office.audit.models import record
from qiyuan.office.db import writing
from qiyuan.office.errors import NotFound, OfficeError
from qiyuan.office.ratings.models import RatingList
from qiyuan.rating.rules import BUILTIN_RULES, rules_with_overrides

#: what a list's ``game`` may be
GAMES = tuple(RatingList.Game.values)


def add_list(code: str, rules_name: str, *, actor: str, title: str = "", title_en: str = "",
             game: str = "gomoku", overrides: str | bytes = "", overrides_source: str = "overrides") -> RatingList:
    """Add a rating list kept under the built-in rule set ``rules_name``, with optional TOML ``overrides``
    (checked before anything is saved)."""
    code = (code or "").strip()
    problems = []
    if not code:
        problems.append("the list's code is empty")
    if rules_name not in BUILTIN_RULES:
        problems.append(f"--rules: unknown rule set {rules_name!r} (one of {', '.join(BUILTIN_RULES)})")
    if game not in GAMES:
        problems.append(f"--game: {game!r} is not one of {', '.join(GAMES)}")
    if rules_name in BUILTIN_RULES:
        try:  # bad overrides: refused before anything is saved, by the checks `qiyuan rules show` makes
            rules_with_overrides(rules_name, overrides, name=f"{rules_name}+{code}", source=overrides_source)
        except QiyuanError as exc:
            problems += exc.messages
    if isinstance(overrides, bytes) and not problems:
        overrides = overrides.decode("utf-8")
    rl = RatingList(code=code, title=title or code, title_en=title_en.strip(), game=game, rules_name=rules_name,
                    rules_overrides=overrides if not problems else "")
    if problems:
        raise OfficeError(problems)
    with writing():
        if RatingList.objects.filter(code=code).exists():
            raise OfficeError(problem("list {list} exists", list=code))
        rl.save()
        record(actor, "list.add", rl, rules=rules_name, game=game)
    return rl


def find_list(code: str | None) -> RatingList:
    """The list with this code, or the only list when none is given."""
    if code:
        rl = RatingList.objects.filter(code=code).first()
        if rl is None:
            known = ", ".join(RatingList.objects.values_list("code", flat=True)) or "-"
            raise NotFound(problem("no rating list {name!r} (lists: {known}; `qiyuan office list add` makes one)",
                                   name=code, known=known))
        return rl
    lists = list(RatingList.objects.all()[:3])
    if len(lists) == 1:
        return lists[0]
    if lists:
        raise NotFound(problem("give --list CODE: {known}", known=", ".join(r.code for r in lists)))
    raise NotFound(problem("give --list CODE: no rating list yet; run `qiyuan office init`"))
