"""The event checker (赛事核查): replays a finished event round by round under its own system and names every
pairing and standing that breaks the rules.

Each pairing system's checker lives beside its pairing entry point and its generator in its module of
:mod:`qiyuan.tournament.systems`; :func:`check_event` asks the registry for the file's system and runs its
``check_round`` on every round (an unknown system: "not checkable: system X").  Pure: a ``Tournament`` in, a
:class:`Verdict` out.

What is judged (decided, docs/decisions.md): each round is replayed from the file's own entries, results,
absences and withdrawals of the rounds before it; the same pairing code as the engine gives the pairing the
rules give, and the hard rules (repeat, bye, everyone present paired once, keep-apart) are checked on the
recorded pairing independently of it.  A recorded pairing other than the engine's is a deviation only where it
breaks a hard rule or is worse on a criterion of the system (score groups, who floats, who opens); an equally
good alternative is consistent.  A round the arbiter paired by hand (``XRH``) is reported as his, not judged.
The final ranks the file states (TRF ``001`` rank column) are checked against the standings.  An event paired by
another program (a TRF without ``XQM``) is judged on the hard rules and score-difference optimality only.
"""

from __future__ import annotations

from qiyuan.errors import QiyuanError, problem
from qiyuan.tournament.check import replay
from qiyuan.tournament.check.base import RULES, Deviation, Verdict
from qiyuan.tournament.check.report import check_imported, verdict_from_record, verdict_lines, verdict_record
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.systems import SYSTEMS

__all__ = ["RULES", "Deviation", "Verdict", "check_event", "check_imported_event", "verdict_from_record",
           "verdict_lines", "verdict_record"]


def check_event(t: Tournament) -> Verdict:
    """Check every round of ``t`` and its stated standings (see the module's text)."""
    fmt = replay.event_format(t)
    verdict = Verdict(fmt)
    system = SYSTEMS.get(fmt)
    if system is None:
        verdict.reason = problem("not checkable: system {system}", system=fmt)
        return verdict
    missing = replay.missing(t, system)
    if missing is not None:
        verdict.reason = missing
        return verdict
    verdict.rounds = replay.rounds_paired(t)
    verdict.by_hand = replay.hand_made_rounds(t)
    try:
        for rnd in range(1, verdict.rounds + 1):
            if rnd in verdict.by_hand:
                continue
            verdict.deviations += system.check_round(t, rnd)
        if not replay.is_foreign(t):
            verdict.deviations += replay.check_standings(t)
    except QiyuanError as exc:  # the file's own settings refused by the rules (a Go event's bar and floor)
        verdict.deviations = []
        verdict.reason = problem("not checkable: {why}", why=exc.problems[0] if exc.problems else "")
    return verdict


def check_imported_event(t: Tournament, fmt: str) -> dict:
    """What the office stores with an imported event file: the verdict on it as plain data
    (``report.check_imported``: a file that records no system is judged by the format the import found)."""
    return verdict_record(check_imported(t, fmt, check_event))
