"""Provisional ΔR during a running desk event (issue 10, item 5): each player's change so far, by the engine
that publishes — equal to the portal's what-if of the same games."""

from __future__ import annotations

import pytest

from qiyuan.formats.trf import read_trf
from qiyuan.office.events.models import LiveEvent
from qiyuan.web.numbers import signed_delta
from tests.web.test_whatif import _office

pytestmark = pytest.mark.django_db


def _rated_players(rl, n):
    from qiyuan.office.federation.models import Player

    from tests.support.sheets import entries

    last = rl.editions.order_by("-list_date", "-number").first()
    rows = [e for e in entries(last) if e["rating"] is not None and e["status"] == "active"][:n]
    return [Player.objects.get(pk=e["player"]) for e in rows]


def test_provisional_change_equals_the_what_if_of_the_same_games(tmp_path, staff, login):
    from qiyuan.web.desk.provisional import provisional
    from qiyuan.web.portal import whatif
    from qiyuan.tournament.standings import standings

    rl = _office(tmp_path)
    players = _rated_players(rl, 6)
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": "run-2026", "name": "进行中的比赛", "fmt": "swiss", "rounds": 5})
    for p in players:
        assert c.post("/desk/events/run-2026/players/", {"federation_id": p.federation_id}).status_code == 302
    c.post("/desk/events/run-2026/players/", {"name": "新手", "sex": "m", "rating": "1700"})  # not registered
    results = ["1", "=", "0", "1"]
    for rnd in (1, 2):
        c.post("/desk/events/run-2026/pair/")
        t = read_trf(LiveEvent.objects.get(code="run-2026").trf_text)
        boards = {f"r-{e.number}-{e.rounds[rnd - 1].opponent}": results[(e.number + rnd) % 4] for e in t.entrants
                  if len(e.rounds) >= rnd and e.rounds[rnd - 1].colour == "b"}
        assert c.post("/desk/events/run-2026/results/", {"round": rnd, **boards}).status_code == 302
    t = read_trf(LiveEvent.objects.get(code="run-2026").trf_text)
    edition, rows = provisional(t, rl)
    by_fid = {p.federation_id: p for p in players}
    leader = next(r.number for r in standings(t) if r.rank == 1)
    mine = {"1": whatif.Result.WIN, "0": whatif.Result.LOSS, "=": whatif.Result.DRAW}
    compared = 0
    for row in rows:
        e = row.entrant
        played = [(t.entrants[cell.opponent - 1], mine[cell.result]) for cell in e.rounds
                  if cell.opponent is not None and cell.result in mine]
        if not row.registered or not all(o.player_id in by_fid for o, _r in played):
            continue  # the what-if takes registered opponents (or ratings) only
        w = whatif.WhatIf(rl, "swiss", champion=e.number == leader)
        w.games = [(whatif.Opponent(o.player_id, i, player=by_fid[o.player_id]), r) for i, (o, r) in
                   enumerate(played, 1)]
        expected = whatif.compute(w, by_fid[e.player_id])
        got = row.change
        assert (got.delta, got.We, got.K, got.W, got.method, got.games) == (
            expected.delta, expected.We, expected.K, expected.W, expected.method, expected.games), e.name
        compared += 1
    assert compared >= 3
    # the page shows them, in words, linked from the event's desk page
    assert 'id="provisional-link"' in c.get("/desk/events/run-2026/").content.decode()
    page = c.get("/desk/events/run-2026/provisional/?list=CGA").content.decode()
    first = next(r for r in rows if r.change is not None)
    assert f'data-number="{first.entrant.number}"' in page and signed_delta(first.change.delta) in page
    assert "per_game" not in page and "averaging" not in page and "未注册" in page


def test_provisional_page_without_a_published_list_says_so(staff, login):
    from qiyuan.office.ratings.models import RatingList

    RatingList.objects.create(code="new", title="新榜", rules_name="cga-gomoku-2011")
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": "run-2026", "name": "进行中的比赛", "fmt": "swiss", "rounds": 5})
    r = c.get("/desk/events/run-2026/provisional/")
    assert r.status_code == 200 and "该榜单尚未发布，无法计算。" in r.content.decode()
    assert login(staff["arbiter2"]).get("/desk/events/run-2026/provisional/").status_code == 403
