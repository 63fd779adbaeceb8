from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from accounts.hotkeys import DEFAULTS, hotkeys_of
from cashier.services import exclusion_text
from tables.errors import TableError
from tables.forms import LobbyFilterForm
from tables.models import AutoTopUp, Seat, TableConfig
from tables.selectors import LobbyRow, Places, lobby_rows, rows_stamp, visitor_places
from tables.services import waitlist
from tables.services.auto_topup import auto_top_up_set
from tables.templatetags.table_page import auto_top_up_context

# Rows per lobby page: every open lobby fetches its page every 5 s, and a list is drawn anew
# each time the rows change, so a page stays small however many tables the room runs (500
# rows would be 0.6 MB and 170 ms to draw).
LOBBY_PAGE_ROWS = 50
COLUMNS = (("name", "Table"), ("game", "Game"), ("stakes", "Stakes"),
           ("money", "Money"), ("seats", "Seats"), ("waiting", "Waiting"), ("avg_pot", "Avg pot"),
           ("avg_stack", "Avg stack"), ("flop", "Plrs/flop"), ("hands", "Hands/h"),
           ("rake", "Rake"))


def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby; htmx requests (filters, sorting, periodic refresh) get only the table list.
    A bad filter answers 400 with the reason in the list (static/js/lobby.js swaps it in)."""
    form = LobbyFilterForm(request.GET)
    valid = form.is_valid()
    page = Paginator(lobby_rows(form.filters()) if valid else [], LOBBY_PAGE_ROWS).get_page(
        request.GET.get("page"))
    links = {link["key"]: link for link in form.sort_links()}
    places = visitor_places(request.user.pk) if request.user.is_authenticated else None
    excluded = (exclusion_text(places.excluded_until, action="sit down at a table")
                if places and places.excluded_until else None)
    items = _with_waiting(request, list(page), places)
    context = {
        "form": form, "page": page, "excluded": excluded,
        "columns": [{"key": key, "label": label, "sort": links.get(key)} for key, label in COLUMNS],
        "id_sort": links["id"],
    }
    if request.htmx and valid:
        return HttpResponse(_list_polled(request, context, items, excluded=bool(excluded)))
    context.update(items=[(*i, None) for i in items],
                   my_tiles=None if request.htmx else _my_tiles(request))
    template = "tables/_lobby_list.html" if request.htmx else "tables/lobby.html"
    return render(request, template, context, status=200 if valid else 400)


_drawing = threading.Lock()


def _list_polled(request: HttpRequest, context: dict[str, Any],
                 items: list[tuple[LobbyRow, waitlist.WaitingStatus]], *, excluded: bool) -> str:
    """The list a poll gets: the one drawn for every visitor of his kind from the rows of the
    moment (`_shared_key`), with the rows where he sits or waits drawn for him in place of
    theirs. Every open lobby polls every 5 s and a page of 50 rows took about 40 ms to draw:
    drawn once, a poll is a lookup (docs/benchmarks.md). One thread draws while the others
    wait for it, rather than all drawing it at once when the rows change."""
    signed_in = request.user.is_authenticated
    usual = [(row, _usual(row, signed_in=signed_in, excluded=excluded)) for row, _ in items]
    key = _shared_key("lobby-list", request, excluded, request.GET.urlencode(),
                      context["page"].number)
    html = cache.get(key)
    if html is None:
        with _drawing:
            html = cache.get(key)
            if html is None:
                html = render_to_string("tables/_lobby_list.html", {
                    **context, "items": _rows_shared(request, usual, excluded=excluded)}, request)
                cache.set(key, html, settings.ROOM_LOBBY_FRESH_SECONDS)
    own = [(item, theirs) for item, theirs in zip(items, usual, strict=True) if item != theirs]
    shared = _rows_shared(request, [theirs for _, theirs in own], excluded=excluded)
    for ((row, wl), _), (_, _, theirs_html) in zip(own, shared, strict=True):
        if theirs_html not in html:  # rows and list of different moments: draw it all for him
            return render_to_string("tables/_lobby_list.html", {
                **context, "items": [(*i, None) for i in items]}, request)
        html = html.replace(theirs_html, render_to_string(
            "tables/_lobby_row.html", {"row": row, "wl": wl, "excluded": excluded}, request), 1)
    return html


def _shared_key(kind: str, request: HttpRequest, excluded: bool, *what: object) -> str:
    """A cache key of HTML drawn alike for every visitor of his kind (signed in or not,
    self-excluded or not, on the same page) from the rows of this moment (`rows_stamp`)."""
    where = "\n".join(str(part) for part in (
        rows_stamp(), request.user.is_authenticated, excluded,
        request.htmx.current_url_abs_path or "", *what))
    return f"{kind}:" + hashlib.sha256(where.encode()).hexdigest()


def _my_tiles(request: HttpRequest) -> dict[str, Any] | None:
    """"Open my tables tiled": the open tables he is seated at (the first four by id)."""
    if not request.user.is_authenticated:
        return None
    ids = list(Seat.objects.filter(player=request.user, table__is_active=True)
               .order_by("table_id").values_list("table_id", flat=True).distinct())
    if not ids:
        return None
    return {"count": len(ids), "shown": min(len(ids), 4),
            "url": reverse("tables:tiles") + "?" + urlencode([("t", i) for i in ids[:4]])}


def _rows_shared(request: HttpRequest, items: list[tuple[LobbyRow, waitlist.WaitingStatus]],
                 *, excluded: bool) -> list[tuple[LobbyRow, waitlist.WaitingStatus, str]]:
    """Each row with its HTML for the visitors whose status there is the usual one (`items`):
    drawn once per computation of the rows in this process. Shared rows' forms carry no CSRF
    token (it would be another visitor's): htmx sends each visitor's own from <body>."""
    keys = [_shared_key("lobby-row", request, excluded, row.table.pk) for row, _ in items]
    found = cache.get_many(keys)
    made: dict[str, str] = {}
    out = []
    for key, (row, wl) in zip(keys, items, strict=True):
        html = found.get(key)
        if html is None:
            html = made[key] = render_to_string(
                "tables/_lobby_row.html",
                {"row": row, "wl": wl, "shared": True, "excluded": excluded}, request)
        out.append((row, wl, mark_safe(html)))
    cache.set_many(made, settings.ROOM_LOBBY_FRESH_SECONDS)
    return out


def _usual(row: LobbyRow, *, signed_in: bool, excluded: bool = False
           ) -> waitlist.WaitingStatus:
    """A visitor's status at a table where he has no seat and no place on the list (a
    self-excluded player may not join it: he may not sit down)."""
    if not signed_in:
        return waitlist.WaitingStatus(waiting=False, length=row.waiting)
    return waitlist.WaitingStatus(waiting=False, length=row.waiting,
                                  can_join=not row.has_free_seat and not excluded)


def _with_waiting(request: HttpRequest, rows: list[LobbyRow], places: Places | None
                  ) -> list[tuple[LobbyRow, waitlist.WaitingStatus]]:
    """Each row with the visitor's place on its waiting list (the list moves on if due);
    `places` None: not signed in."""
    if places is None:
        return [(row, _usual(row, signed_in=False)) for row in rows]
    excluded = places.excluded_until is not None
    items = []
    for row in rows:
        tid = row.table.pk
        if tid in places.waiting:
            status = waitlist.waitlist_status(table_id=tid, user_id=request.user.pk)
        else:
            seated = tid in places.seated
            status = waitlist.WaitingStatus(
                waiting=False, length=row.waiting, seated=seated,
                can_join=not row.has_free_seat and not seated and not excluded)
        items.append((row, status))
    return items


def hotkeys_json(keys: dict[str, str]) -> str:
    """His keys for static/js/table/keyboard.js (`data-hotkeys`)."""
    return json.dumps(keys, separators=(",", ":"))


def table(request: HttpRequest, table_id: int, *, compact: bool = False) -> HttpResponse:
    """The live table page; the client script connects to /ws/tables/<id>/ (docs/protocol.md).
    `compact`: the same page as a tile of the tiles window (tables/tiles.py)."""
    config = get_object_or_404(TableConfig, pk=table_id, is_active=True)
    presets = request.user.bet_presets if request.user.is_authenticated else None
    keys = hotkeys_of(request.user.hotkeys) if request.user.is_authenticated else DEFAULTS
    return render(request, "tables/table.html", {
        "table": config, "ws_path": f"/ws/tables/{config.pk}/",
        "presets": json.dumps(presets) if presets else "",  # his own bet-size buttons
        "hotkeys": hotkeys_json(keys), "compact": compact,
    })


# Waiting list -------------------------------------------------------------------------------
def _waitlist_panel(request: HttpRequest, table: TableConfig, *, error: str = "",
                    status: int = 200) -> HttpResponse:
    """The box after a join or leave; from a lobby row (`lobby=1`) it stays compact and the
    row's Waiting count follows at once (an out-of-band swap), not at the list's next poll."""
    user_id = request.user.pk if request.user.is_authenticated else None
    lobby = request.POST.get("lobby") == "1"
    return render(request, "tables/_waitlist.html", {
        "table": table, "wl": waitlist.waitlist_status(table_id=table.pk, user_id=user_id),
        "wl_error": error, "wl_poll": request.GET.get("poll") == "1" or request.POST.get("poll") == "1",
        "compact": lobby, "wl_lobby": lobby and not error,
    }, status=status)


def _back(request: HttpRequest, table: TableConfig) -> HttpResponse:
    """Without htmx: back to the page the form was on (the lobby or the table)."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = reverse("tables:table", args=[table.pk])
    return redirect(target)


