"""The end of a tournament: final places, prizes from the payout table for the field, paid
from the prize pool (buy-ins, rebuys and add-ons, or the guarantee) through the cashier in the
same transaction."""
from __future__ import annotations

import datetime
from collections import defaultdict

from cashier.errors import CashierError
from cashier.services import tournament_pay
from tables.tournaments.engine.payouts import PayoutBand, percents_for, prizes
from tables.tournaments.engine.ranking import Finish, awards
from tables.tournaments.models import Entry, EntryState, Tournament, TournamentState
from tables.tournaments.selectors import prize_pool_of, purchased_of
from tables.tournaments.services.eventlog import TournamentLog


def prizes_key(tournament: Tournament) -> str:
    """The cashier key of a tournament's prizes: one payment per tournament."""
    return f"tournament-{tournament.pk}-prizes"


def finishes_of(entries: list[Entry]) -> list[Finish]:
    """Each placed entry's finish: entries stored with the same place tied for it and the
    places below it (ranking.py gives tied entries their best place)."""
    tied: dict[int, list[Entry]] = defaultdict(list)
    for entry in entries:
        if entry.place is not None:
            tied[entry.place].append(entry)
    return [Finish(str(e.pk), place, place + len(group) - 1)
            for place, group in sorted(tied.items()) for e in group]


def payout_percents(tournament: Tournament, field: int) -> tuple[int, ...]:
    """The paid places' shares (basis points) for a field of `field` entries."""
    bands = tuple(PayoutBand(t["min_entries"], t["max_entries"], tuple(t["places"]))
                  for t in sorted(tournament.structure["payouts"],
                                  key=lambda t: t["min_entries"]))
    return percents_for(bands, field)


def tournament_finish(tournament: Tournament, winner: Entry, log: TournamentLog,
                      now: datetime.datetime) -> dict[int, int]:
    """Place the winner first, award every placed entry its prize (ties split, ranking.py),
    pay them from the pool (`tournament_pay`: the pool ends empty) and mark the tournament
    finished; records `finished` with the places. Returns the prizes by entry id.
    Needs the tournament row locked (then takes the cashier's rows)."""
    winner.place = 1
    winner.save(update_fields=["place"])
    entries = list(Entry.objects.filter(tournament=tournament)
                   .exclude(state=EntryState.UNREGISTERED).select_related("user"))
    field = len(entries)
    guarantee = tournament.structure.get("guarantee", 0) or 0
    pool = prize_pool_of(tournament, field, purchased_of(tournament))
    won = {int(entry): amount for entry, amount in
           awards(finishes_of(entries), prizes(pool, payout_percents(tournament, field))).items()}
    by_user: dict[int, int] = defaultdict(int)
    for entry in entries:
        entry.prize = won.get(entry.pk, 0)
        by_user[entry.user_id] += entry.prize
    Entry.objects.bulk_update(entries, ["prize"])
    paid = {user: amount for user, amount in by_user.items() if amount > 0}
    if paid:
        try:
            tournament_pay(tournament_id=tournament.pk, currency=tournament.currency,
                           prizes=paid, key=prizes_key(tournament), guarantee=guarantee)
        except CashierError as e:  # a bug, never a player's: keep the tournament running
            raise RuntimeError(f"paying tournament {tournament.pk} failed: {e.code}: "
                               f"{e.message}") from e
    tournament.state, tournament.finished_at = TournamentState.FINISHED, now
    tournament.save(update_fields=["state", "finished_at"])
    log.add({"type": "finished", "places": [
        {"place": e.place, "player": e.user.table_name, "player_id": e.user_id,
         "entry": e.number, "prize": e.prize}
        for e in sorted(entries, key=lambda e: (e.place or field + 1, e.pk))]})
    return won
