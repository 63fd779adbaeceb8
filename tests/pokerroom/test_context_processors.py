"""The header's wallet balances are read only when a page shows the header."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db


def wallet_reads(queries: CaptureQueriesContext) -> int:
    return sum("cashier_ledgeraccount" in q["sql"] for q in queries.captured_queries)


def test_the_lobby_poll_reads_no_wallet_and_the_page_shows_the_balances(client, make_user):
    client.force_login(make_user("ann"))

    with CaptureQueriesContext(connection) as poll:
        client.get(reverse("lobby"), HTTP_HX_REQUEST="true")
    with CaptureQueriesContext(connection) as page:
        html = client.get(reverse("lobby")).content.decode()

    assert wallet_reads(poll) == 0  # a partial: no header
    assert wallet_reads(page) >= 1
    assert 'data-balance-currency="PLAY"' in html and 'data-balance-currency="REAL"' in html
