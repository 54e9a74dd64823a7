"""An explanation written as JSON (version 2) reads back to the same values, for every explained player."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rating"))
from test_fast_equivalence import RULE_SETS, histories  # noqa: E402

from qiyuan.formats.explanation_json import (event_from_json, event_json, publication_from_json,  # noqa: E402
                                             publication_json)
from qiyuan.rating.history import compute_history  # noqa: E402


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=histories())
def test_explanations_round_trip_through_json(name, data):
    history = compute_history(RULE_SETS[name], *data, engine="reference", explain=True)
    for p in data[0]:
        for period in history.explanation(p.id).periods:
            for x in period.events:
                text = json.dumps(event_json(x), ensure_ascii=False)
                assert event_from_json(x.change, json.loads(text)) == x
            text = json.dumps(publication_json(period.publication), ensure_ascii=False)
            assert publication_from_json(json.loads(text)) == period.publication


def test_a_json_of_another_version_is_refused():
    with pytest.raises(ValueError, match="expected 2"):
        publication_from_json({"v": 1})
