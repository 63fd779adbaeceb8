"""Names players see at the tables. A display name may not pass for anybody else: not another
account's username (staff included) nor another's display name, compared without case and after
Unicode normalisation, and never with invisible characters, look-alike letters from another
alphabet (a Cyrillic a in "alice") or the house's own titles."""
from __future__ import annotations

import re
import unicodedata

from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q

# Titles only the house uses; nobody may sign up or show up at a table under them.
HOUSE_NAMES = frozenset({
    "admin", "administrator", "staff", "support", "moderator", "dealer", "house", "cashier",
    "system", "pokerroom", "poker room",
})
TAKEN = "That name belongs to another player."
MIXED = "Use letters of one alphabet: this name mixes look-alike letters from several."


def normalize_display_name(raw: str) -> str:
    """NFKC form (full-width and ligature look-alikes folded) with single spaces."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", raw)).strip()


def check_display_name(name: str, *, user_pk: int | None, staff: bool = False) -> None:
    """Raise ValidationError if `name` (normalized) is unfit for the user `user_pk` (staff may
    use the house's titles)."""
    User = get_user_model()  # the model module imports this one
    if any(unicodedata.category(c) in {"Cc", "Cf", "Co", "Cn"} for c in name):
        raise ValidationError("Use visible characters only.", code="invisible")
    if confusables.is_dangerous(name):
        raise ValidationError(MIXED, code="confusable")
    if name.casefold() in HOUSE_NAMES and not staff:
        raise ValidationError(TAKEN, code="house_name")
    others = User.objects.exclude(pk=user_pk) if user_pk else User.objects.all()
    if others.filter(Q(username__iexact=name) | Q(display_name__iexact=name)).exists():
        raise ValidationError(TAKEN, code="taken")


def check_new_username(username: str, *, staff: bool = False) -> None:
    """A new account may not take a name another player already shows at the tables."""
    User = get_user_model()  # the model module imports this one
    if username.casefold() in HOUSE_NAMES and not staff:
        raise ValidationError(TAKEN, code="house_name")
    if confusables.is_dangerous(username):
        raise ValidationError(MIXED, code="confusable")
    if User.objects.filter(display_name__iexact=username).exists():
        raise ValidationError(TAKEN, code="taken")
