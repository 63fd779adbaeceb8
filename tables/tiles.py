"""Tiling: up to four tables in one window (`/tables/tile/?t=3&t=7`).

Each tile is an iframe of the compact table page (`/tables/<id>/tile/`): its own socket,
action bar and alerts. That page is the only one another page may frame, and only a page of
this room (X-Frame-Options SAMEORIGIN, CSP frame-ancestors 'self'); every other page keeps
DENY / 'none'. static/js/tiles.js marks the tile whose player must act and sends the
keyboard's actions to it.
"""
from __future__ import annotations

from csp.constants import SELF
from csp.decorators import csp_replace
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET

from accounts.hotkeys import DEFAULTS, hotkeys_of
from tables import views
from tables.models import TableConfig

MAX_TILES = 4
SESSION_KEY = "tiles"  # the visitor's last tiles, for "Add to tiles"


class TilesRefused(ValueError):
    """Why these tables cannot be tiled, in words for the player."""


def tile_ids(raw: list[str]) -> list[int]:
    """`?t=` values → 1 to 4 distinct table ids, in the order given; TilesRefused otherwise."""
    if not raw:
        raise TilesRefused("Name the tables to tile: /tables/tile/?t=3&t=7.")
    try:
        ids = [int(value) for value in raw]
    except ValueError:
        raise TilesRefused("Table ids are numbers: ?t=3&t=7.") from None
    if len(set(ids)) != len(ids):
        raise TilesRefused("Each table can be tiled once.")
    if len(ids) > MAX_TILES:
        raise TilesRefused(f"At most {MAX_TILES} tables fit in one window: close one first.")
    return ids


def tiles_tables(ids: list[int]) -> list[TableConfig]:
    """The open tables with these ids, in that order; TilesRefused naming any that is not."""
    found = TableConfig.objects.filter(pk__in=ids, is_active=True).in_bulk()
    missing = [f"#{i}" for i in ids if i not in found]
    if missing:
        raise TilesRefused(f"No open table {', '.join(missing)}.")
    return [found[i] for i in ids]


def tiles_url(ids: list[int]) -> str:
    return f"{reverse('tables:tiles')}?{urlencode([('t', i) for i in ids])}" if ids \
        else reverse("lobby")


@require_GET
def tiles(request: HttpRequest) -> HttpResponse:
    """The tiles window. `?add=ID` (lobby rows, the table page) adds a table to the visitor's
    last tiles and redirects to them. Refusals: 400 with the reason."""
    try:
        if "add" in request.GET:
            saved = [i for i in request.session.get(SESSION_KEY, [])
                     if TableConfig.objects.filter(pk=i, is_active=True).exists()]
            added = tile_ids([request.GET["add"]])[0]
            ids = tile_ids([str(i) for i in saved] + ([] if added in saved else [str(added)]))
            tiles_tables(ids)
            return redirect(tiles_url(ids))
        tables = tiles_tables(tile_ids(request.GET.getlist("t")))
    except TilesRefused as refused:
        return render(request, "tables/tiles.html", {"error": str(refused)}, status=400)
    ids = [t.pk for t in tables]
    request.session[SESSION_KEY] = ids
    keys = hotkeys_of(request.user.hotkeys) if request.user.is_authenticated else DEFAULTS
    others = (TableConfig.objects.filter(is_active=True).exclude(pk__in=ids).order_by("pk")
              .only("pk", "name")[:100] if len(ids) < MAX_TILES else [])
    return render(request, "tables/tiles.html", {
        "tiles": [{"table": t, "close": tiles_url([i for i in ids if i != t.pk])} for t in tables],
        "ids": ids, "others": others, "hotkeys": views.hotkeys_json(keys),
    })


@require_GET
@xframe_options_sameorigin
@csp_replace({"frame-ancestors": [SELF]})
def table_tile(request: HttpRequest, table_id: int) -> HttpResponse:
    """One tile: the table page without the side panel; links open in the whole window."""
    return views.table(request, table_id, compact=True)
