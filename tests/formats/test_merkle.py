"""Issue 32 (3): the Merkle tree over an edition's lines — every leaf's audit path leads to the root, no path
leads there from a changed leaf or another place, and a player's leaf holds exactly his lines."""

from __future__ import annotations

import hashlib

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
