"""Every player's state after one list, in columns (名册后状态列): what the office orders, stores and bundles.

The office reads a list's states field by field — the rating, status and game counts its entries are ordered and
written from, and each state's canonical text (``state_json``) that the edition stores and its digest covers.
``ListStates`` holds those as one column each, so a list of 50,000 players is written without a ``PlayerState``
object per player: the fast engine writes the columns from its arrays (only the players whose state moved since
the list before get a new text), and a ``PlayerState`` is made from its text only when a reader asks for one (the
desk's review, the start of a next run). States given as objects (the reference engine, a stored edition) are put
into columns by ``from_states``, each object's text written once (a cache of texts, or the columns it was made
from).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from qiyuan.rating.state import PlayerState
from qiyuan.rating.state_json import canonical_state_text, state_from_json


@dataclass(eq=False)
class ListStates(Mapping[str, PlayerState]):
    """The states of ``ids`` (federation ids), one column per field, in ``ids``' order; a ``Mapping`` of
    ``PlayerState`` (each made from its text when first asked for, or the object given)."""

    ids: list[str]
    index: dict[str, int]  # federation id → row
    gender: list[str | None]  # ``Gender`` value
    rating: list[int | None]
    exact: list[str | None]  # the exact value's text, as stored
    games: list[int]  # K's count
    latched: list[bool]
    status: list[str]
    listed: list[int]  # the games his entry shows (``period.listed_games``)
    counting: list[bool]  # a newcomer with counted events (``PlayerState.newcomer`` not empty)
    text: list[str]  # the canonical text of the state (``state_json``)
    _objects: list[PlayerState | None] = field(default_factory=list, repr=False)

    def __post_init__(self):
        if not self._objects:
            self._objects = [None] * len(self.ids)

    # --- Mapping

    def __getitem__(self, fid: str) -> PlayerState:
        i = self.index[fid]
        s = self._objects[i]
        if s is None:
            s = self._objects[i] = state_from_json(fid, json.loads(self.text[i]))
        return s

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, fid) -> bool:
        return fid in self.index

    # --- columns by player

    def rating_of(self, fid: str) -> int | None:
        """His rating, None when unrated or not in the list."""
        i = self.index.get(fid)
        return None if i is None else self.rating[i]

    def status_of(self, fid: str) -> str | None:
        """His status, None when not in the list."""
        i = self.index.get(fid)
        return None if i is None else self.status[i]

    def text_of(self, fid: str) -> str:
        return self.text[self.index[fid]]

    # --- building

    @classmethod
    def from_states(cls, states: Mapping[str, PlayerState], texts: dict | None = None,
                    made: ListStates | None = None) -> ListStates:
        """The columns of states given as objects (kept: each is handed back as given); ``texts``: a cache of the
        states' texts (federation id → (state, …, text)), reused for the same object (``is``: the text must be
        its own) and filled; ``made``: columns some of the objects were made from (their texts reused)."""
        if isinstance(states, ListStates):
            return states
        ids = list(states)
        objects = [states[fid] for fid in ids]
        texts = {} if texts is None else texts
        column = []
        for fid, s in zip(ids, objects):
            known = texts.get(fid)
            if known is None or known[0] is not s:
                i = made.index.get(fid) if made is not None else None
                text = made.text[i] if i is not None and made._objects[i] is s else canonical_state_text(s)
                known = texts[fid] = (s, None, text)
            column.append(known[2])
        return cls(ids=ids, index={fid: i for i, fid in enumerate(ids)},
                   gender=[s.gender.value if s.gender is not None else None for s in objects],
                   rating=[s.rating for s in objects],
                   exact=[str(s.exact) if s.exact is not None else None for s in objects],
                   games=[s.games for s in objects], latched=[s.latched for s in objects],
                   status=[s.status for s in objects],
                   listed=[s.games if s.rating is not None else sum(r.games for r in s.newcomer) for s in objects],
                   counting=[bool(s.newcomer) for s in objects], text=column, _objects=objects)

    def take(self, fids: Iterable[str]) -> ListStates:
        """The states of ``fids`` only (each one of ours), in that order."""
        ids = list(fids)
        rows = [self.index[fid] for fid in ids]

        def col(values: list) -> list:
            return [values[i] for i in rows]

        return ListStates(ids=ids, index={fid: i for i, fid in enumerate(ids)}, gender=col(self.gender),
                          rating=col(self.rating), exact=col(self.exact), games=col(self.games),
                          latched=col(self.latched), status=col(self.status), listed=col(self.listed),
                          counting=col(self.counting), text=col(self.text), _objects=col(self._objects))
