"""`{% my_tournaments %}`: the "Your tournaments" box of the lobby (templates/tournaments/
_mine.html), whose script (static/js/tournament/live.js) alerts the player when one starts."""
from __future__ import annotations

from typing import Any

from django import template

from tables.tournaments.selectors import my_entries

register = template.Library()


@register.inclusion_tag("tournaments/_mine.html", takes_context=True)
def my_tournaments(context: dict[str, Any]) -> dict[str, Any]:
    user = context["request"].user
    entries = my_entries(user.pk) if user.is_authenticated else []
    return {"entries": entries, "user": user,
            "ids": " ".join(str(e.tournament_id) for e in entries)}
