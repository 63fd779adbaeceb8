"""Table rules: blind amounts, limit sizes, and where the button and blinds go."""

from __future__ import annotations

from tables.engine import SmallBlindRule, Structure, TableRules, blind_seats, next_button


def test_small_blind_is_half_the_lower_stake() -> None:
    assert TableRules(lower_stake=10).small_blind_amount == 5


def test_small_blind_rounds_down_to_a_whole_dollar_at_5_10() -> None:
    # $5/$10 in cents: half of $5 is $2.50, rounded down to a whole dollar -> $2.
    rules = TableRules(structure=Structure.FIXED_LIMIT, lower_stake=500, upper_stake=1000,
                       small_blind_rule=SmallBlindRule.ROUND_DOWN, unit_whole=100)
    assert rules.small_blind_amount == 200


def test_exact_half_keeps_the_cents() -> None:
    rules = TableRules(lower_stake=500, small_blind_rule=SmallBlindRule.EXACT_HALF)
    assert rules.small_blind_amount == 250


def test_explicit_small_blind() -> None:
    rules = TableRules(lower_stake=10, small_blind_rule=SmallBlindRule.EXPLICIT, small_blind=3)
    assert rules.small_blind_amount == 3


def test_upper_stake_defaults_to_twice_the_lower() -> None:
    assert TableRules(lower_stake=10).big_bet == 20
    assert TableRules(lower_stake=10, upper_stake=30).big_bet == 30


def test_rules_json_round_trip() -> None:
    rules = TableRules(structure=Structure.POT_LIMIT, lower_stake=10, ante=1, bb_ante=True)
    assert TableRules.from_json(rules.to_json()) == rules


def test_first_button_is_the_first_seated_player() -> None:
    assert next_button(None, [5, 2, 9]) == 5


def test_button_moves_clockwise_to_the_next_active_player() -> None:
    assert next_button(2, [2, 5, 9]) == 5
    assert next_button(9, [2, 5, 9]) == 2
    # seat 3 left: the button skips to the next occupied seat
    assert next_button(3, [2, 5, 9]) == 5


def test_blinds_left_of_the_button() -> None:
    assert blind_seats(2, [2, 5, 9]) == (5, 9)
    assert blind_seats(9, [2, 5, 9]) == (2, 5)


def test_heads_up_button_posts_the_small_blind() -> None:
    assert blind_seats(5, [2, 5]) == (5, 2)
