"""The Tournaments tab, a tournament's page, and registering, rebuys and the add-on over HTTP
(thin: the services decide). Each moves money, so its form carries a key made when the page
was drawn: a double submit finds the first outcome."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cashier.forms import KeyedForm
from cashier.money import Currency
from tables.errors import TableError
from tables.tournaments import selectors
from tables.tournaments.models import ACTIVE, Entry, EntryState, Tournament, TournamentKind
from tables.tournaments.services import (
    tournament_addon,
    tournament_rebuy,
    tournament_register,
    tournament_unregister,
)
from tables.tournaments.services.purchases import purchase_offer


class TournamentFilterForm(forms.Form):
    state = forms.ChoiceField(required=False, choices=[
        ("", "Any state"), ("upcoming", "Registering and announced"), ("running", "Running"),
        ("finished", "Finished")])
    kind = forms.ChoiceField(required=False, choices=[("", "Any kind"), *TournamentKind.choices])
    currency = forms.ChoiceField(required=False, choices=[("", "Any money"), *Currency.choices])


def tournament_list(request: HttpRequest) -> HttpResponse:
    """The lobby's Tournaments tab; htmx requests (filters, the 10 s refresh) get the list."""
    form = TournamentFilterForm(request.GET)
    valid = form.is_valid()
    rows = selectors.tournament_rows(**form.cleaned_data) if valid else []
    template = "tournaments/_list.html" if request.htmx else "tournaments/list.html"
    return render(request, template, {"form": form, "rows": rows}, status=200 if valid else 400)


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Structure, players and stacks, tables to watch, payouts, and the visitor's place; a
    busted visitor is offered a re-entry while registration is open and he has one left."""
    get_object_or_404(Tournament, pk=tournament_id)
    row, standings, payouts = selectors.tournament_page(tournament_id)
    mine, busted = None, 0
    if request.user.is_authenticated:
        mine = Entry.objects.filter(tournament_id=tournament_id, user=request.user,
                                    state__in=ACTIVE).first()
        busted = Entry.objects.filter(tournament_id=tournament_id, user=request.user,
                                      state=EntryState.BUSTED).count()
    return render(request, "tournaments/page.html", {
        "row": row, "t": row.tournament, "standings": standings, "payouts": payouts,
        "levels": row.tournament.structure.get("levels", []), "mine": mine,
        "busted": busted, "reentry_left": busted <= row.tournament.max_reentries,
        "position": selectors.position_of(standings, request.user.pk) if mine else None,
        "tables": sorted({s.table_id for s in standings if s.table_id}),
        "places": sorted((s for s in standings if s.place), key=lambda s: s.place),
        "form": KeyedForm(),
        "offer": purchase_offer(row.tournament, mine) if mine else {},
        "rebuy_form": KeyedForm(), "addon_form": KeyedForm(),
    })


@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _change(request, tournament_id, tournament_register, "You are registered.")


@require_POST
def unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _change(request, tournament_id, tournament_unregister,
                   "You are unregistered; your buy-in and fee are back in your wallet.")


@require_POST
def rebuy(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _change(request, tournament_id, tournament_rebuy,
                   "Rebuy bought: the chips join your stack when your table's next hand starts.")


@require_POST
def addon(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _change(request, tournament_id, tournament_addon,
                   "Add-on bought: the chips join your stack when your table's next hand "
                   "starts.")


def _change(request: HttpRequest, tournament_id: int, service: Callable[..., Any], done: str
            ) -> HttpResponse:
    """Refusals: 403 anonymous, 400 without a key, 409 with the service's reason."""
    get_object_or_404(Tournament, pk=tournament_id)
    if not request.user.is_authenticated:
        return HttpResponse("Log in to play in tournaments.", status=403)
    form = KeyedForm(request.POST)
    if not form.is_valid():
        return HttpResponse("The form lost its request key; reload the page.", status=400)
    try:
        service(tournament_id=tournament_id, user=request.user, key=form.key_for(request.user))
    except TableError as e:
        return render(request, "tournaments/_refused.html", {"message": e.message,
                      "tournament_id": tournament_id}, status=409)
    messages.success(request, done)
    return redirect("tournaments:page", tournament_id=tournament_id)
