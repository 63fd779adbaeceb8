"""`manage.py bots --tournament ID --players N [--late K] [--reentries R]`: bots in a scheduled
multi-table tournament.

N bots register before the start; at the start time the room's sweeper starts the event (or
cancels it short of its minimum field). K more bots register late, while late registration
is open. Each bot plays at the table its entry sits at; when a move takes its seat away
(`seat_left` with `moved_to`) it follows its entry to the new table, and when it busts it
re-enters while the tournament offers it, up to R times. At the end the command prints one
line per entry, `place N: <name> <prize>`, as `--sng` does."""
from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.core.management.base import CommandError
from django.utils import timezone

from bots.client import Bot, TableTally, bot_accounts, bot_wallet_refill, session_cookie
from tables.errors import TableError
from tables.tournaments.models import (
    OVER,
    STARTED,
    Entry,
    EntryState,
    Tournament,
    TournamentKind,
    TournamentState,
)
from tables.tournaments.services import tournament_register

START_GRACE = 30.0  # after the start time: the sweeper runs every few seconds
POLL = 0.3


def scheduled_tournament(out: Any, *, tournament_id: int, players: int, late: int,
                         reentries: int, opts: dict[str, Any]) -> int:
    """Register the bots, play the event to its end, print the places. The exit status."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.kind != TournamentKind.SCHEDULED:
        raise CommandError(f"There is no scheduled tournament {tournament_id}.")
    if tournament.state != TournamentState.REGISTERING:
        raise CommandError(f"Tournament {tournament_id} is {tournament.state}, not registering.")
    if players < 1 or late < 0 or reentries < 0:
        raise CommandError("--players must be 1 or more; --late and --reentries 0 or more.")
    users = bot_accounts(players + late, prefix=opts["prefix"])
    for user in users:
        bot_wallet_refill(user, at_least=(1 + reentries) * (tournament.buy_in + tournament.fee))
    for user in users[:players]:
        entry_buy(tournament, user, 1)
    out.write(f"{players} bots registered in {tournament.name} #{tournament.pk}")
    wait = max(0.0, (tournament.starts_at - timezone.now()).total_seconds()) + START_GRACE
    deadline = time.monotonic() + wait
    while tournament.state == TournamentState.REGISTERING and time.monotonic() < deadline:
        time.sleep(POLL)
        tournament.refresh_from_db()
    if tournament.state not in STARTED:
        out.write(f"Tournament {tournament.pk} did not start ({tournament.state}).")
        return 1
    out.write(f"Tournament {tournament.pk} started")
    for user in users[players:]:  # late registration
        entry_buy(tournament, user, 1)
    rng = random.Random(opts["seed"])
    pilots = [Pilot(tournament=tournament, user=u, reentries=reentries, opts=opts,
                    rng=random.Random(rng.random())) for u in users]
    asyncio.run(fly(pilots, timeout=opts["timeout"]))
    tournament.refresh_from_db()
    for entry in Entry.objects.filter(tournament=tournament).select_related("user").order_by(
            "place", "pk"):
        out.write(f"place {entry.place}: {entry.user.username} {entry.prize}")
    return 0 if tournament.state == TournamentState.FINISHED else 1


def entry_buy(tournament: Tournament, user: Any, number: int) -> Entry | None:
    """Register (or re-enter) through the service, with a key per entry: a retry enters once.
    None when refused (registration closed, no re-entry left)."""
    try:
        return tournament_register(tournament_id=tournament.pk, user=user,
                                   key=f"bots-mtt-{tournament.pk}-{user.pk}-{number}")
    except TableError:
        return None


class Pilot:
    """One bot through the event: it plays at its entry's table, follows its moves, re-enters
    after a bust while the tournament allows it, and stops when it is out or the event over."""

    def __init__(self, *, tournament: Tournament, user: Any, reentries: int,
                 opts: dict[str, Any], rng: random.Random) -> None:
        self.tournament_id, self.user, self.reentries = tournament.pk, user, reentries
        self.opts, self.rng = opts, rng
        self.cookie = session_cookie(user)
        self.tally = TableTally(target=0)

    def where(self) -> tuple[str, int | None, int | None]:
        """('play', table, seat), ('wait', ...) for a seat, ('reenter', ...) or ('done', ...)."""
        tournament = Tournament.objects.get(pk=self.tournament_id)
        entry = Entry.objects.filter(tournament_id=self.tournament_id,
                                     user=self.user).order_by("-number").first()
        if tournament.state in OVER or entry is None:
            return "done", None, None
        if entry.state == EntryState.PLAYING and entry.table_id:
            return "play", entry.table_id, entry.seat
        if entry.state == EntryState.BUSTED:
            if entry.number <= self.reentries and tournament.registration_open:
                return "reenter", entry.number + 1, None
            return "done", None, None
        return "wait", None, None

    async def run(self) -> None:
        where = sync_to_async(self.where, thread_sensitive=True)
        buy = sync_to_async(entry_buy, thread_sensitive=True)
        while True:
            state, table_id, seat = await where()
            if state == "done":
                return
            if state == "reenter":
                tournament = await sync_to_async(Tournament.objects.get)(pk=self.tournament_id)
                if await buy(tournament, self.user, table_id) is None:
                    return
                continue
            if state == "wait":
                await asyncio.sleep(POLL)
                continue
            bot = Bot(url=self.opts["url"], table_id=table_id, user_id=self.user.pk,
                      name=self.user.username, cookie=self.cookie, seat=seat, tally=self.tally,
                      think=self.opts["think"], rng=random.Random(self.rng.random()),
                      tournament=True)
            playing = asyncio.create_task(bot.run())  # until its seat goes
            while not playing.done():  # (a move it missed: its entry is elsewhere now)
                await asyncio.wait([playing], timeout=2.0)
                if not playing.done() and (await where())[:2] != ("play", table_id):
                    bot.stop.set()
                    playing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await playing


async def fly(pilots: list[Pilot], *, timeout: float = 0) -> None:
    tasks = [asyncio.create_task(p.run()) for p in pilots]
    done, pending = await asyncio.wait(tasks, timeout=timeout or None)
    for task in pending:
        task.cancel()
    for task in done:
        task.result()
