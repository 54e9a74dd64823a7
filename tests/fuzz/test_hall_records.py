"""Issue 33: the hall's readers under fuzzing — the event file's provenance record (``XRP``) is read or skipped,
never a traceback, and what is recorded reads back unchanged; a player's credential read from any text is
the player or a named refusal (``BadToken``), and the phone page answers any link with a page, never a 500."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import hall
from qiyuan.tournament.model import Entrant

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # static files: not collected here

WORD = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


def _event():
    t = ev.new_event("来源测试", fmt="swiss", rounds=3)
    for i in range(4):
        ev.add_player(t, Entrant(0, f"棋手{i + 1}"))
    return t


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=60),
                max_size=5))
def test_any_provenance_lines_are_read_or_skipped(lines):
    t = _event()
    t.extra[hall.PROVENANCE_RECORD] = lines
    for (rnd, board), p in hall.provenances(t).items():
        assert (p.round, p.board) == (rnd, board)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 99), st.integers(1, 999), st.sampled_from(hall.PHONE_RESULTS),
                          st.lists(st.tuples(WORD, WORD, WORD, WORD), max_size=4)), max_size=4))
def test_recorded_provenance_reads_back_from_the_event_file(records):
    t = _event()
    wanted = {}
    for rnd, board, result, acts in records:
        p = hall.Provenance(rnd, board, result, tuple(hall.Act(*a) for a in acts))
        hall.record_provenance(t, [p])
        wanted[(rnd, board)] = p
    got = hall.provenances(read_trf(write_trf(t)))
    assert set(got) == set(wanted)
    for key, p in wanted.items():  # each field a word: spaces and colons written as "_", an empty one as "-"
        assert got[key].result == p.result
        assert [a.text() for a in got[key].acts] == [a.text() for a in p.acts]


@pytest.fixture
def key_home(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=120))
def test_any_text_is_a_credential_or_a_named_refusal(key_home, text):
    from qiyuan.office.hall.tokens import BadToken, player_token, read_player_token

    try:
        tok = read_player_token(text)
    except BadToken as exc:
        assert exc.problems
    else:
        assert player_token(tok.event, tok.number, tok.issue) == text


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/?#%"), min_size=1,
               max_size=80))
def test_the_phone_page_answers_any_link(key_home, client, text):
    r = client.get(f"/hall/e/open/{text}/")
    assert r.status_code in (403, 404, 429)
