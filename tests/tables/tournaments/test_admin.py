"""Tournament templates in Django admin: money typed and shown in currency units, levels and
payouts inline (payouts as percentages), and tournaments to look at but not to edit."""
from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.urls import reverse

from tables.tournaments.models import Level, PayoutTier, TournamentTemplate
from tables.tournaments.services import tournament_register
from tests.tables.tournaments.factories import tournament_make

pytestmark = pytest.mark.django_db

ADD = "admin:tournaments_tournamenttemplate_add"


def inline(prefix: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    data = {f"{prefix}-TOTAL_FORMS": len(rows), f"{prefix}-INITIAL_FORMS": 0,
            f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000}
    for n, row in enumerate(rows):
        data.update({f"{prefix}-{n}-{name}": value for name, value in row.items()})
    return data


def form_data(*, levels: list[dict] | None = None, payouts: list[dict] | None = None,
              **fields: Any) -> dict[str, Any]:
    """A complete add form for a $10 + $1 real-money Sit & Go for six; `fields` override it."""
    data = {
        "name": "Six-max $10", "kind": "sit_and_go", "currency": "REAL", "is_active": "on",
        "buy_in": "$10", "fee": "1.00", "guarantee": "", "starting_stack": 1500,
        "seats_per_table": 6, "entries_cap": 6, "min_field": 2, "max_reentries": 0,
        "late_registration_levels": 0, "max_rebuys": 0, "rebuy_levels": 0, "rebuy_price": "",
        "rebuy_chips": 0, "rebuy_max_stack": 0, "addon_price": "", "addon_chips": 0,
        "action_seconds": 10, "countdown_seconds": 20,
        "timeout_policy": "seeds", "time_bank_seconds": 0, "time_bank_refill_seconds": 0,
        "time_bank_refill_hands": 10, "time_bank_cap_seconds": 0, "hand_pause_seconds": 3,
        **fields,
    }
    data.update(inline("levels", levels if levels is not None else [
        {"order": 1, "small_blind": 10, "big_blind": 20, "ante": 0, "minutes": 5},
        {"order": 2, "small_blind": 0, "big_blind": 0, "ante": 0, "minutes": 5,
         "is_break": "on"},
        {"order": 3, "small_blind": 20, "big_blind": 40, "ante": 40, "big_blind_ante": "on",
         "minutes": 5},
    ]))
    data.update(inline("payouts", payouts if payouts is not None else [
        {"min_entries": 1, "max_entries": 4, "places": "100"},
        {"min_entries": 5, "max_entries": 6, "places": "65, 35"},
    ]))
    return data


def errors(response) -> list[str]:
    """Every error the page shows: the form's and the inlines'."""
    context = response.context
    found = [str(m) for messages in context["adminform"].form.errors.values() for m in messages]
    for formset in context["inline_admin_formsets"]:
        found += [str(m) for form in formset.formset.errors for ms in form.values() for m in ms]
        found += [str(m) for m in formset.formset.non_form_errors()]
    return found


def test_a_template_is_typed_in_dollars_and_percentages_and_stored_in_minor_units(
        admin_client):
    response = admin_client.post(reverse(ADD), form_data())

    assert response.status_code == 302, errors(response)
    template = TournamentTemplate.objects.get(name="Six-max $10")
    assert (template.buy_in, template.fee, template.guarantee) == (1_000, 100, 0)
    assert [(lv.order, lv.big_blind, lv.is_break, lv.big_blind_ante)
            for lv in Level.objects.filter(template=template)] == [
        (1, 20, False, False), (2, 0, True, False), (3, 40, False, True)]
    assert [tier.places for tier in PayoutTier.objects.filter(template=template)] == [
        [10_000], [6_500, 3_500]]


def test_a_saved_template_shows_its_money_and_shares_as_typed(admin_client):
    admin_client.post(reverse(ADD), form_data(fee="0.50"))
    template = TournamentTemplate.objects.get()
    page = admin_client.get(reverse("admin:tournaments_tournamenttemplate_change",
                                    args=[template.pk])).content.decode()
    assert 'value="10.00"' in page and 'value="0.50"' in page
    assert 'value="65, 35"' in page


@pytest.mark.parametrize(("fields", "message"), [
    ({"buy_in": "10.005"}, "fraction of a cent"),
    ({"buy_in": "0"}, "more than nothing"),
    ({"payouts": [{"min_entries": 2, "max_entries": 6, "places": "60, 30"}]},
     "add up to 90 %"),
    ({"payouts": [{"min_entries": 1, "max_entries": 5, "places": "100"},
                  {"min_entries": 5, "max_entries": 6, "places": "65, 35"}]},
     "The field sizes 5 to 5 have two payouts."),
    ({"payouts": [{"min_entries": 2, "max_entries": 6, "places": "50.125, 49.875"}]},
     "at most two decimals"),
    ({"levels": [{"order": 1, "small_blind": 30, "big_blind": 20, "ante": 0, "minutes": 5}]},
     "above the big blind"),
    ({"max_rebuys": 1, "rebuy_levels": 1, "rebuy_chips": 1500}, "A rebuy needs a price"),
    ({"max_rebuys": 1, "rebuy_levels": 1, "rebuy_price": "5"}, "A rebuy needs the chips"),
    ({"max_rebuys": 1, "rebuy_price": "5", "rebuy_chips": 1500}, "Rebuys need a window"),
    ({"rebuy_chips": 1500}, "Rebuy terms without rebuys"),
    ({"addon_chips": 2000}, "An add-on needs a price"),
    ({"addon_price": "5"}, "An add-on price without the chips"),
    ({"max_rebuys": 1, "rebuy_levels": 2, "rebuy_price": "5", "rebuy_chips": 1500,
      "addon_price": "5", "addon_chips": 2000}, "add that break"),  # the break is after 1
])
def test_impossible_money_payouts_or_levels_are_refused_with_a_message(admin_client, fields,
                                                                       message):
    response = admin_client.post(reverse(ADD), form_data(**fields))
    assert response.status_code == 200
    assert any(message in error for error in errors(response)), errors(response)
    assert not TournamentTemplate.objects.exists()


def test_rebuy_and_add_on_prices_are_typed_in_dollars_and_copied_into_a_tournament(
        admin_client):
    response = admin_client.post(reverse(ADD), form_data(
        max_rebuys=2, rebuy_levels=1, rebuy_price="$5", rebuy_chips=1500, rebuy_max_stack=1500,
        addon_price="7.50", addon_chips=2000))
    assert response.status_code == 302, errors(response)
    template = TournamentTemplate.objects.get()
    assert (template.rebuy_price, template.addon_price) == (500, 750)
    structure = template.structure_snapshot()
    assert {k: structure[k] for k in ("max_rebuys", "rebuy_levels", "rebuy_price",
                                      "rebuy_chips", "rebuy_max_stack", "addon_price",
                                      "addon_chips")} == {
        "max_rebuys": 2, "rebuy_levels": 1, "rebuy_price": 500, "rebuy_chips": 1500,
        "rebuy_max_stack": 1500, "addon_price": 750, "addon_chips": 2000}


def test_play_money_is_typed_in_chips(admin_client):
    response = admin_client.post(reverse(ADD), form_data(currency="PLAY", buy_in="2,000",
                                                         fee="200 chips"))
    assert response.status_code == 302, errors(response)
    assert TournamentTemplate.objects.values_list("buy_in", "fee").get() == (2_000, 200)


def test_tournaments_are_listed_with_their_money_and_entries_and_cannot_be_edited(
        admin_client, make_player):
    event = tournament_make(name="Nightly")
    tournament_register(tournament_id=event.pk, user=make_player("ann"), key=str(uuid.uuid4()))

    listing = admin_client.get(reverse("admin:tournaments_tournament_changelist"))
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))

    assert listing.status_code == 200
    assert "Nightly" in listing.content.decode() and "1,000 + 100" in listing.content.decode()
    assert page.status_code == 200 and "ann" in page.content.decode()
    assert admin_client.get(reverse("admin:tournaments_tournament_add")).status_code == 403
    assert admin_client.post(reverse("admin:tournaments_tournament_change", args=[event.pk]),
                             {"name": "Changed"}).status_code == 403
