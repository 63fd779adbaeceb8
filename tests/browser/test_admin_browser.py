"""Django admin in a real Chromium: the table form's one-line preview follows what the operator
types (static/js/admin/table-preview.js asking the server), before anything is saved."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import TableConfig

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "admin-pass-123"


def test_the_table_preview_follows_the_form_as_the_operator_types(room_url, new_page, make_user):
    make_user("boss", password=PASSWORD, is_staff=True, is_superuser=True)
    page = new_page()
    page.goto(room_url + "/admin/login/?next=/admin/tables/tableconfig/add/")
    page.fill("#id_username", "boss")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    preview = page.locator("#table-preview")
    expect(preview).to_contain_text("Fill in the stakes")

    page.fill("#id_name", "NL $1/$2")
    page.select_option("#id_currency", "REAL")
    page.select_option("#id_structure", "NL")
    expect(page.locator(".form-row.field-small_bet")).to_be_hidden()  # no-limit: blinds
    page.fill("#id_small_blind", "1")
    page.fill("#id_big_blind", "$2.00")
    page.fill("#id_min_buy_in", "80")
    page.fill("#id_max_buy_in", "$200")
    page.fill("#id_rake_percent", "5")
    page.fill("#id_rake_cap", "3")

    expect(preview).to_have_text("NL $1/$2, buy-in $80\u2013$200, rake 5 % capped at $3")
    page.fill("#id_big_blind", "2.005")
    expect(preview).to_contain_text("Big blind: $2.005 is a fraction of a cent")

    # Fixed-limit is typed as its small and big bet; the blinds' row goes.
    page.select_option("#id_structure", "FL")
    expect(page.locator(".form-row.field-big_blind")).to_be_hidden()
    page.fill("#id_small_blind", "")
    page.fill("#id_small_bet", "2")
    page.fill("#id_big_bet", "4")
    page.fill("#id_min_buy_in", "40")
    page.fill("#id_max_buy_in", "200")
    expect(preview).to_have_text("Limit $2/$4, buy-in $40\u2013$200, rake 5 % capped at $3")
    assert not TableConfig.objects.exists()  # previewing saves nothing
