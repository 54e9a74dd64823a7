"""The arbiter's use cases over any event store: all problems at once, nothing written on a refusal,
one change (with its audit details) per action."""

from __future__ import annotations

from contextlib import contextmanager
from copy import deepcopy

import pytest

from qiyuan.errors import InputError, QiyuanError, Refused
from qiyuan.tournament import arbiter as uc
from qiyuan.tournament.arbiter import Change
from qiyuan.tournament.model import Entrant


class MemoryStore:
    """An event store in memory that records what it was asked to write."""

    label = "memory"

    def __init__(self):
        self.t = None
        self.log: list[tuple[str, dict]] = []

    def read(self):
        return deepcopy(self.t)

    def create(self, t, actor, **detail):
        self.t = deepcopy(t)
        self.log.append(("create", detail))

    @contextmanager
    def change(self, actor, action, **detail):
        ch = Change(deepcopy(self.t), dict(detail))
        yield ch
        self.t = ch.t
        self.log.append((action, ch.detail))


@pytest.fixture
def store():
    s = MemoryStore()
    uc.new_event(s, "arbiter", "测试赛", rounds=3)
    for i in range(4):
        uc.add_player(s, "arbiter", Entrant(0, f"P{i + 1}", rating=2000 - i))
    return s


def test_a_refusal_writes_nothing_and_lists_every_problem(store):
    before = deepcopy(store.t)
    with pytest.raises(InputError) as exc:
        uc.add_player(store, "arbiter", Entrant(0, "", sex="x", title="11d", id_number="123"))
    assert len(exc.value.problems) == 4  # name, sex, title, ID number: all at once
    assert store.t == before and [a for a, _ in store.log].count("add_player") == 4
    uc.pair(store, "arbiter")
    with pytest.raises(Refused) as exc:
        uc.enter_results(store, "arbiter", 1, [(1, "1-0"), (2, "1-0"), (9, "1-0"), (3, "9-9")])
    texts = [str(p) for p in exc.value.problems]
    assert any("two different results" in x for x in texts) and any("no player 9" in x for x in texts)
    assert any("unknown result '9-9'" in x for x in texts)
    assert all(c.result == " " for e in store.t.entrants for c in e.rounds)


def test_every_action_is_one_change_with_its_details(store):
    uc.draw_numbers(store, "arbiter", seed=7)
    pairing = uc.pair(store, "arbiter")
    done = uc.enter_results(store, "arbiter", 1, [(a, "1-0") for a, _ in pairing.boards])
    assert done.open_boards == [] and len(done.entered) == 2
    uc.excuse(store, "arbiter", 2, [2, 3], "H")
    uc.withdraw(store, "arbiter", 4)
    assert uc.reinstate(store, "arbiter", 4) == 2
    uc.keep_apart(store, "arbiter", "association", 2)
    uc.set_categories(store, "arbiter", ["women"])
    actions = [a for a, _ in store.log]
    assert actions[-8:] == ["draw", "pair", "results", "excuse", "withdraw", "reinstate", "keep_apart", "categories"]
    assert dict(store.log)["draw"]["how"] == "lot seed 7" and dict(store.log)["pair"]["round"] == 1
    with pytest.raises(QiyuanError):
        uc.keep_apart(store, "arbiter", "association", 1)  # round 1 is paired already
