"""Disputes: staff open a finished hand's whole deck only through this audited action. Each
reveal is recorded first (who, when, why) and the deck is shown once, in the answer to that
request; the records list who looked, never the cards. Running hands are refused."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from tables.models import DeckReveal, Hand
from tables.services.dealing import deck_reveal


class DeckRevealForm(forms.ModelForm):
    class Meta:
        model = DeckReveal
        fields = ("hand", "reason")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        hand: Hand | None = data.get("hand")
        if hand is not None and hand.finished_at is None:
            raise forms.ValidationError("A running hand's deck is never revealed.")
        if hand is not None and hand.fairness != "merkle-v2":
            raise forms.ValidationError("This hand's seed was published: its deck is public.")
        return data


@admin.register(DeckReveal)
class DeckRevealAdmin(admin.ModelAdmin):
    form = DeckRevealForm
    list_display = ("hand", "staff", "created_at", "reason")
    raw_id_fields = ("hand",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("hand", "staff", "reason", "created_at") if obj is not None else ()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the audit trail is append-only

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: DeckReveal, form: Any, change: bool) -> None:
        self.revealed = deck_reveal(hand=obj.hand, staff=request.user, reason=obj.reason)

    def response_add(self, request: HttpRequest, obj: DeckReveal,
                     post_url_continue: str | None = None) -> HttpResponse:
        return TemplateResponse(request, "admin/tables/deck_revealed.html", {
            **self.admin_site.each_context(request), "title": f"Deck of {obj.hand}",
            "hand": obj.hand, "openings": self.revealed, "reason": obj.reason})
