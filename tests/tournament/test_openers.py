"""Who opens (假先的决定): the three ordered rules."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st
from tournament_checks import naive_opener

from qiyuan.tournament.openers import choose_opener, opener_rule
from qiyuan.tournament.state import PlayerState


def ps(number: int, roles: str) -> PlayerState:
    """A state with roles written as a string: b opened, w not, U bye, . none."""
    return PlayerState(number, Decimal(0), set(), "U" in roles, 0, 0, tuple("" if r == "." else r for r in roles))


def test_rule_1_fewer_openings_opens() -> None:
    assert choose_opener(ps(1, "bb"), ps(2, "bw"), 3) == (2, 1)
    assert opener_rule(ps(1, "bb"), ps(2, "bw"), 3)[2] == 1


def test_rule_1_the_bye_counts_half_an_opening() -> None:
    """轮空者算开半局: a bye (0.5) against one opening (1): the bye's holder opens."""
    assert choose_opener(ps(1, "bw"), ps(2, "Uw"), 3) == (2, 1)
    # two byes-worth is not possible; a bye against nothing: the other opens
    assert choose_opener(ps(1, "ww"), ps(2, "Uw"), 3) == (1, 2)


def test_rule_2_no_third_opening_in_a_row() -> None:
    """Equal openings; 1 opened the last two rounds: 2 opens even in an odd round (rule 3 would say 1)."""
    a, b = ps(1, "wbb"), ps(2, "bbw")
    assert choose_opener(a, b, 5) == (2, 1)
    assert opener_rule(a, b, 5)[2] == 2


def test_rule_2_no_third_non_opening_in_a_row() -> None:
    """Equal openings; 2 did not open the last two rounds: 2 opens although rule 3 (odd round) says 1."""
    a, b = ps(1, "wbw"), ps(2, "bww")
    assert opener_rule(a, b, 3) == (2, 1, 2)


def test_rule_2_both_ways_bad_falls_to_rule_3() -> None:
    """Each way gives somebody a third non-opening: rule 2 cannot decide, rule 3 does."""
    c, d = ps(1, "bbww"), ps(2, "bbww")  # c opens: d's third non-opening; d opens: c's
    assert opener_rule(c, d, 5) == (1, 2, 3)
    assert opener_rule(c, d, 6) == (2, 1, 3)


def test_rule_2_a_round_without_role_breaks_the_run() -> None:
    a, b = ps(1, "b.b"), ps(2, "wbb"[::-1])  # 1: b, none, b  /  2: b, b, w
    assert opener_rule(a, b, 4)[2] == 3


def test_rule_3_odd_smaller_even_larger() -> None:
    assert choose_opener(ps(4, "b"), ps(9, "b"), 3) == (4, 9)
    assert choose_opener(ps(4, "b"), ps(9, "b"), 2) == (9, 4)


@given(
    ra=st.text(alphabet="bwU.", max_size=8),
    rb=st.text(alphabet="bwU.", max_size=8),
    r=st.integers(1, 9),
)
def test_opener_rules_agree_with_a_plain_reading(ra: str, rb: str, r: int) -> None:
    n = max(len(ra), len(rb))
    a, b = ps(3, ra.ljust(n, ".")), ps(8, rb.ljust(n, "."))
    assert choose_opener(a, b, r)[0] == naive_opener(a, b, r)
