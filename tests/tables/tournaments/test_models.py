"""Templates, levels and payout tables: what the admin may save, and the snapshot a
tournament keeps of them."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from cashier.money import Currency
from tables.tournaments.models import (
    Level,
    PayoutTier,
    TournamentKind,
    TournamentTemplate,
    places_error,
    tiers_error,
)
from tests.tables.tournaments.factories import template_make, tournament_make


def template(**fields) -> TournamentTemplate:
    values = {"name": "T", "kind": TournamentKind.SIT_AND_GO, "currency": Currency.PLAY,
              "buy_in": 1_000, "fee": 100, "starting_stack": 1_500, "seats_per_table": 6,
              "entries_cap": 6, **fields}
    return TournamentTemplate(**values)


@pytest.mark.parametrize(("fields", "field"), [
    ({"entries_cap": None}, "entries_cap"),                 # a Sit & Go starts when full
    ({"entries_cap": 1}, "entries_cap"),
    ({"guarantee": 5_000}, "guarantee"),                     # only scheduled events guarantee
    ({"entries_cap": 7}, "entries_cap"),                    # a Sit & Go plays at one table
    ({"max_reentries": 1}, "max_reentries"),                # ... and seats nobody late
    ({"late_registration_levels": 2}, "late_registration_levels"),
    ({"seats_per_table": 11}, "seats_per_table"),
    ({"seats_per_table": 1}, "seats_per_table"),
    ({"kind": TournamentKind.SCHEDULED, "min_field": 10, "entries_cap": 8}, "entries_cap"),
    ({"time_bank_seconds": 30, "time_bank_cap_seconds": 10}, "time_bank_cap_seconds"),
])
@pytest.mark.django_db
def test_impossible_templates_are_refused_on_the_field_at_fault(fields, field):
    with pytest.raises(ValidationError) as refused:
        template(**fields).full_clean()
    assert field in refused.value.message_dict


@pytest.mark.django_db
def test_a_scheduled_event_with_a_guarantee_re_entries_and_no_cap_is_fine():
    template(kind=TournamentKind.SCHEDULED, entries_cap=None, guarantee=100_000,
             min_field=20, max_reentries=2, late_registration_levels=3).full_clean()


@pytest.mark.parametrize(("level", "message"), [
    ({"is_break": True, "small_blind": 10}, "A break has no blinds"),
    ({"small_blind": 0, "big_blind": 20}, "needs a small and a big blind"),
    ({"small_blind": 30, "big_blind": 20}, "above the big blind"),
    ({"small_blind": 10, "big_blind": 20, "big_blind_ante": True}, "needs its amount"),
])
def test_impossible_levels_are_refused(level, message):
    with pytest.raises(ValidationError) as refused:
        Level(**level, minutes=10).clean()
    assert message in str(refused.value)


@pytest.mark.parametrize(("places", "error"), [
    ([5_000, 3_000, 2_000], None),
    ([10_000], None),
    ([5_000, 3_000, 1_000], "add up to 90 %"),
    ([], "at least one paid place"),
    ([6_000, 0, 4_000], "positive share"),
    ([3_000, 7_000], "cannot pay more than the place above"),
    ("50,50", "at least one paid place"),
])
def test_a_payout_is_positive_shares_in_basis_points_adding_up_to_100_percent(places, error):
    found = places_error(places)
    assert (found is None) if error is None else error in found


def test_a_payout_pays_no_more_places_than_the_smallest_field_it_covers():
    with pytest.raises(ValidationError) as refused:
        PayoutTier(min_entries=2, max_entries=6, places=[5_000, 3_000, 2_000]).clean()
    assert "only 2 entries" in str(refused.value)


def test_payout_ranges_may_not_overlap():
    assert tiers_error([(1, 4), (5, 6), (7, 20)]) is None
    assert tiers_error([(1, 5), (5, 6)]) == "The field sizes 5 to 5 have two payouts."


@pytest.mark.django_db
def test_a_tournament_keeps_the_structure_it_was_created_with():
    event = tournament_make(name="Turbo", kind=TournamentKind.SCHEDULED, late_registration_levels=2)
    template = event.template
    Level.objects.filter(template=template, order=1).update(small_blind=50, big_blind=100)
    template.starting_stack, template.buy_in = 9_999, 5
    template.save()
    event.refresh_from_db()

    assert event.structure["starting_stack"] == 1_500
    assert event.buy_in == 1_000
    assert event.structure["levels"][0] == {
        "order": 1, "small_blind": 10, "big_blind": 20, "ante": 0, "big_blind_ante": False,
        "minutes": 5, "is_break": False}
    assert event.structure["payouts"] == [
        {"min_entries": 1, "max_entries": 4, "places": [10_000]},
        {"min_entries": 5, "max_entries": 6, "places": [6_500, 3_500]}]
    assert event.structure["late_registration_levels"] == 2


@pytest.mark.django_db
def test_a_template_without_levels_or_payouts_makes_no_tournament():
    from tables.errors import TableError
    from tables.tournaments.services import tournament_create

    for broken in (template_make(levels=0), template_make(payouts=[])):
        with pytest.raises(TableError) as refused:
            tournament_create(template=broken)
        assert refused.value.code == "invalid_template"
    scheduled = template_make(kind=TournamentKind.SCHEDULED)
    with pytest.raises(TableError) as refused:
        tournament_create(template=scheduled)
    assert refused.value.code == "no_start_time"
