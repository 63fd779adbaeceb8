# ruff: noqa: RUF001  (the preview lines are worked examples with their en dashes)
"""Table configuration in Django admin: amounts typed and shown in currency units, stored in
minor units, and the table's one-line preview."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from tables.models import TableConfig
from tables.preview import table_line

pytestmark = pytest.mark.django_db

ADD = "admin:tables_tableconfig_add"


def form_data(**fields: Any) -> dict[str, Any]:
    """A complete add form for a $1/$2 no-limit real-money table; `fields` override it."""
    data = {
        "name": "NL $1/$2", "structure": "NL", "currency": "REAL", "max_seats": 6,
        "is_active": "on", "big_blind": "$2",
        "small_blind_rule": "exact_half", "small_blind": "", "ante": "", "min_buy_in": "$80",
        "max_buy_in": "200", "ratholing_window_minutes": 60, "rake_percent": "5",
        "rake_cap": "3", "rake_cap_by_players": "", "no_flop_no_drop": "on",
        "action_seconds": 10, "countdown_seconds": 20, "timeout_policy": "seeds",
        "timeout_allin_daily_cap": 2, "sit_out_limit_minutes": 10, "hand_pause_seconds": 3,
    }
    data.update(fields)
    return data


def errors(response) -> dict[str, list[str]]:
    return {name: list(messages) for name, messages in
            response.context["adminform"].form.errors.items()}


# Money in, minor units stored --------------------------------------------------------------
def test_a_real_money_table_is_typed_in_dollars_and_stored_in_cents(admin_client):
    response = admin_client.post(reverse(ADD), form_data(small_blind_rule="explicit",
                                                         small_blind="0.75", ante="$0.10"))

    assert response.status_code == 302, errors(response)
    table = TableConfig.objects.get(name="NL $1/$2")
    assert (table.lower_stake, table.upper_stake, table.small_blind, table.ante) == (
        200, 400, 75, 10)
    assert (table.min_buy_in_bb, table.max_buy_in_bb) == (40, 100)  # $80 and $200 at $2 each
    assert (table.min_buy_in, table.max_buy_in, table.rake_cap) == (8_000, 20_000, 300)


def test_a_play_money_table_is_typed_in_chips(admin_client):
    response = admin_client.post(reverse(ADD), form_data(
        name="Chips", currency="PLAY", big_blind="2,000",
        min_buy_in="80,000", max_buy_in="200,000", rake_cap="3,000",
        rake_cap_by_players="2: 500, 3: 1,000"))

    assert response.status_code == 302, errors(response)
    table = TableConfig.objects.get(name="Chips")
    assert (table.lower_stake, table.upper_stake, table.rake_cap) == (2_000, 4_000, 3_000)
    assert (table.min_buy_in_bb, table.max_buy_in_bb) == (40, 100)
    assert table.rake_cap_by_players == {"2": 500, "3": 1_000}


# Stakes in the words operators use ---------------------------------------------------------
def test_an_nl_1_2_table_is_typed_as_small_blind_1_and_big_blind_2(admin_client):
    response = admin_client.post(reverse(ADD), form_data(
        name="NL 1/2", currency="PLAY", small_blind="1", big_blind="2", min_buy_in="80",
        max_buy_in="200", rake_cap="3"))

    assert response.status_code == 302, errors(response)
    table = TableConfig.objects.get(name="NL 1/2")
    assert (table.lower_stake, table.small_blind_rule, table.small_blind) == (2, "exact_half",
                                                                             None)
    assert table.stakes_label() == "1/2"


def test_a_small_blind_the_rule_does_not_give_is_kept_as_explicit(admin_client):
    response = admin_client.post(reverse(ADD), form_data(small_blind="0.75"))

    assert response.status_code == 302, errors(response)
    table = TableConfig.objects.get()
    assert (table.small_blind_rule, table.small_blind, table.stakes_label()) == (
        "explicit", 75, "$0.75/$2")


def test_a_fixed_limit_table_is_typed_as_small_bet_and_big_bet(admin_client):
    response = admin_client.post(reverse(ADD), form_data(  # the blinds' field is not read
        name="Limit $2/$4", structure="FL", big_blind="2.005", small_bet="2", big_bet="4",
        small_blind_rule="round_down", min_buy_in="40"))

    assert response.status_code == 302, errors(response)
    table = TableConfig.objects.get()
    assert (table.lower_stake, table.upper_stake, table.small_blind_amount) == (200, 400, 100)
    assert table.stakes_label() == "$2/$4"
    change = admin_client.get(reverse("admin:tables_tableconfig_change", args=(table.pk,)))
    initial = change.context["adminform"].form.initial
    assert (initial["small_bet"], initial["big_bet"]) == ("2.00", "4.00")


def test_the_form_names_stakes_as_operators_do(admin_client):
    html = admin_client.get(reverse(ADD)).content.decode()
    for label in ("Small blind", "Big blind", "Small bet", "Big bet"):
        assert f">{label}:<" in html
    assert "Lower stake" not in html and "Upper stake" not in html
    assert "js/admin/table-stakes.js" in html


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"big_blind": "2.005"}, "big_blind", "$2.005 is a fraction of a cent"),
        ({"currency": "PLAY", "big_blind": "2.5"}, "big_blind",
         "2.5 is not a whole number of chips"),
        ({"rake_cap": "two dollars"}, "rake_cap", "is not an amount"),
        ({"ante": "-1"}, "ante", "cannot be negative"),
        ({"big_blind": "2,00"}, "big_blind", "is not an amount"),
        ({"big_blind": ""}, "big_blind", "Give the big blind."),
        ({"structure": "FL"}, "small_bet", "Give the small bet."),
        ({"structure": "FL", "small_bet": "4", "big_bet": "2", "min_buy_in": "$40"}, "big_bet",
         "The big bet cannot be below the small bet."),
        ({"min_buy_in": "81"}, "min_buy_in",
         "$81 is not a whole number of big blinds ($2 each): for example $80."),
        ({"min_buy_in": "300"}, "min_buy_in",
         "The minimum buy-in ($300) is above the maximum ($200)."),
        ({"small_blind_rule": "explicit", "small_blind": "3"}, "small_blind",
         "The small blind ($3) cannot be above the big blind ($2)."),
        ({"rake_cap_by_players": "2: 0.505"}, "rake_cap_by_players", "fraction of a cent"),
        ({"rake_cap_by_players": "two: 1"}, "rake_cap_by_players", "players: amount"),
    ],
)
def test_wrong_amounts_are_refused_with_a_message_and_nothing_is_saved(
        admin_client, fields, field, message):
    response = admin_client.post(reverse(ADD), form_data(**fields))

    assert response.status_code == 200
    assert any(message in text for text in errors(response)[field]), errors(response)
    assert errors(response).keys() == {field}  # one clear message, not a cascade
    assert not TableConfig.objects.exists()


@pytest.mark.parametrize("seats", [1, 11])
def test_a_wrong_seat_count_is_said_once(admin_client, seats):
    response = admin_client.post(reverse(ADD), form_data(max_seats=seats))

    assert errors(response) == {"max_seats": ["A table has 2 to 10 seats."]}
    assert response.content.decode().count("A table has 2 to 10 seats.") == 1


def test_the_change_form_shows_amounts_in_currency_units(admin_client, make_table):
    real = make_table(name="Real", currency="REAL", lower_stake=200, rake_percent="5",
                      rake_cap=300, rake_cap_by_players={"2": 50})
    chips = make_table(name="Chips", lower_stake=2_000)

    real_form = admin_client.get(reverse("admin:tables_tableconfig_change", args=(real.pk,)))
    chips_form = admin_client.get(reverse("admin:tables_tableconfig_change", args=(chips.pk,)))

    initial = real_form.context["adminform"].form.initial
    assert (initial["big_blind"], initial["rake_cap"]) == ("2.00", "3.00")
    assert "small_bet" not in initial and "big_bet" not in initial  # no-limit has no bets
    assert (initial["min_buy_in"], initial["max_buy_in"]) == ("80.00", "200.00")
    assert initial["rake_cap_by_players"] == "2: 0.50"
    assert 'value="2.00"' in real_form.content.decode()
    assert chips_form.context["adminform"].form.initial["max_buy_in"] == "200,000"


def test_a_saved_tables_currency_is_fixed_and_its_amounts_round_trip(admin_client, make_table):
    table = make_table(name="Real", currency="REAL", lower_stake=200)
    url = reverse("admin:tables_tableconfig_change", args=(table.pk,))
    form = admin_client.get(url).context["adminform"].form
    assert "currency" not in form.fields

    data = {**form_data(name="Real", big_blind="1.00", min_buy_in="50", max_buy_in="100")}
    del data["currency"]
    response = admin_client.post(url, data)

    assert response.status_code == 302, errors(response)
    table.refresh_from_db()
    assert (table.currency, table.lower_stake, table.min_buy_in_bb, table.max_buy_in_bb) == (
        "REAL", 100, 50, 100)


# The one-line preview ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"currency": "REAL", "lower_stake": 200, "rake_percent": Decimal("5"), "rake_cap": 300},
         "NL $1/$2, buy-in $80–$200, rake 5 % capped at $3"),
        ({"currency": "REAL", "structure": "FL", "lower_stake": 500,
          "small_blind_rule": "round_down", "min_buy_in_bb": 10, "max_buy_in_bb": 50},
         "Limit $5/$10, buy-in $50–$250, no rake"),
        ({"currency": "REAL", "structure": "PL", "lower_stake": 50, "ante": 10,
          "rake_percent": Decimal("4.5"), "rake_cap": 100,
          "rake_cap_by_players": {"2": 25, "3": 50, "5": 75}},
         "PL $0.25/$0.50, ante $0.10, buy-in $20–$50, rake 4.5 % capped at $1 "
         "($0.25 with 2 dealt in, $0.50 with 3–4, $0.75 with 5)"),
        ({"lower_stake": 2_000, "min_buy_in_bb": 100, "rake_percent": Decimal("2.5"),
          "no_flop_no_drop": False},
         "NL 1,000/2,000 chips, buy-in 200,000 chips, rake 2.5 %, taken without a flop too"),
    ],
)
def test_the_preview_line_of_a_table(make_table, fields, line):
    assert table_line(make_table(**fields)) == line


def test_the_change_form_shows_the_saved_line(admin_client, make_table):
    table = make_table(currency="REAL", lower_stake=200, rake_percent="5", rake_cap=300)

    page = admin_client.get(reverse("admin:tables_tableconfig_change", args=(table.pk,)))

    html = page.content.decode()
    assert "NL $1/$2, buy-in $80–$200, rake 5 % capped at $3" in html
    assert reverse("admin:tables_tableconfig_preview", args=(table.pk,)) in html
    assert "js/admin/table-preview.js" in html


def test_the_preview_follows_the_unsaved_form_and_saves_nothing(admin_client):
    url = reverse("admin:tables_tableconfig_preview")

    good = admin_client.get(url, form_data(big_blind="0.50", min_buy_in="20",
                                           max_buy_in="50", rake_cap="1")).json()
    bad = admin_client.get(url, form_data(big_blind="0.505")).json()

    assert good == {"ok": True, "line": "NL $0.25/$0.50, buy-in $20–$50, rake 5 % capped at $1"}
    assert bad["ok"] is False
    assert "Big blind: $0.505 is a fraction of a cent" in bad["line"]
    assert not TableConfig.objects.exists()


def test_the_preview_of_a_saved_table_uses_its_currency(admin_client, make_table):
    table = make_table(name="Chips", lower_stake=2)
    url = reverse("admin:tables_tableconfig_preview", args=(table.pk,))
    data = form_data(name="Chips", big_blind="20", min_buy_in="800", max_buy_in="2,000",
                     rake_cap="30")
    del data["currency"]

    answer = admin_client.get(url, data).json()

    assert answer == {"ok": True,
                      "line": "NL 10/20 chips, buy-in 800–2,000 chips, rake 5 % capped at 30 chips"}
    table.refresh_from_db()
    assert table.lower_stake == 2


def test_the_preview_is_for_staff_only(client, make_user):
    client.force_login(make_user("ann"))
    response = client.get(reverse("admin:tables_tableconfig_preview"), form_data())
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_the_table_list_shows_stakes_buy_in_and_rake_as_money(admin_client, make_table):
    make_table(currency="REAL", lower_stake=200, rake_percent="5", rake_cap=300)

    html = admin_client.get(reverse("admin:tables_tableconfig_changelist")).content.decode()

    assert "$1/$2" in html and "$80–$200" in html and "rake 5 % capped at $3" in html


def test_amounts_given_in_the_add_link_are_shown_as_typed(admin_client):
    page = admin_client.get(reverse(ADD), {"big_blind": "2.50", "currency": "REAL"})
    assert page.context["adminform"].form.initial["big_blind"] == "2.50"


def test_a_missing_currency_refuses_the_form_without_guessing_a_unit(admin_client):
    response = admin_client.post(reverse(ADD), form_data(currency="EURO"))
    assert response.status_code == 200
    assert "currency" in errors(response)
    assert not TableConfig.objects.exists()


def test_the_preview_of_an_unknown_table_is_not_found(admin_client):
    assert admin_client.get(reverse("admin:tables_tableconfig_preview", args=(999,))).status_code == 404
