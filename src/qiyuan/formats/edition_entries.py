"""An edition's entries (名册条目): the states after a period as the rows a list publishes — its order, ranks,
each active player's K, and his state as exact text.

The office builds the entries it stores with this function, and the verification kit rebuilds them from an
edition bundle's inputs to recompute the edition's canonical text and digest: one definition of what a
published entry is, with no Django here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date

from qiyuan.formats.canonical_text import EntryRow
from qiyuan.rating import results as R
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.order import competition_ranks, list_order_key
from qiyuan.rating.rules import RuleSet

def edition_entries(rules: RuleSet, states: ListStates, before: ListStates,
                    members: Mapping[str, tuple[int, str, date | None]], untouched: Callable[[str, str], bool],
                    keys: dict[str, tuple] | None = None) -> list[EntryRow]:
    """The entries of the list after a period, in published order, written from the states' columns.

    ``states``: every member's state after the period; ``before``: the states it started from (a player is
    newly rated when he had no rating before); ``members``: federation id → (player pk, published name,
    registration date); ``untouched(fid, text)``: a member never rated whose state (its canonical text) is the one
    he joined with, who is not shown (rebuilt from his start state next time); ``keys``: a cache of list order
    keys, reused while what the key is made of is the same (consecutive lists)."""
    keys = {} if keys is None else keys
    rows = []
    ids, rating, status, counting, text = states.ids, states.rating, states.status, states.counting, states.text
    for i, fid in enumerate(ids):
        r = rating[i]
        if r is None and not counting[i] and untouched(fid, text[i]):
            continue
        is_new = r is not None and before.rating_of(fid) is None
        member = members[fid]
        st = status[i]
        known = keys.get(fid)
        if known is not None and known[0] == st and known[1] == r and known[2] is member and known[3] == is_new:
            key = known[4]
        else:
            key = list_order_key(rules, status=st, rating=r, name=member[1], player_id=fid, is_new=is_new,
                                 registered_on=member[2])
            keys[fid] = (st, r, member, is_new, key)
        rows.append((key, i, is_new))
    rows.sort(key=lambda row: row[0])
    ranks = competition_ranks([rating[i] for _, i, _ in rows if status[i] == R.ACTIVE])
    out: list[EntryRow] = []
    ai = 0
    exact, games, latched, listed = states.exact, states.games, states.latched, states.listed
    for pos, (_, i, is_new) in enumerate(rows, start=1):
        rank = None
        if status[i] == R.ACTIVE:
            rank = ranks[ai]
            ai += 1
        fid = ids[i]
        pk, name, _ = members[fid]
        r = rating[i]
        out.append(EntryRow(
            player_pk=pk, federation_id=fid, position=pos, rank=rank, rating=r, exact=exact[i] or "",
            games=listed[i], status=status[i],  # a newcomer: his counted games so far
            is_new=is_new, k=rules.k_factor(games[i], latched[i]) if r is not None else None,
            state=None, name=name, _text=text[i]))
    return out
