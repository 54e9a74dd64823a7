"""``rules compare A B --report``: the impact pack — B retroactively and from a date, side by side."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest
from sandbox_builders import event, game, player, write_files
from test_sandbox_cli import EVENTS, GAMES, PLAYERS, history, run

from qiyuan.errors import InputError
from qiyuan.rating.rules import BUILTIN_RULES, with_settings
from qiyuan.sandbox.impact import forward_lists, impact
from qiyuan.sandbox.lists import published_lists

CGA = BUILTIN_RULES["cga-gomoku-2011"]
K40 = with_settings(CGA, {"name": "cga-k40", "k_new": 40, "k_established": 40, "k_top": 40})


def two_years():
    players = [player("A", 2000), player("B", 2000), player("C", 2000), player("D", 2000)]
    events = [event("E1", date(2011, 3, 1)), event("E2", date(2012, 3, 1))]
    games = [game(e, r, a, b, "1-0") for e in ("E1", "E2") for r, (a, b) in enumerate((("A", "B"), ("A", "C"),
                                                                                       ("A", "D"), ("B", "C")), 1)]
    return players, events, games


def test_b_from_a_date_keeps_a_before_it_and_rates_by_b_after():
    """Before 2012-01-01 the forward lists are A's; after it, B's changes from A's states (K 40 instead of
    CGA's 10 for these latched players)."""
    players, events, games = two_years()
    fwd = forward_lists(CGA, K40, players, events, games, (), date(2012, 1, 1))
    a = published_lists(CGA, players, events, games)
    b = published_lists(K40, players, events, games)
    i = fwd.dates.index(date(2012, 1, 1))
    assert np.array_equal(fwd.rating[: i + 1], a.rating[: i + 1])  # A's lists up to the date
    gain_a = a.rating[-1] - a.rating[i]
    gain_fwd = fwd.rating[-1] - fwd.rating[i]
    assert gain_fwd[0] == 4 * gain_a[0] and not np.array_equal(fwd.rating[-1], b.rating[-1])


def test_the_impact_names_who_crosses_a_grade_or_an_eligibility_threshold():
    players, events, games = two_years()
    pack = impact(CGA, K40, players, events, games, from_date=date(2012, 1, 1), thresholds=[2030])
    assert list(pack.distributions) == ["A", "B retroactive", "B from 2012-01-01"]
    ups = {(c.threshold, c.variant): c.up for c in pack.crossings}
    assert "A" in ups[2030, "retroactive"]  # A's K 40 carries him over 2030; CGA's K 10 does not
    assert any(c.label == "5k" for c in pack.crossings) or 2040 not in {c.threshold for c in pack.crossings}
    with pytest.raises(InputError, match="publication date of both"):
        impact(CGA, K40, players, events, games, from_date=date(2012, 2, 1))


def test_compare_writes_the_impact_report(tmp_path):
    files = write_files(tmp_path, PLAYERS, EVENTS, GAMES)
    out = tmp_path / "impact.html"
    run("rules", "compare", "cga-gomoku-2011", "bjsh-gomoku-2007", *history(files), "--report", out,
        "--from", "2012-01-01", "--threshold", "2000")
    text = out.read_text(encoding="utf-8")
    assert "规则变更影响报告 / Impact of a rule change" in text and "B from 2012-01-01" in text
    assert "<td>P2</td><td>李四</td>" in text and "跨越段级位或资格线" in text
    # its charts (issue 36): the distribution before/after and the changes by rating band, embedded
    assert text.count("data:image/png;base64,") == 2 and "Changes by group" in text
    bad = run("rules", "compare", "cga-gomoku-2011", "bjsh-gomoku-2007", *history(files), "--report",
              tmp_path / "x.html", "--from", "2012-02-30", exit_code=2)
    assert "--from: expected a date" in bad.stderr and not (tmp_path / "x.html").exists()
