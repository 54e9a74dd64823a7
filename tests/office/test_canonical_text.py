"""The stored texts written directly (fast) are exactly the canonical JSON (``as_json``) of the same values."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.office.bulk import as_json
from qiyuan.office.canonical import change_json, change_line, change_text
from qiyuan.rating import results as R

decimals = st.decimals(min_value=Decimal("-10000"), max_value=Decimal("10000"), allow_nan=False, places=6)
opt_dec = st.none() | decimals
opt_int = st.none() | st.integers(-5000, 5000)
names = st.text(min_size=1, max_size=12)  # any characters: quotes, backslashes, control characters, 汉字
lines = st.builds(R.GameLine, round=st.integers(0, 99), opponent_id=names, opponent_rating=decimals,
                  D=st.integers(-3000, 3000), We=decimals, W=st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)]),
                  K=st.integers(0, 60), dR=decimals)
changes = st.builds(
    R.EventChange, player_id=names, event_id=names, list_date=st.just(date(2020, 1, 1)), games=st.integers(0, 40),
    W=decimals, We=opt_dec, K=opt_int, delta=decimals, method=st.sampled_from(sorted(
        [R.METHOD_PER_GAME, R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN, R.METHOD_NEWCOMER, R.METHOD_NOT_RATED])),
    Rc=opt_dec, N=opt_int, Pd=opt_dec, D=opt_int, ru=opt_dec, Ro=opt_dec, raw_delta=opt_dec,
    notes=st.lists(names, max_size=3), lines=st.lists(lines, max_size=4))


@settings(max_examples=300, deadline=None)
@given(changes)
def test_change_text_is_the_canonical_json_of_the_change(c):
    assert change_text(c) == as_json(change_json(c))


@given(names, names, st.text(max_size=5))
def test_change_line_keys_are_canonical_json(event, player, text):
    assert change_line(event, player, text) == as_json([event, player]) + "\t" + text + "\n"


@settings(max_examples=200, deadline=None)
@given(names, st.text(max_size=8), st.integers(1, 60000), st.none() | st.integers(1, 60000),
       st.none() | st.integers(0, 3000), st.text(alphabet="0123456789.-", max_size=12), st.integers(0, 5000),
       st.sampled_from(["active", "inactive", "unrated", "removed"]), st.booleans(), st.none() | st.integers(0, 60))
def test_entry_line_written_directly_is_the_canonical_line(fid, name, position, rank, rating, exact, games, status,
                                                           is_new, k):
    from qiyuan.office.canonical import EntryRow, entry_line

    row = EntryRow(player_pk=1, federation_id=fid, position=position, rank=rank, rating=rating, exact=exact,
                   games=games, status=status, is_new=is_new, k=k, state={"r": rating, "s": status}, name=name)
    assert row.line() == entry_line([fid, name, position, rank, rating, exact, games, status, is_new, k],
                                    as_json(row.state))
