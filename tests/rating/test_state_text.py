"""A state's canonical text written directly (``state_json.state_text``, what the fast engine's ``ListStates``
hold), byte for byte the canonical encoder's text of ``state_to_json``; and ``ListStates`` as a mapping of the
states it was made from."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qiyuan.formats.canonical_text import as_json
from qiyuan.rating.columnar import exact_decimal, exact_text
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.model import Gender
from qiyuan.rating.period import listed_games
from qiyuan.rating.results import ACTIVE, INACTIVE, REMOVED, UNRATED
from qiyuan.rating.state import NewcomerRecord, PlayerState
from qiyuan.rating.state_json import canonical_state_text, state_from_json, state_to_json

days = st.dates(date(1990, 1, 1), date(2040, 12, 31))
#: texts a stored id may hold: non-ASCII, quotes, backslashes, control characters
ids = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=8)
decimals = st.one_of(st.integers(-10**6, 10**7).map(lambda h: Decimal(h).scaleb(-2)),
                     st.integers(-10**4, 10**5).map(Decimal))
records = st.builds(NewcomerRecord, ids, days, st.integers(0, 40),
                    st.none() | st.fractions(min_value=-3000, max_value=3000, max_denominator=997),
                    st.none() | decimals)
states = st.builds(
    PlayerState, player_id=ids, gender=st.none() | st.sampled_from(list(Gender)),
    rating=st.none() | st.integers(-100, 4000), exact=st.none() | decimals, games=st.integers(0, 5000),
    latched=st.booleans(), status=st.sampled_from([ACTIVE, INACTIVE, REMOVED, UNRATED]),
    rated_since=st.none() | days, inactive_since=st.none() | days,
    activity=st.lists(st.tuples(days, st.integers(0, 99)), max_size=4).map(tuple),
    newcomer=st.lists(records, max_size=3).map(tuple))


@given(states)
def test_state_text_is_the_canonical_text_of_state_to_json(s):
    assert canonical_state_text(s) == as_json(state_to_json(s))


@given(st.integers(-10**9, 10**9), st.booleans())
def test_exact_text_is_the_exact_decimals_text(hundredths, cents):
    assert exact_text(hundredths, cents) == str(exact_decimal(hundredths, cents))


@given(states)
def test_state_text_reads_back_as_the_same_state(s):
    again = state_from_json(s.player_id, json.loads(canonical_state_text(s)))
    assert again == s and canonical_state_text(again) == canonical_state_text(s)


def test_state_text_keeps_non_ascii_and_escapes_controls():
    """Event ids as stored: Chinese kept as it is (the digest's bytes), a quote and a control character escaped."""
    s = PlayerState("CN1", newcomer=(NewcomerRecord('赛"事\n', date(2020, 1, 5), 3, Fraction(4501, 3)),))
    text = canonical_state_text(s)
    assert '"赛\\"事\\n"' in text and '"4501/3"' in text and text == as_json(state_to_json(s))


@given(st.dictionaries(ids, states, max_size=6))
def test_list_states_columns_and_objects_are_the_states_given(given_states):
    cols = ListStates.from_states(given_states)
    assert list(cols) == list(given_states) and len(cols) == len(given_states)
    for fid, s in given_states.items():
        i = cols.index[fid]
        assert cols[fid] is s and fid in cols
        assert cols.text[i] == as_json(state_to_json(s)) == cols.text_of(fid)
        assert (cols.rating_of(fid), cols.status_of(fid), cols.listed[i], cols.counting[i]) == (
            s.rating, s.status, listed_games(s), bool(s.newcomer))
    assert cols.rating_of("not a member") is None and cols.status_of("not a member") is None
    order = sorted(given_states)
    part = cols.take(order)
    assert list(part) == order and part.text == [cols.text_of(f) for f in order]


def test_a_state_is_made_from_its_text_when_asked_for():
    s = PlayerState("CN1", gender=Gender.FEMALE, rating=1650, exact=Decimal("1650.40"), games=12, status=ACTIVE,
                    rated_since=date(2020, 1, 1), activity=((date(2020, 3, 1), 5),))
    made = ListStates.from_states({"CN1": s})
    lazy = ListStates(ids=made.ids, index=made.index, gender=made.gender, rating=made.rating, exact=made.exact,
                      games=made.games, latched=made.latched, status=made.status, listed=made.listed,
                      counting=made.counting, text=made.text)
    assert lazy["CN1"] == s and lazy["CN1"] is lazy["CN1"]
    with pytest.raises(KeyError):
        lazy["CN2"]


def test_texts_of_objects_made_from_columns_are_reused_not_written_again():
    """A start chained from a computation: the objects a ``ListStates`` made from its texts are put back in
    columns with those very texts (and an object it did not make gets its own)."""
    s = PlayerState("CN1", rating=1647, exact=Decimal("1647.00"), games=30, status=ACTIVE)
    made = ListStates.from_states({"CN1": s})
    made.text[0] = "the text it was made from"  # (only a reused text can be this one)
    again = ListStates.from_states({"CN1": made["CN1"]}, made=made)
    assert again.text == ["the text it was made from"]
    other = ListStates.from_states({"CN1": PlayerState("CN1", rating=1647, exact=Decimal("1647"), games=30,
                                                       status=ACTIVE)}, made=made)
    assert other.text == [as_json(state_to_json(other["CN1"]))] and '"x":"1647"' in other.text[0]
