"""Every player's state between two lists as arrays (mirrors ``state.py``).

``PlayerArrays`` holds what ``PlayerState`` holds — published rating, game
count, latch, status, the dates the windows are judged on, the activity log
and the newcomers' counted events — one array per field. It is built from the
players' starting facts (``initial_states``) or from stored ``PlayerState``
values (a ``StartState``), and turned back into ``PlayerState`` values for the
office, for a next run, or for the reference to explain a player's period.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from qiyuan.rating import results as R
from qiyuan.rating.columnar import STATUS_NAMES, exact_decimal, exact_text
from qiyuan.rating.exact import round_half_up
from qiyuan.rating.fast.arrays import NONE, int_bincount
from qiyuan.rating.fast.newcomers import Records
from qiyuan.rating.fast.prepare import Prepared
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.rules import NEWCOMER_PERFORMANCE
from qiyuan.rating.state import NewcomerRecord, PlayerState, starting_rating
from qiyuan.rating.state_json import activity_item, canonical_state_text, newcomer_item, state_text

ACTIVE, INACTIVE, REMOVED, UNRATED = (STATUS_NAMES.index(s) for s in (R.ACTIVE, R.INACTIVE, R.REMOVED, R.UNRATED))


class PlayerArrays:
    """The players' states as arrays (indexed like ``Prepared.players``)."""

    def __init__(self, prep: Prepared):
        self.prep = prep
        P = prep.P
        self.rating = np.full(P, NONE, np.int64)
        self.exact_h = np.full(P, NONE, np.int64)
        self.exact_cents = np.zeros(P, dtype=bool)  # the exact value is written with two decimals (exact_decimal)
        self.games = np.zeros(P, np.int64)
        self.latched = np.zeros(P, dtype=bool)
        self.status = np.full(P, UNRATED, np.int8)
        self.rated_since = np.zeros(P, np.int64)  # ordinal; 0 = none
        self.inactive_since = np.zeros(P, np.int64)
        self.cleared_seq = np.zeros(P, np.int64)  # log entries older than this no longer count (removal)
        # Activity log: (player, end ordinal, games, sequence number).
        self.log_player = np.zeros(0, np.int64)
        self.log_end = np.zeros(0, np.int64)
        self.log_games = np.zeros(0, np.int64)
        self.log_seq = np.zeros(0, np.int64)
        self.seq = 1
        self._activity_entries: dict[tuple[int, int], tuple[date, int]] = {}  # (end ordinal, games) → the pair
        self._iso_dates: dict[int, str] = {}  # ordinal → ISO text, for the state texts
        self._activity_items: dict[tuple[int, int], str] = {}  # (end ordinal, games) → its item of a state text
        # Newcomer records: value = Ru × games over the bonus's denominator, or ΔR in hundredths.
        rules = prep.rules
        self.records = Records(prep.bonus.denominator if rules.newcomer_method == NEWCOMER_PERFORMANCE else 100)
        self.prior_events: list[str] = []  # ids of counted events before the run (event index −1, −2, …)
        #: the stored states the run started from (``from_states``): an unchanged player's is handed back as it was
        self.given: Mapping[str, PlayerState] = {}
        #: per player, the fields of an unrated player's state as given (``_untouched``); None: no states given
        self._start: np.ndarray | None = None

    @classmethod
    def initial(cls, prep: Prepared, start: date) -> PlayerArrays:
        """The state when the history starts (as ``state.initial_states``, without an object per player)."""
        arrays = cls(prep)
        rules = prep.rules
        for i, p in enumerate(prep.players):
            if p.rating is not None:
                value = int(p.rating) if p.rating == p.rating.to_integral_value() else round_half_up(p.rating)
            elif p.dan is not None or p.reference_rating is not None:
                value = starting_rating(rules, p)
            else:
                value = None
            if value is not None:
                arrays.rating[i] = value
                arrays.games[i] = p.games
        rated = arrays.rating != NONE
        arrays.status[rated] = ACTIVE
        arrays.rated_since[rated] = start.toordinal()
        arrays.latched = np.array([p.k_latched for p in prep.players], dtype=bool)
        if rules.k_latch_rating is not None:
            arrays.latched |= rated & (arrays.rating >= rules.k_latch_rating)
        arrays.exact_h = np.where(rated, arrays.rating * 100, NONE)
        return arrays

    @classmethod
    def from_states(cls, prep: Prepared, states: dict[str, PlayerState]) -> PlayerArrays:
        """The arrays of stored states (every player of ``prep`` has one)."""
        arrays = cls(prep)
        arrays.given = states
        status_code = {s: i for i, s in enumerate(STATUS_NAMES)}
        log: list[tuple[int, int, int]] = []
        recs: list[tuple[int, int, int, int, Fraction, int, bool]] = []
        prior: dict[str, int] = {}
        given = [states[p.id] for p in prep.players]
        # (one list per field, then one array each: a NumPy item set per player and field was most of the time)
        arrays.rating = np.array([NONE if s.rating is None else s.rating for s in given], np.int64)
        rated = arrays.rating != NONE
        arrays.exact_h = np.where(rated, arrays.rating * 100, NONE)  # Rn is Ro + ΣΔR from the published integer
        # kept as written while it equals the rating (2320.00); otherwise it becomes the rating
        arrays.exact_cents = np.array([s.rating is not None and s.exact == s.rating
                                       and s.exact.as_tuple().exponent == -2 for s in given], dtype=bool)
        arrays.games = np.array([s.games for s in given], np.int64)
        arrays.latched = np.array([s.latched for s in given], dtype=bool)
        arrays.status = np.array([status_code[s.status] for s in given], np.int8)
        arrays.rated_since = np.array([s.rated_since.toordinal() if s.rated_since else 0 for s in given], np.int64)
        arrays.inactive_since = np.array([s.inactive_since.toordinal() if s.inactive_since else 0 for s in given],
                                         np.int64)
        for i, s in enumerate(given):
            if s.activity:
                log += [(i, d.toordinal(), n) for d, n in s.activity]
            for k, r in enumerate(s.newcomer):  # counted before the run: ordered before its events, as stored
                e = prep.event_index.get(r.event_id)
                if e is None:
                    e = -prior.setdefault(r.event_id, len(prior) + 1)
                value = r.ru * r.games if r.ru is not None else Fraction(r.delta)
                recs.append((i, e, r.end_date.toordinal(), r.games, value, k - len(s.newcomer),
                             r.delta is not None and r.delta.as_tuple().exponent == -2))
        if log:
            arrays.log_player, arrays.log_end, arrays.log_games = (np.array(c, np.int64) for c in zip(*log))
            arrays.log_seq = np.zeros(len(log), np.int64)
        arrays.prior_events = list(prior)
        arrays.records.add_fractions(recs)
        arrays._start = arrays._unrated_fields()
        return arrays

    def _unrated_fields(self) -> np.ndarray:
        """Per player: his fields while unrated with no activity and no counted event (else −1 in the first)."""
        P = self.prep.P
        plain = (self.rating == NONE) & (np.bincount(self.records.player, minlength=P) == 0) & (
            np.bincount(self.log_player, minlength=P) == 0)
        return np.stack([np.where(plain, 0, -1), self.games, self.latched, self.status, self.rated_since,
                         self.inactive_since]).astype(np.int64)

    def _untouched(self) -> np.ndarray:
        """The players whose state is still the one given: unrated, without activity or a counted event, then and
        now, every field as it was (their ``PlayerState`` is the given object, not built again)."""
        if self._start is None:
            return np.zeros(self.prep.P, dtype=bool)
        now = self._unrated_fields()
        return (now[0] == 0) & (self._start[0] == 0) & (now == self._start).all(axis=0)

    def fingerprint(self) -> np.ndarray:
        """Per player (a column each), what his ``PlayerState`` is written from: every field, and his activity log
        and counted events as a count and sums (between two lists these only gain later events and lose their
        oldest, so equal sums mean equal entries). Equal fingerprints at two lists and no first rating at either:
        the same state."""
        P = self.prep.P
        valid = self.log_seq >= self.cleared_seq[self.log_player]
        lp, recs = self.log_player[valid], self.records
        return np.stack([
            self.rating, self.exact_h, self.exact_cents, self.games, self.latched, self.status, self.rated_since,
            self.inactive_since, np.bincount(lp, minlength=P), int_bincount(lp, self.log_end[valid], P),
            int_bincount(lp, self.log_games[valid], P), np.bincount(recs.player, minlength=P),
            int_bincount(recs.player, recs.end, P), int_bincount(recs.player, recs.games, P),
            int_bincount(recs.player, recs.event, P), int_bincount(recs.player, recs.order, P),
        ]).astype(np.int64)

    def event_id(self, e: int) -> str:
        return self.prep.events[e].id if e >= 0 else self.prior_events[-e - 1]

    def _gathered(self, wanted: np.ndarray) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[int]]]:
        """Of the ``wanted`` players (a mask): each one's activity log entries still counting, (end ordinal, games)
        in log order, and his newcomer records (indices into ``records``) in their stored order."""
        valid = (self.log_seq >= self.cleared_seq[self.log_player]) & wanted[self.log_player]
        activity: dict[int, list] = {}
        for p, end, g in zip(self.log_player[valid].tolist(), self.log_end[valid].tolist(),
                             self.log_games[valid].tolist()):
            activity.setdefault(p, []).append((end, g))
        recs = self.records
        newcomer: dict[int, list] = {}
        mine = np.flatnonzero(wanted[recs.player])
        for k in mine[np.argsort(recs.order[mine], kind="stable")].tolist():
            newcomer.setdefault(int(recs.player[k]), []).append(k)
        return activity, newcomer

    def _record(self, k: int) -> tuple[str, int, int, Fraction | None, Decimal | None]:
        """Newcomer record ``k``: (event id, end ordinal, games, Ru, ΔR) as the reference keeps them."""
        recs = self.records
        g = int(recs.games[k])
        value = Fraction(int(recs.num[k]), int(recs.den[k]))
        performance = self.prep.rules.newcomer_method == NEWCOMER_PERFORMANCE
        return (self.event_id(int(recs.event[k])), int(recs.end[k]), g, value / g if performance else None,
                None if performance else exact_decimal(value * 100, bool(recs.cents[k])))

    def states(self, players: np.ndarray | None, first_ratings: Mapping[int, Decimal]) -> dict[str, PlayerState]:
        """``PlayerState`` of the given players (all if None) as the reference keeps them between lists, every
        decimal written as the reference writes it; ``first_ratings``: the exact first ratings of the last list."""
        prep = self.prep
        ids = [p.id for p in prep.players]
        chosen = np.arange(prep.P) if players is None else np.asarray(players, np.int64)
        wanted = np.zeros(prep.P, dtype=bool)
        wanted[chosen] = True
        logged, records = self._gathered(wanted)
        entry = self._activity_entries  # (one (date, games) pair per distinct value, shared by every list's states)
        keeps_activity = prep.rules.activity_window_months is not None  # else every rated player is active
        given = self.given
        untouched = self._untouched()
        states = {}
        # (the arrays as Python lists once: a NumPy item read per player and field was most of the time)
        ratings, games, latched = self.rating.tolist(), self.games.tolist(), self.latched.tolist()
        status, since, inactive = self.status.tolist(), self.rated_since.tolist(), self.inactive_since.tolist()
        exact_h, cents = self.exact_h.tolist(), self.exact_cents.tolist()
        firsts = set(first_ratings)
        players = prep.players
        for i in chosen.tolist():
            fid = ids[i]
            if untouched[i] and given[fid].exact is None:
                states[fid] = given[fid]
                continue
            rating = ratings[i]
            rated = rating != NONE
            activity = newcomer = ()
            if rated and keeps_activity:
                pairs = []
                for key in logged.get(i, ()):
                    pair = entry.get(key)
                    if pair is None:
                        pair = entry[key] = (date.fromordinal(key[0]), key[1])
                    pairs.append(pair)
                activity = tuple(sorted(pairs))
            elif not rated:
                newcomer = tuple(NewcomerRecord(e, date.fromordinal(end), g, ru=ru, delta=delta)
                                 for e, end, g, ru, delta in map(self._record, records.get(i, ())))
            state = PlayerState(
                player_id=fid, gender=players[i].gender, rating=rating if rated else None,
                exact=(first_ratings[i] if i in firsts else exact_decimal(exact_h[i], cents[i])) if rated else None,
                games=games[i], latched=latched[i], status=STATUS_NAMES[status[i]],
                rated_since=date.fromordinal(since[i]) if since[i] else None,
                inactive_since=date.fromordinal(inactive[i]) if inactive[i] else None,
                activity=activity, newcomer=newcomer)
            old = given.get(fid)
            # the same object when nothing changed: the office then reuses the text it wrote for it
            states[fid] = old if old is not None and same_state(old, state) else state
        return states

    def list_states(self, moved: np.ndarray, first_ratings: Mapping[int, Decimal], before: ListStates | None
                    ) -> ListStates:
        """Every player's state now, in columns (``ListStates``): the texts of the ``moved`` players (a mask)
        written from the arrays — the bytes ``state_to_json`` of ``states()``' objects gives, property-tested —
        the others' taken from ``before`` (the list before; None: everyone moved). A player handed back as given
        (``states``) keeps his given object and its text; a text equal to the one before keeps its object, any
        other ``PlayerState`` is made from its text when asked for."""
        prep = self.prep
        P = prep.P
        ids = before.ids if before is not None else [p.id for p in prep.players]
        ratings = self.rating.tolist()
        rated = self.rating != NONE
        recs = self.records
        rating = [None if r == NONE else r for r in ratings]
        listed = np.where(rated, self.games, int_bincount(recs.player, recs.games, P)).tolist()
        counting = (~rated & (np.bincount(recs.player, minlength=P) > 0)).tolist()
        if before is None:
            exact, text, objects = [None] * P, [""] * P, [None] * P
            gender = [p.gender.value if p.gender is not None else None for p in prep.players]
            index = {fid: i for i, fid in enumerate(ids)}
        else:
            exact, text, objects = list(before.exact), list(before.text), list(before._objects)
            gender, index = before.gender, before.index
        chosen = np.flatnonzero(moved)
        wanted = np.zeros(P, dtype=bool)
        wanted[chosen] = True
        logged, records = self._gathered(wanted)
        iso, items = self._iso_dates, self._activity_items
        keeps_activity = prep.rules.activity_window_months is not None
        given = self.given
        untouched = self._untouched().tolist()
        games, latched = self.games.tolist(), self.latched.tolist()
        status, since, inactive = self.status.tolist(), self.rated_since.tolist(), self.inactive_since.tolist()
        exact_h, cents = self.exact_h.tolist(), self.exact_cents.tolist()
        firsts = set(first_ratings)

        def day(ordinal: int) -> str | None:
            if not ordinal:
                return None
            d = iso.get(ordinal)
            if d is None:
                d = iso[ordinal] = date.fromordinal(ordinal).isoformat()
            return d

        # (one pass per moved player, every value read from lists: about 650,000 of them in a 2,000,000-game
        # history)
        for i in chosen.tolist():
            fid = ids[i]
            if untouched[i] and given[fid].exact is None:  # (handed back as given: ``states``)
                s = given[fid]
                text[i], exact[i], objects[i] = canonical_state_text(s), None, s
                continue
            r = rating[i]
            activity = newcomer = ""
            if r is not None:
                x = str(first_ratings[i]) if i in firsts else exact_text(exact_h[i], cents[i])
                if keeps_activity:
                    parts = []
                    for key in sorted(logged.get(i, ())):
                        item = items.get(key)
                        if item is None:
                            item = items[key] = activity_item(day(key[0]), key[1])
                        parts.append(item)
                    activity = ",".join(parts)
            else:
                x = None
                newcomer = ",".join(newcomer_item(e, day(end), g, str(ru) if ru is not None else None,
                                                  str(delta) if delta is not None else None)
                                    for e, end, g, ru, delta in map(self._record, records.get(i, ())))
            t = state_text(gender[i], r, x, games[i], latched[i], STATUS_NAMES[status[i]], day(since[i]),
                           day(inactive[i]), activity, newcomer)
            if t != text[i]:
                objects[i] = None  # (made from the text when asked for)
            exact[i], text[i] = x, t
        return ListStates(ids=ids, index=index, gender=gender, rating=rating, exact=exact, games=games,
                          latched=latched, status=[STATUS_NAMES[c] for c in status], listed=listed,
                          counting=counting, text=text, _objects=objects)

    # --- the activity log

    def log(self, player: np.ndarray, end: np.ndarray, games: np.ndarray) -> None:
        keep = games > 0
        self.log_player = np.concatenate([self.log_player, player[keep]])
        self.log_end = np.concatenate([self.log_end, end[keep]])
        self.log_games = np.concatenate([self.log_games, games[keep]])
        self.log_seq = np.concatenate([self.log_seq, np.full(int(keep.sum()), self.seq, np.int64)])
        self.seq += 1

    def games_between(self, since: int, until: int) -> np.ndarray:
        """Each player's rated games in events that ended in [since, until) (ordinals)."""
        valid = (self.log_end >= since) & (self.log_end < until) & (self.log_seq >= self.cleared_seq[self.log_player])
        return int_bincount(self.log_player[valid], self.log_games[valid], self.prep.P)

    def prune_log(self, keep_from: int) -> None:
        keep = self.log_end >= keep_from
        self.log_player, self.log_end = self.log_player[keep], self.log_end[keep]
        self.log_games, self.log_seq = self.log_games[keep], self.log_seq[keep]


def same_state(a: PlayerState, b: PlayerState) -> bool:
    """Equal states written alike: ``==`` and every decimal with the same text (``2320 == 2320.00``, but a state
    is stored as written)."""
    return a == b and str(a.exact) == str(b.exact) and all(
        str(x.delta) == str(y.delta) for x, y in zip(a.newcomer, b.newcomer))
