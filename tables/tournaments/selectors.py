"""Read-only views of tournaments for the lobby's Tournaments tab and a tournament's page."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from tables.tournaments.engine.payouts import PayoutBand, percents_for, prizes
from tables.tournaments.models import ACTIVE, OVER, Entry, EntryState, Tournament, TournamentState

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
    prize_pool: int  # minor units: the buy-ins, or the guarantee when it is more

    @property
    def prize_pool_label(self) -> str:
        return self.tournament.money_label(self.prize_pool)

    @property
    def buy_in_label(self) -> str:
        t = self.tournament
        return f"{t.money_label(t.buy_in)} + {t.money_label(t.fee)}"


def _counted(tournaments: Any) -> Any:
    return tournaments.annotate(
        paid=Count("entries", filter=Q(entries__refunded_at__isnull=True)),
        left=Count("entries", filter=Q(entries__state__in=ACTIVE)),
    )


def _row(t: Any) -> TournamentRow:
    return TournamentRow(tournament=t, entries=t.paid, players_left=t.left,
                         prize_pool=prize_pool_of(t, t.paid))


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


def tournament_page(tournament_id: int) -> tuple[TournamentRow, list[Standing],
                                                 list[tuple[int, int, int]]]:
    """The row, the entries (still in by chips, then the busted by place) and the payouts for
    the field so far: (place, basis points, amount)."""
    row = _row(_counted(Tournament.objects.filter(pk=tournament_id)).get())
    entries = (row.tournament.entries.filter(refunded_at__isnull=True)
               .select_related("user").order_by("place", "-chips", "pk"))
    standings = [Standing(name=e.user.table_name, user_id=e.user_id, number=e.number,
                          state=e.state, chips=e.chips if e.state in ACTIVE else 0,
                          place=e.place, prize=e.prize, table_id=e.table_id) for e in entries]
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


def prize_pool_of(tournament: Tournament, entries: int) -> int:
    """The buy-ins paid, or the guarantee while it is more."""
    return max(entries * tournament.buy_in, int(tournament.structure.get("guarantee") or 0))


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
