"""Issue 37 / issue 32: the verifier reads a version-3 bundle's ``inputs/provenance.csv`` and
``inputs/audit_head.json`` and names what does not fit (a game without its row, a row naming no game, an unknown
kind, a head that is no head); older versions carry neither and are not asked for them."""

from __future__ import annotations

from qiyuan.formats import edition_bundle as B
from qiyuan.kit.provenance import audit_head_problems, input_problems, provenance_problems

GAMES = b"event_id,round,player1,player2,result,board\nE1,1,A,B,1-0,\nE1,1,C,D,0-1,\nE1,2,A,C,0.5-0.5,\n"
SHA = "ab" * 32


def _prov(*rows) -> bytes:
    return B.provenance_csv(rows)


GOOD = _prov(("E1", 1, "A", "B", "phones", "reported:player1:phone:20240302T1015Z", "20240302T1020Z", "trf", SHA),
             ("E1", 1, "C", "D", "desk", "typed:arbiter:desk:20240302T1030Z", "20240302T1030Z", "trf", SHA),
             ("E1", 2, "A", "C", "file", "", "", "trf", SHA))


def _texts(problems) -> str:
    return "\n".join(map(str, problems))


def test_a_provenance_file_with_a_row_for_each_game_is_clean():
    assert provenance_problems(GOOD, GAMES) == []
    assert input_problems({B.PROVENANCE: GOOD, "inputs/games.csv": GAMES,
                           B.AUDIT_HEAD: B.audit_head_json(4, SHA)}, 3) == []


def test_a_deleted_or_added_row_is_named():
    lines = GOOD.decode().splitlines(keepends=True)
    assert "1 game(s) without a row, 0 row(s) naming no game" in _texts(
        provenance_problems("".join(lines[:-1]).encode(), GAMES))
    extra = GOOD + b"E1,3,A,D,phones,,,trf," + SHA.encode() + b"\n"
    assert "0 game(s) without a row, 1 row(s) naming no game" in _texts(provenance_problems(extra, GAMES))


def test_a_tampered_row_is_named_by_its_line():
    assert "line 2: entered 'bribed' is not one of phones, settled, desk, terminal, file" in _texts(
        provenance_problems(GOOD.replace(b",phones,", b",bribed,"), GAMES))
    assert "line 3: round 'x' is not a whole number" in _texts(provenance_problems(GOOD.replace(b"E1,1,C", b"E1,x,C"),
                                                                                   GAMES))
    assert "line 4: file_sha256 is not a SHA-256" in _texts(provenance_problems(GOOD[:-5] + b"zz\n", GAMES))
    assert "line 2: 8 fields, not 9" in _texts(provenance_problems(GOOD.replace(b",trf," + SHA.encode(), b",trf", 1),
                                                                    GAMES))
    assert "the first line is not the header" in _texts(provenance_problems(b"x,y\n", GAMES))
    assert "not UTF-8 CSV text" in _texts(provenance_problems(b"\xff\xfe", GAMES))


def test_an_audit_head_is_entries_and_a_hash():
    assert audit_head_problems(B.audit_head_json(0, "")) == audit_head_problems(B.audit_head_json(7, SHA)) == []
    for bad in (b"[]", b'{"entries": 3, "head": ""}', b'{"entries": 0, "head": "' + SHA.encode() + b'"}',
                b'{"entries": -1, "head": ""}', b'{"entries": true, "head": ""}', b"\xff", b'{"entries": 1}'):
        assert 'not an audit log head ({"entries": N, "head": HASH})' in _texts(audit_head_problems(bad)), bad


def test_versions_before_3_ask_for_neither():
    assert input_problems({B.PROVENANCE: b"junk", B.AUDIT_HEAD: b"junk"}, 2) == []
    assert B.inputs_of(2) == B.INPUTS and B.inputs_of(3) == (*B.INPUTS, B.PROVENANCE, B.AUDIT_HEAD)
