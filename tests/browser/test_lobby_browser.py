"""The lobby in a real Chromium: the list filters itself with htmx, without a page reload."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_filters_update_the_list_without_a_reload(room_url, new_page, make_table):
    make_table(name="NL 1/2 play", structure="NL", currency="PLAY", lower_stake=2)
    make_table(name="Limit $5/$10", structure="FL", currency="REAL", lower_stake=500,
               small_blind_rule="round_down")
    page = new_page()
    page.goto(room_url + "/")
    page.evaluate("window.__sameDocument = true")

    page.select_option("#id_structure", "FL")

    rows = page.locator("#lobby-list tbody tr.table-row")
    rows.first.wait_for()
    page.wait_for_function("document.querySelectorAll('#lobby-list tr.table-row').length === 1")
    assert rows.all_inner_texts()[0].startswith("Limit $5/$10")
    assert page.evaluate("window.__sameDocument") is True  # htmx swapped the list in place
    assert "structure=FL" in page.url  # the filter is in the address bar (hx-push-url)
