"""``qiyuan rules tune``: the federation's own arithmetic searched on the burn-in, scored once on the test (issue 36)."""

from __future__ import annotations

import random
import re
from datetime import date

import numpy as np
import pytest
from sandbox_builders import real_files, write_files
from test_sandbox_cli import EVENTS, GAMES, PLAYERS, history, run

from qiyuan.formats.history_csv import read_history
from qiyuan.rating.columnar import CODE_OF_RESULT
from qiyuan.rating.model import Result
from qiyuan.rating.rules import BUILTIN_RULES, load_rules
from qiyuan.sandbox.tune import DRIFT_LIMIT, tune_rules

CGA = BUILTIN_RULES["cga-gomoku-2011"]
SMALL_SEARCH = {"k_top": (10, 20), "newcomer_min_games": (1, 3, 7), "newcomer_min_rated_opponents": (0, 3),
                "cap": (None, 400)}
FROM = date(2012, 1, 1)


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    files = real_files(tmp_path_factory)
    return files, read_history(files["players"], files["events"], files["games"])


@pytest.fixture(scope="module")
def tuned(real):
    _, data = real
    return tune_rules(CGA, data.players, data.events, data.games, data.standings, from_date=FROM, search=SMALL_SEARCH)


def test_flipping_a_fifth_of_the_test_results_leaves_the_choice_unchanged(real, tuned):
    """No leakage: the search sees only the burn-in, so flipping 20 % of the test games' results (wins to
    losses and back) changes neither the choice nor any candidate's burn-in score — only the test's."""
    _, data = real
    g = data.games
    end = {e.id: e.end_date for e in data.events}
    test = np.array([end[g.event_ids[e]] >= FROM for e in g.event.tolist()])
    win, loss = CODE_OF_RESULT[Result.WIN], CODE_OF_RESULT[Result.LOSS]
    decisive = np.flatnonzero(test & np.isin(g.result, [win, loss]))
    flip = np.array(random.Random(36).sample(decisive.tolist(), len(decisive) // 5))
    result = g.result.copy()
    result[flip] = np.where(g.result[flip] == win, loss, win)
    flipped = tune_rules(CGA, data.players, data.events, type(g)(g.event_ids, g.player_ids, g.event, g.round, g.player1,
                                                                 g.player2, result, g.board),
                         data.standings, from_date=FROM, search=SMALL_SEARCH)
    assert flipped.changes == tuned.changes and flipped.chosen == tuned.chosen
    assert [(c.changes, c.log_loss) for c in flipped.tried] == [(c.changes, c.log_loss) for c in tuned.tried]
    assert flipped.test[0].log_loss != tuned.test[0].log_loss  # the test itself did change


def test_the_choice_keeps_the_limits_and_a_cap_that_invites_farming_is_refused(tuned):
    """Every admissible candidate drifts at most 5 points a year on the burn-in and adds no audit finding;
    the 400-point cap creates cap farming (a finding CGA has not) and is never chosen."""
    assert tuned.changes  # the search moved something on the real history
    assert tuned.tried[0].changes == {} and tuned.tried[0].admissible
    chosen = next(c for c in tuned.tried if c.changes == tuned.changes)
    assert chosen.admissible and abs(chosen.drift_per_year) <= DRIFT_LIMIT and chosen.log_loss <= tuned.tried[0].log_loss
    capped = [c for c in tuned.tried if c.changes.get("cap") == 400]
    assert capped and all("cap farming" in c.new_findings and not c.admissible for c in capped)
    assert "cap" not in tuned.changes
    for name in ("base", "chosen"):
        assert name in tuned.test_drift and name in tuned.test_audit


def test_the_test_compares_base_and_choice_on_the_same_games_paired(tuned):
    base, chosen = tuned.test
    assert base.games == chosen.games == 2807
    assert base.diff_vs_best == pytest.approx(base.log_loss - chosen.log_loss) or chosen.diff_vs_best > 0
    assert tuned.beats == (tuned.changes != {} and base.diff_vs_best >= 2 * base.se_vs_best > 0)


def test_tune_writes_a_variant_that_loads_back_and_its_impact_pack_with_charts(real, tmp_path):
    files, _ = real
    out, pack = tmp_path / "tuned.toml", tmp_path / "pack.html"
    result = run("rules", "tune", "cga-gomoku-2011", *history(files), "--from", "2012-01-01", "--out", out,
                 "--report", pack)
    assert "the test, once: 2,807 games" in result.stdout and "Search on the 1,837 burn-in games" in result.stdout
    variant = load_rules(str(out))
    assert variant.name == "cga-gomoku-2011-tuned" and variant != CGA
    html = pack.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 3 and "Prediction evidence" in html


def test_tune_bad_input_exit_2(tmp_path):
    files = write_files(tmp_path, PLAYERS, EVENTS, GAMES)
    result = run("rules", "tune", "no-such-rules", *history(files), exit_code=2)
    assert "unknown rule set 'no-such-rules'" in result.stderr and "nothing written" in result.stderr
    result = run("rules", "tune", "cga-gomoku-2011", *history(files), "--from", "2011-03-01", exit_code=2)
    assert "nothing to search on" in result.stderr


def test_tune_reports_in_chinese(real, tmp_path):
    """The whole report of `rules tune` in the user's language (the settings keep their TOML names)."""
    from qiyuan.cli import lang
    from tests.web.test_cli_languages import assert_in_language
    from tests.web.test_cli_languages import run as run_in

    files, _ = real
    args = ["rules", "tune", "cga-gomoku-2011", *[str(x) for x in history(files)], "--from", "2012-01-01",
            "--out", str(tmp_path / "t.toml")]
    result = run_in(args, lang.CHINESE)
    assert result.exit_code == 0, result.output
    text = re.sub(r"cga-gomoku-2011(-tuned)?|\b[a-z]+(_[a-z]+)+\b|\bz\b|\bBrier\b", "", result.output.replace(str(tmp_path), ""))
    assert_in_language(text, lang.CHINESE, args)
    assert "预热期" in result.output and "检验期" in result.output
