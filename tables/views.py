from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from tables.forms import LobbyFilterForm
from tables.models import Hand, HandEvent, TableConfig
from tables.selectors import lobby_rows


def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby; htmx requests (filters, periodic refresh) get only the table list."""
    form = LobbyFilterForm(request.GET)
    valid = form.is_valid()
    rows = lobby_rows(form.filters()) if valid else []
    template = "tables/_lobby_list.html" if request.htmx else "tables/lobby.html"
    return render(request, template, {"form": form, "rows": rows}, status=200 if valid else 400)


def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live table page; the client script connects to /ws/tables/<id>/ (docs/protocol.md)."""
    config = get_object_or_404(TableConfig, pk=table_id, is_active=True)
    return render(request, "tables/table.html", {
        "table": config, "ws_path": f"/ws/tables/{config.pk}/",
    })


def _hand_history(request: HttpRequest, hand_id: int) -> dict[str, Any]:
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id,
                             finished_at__isnull=False)
    user_id = request.user.pk if request.user.is_authenticated else None
    events = [{"version": e.version, **e.for_user(user_id)}
              for e in HandEvent.objects.filter(hand=hand).order_by("version")]
    return {
        "hand_id": hand.pk, "table_id": hand.table_id, "table": hand.table.name,
        "number": hand.number, "started_at": hand.started_at.isoformat(),
        "finished_at": hand.finished_at.isoformat(), "commitment": hand.commitment,
        "seed": hand.seed, "events": events, "result": hand.state.get("result"),
    }


def hand_history_json(request: HttpRequest, hand_id: int) -> JsonResponse:
    """A finished hand's events, seed and commitment (players see their own hole cards)."""
    return JsonResponse(_hand_history(request, hand_id))


def hand_history(request: HttpRequest, hand_id: int) -> HttpResponse:
    history = _hand_history(request, hand_id)
    return render(request, "tables/hand_history.html", {"history": history})
