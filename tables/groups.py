"""Channel-layer group names and the on-commit broadcast of recorded events.

The channel layer only wakes clients up: every message carries events already stored in
HandEvent, already redacted, so consumers never query the database per event."""
from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-user-{user_id}"


def events_broadcast(*, table_id: int, items: list[dict[str, Any]]) -> None:
    """Send recorded events: private copies to their owners first, then the public batch.

    `items`: [{"version", "event", "private_for", "private"}]; a consumer whose user is
    `private_for` uses the private copy it received just before instead of the public one."""
    layer = get_channel_layer()
    if layer is None or not items:
        return
    send = async_to_sync(layer.group_send)
    private: dict[int, list[dict[str, Any]]] = {}
    for item in items:
        if item.get("private_for") is not None:
            private.setdefault(item["private_for"], []).append(
                {"version": item["version"], "event": item["private"]})
    for user_id, events in private.items():
        send(user_group(table_id, user_id), {"type": "table.private", "events": events})
    send(table_group(table_id), {"type": "table.events", "events": [
        {"version": i["version"], "event": i["event"], "private_for": i.get("private_for")}
        for i in items
    ]})
