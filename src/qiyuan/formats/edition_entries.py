"""An edition's entries (名册条目): the states after a period as the rows a list publishes — its order, ranks,
each active player's K, and his state as exact text.

The office builds the entries it stores with this function, and the verification kit rebuilds them from an
edition bundle's inputs to recompute the edition's canonical text and digest: one definition of what a
published entry is, with no Django here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date

from qiyuan.formats.canonical_text import EntryRow, as_json
from qiyuan.rating import results as R
from qiyuan.rating.order import competition_ranks, list_order_key
from qiyuan.rating.period import listed_games
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.state import PlayerState
from qiyuan.rating.state_json import state_to_json

#: a player's cached state text: (the state object, its JSON dict, its canonical text)
StateText = tuple[PlayerState, dict, str]


def edition_entries(rules: RuleSet, states: Mapping[str, PlayerState], before: Mapping[str, PlayerState],
                    members: Mapping[str, tuple[int, str, date | None]],
                    untouched: Callable[[str, PlayerState], bool],
                    texts: dict[str, StateText] | None = None, keys: dict[str, tuple] | None = None
                    ) -> list[EntryRow]:
    """The entries of the list after a period, in published order.

    ``states``: every member's state after the period; ``before``: the states it started from (a player is
    newly rated when he had no rating before); ``members``: federation id → (player pk, published name,
    registration date); ``untouched(fid, state)``: a member never rated and untouched since he joined, who is
    not shown (rebuilt from his start state next time); ``texts``: a cache of state texts reused while the
    engine hands back the same state object; ``keys``: a cache of list order keys, reused while the state object,
    the name and is_new are the same (consecutive lists)."""
    texts = {} if texts is None else texts
    keys = {} if keys is None else keys
    rows = []
    for fid, s in states.items():
        if s.rating is None and not s.newcomer and untouched(fid, s):
            continue
        prev = before.get(fid)
        is_new = s.rating is not None and (prev is None or prev.rating is None)
        member = members[fid]
        known = keys.get(fid)
        if known is not None and known[0] is s and known[1] is member and known[2] == is_new:
            key = known[3]
        else:
            key = list_order_key(rules, status=s.status, rating=s.rating, name=member[1], player_id=fid,
                                 is_new=is_new, registered_on=member[2])
            keys[fid] = (s, member, is_new, key)
        rows.append((key, fid, s, is_new))
    rows.sort(key=lambda r: r[0])
    ranks = competition_ranks([s.rating for _, _, s, _ in rows if s.status == R.ACTIVE])
    out: list[EntryRow] = []
    ai = 0
    for pos, (_, fid, s, is_new) in enumerate(rows, start=1):
        rank = None
        if s.status == R.ACTIVE:
            rank = ranks[ai]
            ai += 1
        known = texts.get(fid)
        if known is None or known[0] is not s:  # (not ==: 1647 == 1647.00, and the text must be the state's)
            as_dict = state_to_json(s)
            known = (s, as_dict, as_json(as_dict))
            texts[fid] = known
        pk, name, _ = members[fid]
        out.append(EntryRow(
            player_pk=pk, federation_id=fid, position=pos, rank=rank, rating=s.rating,
            exact=str(s.exact) if s.exact is not None else "",
            games=listed_games(s), status=s.status,  # a newcomer: his counted games so far
            is_new=is_new, k=rules.k_factor(s.games, s.latched) if s.rating is not None else None,
            state=known[1], name=name, _text=known[2]))
    return out
