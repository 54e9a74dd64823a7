"""Pairing systems (编排制度), one module each behind one registry.

Each module of this package holds one system's pairing entry point, its checker and its generator side by side,
and registers a :class:`PairingSystem` under the name an event file records (``XQM``): the Gomoku Swiss
(``gomoku_swiss``), Go's McMahon and Go Swiss (``go``), the round robin by Berger tables with openers (``berger``),
the knock-out with seeding and mini-matches (``knockout``), a match (``match``) and a team event (``team``).  A new
system is one new module, imported here.  Every caller — the arbiter's functions (``eventfile``), the checker, the
generator, the command line and the desk — asks the registry (:func:`system_of`, :func:`system_named`,
:data:`SYSTEMS`); an unknown system is refused by name (:class:`UnknownSystem`), never paired as another.
"""

from __future__ import annotations

# (importing a system registers it; in this order the registry lists them)
from qiyuan.tournament.systems import gomoku_swiss, berger, knockout, match, team, go  # noqa: F401
from qiyuan.tournament.systems.base import (RULES, SYSTEMS, Deviation, GeneratePlan, PairingSystem, RoundPairing,
                                            UnknownSystem, event_format, names, next_pairing, rated_format, register,
                                            system_named, system_of)

__all__ = ["RULES", "SYSTEMS", "Deviation", "GeneratePlan", "PairingSystem", "RoundPairing", "UnknownSystem",
           "event_format", "names", "next_pairing", "rated_format", "register", "system_named", "system_of"]
