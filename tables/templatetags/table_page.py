"""Template tags of the table page: the table's terms for players, the auto top-up form, and
why the viewer is not offered a seat."""
from __future__ import annotations

from typing import Any

from django import template

from cashier.services import exclusion_message
from tables.models import AutoTopUp, AutoTopUpMode, TableConfig

register = template.Library()


@register.simple_tag
def rake_terms(table: TableConfig) -> str:
    """The rake in one line: "Rake 5 % of each pot, capped at 3 · no flop, no drop"; caps that
    depend on the players dealt in are listed as the engine applies them (`engine.rake.rake_cap`)."""
    if not table.rake_percent:
        return "No rake"
    percent = f"{table.rake_percent.normalize():f}"
    parts = [f"Rake {percent} % of each pot"]
    caps = sorted((int(n), cap) for n, cap in (table.rake_cap_by_players or {}).items())
    general = table.money_label(table.rake_cap) if table.rake_cap else "no cap"
    if caps:
        ranges = []
        for i, (n, cap) in enumerate(caps):
            last = caps[i + 1][0] - 1 if i + 1 < len(caps) else n
            who = f"{n} players" if last == n else f"{n} to {last} players"
            ranges.append(f"{who}: {table.money_label(cap)}")
        parts.append(f"capped by players dealt in ({', '.join(ranges)}; otherwise {general})")
    elif table.rake_cap:
        parts.append(f"capped at {general}")
    line = ", ".join(parts)
    return f"{line} · no flop, no drop" if table.no_flop_no_drop else line


@register.simple_tag(takes_context=True)
def sit_block_reason(context: dict[str, Any]) -> str:
    """Why the viewer may not sit down or add chips now, in the cashier's words ("" when he
    may): the page then offers no seat, buy-in or rebuy, and says why. The services still
    refuse on their own (`cashier.services.exclusion_check`)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    return exclusion_message(user=user, action="sit down at a table") or ""


# Short enough for a phone's select; the model's labels say it in full.
FORM_MODES = [("off", "Off"), (AutoTopUpMode.TO_MAX, "To the max, every hand"),
              (AutoTopUpMode.BELOW, "Below N BB, to the max")]


@register.inclusion_tag("tables/_auto_top_up.html", takes_context=True)
def auto_top_up_form(context: template.Context, table: TableConfig) -> dict[str, Any]:
    """The player's standing top-up order at this table, as a form (logged-in players)."""
    user = context["request"].user
    order = AutoTopUp.objects.filter(table=table, player=user).first() \
        if user.is_authenticated else None
    return auto_top_up_context(table=table, order=order, csrf_token=context.get("csrf_token"))


def auto_top_up_context(*, table: TableConfig, order: AutoTopUp | None, csrf_token: Any,
                        message: str = "", error: str = "") -> dict[str, Any]:
    """What `tables/_auto_top_up.html` shows (the tag and the view that saves it share it)."""
    return {
        "table": table, "mode": order.mode if order else "off",
        "threshold_bb": order.threshold_bb if order and order.threshold_bb else 50,
        "modes": FORM_MODES, "csrf_token": csrf_token,
        "message": message, "error": error,
    }
