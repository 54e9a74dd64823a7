"""The officer's review of a period (issue 10): every status change counted and listed in words, and
publishing only once reviewed and confirmed — a plain POST is refused and shows what would be published."""

from __future__ import annotations

import re
from datetime import date
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qiyuan.rating import results as R
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.state import PlayerState
from qiyuan.web.desk.review import KINDS, NEWLY_RATED, kind_of, review
from tests.web.test_office_desk import gomoku, report_bytes, six, upload  # noqa: F401  (fixtures)

RAW_CODES = re.compile(r">[^<]*\b(inactive|active|removed|unrated|averaging|per_game|provisional|newcomer|swiss|"
                       r"round_robin)\b[^<]*<")


def entry(fid, status, is_new=False):
    return SimpleNamespace(federation_id=fid, status=status, is_new=is_new, name=fid)


def states_before(statuses: dict[str, str]) -> ListStates:
    """The states a period starts from (``PeriodComputation.prior``), of the given statuses."""
    return ListStates.from_states({fid: PlayerState(fid, status=status) for fid, status in statuses.items()})


def test_every_kind_of_status_change_is_counted():
    prior = {"a": R.ACTIVE, "b": R.INACTIVE, "c": R.INACTIVE, "d": R.UNRATED, "e": R.ACTIVE, "f": R.ACTIVE}
    comp = SimpleNamespace(
        entries=[entry("a", R.INACTIVE), entry("b", R.ACTIVE), entry("c", R.REMOVED), entry("d", R.ACTIVE, True),
                 entry("e", R.ACTIVE), entry("f", R.INACTIVE), entry("g", R.UNRATED)],
        prior=states_before(prior), changes=[], events=[])
    rv = review(comp, {})
    counts = {s.key: len(s.rows) for s in rv.changes}
    assert counts == {NEWLY_RATED: 1, (R.ACTIVE, R.INACTIVE): 2, (R.INACTIVE, R.ACTIVE): 1, (None, R.REMOVED): 1}
    assert [s.key for s in rv.changes] == list(KINDS)  # in the review's order
    assert {r["e"].federation_id for r in rv.rows} == {"a", "b", "c", "d", "f"}  # e and g: nothing changes
    assert kind_of(None, R.UNRATED, False) is None and kind_of(R.UNRATED, R.INACTIVE, False) == (R.UNRATED, R.INACTIVE)


STATUSES = [R.ACTIVE, R.INACTIVE, R.UNRATED, R.REMOVED]


@given(st.lists(st.tuples(st.sampled_from(STATUSES + [None]), st.sampled_from(STATUSES), st.booleans()),
                max_size=40))
def test_each_player_whose_status_changes_is_counted_exactly_once(players):
    """Invariant: a player is in one count when his status changes or he is rated for the first time, in none
    otherwise; the counts add up to the players listed for a change of status."""
    prior = states_before({f"p{i}": b for i, (b, _a, _n) in enumerate(players) if b is not None})
    entries = [entry(f"p{i}", a, n) for i, (_b, a, n) in enumerate(players)]
    rv = review(SimpleNamespace(entries=entries, prior=prior, changes=[], events=[]), {})
    counted = [r["e"].federation_id for s in rv.changes for r in s.rows]
    assert len(counted) == len(set(counted))
    expected = {f"p{i}" for i, (b, a, n) in enumerate(players) if n or (b != a and not (b is None and a == R.UNRATED))}
    assert set(counted) == expected == {r["e"].federation_id for r in rv.rows}


@pytest.fixture
def officer(staff, login, gomoku, six, tmp_path, settings):  # noqa: F811
    """An office with one published period of six rated players (who then play no more)."""
    from qiyuan.office import periods as P
    from qiyuan.office.ratings.models import ListMember

    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    assert upload(c, report_bytes(tmp_path, six)).status_code == 302
    ListMember.objects.update(rating=1800, games=30)  # they start rated: the period changes their ratings
    assert P.publish_period(gomoku, None, "officer").list_date == date(2026, 4, 1)
    return c


def test_review_counts_players_going_inactive_in_words(officer):
    # two years without a game (B–S: 4 games in 24 months): all six go inactive, none has a rating change
    r = officer.post("/desk/office/periods/", {"list": "gomoku", "action": "compute", "date": "2029-01-01"})
    html = r.content.decode()
    assert r.status_code == 200 and 'id="review"' in html
    assert "活跃 → 不活跃：6 人" in html and "等级分有变化：0 人" in html
    assert html.count("甲一（CN") == 1  # listed under its change
    assert "不活跃" in html and not RAW_CODES.search(html.split('id="review"')[1].split("</section>")[0])


def test_review_in_english_names_the_statuses_in_english(officer):
    r = officer.post("/desk/office/periods/", {"list": "gomoku", "action": "compute", "date": "2029-01-01"},
                     HTTP_ACCEPT_LANGUAGE="en")
    officer.cookies["django_language"] = "en"
    r = officer.post("/desk/office/periods/", {"list": "gomoku", "action": "compute", "date": "2029-01-01"})
    html = r.content.decode()
    assert "active → inactive: 6" in html, html.split('id="review"')[1][:1500]


def test_publish_without_confirmation_is_refused_and_shows_what_would_be_published(staff, login, gomoku, six,  # noqa: F811
                                                                                   tmp_path, settings):
    from qiyuan.office.ratings.models import Edition

    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    assert upload(c, report_bytes(tmp_path, six)).status_code == 302
    r = c.post("/desk/office/periods/", {"list": "gomoku", "action": "publish"})  # "publish next…"
    html = r.content.decode()
    assert r.status_code == 200 and Edition.objects.count() == 0
    assert "发布前请先审核下面的内容，并勾选确认。" in html and 'id="publish-confirm"' in html
    assert "本期比赛 1 场" in html and "gomoku 2026-04-01" in html
    digest = re.search(r'name="digest" value="([0-9a-f]+)"', html).group(1)
    r = c.post("/desk/office/periods/", {"list": "gomoku", "action": "publish", "date": "2026-04-01",
                                         "digest": digest, "confirm": "1"})
    assert r.status_code == 302 and Edition.objects.count() == 1


def test_publish_of_a_period_changed_since_its_review_is_refused(staff, login, gomoku, six, tmp_path,  # noqa: F811
                                                                 settings):
    from qiyuan.office.ratings.models import Edition

    settings.VAR_DIR = tmp_path
    c = login(staff["officer"])
    assert upload(c, report_bytes(tmp_path, six)).status_code == 302
    html = c.post("/desk/office/periods/", {"list": "gomoku", "action": "compute"}).content.decode()
    digest = re.search(r'name="digest" value="([0-9a-f]+)"', html).group(1)
    # another event (other results: not a probable duplicate of the first)
    assert upload(c, report_bytes(tmp_path, six, name="又一赛", start=date(2026, 2, 8), result="½-½")).status_code in (200, 302)
    r = c.post("/desk/office/periods/", {"list": "gomoku", "action": "publish", "date": "2026-04-01",
                                         "digest": digest, "confirm": "1"}, follow=True)
    assert Edition.objects.count() == 0
    assert "审核之后" in r.content.decode()
