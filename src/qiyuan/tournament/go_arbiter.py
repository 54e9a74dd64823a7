"""The Go director's use cases (围棋赛事的操作), beside ``tournament.arbiter``: one function each, on an ``EventStore``.

Set the event's Go settings (komi, rule set, McMahon bar and floor, handicap,
placement criteria, time control), a player's grade and rank (a rank claimed
above the official grade is refused until the director confirms it), start an
event from an OpenGotha file. Each takes the store's lock, checks everything,
refuses with every problem at once, and writes once (with its audit entry).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from qiyuan.tournament import go
from qiyuan.tournament.arbiter import EventStore
from qiyuan.tournament.errors import EventError, EventInputError, Problem, problem, refuse
from qiyuan.tournament.go_tiebreaks import criterion
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.state import rounds_paired


@dataclass
class GoOutcome:
    notes: list[Problem] = field(default_factory=list)  # warnings the director should read


def _not_go(t: Tournament) -> list[Problem]:
    return [] if go.is_go(t) else [problem("not a Go event (XQM go_mcmahon or go_swiss): create it with "
                                           "--format go_mcmahon, or import its OpenGotha file")]


def set_go_settings(store: EventStore, actor: object, *, komi: str | None = None, rules: str | None = None,
                    bar: str | None = None, floor: str | None = None, zero: str | None = None,
                    handicap: str | None = None, correction: int | None = None, ceiling: int | None = None,
                    no_handicap_from: str | None = None, criteria: str | None = None,
                    time: str | None = None) -> GoOutcome:
    """Change the settings given; a change of the placement criteria once a round is paired is
    recorded (``XQZ @R``) and said as a warning, and so is a change of what pairs a round (komi, rules,
    McMahon bar, floor and zero, handicap): the audit entry holds every such change, old and new. The
    command line's ``event go-settings`` and the desk's Go settings both call this."""
    out = GoOutcome()
    with store.change(actor, "go_settings") as ch:
        t = ch.t
        faults = _not_go(t)
        refuse(faults)
        s = go.settings(t)
        before = _pairing_settings(s)
        bad: list[Problem] = []
        if komi is not None:
            try:
                s.komi = Decimal(komi)
            except InvalidOperation:
                bad.append(problem("komi must be a number like 7.5, found {komi!r}", komi=komi))
        if rules is not None:
            if rules in go.RULE_SETS:
                s.rules = rules
            else:
                bad.append(problem("the rule set is chinese or japanese, found {rules!r}", rules=rules))
        for attr, text in (("bar", bar), ("floor", floor), ("zero", zero), ("hd_none_from", no_handicap_from)):
            if text is not None:
                v = go.grade_value(text)
                if v is None:
                    bad.append(problem("{what}: {text!r} is not a grade (30k…1k, 1d…9d)", what=attr, text=text))
                else:
                    setattr(s, attr, v)
        if handicap is not None:
            if handicap in ("mms", "rank"):
                s.hd_basis = handicap
            else:
                bad.append(problem("the handicap goes by mms or rank, found {basis!r}", basis=handicap))
        if correction is not None:
            s.hd_correction = correction
        if ceiling is not None:
            if 0 <= ceiling <= 9:
                s.hd_ceiling = ceiling
            else:
                bad.append(problem("the handicap ceiling is 0..9 stones, found {ceiling}", ceiling=ceiling))
        if s.floor > s.bar:
            bad.append(problem("the McMahon floor is above the bar"))
        if criteria is not None:
            names = [x for x in criteria.replace(",", " ").split() if x]
            known = [criterion(x) for x in names]
            unknown = [x for x, k in zip(names, known, strict=True) if k is None]
            if unknown or not names:
                bad.append(problem("unknown placement criteria {names}: choose from MMS, NBW, SOS, SOSOS, SODOS, "
                                   "CUSS (their W forms: SOSW…), DC", names=", ".join(unknown) or "(none)"))
            elif known != s.criteria:
                paired = rounds_paired(t)
                if paired:
                    s.criteria_changes.append((paired, list(s.criteria)))
                    out.notes.append(problem("placement criteria changed after round {round} (were {old}): "
                                             "recorded in the event file", round=paired, old=" ".join(s.criteria)))
                s.criteria = [k for k in known if k]
        if time is not None:
            parts = time.split()
            ok = len(parts) >= 2 and go.whole(parts[0]) and all(go.whole(p) for p in parts[2:])
            shapes = {"sd": 2, "byoyomi": 3, "fischer": 3, "canadian": 4}
            if ok and shapes.get(parts[1]) == len(parts):
                s.basic_minutes, s.overtime = int(parts[0]), parts[1]
                s.overtime_seconds = int(parts[2]) if len(parts) > 2 else 0
                s.overtime_moves = int(parts[3]) if len(parts) > 3 else 0
                t.time_control = go.time_control_text(s)
            else:
                bad.append(problem("time: 'MINUTES sd', 'MINUTES byoyomi SECONDS', 'MINUTES canadian SECONDS MOVES' "
                                   "or 'MINUTES fischer SECONDS', found {time!r}", time=time))
        refuse(bad, EventInputError)
        s.handicap_rule = f"h{s.hd_correction}" if s.hd_ceiling else "h0"
        changed = {name: [str(before[name]), str(v)] for name, v in _pairing_settings(s).items()
                   if v != before[name]}
        paired = rounds_paired(t)
        if changed:
            ch.detail["changed"] = changed  # the audit entry says what changed, old and new
        if changed and paired:
            ch.detail["after_round"] = paired
            out.notes.append(problem("Go settings changed after round {round}: {changes} — the rounds paired keep "
                                     "their boards and stones; McMahon scores and the next pairings follow the new "
                                     "settings; recorded", round=paired,
                                     changes=", ".join(f"{k} {a} → {b}" for k, (a, b) in changed.items())))
        go.set_settings(t, s)
    return out


#: the settings that pair a round and give its stones and scores: a change once a round is paired is warned
PAIRING_SETTINGS = ("komi", "rules", "bar", "floor", "zero", "hd_basis", "hd_correction", "hd_ceiling",
                    "hd_none_from")


def _pairing_settings(s: go.GoSettings) -> dict[str, object]:
    """The pairing settings as people write them (grades as ``4d``, ``20k``)."""
    grades = {"bar", "floor", "zero", "hd_none_from"}
    return {k: go.grade_text(getattr(s, k)) if k in grades else getattr(s, k) for k in PAIRING_SETTINGS}


def set_go_player(store: EventStore, actor: object, number: int, *, grade: str | None = None,
                  rank: str | None = None, country: str | None = None, pin: str | None = None,
                  confirm: bool = False) -> GoOutcome:
    """A player's official grade, the rank he plays at, country and EGF PIN. A rank above the grade
    (gocongress#110) is refused unless ``confirm``; confirmed, it is kept and said as a warning."""
    out = GoOutcome()
    with store.change(actor, "go_player", number=number) as ch:
        t = ch.t
        refuse(_not_go(t))
        if not 1 <= number <= len(t.entrants):
            raise EventError(problem("no player {number}: draw numbers run 1..{last}", number=number,
                                     last=len(t.entrants)))
        ps = go.players(t)
        p = ps[number]
        bad: list[Problem] = []
        for attr, text in (("grade", grade), ("rank", rank)):
            if text is not None:
                v = go.grade_value(text)
                if v is None:
                    bad.append(problem("{what}: {text!r} is not a grade (30k…1k, 1d…9d)", what=attr, text=text))
                else:
                    setattr(p, attr, v)
        if grade is not None and rank is None and p.rank is None:
            p.rank = p.grade
        if country is not None:
            if len(country) == 2 and country.isalpha():
                p.country = country.upper()
            else:
                bad.append(problem("country: a two-letter code (CN, FR), found {country!r}", country=country))
        if pin is not None:
            if go.whole(pin) and len(pin) == 8:
                p.egf_pin = pin
            else:
                bad.append(problem("EGF PIN: eight digits, found {pin!r}", pin=pin))
        refuse(bad, EventInputError)
        if go.rank_above_grade(p):
            message = problem("{name} claims {rank}, above the official grade {grade}", name=t.entrants[number - 1].name,
                              rank=go.grade_text(p.rank), grade=go.grade_text(p.grade))  # type: ignore[arg-type]
            if not confirm:
                raise EventError([message, problem("the director confirms it with --confirm")])
            out.notes.append(message)
        if p.rank is not None:
            t.entrants[number - 1].title = go.grade_text(p.rank)
        go.set_players(t, ps)
    return out


def start_from_opengotha(store: EventStore, actor: object, t: Tournament) -> None:
    """Store an event read from an OpenGotha file (``formats.opengotha.gotha_event``)."""
    store.create(t, actor, source="opengotha")
