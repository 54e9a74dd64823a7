"""竞赛: Gomoku Swiss pairing, who opens, round robins, standings and tie-breaks.

Pure functions over :mod:`qiyuan.tournament.model` (TRF-shaped data):

* :mod:`~qiyuan.tournament.state` — each player's state before a round
  (``player_states(t, round_no) -> {number: PlayerState}``).
* :mod:`~qiyuan.tournament.swiss` — ``pair_round(t, round_no=None, *, explain=False) -> Pairing``,
  ``apply_pairing(t, pairing)``, ``next_round(t)``, ``PairingError``.
* :mod:`~qiyuan.tournament.openers` — ``choose_opener(a, b, round_no) -> (opener, other)``.
* :mod:`~qiyuan.tournament.matching` — Edmonds' maximum matching behind the look-ahead.
* :mod:`~qiyuan.tournament.berger` — ``berger_rounds(n, *, double=False)``, ``pair_round_robin(t, round_no)``.
* :mod:`~qiyuan.tournament.standings` — ``score(t, number)``, ``standings(t) -> [StandingRow]``.
* :mod:`~qiyuan.tournament.knockout` — ``bracket(entrants)``, ``next_matches``, ``knockout_rounds(t)``.
"""
