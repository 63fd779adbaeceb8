"""The rabbit hunt is a table option the operator ticks in admin (off by default)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import TableConfig
from tests.tables.test_admin import ADD, errors, form_data

pytestmark = pytest.mark.django_db


def test_the_operator_offers_the_rabbit_hunt_in_the_options(admin_client):
    page = admin_client.get(reverse(ADD)).content.decode()
    assert 'name="rabbit_hunt_allowed"' in page and "Rabbit hunt allowed" in page
    response = admin_client.post(reverse(ADD), form_data(rabbit_hunt_allowed="on"))
    assert response.status_code == 302, errors(response)
    assert TableConfig.objects.get(name="NL $1/$2").rabbit_hunt_allowed
    response = admin_client.post(reverse(ADD), form_data(name="Plain"))
    assert response.status_code == 302, errors(response)
    assert not TableConfig.objects.get(name="Plain").rabbit_hunt_allowed
