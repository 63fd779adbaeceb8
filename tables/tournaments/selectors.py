"""Read-only views of tournaments for the lobby's Tournaments tab and a tournament's page."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from tables.tournaments.engine.payouts import PayoutBand, percents_for, prizes
from tables.tournaments.models import (
    ACTIVE,
    OVER,
    Entry,
    EntryState,
    Purchase,
    PurchaseKind,
    Tournament,
    TournamentState,
)

# The tab's state filter: what a player looks for, in the words of the lobby.
STATE_FILTERS: dict[str, tuple[str, ...]] = {
    "upcoming": (TournamentState.ANNOUNCED, TournamentState.REGISTERING),
    "running": (TournamentState.RUNNING, TournamentState.ON_BREAK),
    "finished": (TournamentState.FINISHED, TournamentState.CANCELLED),
}


@dataclass(frozen=True)
class TournamentRow:
    tournament: Tournament
    entries: int  # paid entries, re-entries included, refunds not
    players_left: int  # registered or still playing
    prize_pool: int  # minor units: buy-ins, rebuys and add-ons, or the guarantee when more

    @property
    def prize_pool_label(self) -> str:
        return self.tournament.money_label(self.prize_pool)

    @property
    def buy_in_label(self) -> str:
        t = self.tournament
        return f"{t.money_label(t.buy_in)} + {t.money_label(t.fee)}"


def _counted(tournaments: Any) -> Any:
    bought = (Purchase.objects.filter(tournament=OuterRef("pk"), refunded_at__isnull=True)
              .values("tournament").annotate(total=Sum("price")).values("total"))
    return tournaments.annotate(
        paid=Count("entries", filter=Q(entries__refunded_at__isnull=True)),
        left=Count("entries", filter=Q(entries__state__in=ACTIVE)),
        bought=Coalesce(Subquery(bought), 0),
    )


def _row(t: Any) -> TournamentRow:
    return TournamentRow(tournament=t, entries=t.paid, players_left=t.left,
                         prize_pool=prize_pool_of(t, t.paid, t.bought))


def tournament_rows(*, state: str = "", kind: str = "", currency: str = "") -> list[TournamentRow]:
    """The tab's list: upcoming first by start (a Sit & Go, which starts when full, before
    scheduled events), then running, then the last finished."""
    tournaments = Tournament.objects.all()
    if state:
        tournaments = tournaments.filter(state__in=STATE_FILTERS[state])
    if kind:
        tournaments = tournaments.filter(kind=kind)
    if currency:
        tournaments = tournaments.filter(currency=currency)
    order = {s: n for n, group in enumerate(STATE_FILTERS.values()) for s in group}
    rows = [_row(t) for t in _counted(tournaments).order_by("-id")[:200]]
    rows.sort(key=lambda r: (order[r.tournament.state],
                             r.tournament.starts_at is not None, r.tournament.starts_at or 0))
    return rows


@dataclass(frozen=True)
class Standing:
    name: str
    user_id: int
    number: int  # entry number: 2 for a first re-entry
    state: str
    chips: int
    place: int | None
    prize: int
    table_id: int | None
    rebuys: int = 0  # rebuys bought by this entry
    addon: bool = False  # the add-on taken


def tournament_page(tournament_id: int) -> tuple[TournamentRow, list[Standing],
                                                 list[tuple[int, int, int]]]:
    """The row, the entries (still in by chips, then the busted by place) and the payouts for
    the field so far: (place, basis points, amount)."""
    row = _row(_counted(Tournament.objects.filter(pk=tournament_id)).get())
    entries = (row.tournament.entries.filter(refunded_at__isnull=True)
               .select_related("user").order_by("place", "-chips", "pk"))
    bought = bought_by_entry(row.tournament)
    standings = [Standing(name=e.user.table_name, user_id=e.user_id, number=e.number,
                          state=e.state, chips=e.chips if e.state in ACTIVE else 0,
                          place=e.place, prize=e.prize, table_id=e.table_id,
                          rebuys=bought.get(e.pk, (0, False))[0],
                          addon=bought.get(e.pk, (0, False))[1]) for e in entries]
    standings.sort(key=lambda s: (s.state not in ACTIVE, s.place or 0, -s.chips))
    return row, standings, payouts_for(row)


def payouts_for(row: TournamentRow) -> list[tuple[int, int, int]]:
    """(place, basis points, amount) for the field so far (at least the smallest band)."""
    return payouts_of(row.tournament, entries=row.entries, pool=row.prize_pool)


def payouts_of(tournament: Tournament, *, entries: int, pool: int) -> list[tuple[int, int, int]]:
    """(place, basis points, amount) for `entries` paying `pool` (at least the smallest
    band): what the page shows and the field's events carry."""
    try:
        bands = [PayoutBand(b["min_entries"], b["max_entries"], tuple(b["places"]))
                 for b in tournament.structure.get("payouts", [])]
        field = max(entries, min(b.min_field for b in bands))
        percents = percents_for(bands, field)
    except ValueError:  # no bands, or none for this field: nothing to show yet
        return []
    return [(n, bp, amount) for n, (bp, amount)
            in enumerate(zip(percents, prizes(pool, percents), strict=True), start=1)]


def prize_pool_of(tournament: Tournament, entries: int, purchased: int = 0) -> int:
    """The buy-ins paid and the rebuys and add-ons bought (`purchased`, minor units), or the
    guarantee while it is more."""
    return max(entries * tournament.buy_in + purchased,
               int(tournament.structure.get("guarantee") or 0))


def purchased_of(tournament: Tournament) -> int:
    """What the tournament's rebuys and add-ons paid into its pool (refunds not counted)."""
    return Purchase.objects.filter(tournament=tournament, refunded_at__isnull=True).aggregate(
        s=Sum("price"))["s"] or 0


def bought_by_entry(tournament: Tournament) -> dict[int, tuple[int, bool]]:
    """Entry id → (rebuys bought, add-on taken), for the page and the snapshot."""
    found: dict[int, tuple[int, bool]] = {}
    for entry_id, kind in Purchase.objects.filter(
            tournament=tournament, refunded_at__isnull=True).values_list("entry_id", "kind"):
        rebuys, addon = found.get(entry_id, (0, False))
        found[entry_id] = (rebuys + (kind == PurchaseKind.REBUY),
                           addon or kind == PurchaseKind.ADDON)
    return found


def position_of(standings: list[Standing], user_id: int) -> tuple[int, int] | None:
    """The player's rank by chips among those still in, and how many are (None if out)."""
    live = [s for s in standings if s.state in (EntryState.REGISTERED, EntryState.PLAYING)]
    for rank, s in enumerate(live, start=1):
        if s.user_id == user_id:
            return rank, len(live)
    return None


def my_entries(user_id: int) -> list[Entry]:
    """The player's live entries (registered or playing) in tournaments not over, soonest
    first: what the lobby's "Your tournaments" box lists."""
    return list(Entry.objects.filter(user_id=user_id, state__in=ACTIVE)
                .exclude(tournament__state__in=OVER).select_related("tournament")
                .order_by("tournament__starts_at", "tournament_id"))
