"""Finished hands for people: the hand page (with the replayer), its JSON, "My hands", and
downloads as PokerStars text and PHH.

Anyone may read a finished hand's public page (names, actions, shown cards, the proof of the
deal), the viewer's own hole cards added when he played it. Downloads are for the players of
the hand only: they carry the downloader's hole cards. Hands still running are never shown.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from cashier.money import Currency, money_format
from tables.histories import phh_export, pokerstars
from tables.histories.forms import MyHandsFilterForm
from tables.histories.labels import signed_money
from tables.histories.record import HandRecord, load_record
from tables.histories.selectors import MAX_DOWNLOAD, my_hand_ids, net_of
from tables.histories.timeline import timeline
from tables.models import Hand, HandEvent
from tables.services.dealing import hand_proof

FORMATS = {
    "pokerstars": ("text/plain; charset=utf-8", "txt"),
    "phh": ("application/toml; charset=utf-8", "phh"),
}
PAGE_SIZE = 25


def _finished_hand(hand_id: int) -> Hand:
    return get_object_or_404(Hand.objects.select_related("table"), pk=hand_id,
                             finished_at__isnull=False)


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def hand_data(request: HttpRequest, hand: Hand, record: HandRecord) -> dict[str, Any]:
    """The hand's JSON: the table's events as the viewer may see them, the public proof of the
    deal and, for a player of the hand, the openings of his own cards (static/js/verify.js and
    ``python -m tables.engine.fairness verify`` check them), and ``replay``, the replayer's
    frames."""
    user_id = _user_id(request)
    events = [{"version": e.version, **e.for_user(user_id)}
              for e in HandEvent.objects.filter(hand=hand).order_by("version")]
    proof = hand_proof(hand, record.state, record.seat_of(user_id))
    return {
        "hand_id": hand.pk, "table_id": hand.table_id, "table": hand.table.name,
        "number": hand.number, "started_at": hand.started_at.isoformat(),
        "finished_at": hand.finished_at.isoformat(), "commitment": hand.commitment,
        "proof": proof.public, "own_openings": proof.own_openings,
        "events": events, "result": hand.state.get("result"),
        "replay": timeline(record, user_id),
    }


def hand_history_json(request: HttpRequest, hand_id: int) -> JsonResponse:
    """A finished hand's events and proof of the deal (players see their own hole cards and get
    their openings)."""
    hand = _finished_hand(hand_id)
    return JsonResponse(hand_data(request, hand, load_record(hand)))


def hand_history(request: HttpRequest, hand_id: int) -> HttpResponse:
    """The hand page: players, positions, every action with the pot after it, the showdown,
    winners and rake, a replayer, and the proof of the deal folded away."""
    hand = _finished_hand(hand_id)
    record = load_record(hand)
    user_id = _user_id(request)
    data = hand_data(request, hand, record)
    replay = data["replay"]
    real = record.real_money
    currency = Currency.REAL if real else Currency.PLAY
    state = record.state
    viewer = record.seat_of(user_id)
    finals = {p.seat: p for p in state.players}
    players = []
    for s in sorted(replay["seats"], key=lambda s: s["seat"]):
        p = finals[s["seat"]]
        net = p.stack - p.start_stack
        players.append({
            **s, "start": money_format(p.start_stack, currency),
            "end": money_format(p.stack, currency),
            "net": net, "net_label": signed_money(net, currency),
            "cards": record.visible_cards(p.seat, viewer), "mucked": p.mucked,
            "folded": p.folded, "is_viewer": p.seat == viewer, "player_id": int(p.player_id),
        })
    streets: list[dict[str, Any]] = []
    for step in replay["steps"][1:]:
        if not streets or step["street"] != streets[-1]["name"]:
            streets.append({"name": step["street"], "steps": []})
        streets[-1]["steps"].append(step)
    result = state.result or {}
    return render(request, "tables/hand_history.html", {
        "history": data, "record": record, "players": players, "streets": streets,
        "board": state.board, "rake": money_format(int(result.get("rake", 0)), currency),
        "stakes": hand.table.stakes_label(), "game": hand.table.get_structure_display(),
        "played": viewer is not None,
    })


@login_required
def hand_download(request: HttpRequest, hand_id: int, fmt: str) -> HttpResponse:
    """One hand as PokerStars text or PHH, for a player of that hand only (404 otherwise)."""
    if fmt not in FORMATS:
        raise Http404("Unknown format.")
    hand = _finished_hand(hand_id)
    record = load_record(hand)
    if record.seat_of(request.user.pk) is None:
        raise Http404("You did not play this hand.")
    return _download([record], request.user.pk, fmt, f"hand-{hand.pk}")


def _download(records: list[HandRecord], user_id: int, fmt: str, stem: str) -> HttpResponse:
    content_type, ext = FORMATS[fmt]
    if fmt == "pokerstars":
        text = pokerstars.hands_text(records, user_id)
    elif len(records) == 1:
        text = phh_export.hand_text(records[0], user_id)
    else:
        text, ext = phh_export.hands_text(records, user_id), "phhs"
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{stem}.{ext}"'
    return response


@login_required
def my_hands(request: HttpRequest) -> HttpResponse:
    """The player's own finished hands, filtered and paginated, with downloads."""
    form = MyHandsFilterForm(request.GET)
    valid = form.is_valid()
    ids = my_hand_ids(request.user.pk, form.filters()) if valid else []
    page = Paginator(ids, PAGE_SIZE).get_page(request.GET.get("page"))
    hands = Hand.objects.filter(pk__in=list(page.object_list)).select_related("table")
    rows = []
    for hand in sorted(hands, key=lambda h: -h.pk):
        net = net_of(hand.state, request.user.pk)
        currency = hand.table.currency
        rows.append({
            "hand": hand, "net": net,
            "net_label": signed_money(net, currency),
            "pot": money_format(sum(p["amount"] for p in (hand.state.get("result") or {})
                                    .get("pots", [])), currency),
        })
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "tables/my_hands.html", {
        "form": form, "rows": rows, "page": page, "count": len(ids), "query": query.urlencode(),
        "max_download": MAX_DOWNLOAD,
    }, status=200 if valid else 400)


@login_required
def my_hands_download(request: HttpRequest, fmt: str) -> HttpResponse:
    """The filtered selection of "My hands" (at most MAX_DOWNLOAD, newest first) in one file."""
    if fmt not in FORMATS:
        raise Http404("Unknown format.")
    form = MyHandsFilterForm(request.GET)
    if not form.is_valid():
        return HttpResponse("; ".join(m for ms in form.errors.values() for m in ms),
                            status=400, content_type="text/plain; charset=utf-8")
    ids = my_hand_ids(request.user.pk, form.filters())[:MAX_DOWNLOAD]
    hands = Hand.objects.filter(pk__in=ids).select_related("table").order_by("id")
    records = [load_record(h) for h in hands]
    return _download(records, request.user.pk, fmt, "my-hands")

