"""参照引擎: the reference engine — one ``rate_period`` per list date, reading like the texts.

It is the engine to check the other one against: each period is rated by
``qiyuan.rating.period.rate_period``, each event by ``qiyuan.rating.event.rate_event``,
game by game, in exact decimals and fractions. It is slow on millions of games
(the fast engine is ≥ 20× faster) but every step is the text's.
"""

from __future__ import annotations

from collections import defaultdict

from qiyuan.rating.list_states import ListStates
from qiyuan.rating.model import Game, Standing
from qiyuan.rating.period import list_entry, rate_period
from qiyuan.rating.result import History, Run, change_columns, list_columns
from qiyuan.rating.results import EventChange, PublishedList
from qiyuan.rating.state import PlayerState, initial_states


def compute(run: Run) -> History:
    """Rate the run's periods one after the other, each from the states the previous one published."""
    rules = run.rules
    player_ids = tuple(p.id for p in run.players)
    event_ids = tuple(e.id for e in run.events)
    people = {p.id: p for p in run.players}
    states: dict[str, PlayerState]
    if run.states is not None:
        states = run.states
    else:
        states = initial_states(rules, run.players, run.start) if run.dates else {}
    games_of: dict[str, list[Game]] = defaultdict(list)
    for g in run.games:
        games_of[g.event_id].append(g)
    standings_of: dict[str, list[Standing]] = defaultdict(list)
    for s in run.standings:
        standings_of[s.event_id].append(s)

    lists: list[PublishedList] = []
    changes: list[EventChange] = []
    explained: dict[str, list] = defaultdict(list)
    list_states: list[ListStates] = []
    texts: dict = {}  # (each state's text written once while the same object goes on)
    events = sorted(run.events, key=lambda e: (e.end_date, e.start_date, e.id))
    index = 0
    for n, list_date in enumerate(run.dates, start=1):
        period_events = []
        while index < len(events) and events[index].end_date < list_date:
            period_events.append(events[index])
            index += 1
        result = rate_period(rules, states, period_events, [g for e in period_events for g in games_of[e.id]],
                             [s for e in period_events for s in standings_of[e.id]], list_date, people=people,
                             explain=run.explain)
        lists.append(result.published)
        changes.extend(result.changes)
        for pid, (his_events, publication) in result.explanations.items():
            explained[pid].append((list_date, his_events, publication, list_entry(pid, result.states[pid])))
        states = result.states
        if run.list_states:
            list_states.append(ListStates.from_states(states, texts))
        if run.progress is not None:
            run.progress(n, len(run.dates))

    player_index = {p: i for i, p in enumerate(player_ids)}
    event_index = {e: i for i, e in enumerate(event_ids)}
    list_index = {d: i for i, d in enumerate(run.dates)}
    final = states

    def explanation(pid: str) -> list[tuple]:
        return explained.get(pid, [])

    return History(
        rules=rules, player_ids=player_ids, event_ids=event_ids, list_dates=list(run.dates),
        list_columns=[list_columns(lst, player_index) for lst in lists],
        change_columns=change_columns(changes, player_index, event_index, list_index),
        explained=run.explain, _change_objects=changes, _final_states=lambda: final, _explain=explanation,
        list_states=list_states if run.list_states else None,
    )



