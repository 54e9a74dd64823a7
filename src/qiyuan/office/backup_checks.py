"""The checks a backup's rows pass before a restore writes anything (备份校验).

A checksum only says the file is the one written, or that whoever edited it recomputed the checksum: it is not
trust. Every row is therefore checked as the office checks what it stores:

* each value against its column in the backup's own schema: its type, null or not, its length, the range
  the database's integer column holds, a choice of the field's choices, dates and decimals that parse
  (and fit their digits); primary keys ascending (a backup writes them in order, so a repeated or edited one
  shows), values of unique columns not repeated;
* a player (``federation.player``) against the registry's own checks (``register_player``): a name, a gender,
  a birth date not in the future, a resident ID valid and agreeing with the birth date and gender, a grade
  that is a grade, a status, a three-letter nationality;
* a rating list (``ratings.ratinglist``) against the rules: a built-in rule set and overrides that pass the one
  validator of rule settings (``qiyuan.rating.rules.rules_with_overrides``);
* an installed grant policy (``grades.policyversion``) that still reads (``policy_from_toml``).

Each fault is reported with the file, its line and the reason; foreign keys and composite constraints are left
to the database, inside the restore's one transaction (``qiyuan.office.backup`` names what it refused).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models

from qiyuan.errors import Problem, QiyuanError, problem
from qiyuan.grading.policy import policy_from_toml
from qiyuan.people import idnumber
from qiyuan.people.grades import DAN_GRADES
from qiyuan.rating.rules import BUILTIN_RULES, rules_with_overrides

#: How many faults a refusal lists (a wholly mangled file would otherwise list millions).
MAX_LISTED = 50

_INTEGERS = frozenset(
    "AutoField BigAutoField SmallAutoField IntegerField BigIntegerField SmallIntegerField PositiveIntegerField "
    "PositiveBigIntegerField PositiveSmallIntegerField".split()
)
_TEXTS = frozenset("CharField TextField SlugField EmailField".split())

Check = Callable[[object], "Problem | str"]


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def field_check(f: models.Field, conn) -> Check:
    """A function from a backup's JSON value for field ``f`` to what is wrong with it ("" when nothing)."""
    target = f.target_field if f.is_relation else f
    internal = target.get_internal_type()
    null_ok = f.null
    choices = frozenset(str(c) for c, _ in f.flatchoices) if f.choices and not f.is_relation else None

    def typed(value) -> Problem | str:
        if internal in _INTEGERS:
            if isinstance(value, bool) or not isinstance(value, int):
                return problem("{value} is not a whole number", value=_shown(value))
            low, high = conn.ops.integer_field_range(internal) if internal in conn.ops.integer_field_ranges \
                else conn.ops.integer_field_range("BigIntegerField")
            if (low is not None and value < low) or (high is not None and value > high):
                return problem("{value} is outside the column's range", value=_shown(value))
            return ""
        if internal in _TEXTS:
            if not isinstance(value, str):
                return problem("{value} is not a text", value=_shown(value))
            if target.max_length is not None and len(value) > target.max_length:
                return problem("{n} characters, the column holds {most}", n=len(value), most=target.max_length)
            if "\x00" in value:
                return problem("a NUL character in a text")
            return ""
        if internal == "BooleanField":
            return "" if isinstance(value, bool) else problem("{value} is not true or false", value=_shown(value))
        if isinstance(target, models.JSONField):
            return problem("a NUL character in the data") if "\\u0000" in json.dumps(value) else ""
        if isinstance(value, (list, dict, bool)):
            return problem("{value} is not a {kind} value", value=_shown(value), kind=internal)
        try:
            python = target.to_python(value)
            target.run_validators(python)
        except ValidationError as exc:
            return problem("{value}: {why}", value=_shown(value), why="; ".join(str(m) for m in exc.messages))
        except (TypeError, ValueError, OverflowError, ArithmeticError):
            return problem("{value} is not a {kind} value", value=_shown(value), kind=internal)
        if isinstance(python, Decimal) and not python.is_finite():
            return problem("{value} is not a finite number", value=_shown(value))
        return ""

    def check(value) -> Problem | str:
        if value is None:
            return "" if null_ok else problem("empty, but the column requires a value")
        wrong = typed(value)
        if wrong:
            return wrong
        if choices is not None and value != "" and str(value) not in choices:
            return problem("{value} is not one of {known}", value=_shown(value), known=", ".join(sorted(choices)[:12]))
        return ""

    return check


