"""Rebuys and the add-on (engine/purchases.py), as worked examples: rebuys through level 2
(and the break after it), two per entry, 1,500 chips while at or below 1,500; the add-on of
2,000 chips once, at the first break after the rebuy levels."""
from __future__ import annotations

import pytest

from tables.tournaments.engine.levels import Break, Level
from tables.tournaments.engine.purchases import (
    Holding,
    PurchaseRefused,
    PurchaseTerms,
    addon_break_after,
    can_addon,
    can_rebuy,
    verify_addon,
    verify_rebuy,
)

TERMS = PurchaseTerms(max_rebuys=2, rebuy_levels=2, rebuy_chips=1_500, rebuy_max_stack=1_500,
                      addon_chips=2_000)
L = Level(10, 20, 5)
# levels 1, 2, a break, 3, 4, a break, 5
STRUCTURE = [L, L, Break(10), L, L, Break(10), L]


def refusal(call, *args, **kwargs) -> str:
    with pytest.raises(PurchaseRefused) as caught:
        call(*args, **kwargs)
    return caught.value.code


@pytest.mark.parametrize(("level", "stack", "rebuys", "code"), [
    (1, 1_500, 0, None),            # at the starting stack: allowed (at most, not below)
    (2, 0, 1, None),                # busted in level 2 with a rebuy left
    (2, 1_501, 0, "stack_too_big"),  # one chip over
    (1, 700 + 1_500, 0, "stack_too_big"),  # 700 at the table + a rebuy not yet there
    (2, 0, 2, "no_rebuys_left"),    # both rebuys used
    (3, 0, 0, "rebuys_closed"),     # level 3: the window (levels 1-2 and the break) is over
    (0, 1_500, 0, "rebuys_closed"),  # before the start
])
def test_who_may_rebuy(level, stack, rebuys, code):
    holding = Holding(stack=stack, rebuys=rebuys)
    assert can_rebuy(TERMS, level=level, holding=holding) is (code is None)
    if code is not None:
        assert refusal(verify_rebuy, TERMS, level=level, holding=holding) == code


def test_a_rebuy_max_stack_of_zero_means_busted_players_only():
    terms = PurchaseTerms(max_rebuys=1, rebuy_levels=3, rebuy_chips=1_000)
    assert can_rebuy(terms, level=2, holding=Holding(stack=0))
    assert refusal(verify_rebuy, terms, level=2, holding=Holding(stack=1)) == "stack_too_big"


def test_a_tournament_without_rebuys_says_so():
    assert refusal(verify_rebuy, PurchaseTerms(), level=1, holding=Holding(0)) == "no_rebuys"


@pytest.mark.parametrize(("structure", "rebuy_levels", "after"), [
    (STRUCTURE, 2, 2),   # the break right after the last rebuy level
    (STRUCTURE, 3, 4),   # rebuys through level 3: the next break comes after level 4
    (STRUCTURE, 1, 2),   # the first break after level 1 or later
    (STRUCTURE, 0, 2),   # no rebuys: the first break
    (STRUCTURE, 5, None),  # no break after level 5: no add-on
    ([L, Break(5), L], 0, 1),
])
def test_the_add_on_break(structure, rebuy_levels, after):
    assert addon_break_after(structure, rebuy_levels) == after


@pytest.mark.parametrize(("level", "on_break", "taken", "code"), [
    (2, True, False, None),            # the break after level 2
    (2, False, False, "addon_closed"),  # level 2 still running
    (3, False, False, "addon_closed"),  # after the break
    (4, True, False, "addon_closed"),   # a later break
    (2, True, True, "addon_taken"),     # once per entry
])
def test_who_may_take_the_add_on(level, on_break, taken, code):
    holding = Holding(stack=50_000, addon=taken)  # any stack: the add-on has no limit
    assert can_addon(TERMS, STRUCTURE, level=level, on_break=on_break,
                     holding=holding) is (code is None)
    if code is not None:
        assert refusal(verify_addon, TERMS, STRUCTURE, level=level, on_break=on_break,
                       holding=holding) == code


def test_no_add_on_without_its_chips_or_its_break():
    none = PurchaseTerms(max_rebuys=1, rebuy_levels=2, rebuy_chips=1)
    assert refusal(verify_addon, none, STRUCTURE, level=2, on_break=True,
                   holding=Holding(0)) == "no_addon"
    late = PurchaseTerms(rebuy_levels=5, addon_chips=1)
    assert refusal(verify_addon, late, STRUCTURE, level=5, on_break=True,
                   holding=Holding(0)) == "no_addon"
