"""Who is asking, for limits per client: the network a request or socket comes from.

The address is the one the server saw (daphne's REMOTE_ADDR / scope["client"]; behind a proxy,
daphne's --proxy-headers makes it the client's). An IPv6 client usually holds a whole /64 and
could take a new address for each request, so IPv6 counts by its /64."""
from __future__ import annotations

import ipaddress

UNKNOWN = "unknown"


def client_network(address: str | None) -> str:
    """An IPv4 address as it is, an IPv6 address's /64, or "unknown" (no address, a Unix socket)."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return UNKNOWN
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
