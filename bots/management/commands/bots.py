"""`python manage.py bots --table ID --players N [--hands H] [--think S] [--url URL]`, or
`python manage.py bots --sng N [--think S] [--url URL]`, or
`python manage.py bots --tournament ID --players N [--late K] [--reentries R]`.

Bot accounts play a running room over its WebSocket protocol (see bots/client.py and
docs/operations.md). Each bot is given its own free seat before any connects (a bot refused
a seat all the same, taken meanwhile, tries another). Stops after H hands at the table (or on
Ctrl-C: the bots leave and are cashed out first) and prints a summary; exits 1 when a bot met
an unexpected error or never got a seat.

`--sng N` creates a Sit & Go from the demo template for N players (tables/tournaments/demo.py),
registers N bots (the last registration starts it), plays it to the end over the sockets and
prints one line per place, `place N: <name> <prize>` (the prize in minor units), then exits 0
(1 if it did not finish).

`--tournament ID --players N` registers N bots into a scheduled event, K late (`--late`), each
re-entering up to R times (`--reentries`), plays it to the end and prints the places the same
way (bots/tournament.py)."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from bots.client import (
    Bot,
    TableTally,
    bot_accounts,
    bot_wallet_refill,
    session_cookie,
    summary_lines,
)
from bots.tournament import scheduled_tournament
from cashier.money import Currency
from pokerroom.launch import PUBLISHED_ROOM, room_address
from tables.models import Seat, TableConfig
from tables.tournaments.demo import demo_template
from tables.tournaments.models import Entry, TournamentState
from tables.tournaments.services import tournament_create, tournament_register


def room_url() -> str:
    """Where `make run` serves the room: http://$ROOM_HOST:$ROOM_PORT when this shell sets
    them, else the address a running `make run` published (var/room.url: a port given to make
    only), else http://127.0.0.1:8000. A daphne listening on every address (0.0.0.0, ::) is
    reached on the loopback one."""
    if os.environ.get("ROOM_HOST") or os.environ.get("ROOM_PORT"):
        return room_address(os.environ)
    return published_room() or room_address({})


def published_room() -> str | None:
    """The address var/room.url names while the `run` that wrote it is alive."""
    try:
        url, pid = PUBLISHED_ROOM.read_text().split()
        os.kill(int(pid), 0)  # raises if that run is gone (a stale file)
        return url
    except (OSError, ValueError):
        return None


def room_answers(url: str, *, timeout: float = 3.0) -> str | None:
    """None when a room answers at `url` (its /livez), else why not, for people."""
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/livez", timeout=timeout) as response:
            response.read(64)
        return None
    except urllib.error.HTTPError as e:
        return f"it answered {e.code} to /livez: is it the room?"
    except (OSError, ValueError) as e:
        reason = getattr(e, "reason", e)
        return str(reason) or type(reason).__name__


def seats_assign(table: TableConfig, user_ids: list[int]) -> dict[int, int]:
    """A distinct seat for each bot (user id → seat): its own if it sits there already, else
    the lowest free ones in order. CommandError when there are not enough free seats."""
    taken = dict(Seat.objects.filter(table=table).values_list("player_id", "number"))
    free = [n for n in range(1, table.max_seats + 1) if n not in taken.values()]
    newcomers = [uid for uid in user_ids if uid not in taken]
    if len(newcomers) > len(free):
        raise CommandError(f"Table {table.pk} has {len(free)} free seat(s) for "
                           f"{len(newcomers)} bot(s) to seat.")
    picked = dict(zip(newcomers, free, strict=False))
    return {uid: taken.get(uid) or picked[uid] for uid in user_ids}


class Command(BaseCommand):
    help = "Bots play a table of the running room over WebSockets (random legal actions)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--table", type=int, help="Table id.")
        parser.add_argument("--players", type=int, help="Number of bots (2+).")
        parser.add_argument("--sng", type=int, default=0, metavar="N",
                            help="Play a Sit & Go of N bots (2-10) to the end instead.")
        parser.add_argument("--tournament", type=int, default=0, metavar="ID",
                            help="Register --players bots into this scheduled tournament and "
                                 "play it to the end (bots/tournament.py).")
        parser.add_argument("--late", type=int, default=0, metavar="K",
                            help="With --tournament: K more bots register after the start.")
        parser.add_argument("--reentries", type=int, default=0, metavar="R",
                            help="With --tournament: each bot re-enters up to R times.")
        parser.add_argument("--hands", type=int, default=0,
                            help="Stop after this many hands at the table (0: until Ctrl-C).")
        parser.add_argument("--think", type=float, default=0.5,
                            help="Average seconds a bot thinks before acting (0: at once).")
        parser.add_argument("--url", default=None,
                            help="The room's address (default http://$ROOM_HOST:$ROOM_PORT, "
                                 "else where a running `make run` serves, else "
                                 "http://127.0.0.1:8000).")
        parser.add_argument("--prefix", default="bot", help="Bot usernames: <prefix>1, 2, ...")
        parser.add_argument("--seed", type=int, default=None, help="Random seed (reproducible).")
        parser.add_argument("--timeout", type=float, default=0,
                            help="Give up (bots leave) after this many seconds (0: never).")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["sng"]:
            sys.exit(sit_and_go(self.stdout, players=opts["sng"], opts=opts))
        if opts["tournament"]:
            if not opts["players"]:
                raise CommandError("Give --players with --tournament.")
            opts["url"] = opts["url"] or room_url()
            sys.exit(scheduled_tournament(
                self.stdout, tournament_id=opts["tournament"], players=opts["players"],
                late=opts["late"], reentries=opts["reentries"], opts=opts))
        if opts["table"] is None or opts["players"] is None:
            raise CommandError("Give --table and --players, or --sng N.")
        table = TableConfig.objects.filter(pk=opts["table"], is_active=True).first()
        if table is None:
            raise CommandError(f"There is no active table {opts['table']}.")
        if table.currency != Currency.PLAY:
            raise CommandError("Bots only play play-money tables.")
        if not 2 <= opts["players"] <= table.max_seats:
            raise CommandError(f"--players must be 2 to {table.max_seats} at this table.")
        users = bot_accounts(opts["players"], prefix=opts["prefix"])
        for user in users:
            bot_wallet_refill(user, at_least=table.max_buy_in)
        seats = seats_assign(table, [u.pk for u in users])
        opts["url"] = opts["url"] or room_url()
        why = room_answers(opts["url"])
        if why is not None:  # at once, naming the address, rather than 30 s of silent retries
            raise CommandError(f"No room answers at {opts['url']} ({why}). Start it with "
                               "`make run`, or give its address with --url.")
        cookies = [session_cookie(u) for u in users]
        rng = random.Random(opts["seed"])
        tally = TableTally(target=opts["hands"])
        bots = [Bot(url=opts["url"], table_id=table.pk, user_id=u.pk, name=u.username, cookie=c,
                    seat=seats[u.pk], tally=tally, think=opts["think"],
                    rng=random.Random(rng.random()))
                for u, c in zip(users, cookies, strict=True)]
        started = time.monotonic()
        results = asyncio.run(play(bots, timeout=opts["timeout"]))
        for line in summary_lines(results, seconds=time.monotonic() - started):
            self.stdout.write(line)
        self.stdout.write(f"hands finished at the table: {len(tally.ended)}")
        if any(r.errors or r.sat_at is None for r in results):
            sys.exit(1)


LEAVE_GRACE = 60.0
SNG_START_SECONDS = 30.0


def sit_and_go(out: Any, *, players: int, opts: dict[str, Any]) -> int:
    """Create, fill and play a demo Sit & Go; print its places. Returns the exit status."""
    if not 2 <= players <= 10:
        raise CommandError("--sng takes 2 to 10 players.")
    template = demo_template(players)
    tournament = tournament_create(template=template)
    users = bot_accounts(players, prefix=opts["prefix"])
    for user in users:
        bot_wallet_refill(user, at_least=tournament.buy_in + tournament.fee)
        tournament_register(tournament_id=tournament.pk, user=user,
                            key=f"bots-sng-{tournament.pk}-{user.pk}")
    table = None
    waited = time.monotonic()
    while table is None:  # the last registration starts it (else the sweeper does)
        table = TableConfig.objects.filter(tournament=tournament).first()
        if table is None:
            if time.monotonic() - waited > SNG_START_SECONDS:
                raise CommandError(f"Sit & Go {tournament.pk} did not start.")
            time.sleep(0.5)
    out.write(f"Sit & Go {tournament.pk} started at table {table.pk} ({table.name})")
    seats = dict(Seat.objects.filter(table=table).values_list("player_id", "number"))
    rng = random.Random(opts["seed"])
    tally = TableTally(target=0)
    bots = [Bot(url=opts["url"], table_id=table.pk, user_id=u.pk, name=u.username,
                cookie=session_cookie(u), seat=seats[u.pk], tally=tally, think=opts["think"],
                rng=random.Random(rng.random()), tournament=True)
            for u in users]
    started = time.monotonic()
    results = asyncio.run(play(bots, timeout=opts["timeout"]))
    for line in summary_lines(results, seconds=time.monotonic() - started):
        out.write(line)
    finish_by = time.monotonic() + SNG_START_SECONDS
    tournament.refresh_from_db()
    while tournament.state != TournamentState.FINISHED and time.monotonic() < finish_by:
        time.sleep(0.5)  # the last hand's busts are taken when the next one would start
        tournament.refresh_from_db()
    for entry in Entry.objects.filter(tournament=tournament).select_related("user").order_by(
            "place", "pk"):
        out.write(f"place {entry.place}: {entry.user.username} {entry.prize}")
    return 0 if tournament.state == TournamentState.FINISHED else 1


async def play(bots: list[Bot], *, timeout: float = 0) -> list[Any]:
    """Run the bots; Ctrl-C (or the timeout) makes them leave, a second Ctrl-C aborts."""
    loop = asyncio.get_running_loop()
    tasks = [asyncio.create_task(b.run()) for b in bots]
    stopping = False
    leaving: list[asyncio.Task] = []

    def stop() -> None:
        nonlocal stopping
        if stopping:
            for t in tasks:
                t.cancel()
            return
        stopping = True
        for b in bots:
            if not b.stop.is_set() and hasattr(b, "ws"):
                leaving.append(asyncio.create_task(b.finish()))
        loop.call_later(LEAVE_GRACE, stop)  # a hand still running gets this long to end

    loop.add_signal_handler(signal.SIGINT, stop)
    if timeout:
        loop.call_later(timeout, stop)
    for bot, task in zip(bots, tasks, strict=True):
        try:
            await task
        except asyncio.CancelledError:
            bot.result.errors["cancelled"] += 1
        except Exception as e:  # a lost connection is a result to report, not a crash
            bot.result.errors[type(e).__name__] += 1
            bot.result.last_error = bot.result.last_error or str(e)
    return [b.result for b in bots]
