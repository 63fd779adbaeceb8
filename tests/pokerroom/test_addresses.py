"""Limits per client count IPv4 addresses one by one and IPv6 clients by their /64."""
from __future__ import annotations

import pytest

from pokerroom.addresses import client_network


@pytest.mark.parametrize(("address", "network"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::", "2001:db8:1:2::/64"),
    ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4 through an IPv6 socket
    ("::1", "::/64"),
    (None, "unknown"), ("", "unknown"), ("/run/daphne.sock", "unknown"),
])
def test_client_network(address, network):
    assert client_network(address) == network
