"""Each pairing system is one module behind one registry (issue 35, item 4): the registry names every system, each
module holds its pairing entry point, checker and generator side by side, a system registered from outside (here,
by a test) is reached by the arbiter's pairing, the checker and the generator alike, and an unknown system is
refused by name, never paired as another."""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import replace
from pathlib import Path

import pytest

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import systems
from qiyuan.tournament.check import check_event
from qiyuan.tournament.check.generate import generate_event
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.systems import SYSTEMS, UnknownSystem, next_pairing, register, system_named

EVERY_SYSTEM = {"swiss", "round_robin", "double_round_robin", "knockout", "match", "team", "go_mcmahon", "go_swiss"}
#: modules of the package that are not systems: the registry itself and what every system's checker shares
SHARED = {"base", "replay", "fixed"}
SRC = Path(systems.__file__).resolve().parents[2]  # src/qiyuan


def test_the_registry_names_every_system():
    assert set(SYSTEMS) == EVERY_SYSTEM
    assert ev.FORMATS == tuple(SYSTEMS)
    for name, s in SYSTEMS.items():
        assert s.name == name and callable(s.pair) and callable(s.check_round) and callable(s.plan)


def test_every_system_module_registers_its_pairing_checker_and_generator_side_by_side():
    modules = {m.name for m in pkgutil.iter_modules(systems.__path__)} - SHARED
    assert modules == {"gomoku_swiss", "berger", "knockout", "match", "team", "go"}
    owners = {importlib.import_module(f"qiyuan.tournament.systems.{m}").__name__ for m in modules}
    assert {s.pair.__module__ for s in SYSTEMS.values()} == owners
    assert {s.plan.__module__ for s in SYSTEMS.values()} == owners


@pytest.fixture
def test_system():
    """A system registered by the test, not by qiyuan: the round robin's pairing under another name, with its own
    checker and generator that say they were reached."""
    reached: list[str] = []
    rr = system_named("round_robin")

    def check_round(t, rnd):
        reached.append(f"check {rnd}")
        return rr.check_round(t, rnd)

    def plan(rng, players, rounds):
        reached.append("plan")
        return rr.plan(rng, 6, rounds)

    register(replace(rr, name="test_berger", check_round=check_round, plan=plan))
    try:
        yield reached
    finally:
        del SYSTEMS["test_berger"]


def test_a_system_registered_in_a_test_is_reached_by_generate_pair_and_check(test_system):
    t = generate_event("test_berger", 11)
    assert t.extra["XQM"] == ["test_berger"] and test_system == ["plan"]
    assert len(t.entrants) == 6 and t.rounds_planned == 5  # paired by the round robin's entry point, to its end
    v = check_event(t)
    assert v.status == "consistent" and v.system == "test_berger"
    assert test_system[1:] == [f"check {r}" for r in range(1, 6)]


def test_the_registered_systems_checker_names_what_it_finds(test_system):
    t = generate_event("test_berger", 12)
    a = t.entrants[0].rounds[2]
    b = t.entrants[a.opponent - 1].rounds[2]
    a.colour, b.colour = b.colour, a.colour  # round 3: the other player opened
    v = check_event(t)
    assert v.exit_code == 1 and [(d.round, d.rule) for d in v.deviations] == [(3, "opener")]


def _unknown():
    t = generate_event("swiss", 5, players=10, rounds=5)
    t.extra["XQM"] = ["dutch"]
    return t


def test_an_unknown_system_is_not_checkable_by_name():
    v = check_event(_unknown())
    assert v.status == "not checkable" and v.exit_code == 2
    assert v.reason.message == "not checkable: system {system}" and v.reason.params["system"] == "dutch"


def test_an_unknown_system_is_refused_by_name_never_paired_as_another():
    t = _unknown()
    ev.reopen(t)
    with pytest.raises(UnknownSystem) as exc:
        next_pairing(t)
    assert exc.value.problems[0].params["system"] == "dutch"
    with pytest.raises(EventError):
        ev.new_event("x", fmt="dutch")
    with pytest.raises(EventError):
        generate_event("dutch", 1)


def test_no_caller_asks_an_events_system_by_its_name_outside_the_registry():
    """The domain and the command line ask the registry's facts (``system_of(t).bracket``…), never the name."""
    asks = re.compile(r"event_format\([\w.]*\)\s*(==|!=|in\b|not in\b)|\bfmt\s*(==|!=)\s*\"|\bfmt\s+(not\s+)?in\s+\(")
    found = []
    for folder in ("tournament", "cli"):
        for path in (SRC / folder).rglob("*.py"):
            if "systems" in path.parts:
                continue
            for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if asks.search(line) and not line.strip().startswith("fmt=fmt if"):  # an option's default, not a switch
                    found.append(f"{path.relative_to(SRC)}:{k}: {line.strip()}")
    # a file from elsewhere that records no system is judged by the format the import found (not a switch)
    assert found == ['tournament/check/report.py:77: if "XQM" in t.extra or fmt in ("", "swiss"):']


def test_the_rating_rules_know_each_system_by_its_rated_format():
    from qiyuan.rating.model import EventFormat
    from qiyuan.tournament.systems import rated_format

    assert {name: rated_format(name) for name in SYSTEMS} == {
        "swiss": "swiss", "round_robin": "round_robin", "double_round_robin": "round_robin", "knockout": "knockout",
        "match": "match", "team": "team", "go_mcmahon": "swiss", "go_swiss": "swiss"}
    assert {rated_format(name) for name in SYSTEMS} <= {f.value for f in EventFormat}
    assert rated_format("dutch") == "dutch"