class RowChecks:
    """Collects the faults of a backup's rows, table by table (see the module's docstring)."""

    def __init__(self, path, conn, *, today: date | None = None):
        self.path = path
        self.conn = conn
        self.today = today or date.today()
        self.problems: list[Problem] = []
        self.more = 0

    def fault(self, line: int, label: str, message: Problem | str) -> None:
        """A fault of the table ``label`` at ``line``: a template (``problem``) or a text phrased elsewhere."""
        if len(self.problems) < MAX_LISTED:
            self.problems.append(problem("{table}: {why}", file=str(self.path), line=line, table=label,
                                         why=message if isinstance(message, Problem) else Problem(message=message)))
        else:
            self.more += 1

    def table(self, label: str, model: type[models.Model], names: list[str]) -> Callable[[int, list], None]:
        """A function checking one row (its line and values) of the table ``label``."""
        by_attname = {f.attname: f for f in model._meta.concrete_fields}
        fields = [by_attname.get(n) for n in names]
        checks = [field_check(f, self.conn) if f is not None else None for f in fields]
        pk_at = names.index(model._meta.pk.attname) if model._meta.pk.attname in names else None
        unique_at = [i for i, f in enumerate(fields) if f is not None and f.unique and i != pk_at]
        seen_unique: dict[int, set] = {i: set() for i in unique_at}
        last_pk = [None]
        domain = _DOMAIN.get(label)

        def row(line: int, values: list) -> None:
            bad = False
            for name, check, value in zip(names, checks, values):
                if check is None:
                    continue
                wrong = check(value)
                if wrong:
                    self.fault(line, label, problem("{field}: {why}", field=name, why=wrong))
                    bad = True
            if bad:
                return
            if pk_at is not None:
                pk = values[pk_at]
                if last_pk[0] is not None and isinstance(pk, int) and isinstance(last_pk[0], int) and pk <= last_pk[0]:
                    self.fault(line, label, problem("primary key {pk} repeats or is out of order (after {last})", pk=pk,
                                                    last=last_pk[0]))
                last_pk[0] = pk
            for i in unique_at:
                if values[i] is None:
                    continue
                key = values[i]
                if key in seen_unique[i]:
                    self.fault(line, label, problem("{field} {value} appears twice (it must be unique)", field=names[i],
                                                    value=_shown(key)))
                seen_unique[i].add(key)
            if domain is not None:
                for message in domain(dict(zip(names, values)), self.today):
                    self.fault(line, label, message)

        return row

    def done(self) -> list[Problem]:
        if self.more:
            return [*self.problems, problem("… and {n} more faults", file=str(self.path), n=self.more)]
        return self.problems


# -- the office's own checks, per table ----------------------------------------------------------------


def _player(row: dict, today: date) -> list[Problem]:
    """``register_player``'s checks, on a stored player."""
    problems = []
    if "name" in row and not str(row["name"] or "").strip():
        problems.append(problem("name is empty"))
    born = date.fromisoformat(row["birth_date"]) if row.get("birth_date") else None
    if born is not None and born > today:
        problems.append(problem("birth date {born} is in the future", born=born.isoformat()))
    gender = row.get("gender")
    if "gender" in row and gender not in ("M", "F", ""):  # "" : a history's player whose gender it did not give
        problems.append(problem("gender {value!r} is not M or F", value=gender))
    number = row.get("id_number") or ""
    if number:
        for p in idnumber.id_problems(row.get("id_type") or "resident", number, birth_date=born,
                                      gender=gender if gender in ("M", "F") else None, today=today):
            problems.append(problem("ID number: {problem}", problem=p))
    dan = row.get("dan") or ""
    if dan and dan not in DAN_GRADES:
        problems.append(problem("dan {value!r} is not a grade (9d…1d, 1k…10k)", value=dan))
    nationality = row.get("nationality")
    if "nationality" in row and (len(nationality or "") != 3 or not str(nationality).isalpha()):
        problems.append(problem("nationality {value!r} is not a 3-letter code", value=nationality))
    return problems


def _rating_list(row: dict, today: date) -> list[str]:
    name = row.get("rules_name")
    if name not in BUILTIN_RULES:
        return [problem("rules_name {value} is not a built-in rule set ({known})", value=_shown(name),
                        known=", ".join(BUILTIN_RULES))]
    try:
        rules_with_overrides(name, row.get("rules_overrides") or "", name=f"{name}+{row.get('code')}",
                             source="rules_overrides")
    except QiyuanError as exc:
        return exc.messages
    return []


def _policy(row: dict, today: date) -> list[str]:
    try:
        policy_from_toml(row.get("text") or "", file="text")
    except QiyuanError as exc:
        return [problem("the grant policy does not read: {why}", why=m) for m in exc.messages[:3]]
    return []


_DOMAIN: dict[str, Callable[[dict, date], list]] = {
    "federation.player": _player,
    "ratings.ratinglist": _rating_list,
    "grades.policyversion": _policy,
}