@require_GET
def waitlist_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    """The visitor's waiting-list box for one table (the table page polls it with htmx)."""
    table = get_object_or_404(TableConfig, pk=table_id, is_active=True)
    return _waitlist_panel(request, table)


def _waitlist_change(request: HttpRequest, table_id: int, change: Any) -> HttpResponse:
    table = get_object_or_404(TableConfig, pk=table_id, is_active=True)
    if not request.user.is_authenticated:
        return _waitlist_panel(request, table, error="Log in to use the waiting list.", status=403)
    try:
        change(table)
    except TableError as e:
        return _waitlist_panel(request, table, error=e.message, status=409)
    return _waitlist_panel(request, table) if request.htmx else _back(request, table)


@require_POST
def waitlist_join(request: HttpRequest, table_id: int) -> HttpResponse:
    """Join a full table's waiting list. Refusals: 403 anonymous, 409 with the reason."""
    return _waitlist_change(request, table_id, lambda table: waitlist.waitlist_join(
        table_id=table.pk, user=request.user))


@require_POST
def waitlist_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    """Leave the waiting list (declining an offered seat too)."""
    return _waitlist_change(request, table_id, lambda table: waitlist.waitlist_leave(
        table_id=table.pk, user_id=request.user.pk))


@require_POST
def auto_top_up(request: HttpRequest, table_id: int) -> HttpResponse:
    """Save the player's auto top-up order at a table (htmx: the form comes back with the
    outcome; without htmx, back to the table page). Mode "off", "max", or "below" with
    `threshold_bb`."""
    if not request.user.is_authenticated:
        return HttpResponse("Log in to set an auto top-up.", status=403)
    config = get_object_or_404(TableConfig, pk=table_id, is_active=True)
    mode = request.POST.get("mode", "")
    raw = request.POST.get("threshold_bb", "") or "0"
    try:
        order = auto_top_up_set(table=config, user_id=request.user.pk, mode=mode,
                                threshold_bb=int(raw) if mode == "below" else 0)
    except (TableError, ValueError) as e:
        error = e.message if isinstance(e, TableError) else "Give a whole number of big blinds."
        order = AutoTopUp.objects.filter(table=config, player=request.user).first()
        return render(request, "tables/_auto_top_up.html", auto_top_up_context(
            table=config, order=order, csrf_token=get_token(request), error=error), status=400)
    if not request.htmx:
        return redirect("tables:table", table_id=config.pk)
    message = "Saved: off." if order is None else f"Saved: {order.get_mode_display().lower()}."
    if order is not None and order.mode == "below":
        message = f"Saved: below {order.threshold_bb} BB, top up to the maximum."
    return render(request, "tables/_auto_top_up.html", auto_top_up_context(
        table=config, order=order, csrf_token=get_token(request), message=message))
