"""Issue 32 (3): the Merkle tree over an edition's lines — every leaf's audit path leads to the root, no path
leads there from a changed leaf or another place, and a player's leaf holds exactly his lines."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats import merkle as M


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=8), min_size=1, max_size=70, unique=True), st.data())
def test_every_leaf_proves_its_place_and_nothing_else_does(items, data):
    hashes = [M.leaf_hash(x) for x in items]
    root = M.root(hashes)
    i = data.draw(st.integers(0, len(hashes) - 1))
    path = M.inclusion_path(hashes, i)
    assert M.root_from_path(hashes[i], i, len(hashes), path) == root
    assert len(path) <= max(1, len(hashes) - 1).bit_length()
    assert M.root_from_path(M.leaf_hash(items[i] + b"!"), i, len(hashes), path) != root
    j = data.draw(st.integers(0, len(hashes) - 1))
    if hashes[j] != hashes[i]:
        assert M.root_from_path(hashes[j], i, len(hashes), path) != root
    if j != i and len(hashes) > 1:
        assert M.root_from_path(hashes[i], j, len(hashes), path) != root


def test_the_tree_is_rfc_9162s():
    """Known shape: leaves a b c → node(node(a, b), c), with 0x00 / 0x01 prefixes; an empty tree hashes nothing."""
    h = lambda b: hashlib.sha256(b).digest()  # noqa: E731
    a, b, c = (h(b"\x00" + x) for x in (b"a", b"b", b"c"))
    assert M.root([a, b, c]) == h(b"\x01" + h(b"\x01" + a + b) + c)
    assert M.root([]) == h(b"")


def test_a_players_leaf_holds_his_entry_and_his_changes_in_text_order():
    text = ('["P1","甲",1,1,2000,"2000",10,"active",false,15]\t{}\n'
            '["P2","乙",2,2,1900,"1900",10,"active",false,15]\t{}\n'
            '["E1","P1"]\t{"x":1}\n["E2","P1"]\t{"x":2}\n["E2","P2"]\t{"x":3}\n["E1","E2"]').encode()
    lines = M.player_lines(text)
    assert lines["P1"] == ('["P1","甲",1,1,2000,"2000",10,"active",false,15]\t{}\n["E1","P1"]\t{"x":1}\n'
                           '["E2","P1"]\t{"x":2}\n').encode()
    assert set(lines) == {"P1", "P2"}
    order, hashes = M.leaves(text)
    assert order == ["P1", "P2"] and M.root_of(text) == M.root(hashes).hex()


def _json_reading(line: str) -> str:
    """The player of a line as json.loads reads its head (what the patterns must agree with)."""
    head = json.loads(line.split("\t", 1)[0])
    if not isinstance(head, list) or len(head) not in (2, 10) or not all(isinstance(x, str) for x in head[:2]):
        raise ValueError("not an entry or change line")
    return head[0] if len(head) == 10 else head[1]


plain = st.one_of(st.text(max_size=6), st.integers(-3000, 3000), st.booleans(), st.none(),
                  st.decimals(places=2, allow_nan=False, allow_infinity=False).map(str))
heads = st.one_of(
    st.tuples(st.text(max_size=8), st.text(max_size=8)).map(list),  # a change line's
    st.tuples(st.text(max_size=8), st.text(max_size=8), *[plain] * 8).map(list),  # an entry line's
    st.lists(st.one_of(plain, st.lists(plain, max_size=2)), max_size=11),  # anything else
)


@settings(max_examples=400, deadline=None)
@given(heads, st.sampled_from([",", ", "]), st.booleans())
def test_the_fast_reading_of_a_lines_player_is_json_loads_reading(head, sep, ascii_only):
    """Issue 34 (bundles at the engine's pace): a line's player is read by two patterns when its head is written
    as the writer writes it, else by json.loads — the same player, or the same refusal, for any head."""
    line = json.dumps(head, ensure_ascii=ascii_only, separators=(sep, ":")) + "\t{}"
    try:
        expected = _json_reading(line)
    except ValueError:
        try:
            M._player_of(line)
        except ValueError:
            return
        raise AssertionError(f"the fast reading took {line!r}")
    assert M._player_of(line) == expected


def test_an_entry_head_with_escapes_in_the_name_is_read_fast_and_alike():
    line = '["P0001","\\u4e1c \\"甲\\"",1,1,1500,"1500.00",12,"active",false,15]\t{}'
    assert M._ENTRY_HEAD.fullmatch(line.split("\t")[0]) is not None
    assert M._player_of(line) == _json_reading(line) == "P0001"
