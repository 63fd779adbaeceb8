"""Table configuration: derived amounts and validation (the admin form: tests/tables/test_admin.py)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from tables.engine.structures import Structure
from tables.models import TableConfig

pytestmark = pytest.mark.django_db


def config(**fields) -> TableConfig:
    fields.setdefault("name", "T")
    fields.setdefault("structure", "NL")
    fields.setdefault("lower_stake", 2)
    return TableConfig(**fields)


def errors_of(table: TableConfig) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as info:
        table.full_clean()
    return info.value.message_dict


def test_five_ten_limit_in_dollars_rounds_the_small_blind_down_to_two_dollars():
    table = config(structure="FL", currency="REAL", lower_stake=500, small_blind_rule="round_down")
    table.full_clean()

    assert table.upper_stake == 1000  # defaults to twice the lower stake
    assert table.big_blind == 500
    assert table.small_blind_amount == 200
    assert table.stakes_label() == "$5/$10"


def test_exact_half_and_explicit_small_blinds():
    assert config(lower_stake=500, currency="REAL").small_blind_amount == 250
    assert config(lower_stake=5, small_blind_rule="explicit", small_blind=2).small_blind_amount == 2


def test_the_engine_rules_carry_the_table_settings():
    table = config(structure="PL", lower_stake=5, small_blind_rule="explicit", small_blind=2,
                   rake_percent=Decimal("4.5"), rake_cap=30, rake_cap_by_players={"2": 10})
    table.full_clean()

    rules = table.engine_rules()

    assert rules.structure == Structure.POT_LIMIT
    assert rules.small_blind_amount == 2
    assert rules.rake.percent_bp == 450
    assert rules.rake.cap == 30
    assert rules.rake.cap_by_players == {2: 10}


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"small_blind_rule": "explicit", "small_blind": 5}, "small_blind",
         "The small blind (5) cannot be above the big blind (2)."),
        ({"small_blind_rule": "explicit"}, "small_blind", "Give the small blind amount"),
        ({"small_blind": 1}, "small_blind", "Only set an amount with the explicit small-blind rule."),
        ({"min_buy_in_bb": 200, "max_buy_in_bb": 100}, "min_buy_in_bb",
         "The minimum buy-in (200 BB) is above the maximum (100 BB)."),
        ({"rake_percent": Decimal("12.5")}, "rake_percent", "Rake over 10 % is not allowed."),
        ({"max_seats": 11}, "max_seats", "A table has 2 to 10 seats."),
        ({"max_seats": 1}, "max_seats", "A table has 2 to 10 seats."),
        ({"lower_stake": 100, "upper_stake": 50}, "upper_stake",
         "The big bet cannot be below the small bet."),
        ({"lower_stake": 1}, "small_blind_rule", "less than 1"),
        ({"currency": "REAL", "lower_stake": 150, "small_blind_rule": "round_down"},
         "small_blind_rule", "rounding down would make the small blind zero"),
        ({"rake_cap_by_players": {"one": 5}}, "rake_cap_by_players", "'one' is not a number of players"),
        ({"rake_cap_by_players": {"3": -1}}, "rake_cap_by_players", "whole, non-negative"),
        ({"rake_cap_by_players": [1, 2]}, "rake_cap_by_players", "Give caps as an object"),
        ({"ante": 2}, "ante", "The ante must be below the big blind."),
    ],
)
def test_impossible_configurations_are_refused_with_a_message(fields, field, message):
    errors = errors_of(config(**fields))

    assert any(message in text for text in errors[field]), errors


def test_the_demo_seed_is_idempotent(db):
    from django.core.management import call_command

    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)

    assert TableConfig.objects.count() == 4
    limit = TableConfig.objects.get(name="Limit Hold'em $5/$10")
    assert limit.small_blind_amount == 200


def test_the_demo_seed_refuses_to_run_in_production(db, settings):
    """Its passwords are in the README: admin/admin-pass-123 must never exist in production."""
    from django.contrib.auth import get_user_model
    from django.core.management import CommandError, call_command

    settings.PRODUCTION = True

    with pytest.raises(CommandError, match="does not run with ROOM_ENV=production"):
        call_command("seed_demo", verbosity=0)

    assert not get_user_model().objects.exists()
    assert not TableConfig.objects.exists()
