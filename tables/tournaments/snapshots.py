"""What a tournament's socket sends: the snapshot and the missed events (resync).

Read-only. Every tournament event is public, so everybody gets the same; the snapshot's shape
is declared with the events' (tables/events.py `TournamentSnapshot`)."""
from __future__ import annotations

from typing import Any

from django.utils import timezone

from tables.events import PurchaseTermsInfo, TournamentSnapshot
from tables.recent import iso
from tables.tournaments import selectors
from tables.tournaments.engine.purchases import addon_break_after
from tables.tournaments.models import STARTED, Tournament, TournamentEvent
from tables.tournaments.services.clock import clock_now, clock_until, engine_structure
from tables.tournaments.services.purchases import chips_bought

RESYNC_LIMIT = 500


def tournament_snapshot(*, tournament_id: int) -> TournamentSnapshot:
    """The tournament at its current version: the clock, the field, the payouts so far and
    every entry's chips, place and prize."""
    row, standings, payouts = selectors.tournament_page(tournament_id)
    t, now = row.tournament, timezone.now()
    until = None
    if t.state in STARTED:
        until = clock_until(clock_now(t, now), now)
    return {
        "type": "snapshot",
        "version": t.version,
        "server_time": now.isoformat(),
        "tournament": {
            "id": t.pk, "name": t.name, "kind": t.kind, "state": t.state,
            "currency": t.currency, "buy_in": t.buy_in, "fee": t.fee,
            "starting_stack": t.structure["starting_stack"], "entries_cap": t.entries_cap,
            "max_reentries": t.max_reentries,
            "late_registration_levels": t.structure.get("late_registration_levels", 0),
            "starts_at": iso(t.starts_at), "started_at": iso(t.started_at),
            "finished_at": iso(t.finished_at),
            "purchases": purchase_terms_info(t),
        },
        "clock": {"level": t.level, "on_break": t.state == "on_break", "until": until},
        "levels": list(t.structure.get("levels", [])),
        "entries": row.entries,
        "players_left": row.players_left,
        "prize_pool": row.prize_pool,
        "chips_bought": chips_bought(t),
        "payouts": [{"place": n, "share": bp, "prize": amount} for n, bp, amount in payouts],
        "standings": [{"player": s.name, "player_id": s.user_id, "entry": s.number,
                       "state": s.state, "chips": s.chips, "place": s.place, "prize": s.prize,
                       "table_id": s.table_id, "rebuys": s.rebuys, "addon": s.addon}
                      for s in standings],
        "tables": sorted({s.table_id for s in standings if s.table_id}),
    }


def purchase_terms_info(t: Tournament) -> PurchaseTermsInfo:
    terms = t.purchase_terms
    return {"max_rebuys": terms.max_rebuys, "rebuy_levels": terms.rebuy_levels,
            "rebuy_price": t.rebuy_price, "rebuy_chips": terms.rebuy_chips,
            "rebuy_max_stack": terms.rebuy_max_stack, "addon_price": t.addon_price,
            "addon_chips": terms.addon_chips,
            "addon_after_level": addon_break_after(engine_structure(t), terms.rebuy_levels)
            if terms.addon_chips else None}


def tournament_events_since(*, tournament_id: int, last_version: int,
                            limit: int = RESYNC_LIMIT) -> list[dict[str, Any]] | None:
    """The events after `last_version` as `event` messages, or None when a snapshot is needed
    instead (too far behind, or a version from the future)."""
    current = Tournament.objects.filter(pk=tournament_id).values_list(
        "version", flat=True).first() or 0
    if last_version < 0 or last_version > current or current - last_version > limit:
        return None
    rows = TournamentEvent.objects.filter(tournament_id=tournament_id,
                                          version__gt=last_version).order_by("version")
    return [{"type": "event", "version": e.version, "event": e.payload} for e in rows]
