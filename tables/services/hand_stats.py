"""Player statistics: each finished hand's counters (tables/engine/hand_stats.py) added to a
`PlayerStats` row for every pair of players dealt into it — the viewer sees the subject's
play in the hands they shared, counted from the public events only — and for every logged-in
spectator who watched the whole hand (a socket open at the table since before its deal, still
open when it is counted: `presence.watchers_since`). Watching costs no write per hand: the
presence row a socket writes when it opens says since when.

The step runs in the Celery task `tables.hand_stats`, queued on the hand's commit (effects.py):
never on a table step's path. It is idempotent: its first write claims the hand
(`HandStatsCounted`, a unique INSERT), so a redelivered task adds nothing.

Locks (tables/services/locks.py): none of the table's. The claim first, then the pairs'
PlayerStats rows in ascending (subject, viewer) order, in one statement: two hands counted at
once lock their shared rows in the same order."""
from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction

from tables.engine.hand_stats import COUNTER_NAMES, Counters, hand_counters
from tables.models import Hand, HandEvent, HandStatsCounted, PlayerStats
from tables.services.presence import watchers_since


def hand_stats_count(*, hand_id: int) -> bool:
    """Add the finished hand's counters for every pair of players dealt into it, and for its
    watchers' view of each player. False when it was counted already, is not finished, or is
    gone."""
    hand = Hand.objects.filter(pk=hand_id, finished_at__isnull=False).first()
    if hand is None:
        return False
    events = list(HandEvent.objects.filter(hand_id=hand_id).order_by("version")
                  .values_list("payload", flat=True))
    start = next((e for e in events if e.get("type") == "hand_start"), None)
    if start is None:
        return False
    player_of = {int(p["seat"]): int(p["player_id"]) for p in start.get("players", ())}
    counts = {player_of[seat]: c for seat, c in hand_counters(events).items() if seat in player_of}
    watchers = watchers_since(table_id=hand.table_id, since=hand.started_at) - set(counts)
    try:
        with transaction.atomic():
            HandStatsCounted.objects.create(hand_id=hand_id)
            _add(counts, watchers)
    except IntegrityError:  # claimed already: a redelivery, or another worker's run
        return False
    return True


def _add(counts: dict[int, Counters], watchers: set[int]) -> None:
    """Add `counts` (subject → counters) to each (viewer, subject) row of the players dealt
    in and the watchers, creating the missing rows: one upsert whatever the players. Its rows
    go in ascending (subject, viewer) order, the order it locks them in. Plain SQL (the same on
    PostgreSQL and SQLite): the ORM's bulk create, lock and CASE update took 8 ms of the
    worker's CPU a hand to build; this takes a fifth of it."""
    viewers = sorted(set(counts) | watchers)
    added = {subject: counters.as_dict() for subject, counters in counts.items()}
    rows = [(viewer, subject, *(added[subject][name] for name in COUNTER_NAMES))
            for subject in sorted(counts) for viewer in viewers]
    if not rows:  # nobody dealt in: nothing to add (VALUES needs a row)
        return
    table = connection.ops.quote_name(PlayerStats._meta.db_table)
    columns = ("viewer_id", "subject_id", *COUNTER_NAMES)
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(rows))
    sums = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in COUNTER_NAMES)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} "
            f"ON CONFLICT (viewer_id, subject_id) DO UPDATE SET {sums}",
            [value for row in rows for value in row])


@dataclass(frozen=True)
class StatsView:
    """The pop-up's figures: percentages rounded to whole numbers, None before any chance."""

    hands: int
    vpip: int | None
    pfr: int | None
    three_bet: int | None
    aggression: float | None  # postflop (bets + raises) / calls; None without a call

    def as_dict(self) -> dict[str, int | float | None]:
        return {"hands": self.hands, "vpip": self.vpip, "pfr": self.pfr,
                "three_bet": self.three_bet, "aggression": self.aggression}


def stats_of(*, viewer_id: int, subject_id: int) -> StatsView:
    """`subject_id`'s figures in the hands `viewer_id` was dealt into with him."""
    row = PlayerStats.objects.filter(viewer_id=viewer_id, subject_id=subject_id).first()
    if row is None:
        return StatsView(0, None, None, None, None)

    def percent(part: int, whole: int) -> int | None:
        return round(100 * part / whole) if whole else None

    return StatsView(
        hands=row.hands, vpip=percent(row.vpip, row.hands), pfr=percent(row.pfr, row.hands),
        three_bet=percent(row.three_bets, row.three_bet_chances),
        aggression=(round(row.postflop_aggressive / row.postflop_calls, 1)
                    if row.postflop_calls else None))
