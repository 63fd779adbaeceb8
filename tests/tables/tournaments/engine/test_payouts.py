"""Payouts by field size, prizes of a pool to the unit, and ties that split them."""

from __future__ import annotations

import pytest

from tables.tournaments.engine.payouts import (
    DEFAULT_PAYOUTS,
    PayoutBand,
    percents_for,
    prizes,
    split,
    validated,
)


@pytest.mark.parametrize(("field", "paid"), [(2, 1), (3, 1), (6, 2), (9, 3), (10, 3), (18, 5),
                                             (30, 7), (200, 9)])
def test_the_band_of_the_field_size_decides_the_paid_places(field: int, paid: int) -> None:
    assert len(percents_for(DEFAULT_PAYOUTS, field)) == paid


def test_a_field_outside_every_band_is_refused() -> None:
    with pytest.raises(ValueError):
        percents_for((PayoutBand(2, 6, (6500, 3500)),), 7)


def test_six_max_sit_and_go_pays_65_35() -> None:
    assert prizes(60_00, percents_for(DEFAULT_PAYOUTS, 6)) == [39_00, 21_00]


def test_rounding_remainders_go_to_first() -> None:
    # 1001 cents at 50/30/20: 500.5, 300.3, 200.2 -> floors 500, 300, 200 and the 1 left to first.
    assert prizes(1001, (5000, 3000, 2000)) == [501, 300, 200]
    assert sum(prizes(99_999, percents_for(DEFAULT_PAYOUTS, 40))) == 99_999


def test_an_empty_pool_pays_nothing() -> None:
    assert prizes(0, (5000, 3000, 2000)) == [0, 0, 0]


def test_bad_bands_are_refused() -> None:
    for bad in [lambda: PayoutBand(2, 6, (6000, 3000)),  # 90 %
                lambda: PayoutBand(2, 6, (3000, 7000)),  # second pays more than first
                lambda: PayoutBand(2, 2, (5000, 3000, 2000))]:  # three places for two entries
        with pytest.raises(ValueError):
            bad()


def test_a_tie_splits_the_prizes_of_the_places_it_covers() -> None:
    # Tied for 2nd and 3rd of 500/300/200: each gets (300 + 200) / 2.
    assert split([300, 200]) == [250, 250]


def test_odd_units_of_a_split_go_one_each_from_the_top() -> None:
    assert split([50, 30, 21]) == [34, 34, 33]
    assert split([1, 0]) == [1, 0]
    assert sum(split([7, 5, 3, 1])) == 16


def test_a_payout_table_covers_every_field_size_once() -> None:
    assert validated(DEFAULT_PAYOUTS) == DEFAULT_PAYOUTS
    for bad in [(PayoutBand(2, 6, (10000,)), PayoutBand(6, 9, (10000,))),   # 6 twice
                (PayoutBand(2, 5, (10000,)), PayoutBand(7, 9, (10000,))),   # 6 missing
                (PayoutBand(2, None, (10000,)), PayoutBand(7, 9, (10000,))),
                ()]:
        with pytest.raises(ValueError):
            validated(bad)
