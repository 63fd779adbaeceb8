"""The lock order stated in tables/services/locks.py, enforced: every service that locks runs
here with each statement it sends watched (an execute wrapper, Django's public API), and a
transaction that takes a lock out of the stated order fails the test.

What counts as taking a lock (PostgreSQL): UPDATE and DELETE of a row, SELECT ... FOR
[NO KEY] UPDATE / SHARE (of the tables it names, or of those after OF), and the INSERT that
claims an idempotency record (a unique claim a duplicate waits on). Other INSERTs make new rows
nobody can be waiting for. A transaction starts where psycopg's connection is idle before a
statement. Within one, the first lock of each kind is what is ordered: a later lock of a kind
already held is the same row again, or (ledger accounts) taken in ascending id in one
statement — which the cashier's own tests check.

PostgreSQL only: SQLite takes no row locks (IMMEDIATE transactions)."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from django.utils import timezone

from cashier.models import (
    Deposit,
    HandSettlement,
    IdempotencyRecord,
    LedgerAccount,
    PendingTopUp,
    Withdrawal,
)
from cashier.services import accounts_lock
from tables import services
from tables.models import (
    AutoTopUp,
    ChatMessage,
    DeckEntropy,
    Hand,
    HandEvent,
    HandSummary,
    Seat,
    TableConfig,
    TablePresence,
    TableState,
    TimeoutAllIn,
    WaitingListEntry,
)
from tables.services.auto_topup import auto_top_up_set
from tables.services.chat import chat_hide, chat_say
from tables.services.locks import table_lock, tournament_lock
from tables.services.sweeps import sit_outs_expire
from tables.services.waitlist import waitlist_join, waitlist_leave
from tables.tournaments.models import Entry, Tournament, TournamentEvent
from tables.tournaments.services import (
    tournament_cancel,
    tournament_register,
    tournament_unregister,
)
from tests.tables.helpers import live, play_out, to_act_user
from tests.tables.tournaments.factories import tournament_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

TABLE_ROW = "table row"
TOURNAMENT_ROW = "tournament row"
TOURNAMENT_OWN = (Entry, TournamentEvent)
CASHIER = {IdempotencyRecord: 1, Deposit: 2, Withdrawal: 2, LedgerAccount: 3, PendingTopUp: 4}
TABLE_OWN = (Seat, Hand, HandEvent, HandSummary, HandSettlement, ChatMessage, WaitingListEntry,
             AutoTopUp, TimeoutAllIn, DeckEntropy)
KIND = {TableState._meta.db_table: TABLE_ROW, TableConfig._meta.db_table: "config",
        Tournament._meta.db_table: TOURNAMENT_ROW,
        TablePresence._meta.db_table: "presence",
        **{m._meta.db_table: m.__name__ for m in (*CASHIER, *TABLE_OWN, *TOURNAMENT_OWN)}}
RANK = {m.__name__: rank for m, rank in CASHIER.items()}
OWN = {m.__name__ for m in TABLE_OWN}
TOURNAMENT_OWN_KINDS = {m.__name__ for m in TOURNAMENT_OWN}

NAME = r'"?(\w+)"?'
WRITE = re.compile(rf"\b(UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+{NAME}", re.I)
SELECT_LOCK = re.compile(r"\bFOR\s+(NO\s+KEY\s+UPDATE|UPDATE|SHARE|KEY\s+SHARE)(?:\s+OF\s+([\w\", ]+))?",
                         re.I)
FROM = re.compile(rf"\b(?:FROM|JOIN)\s+{NAME}(?:\s+(?:AS\s+)?(?!WHERE|JOIN|ON|LEFT|INNER|ORDER)(\w+))?",
                  re.I)


def locks_of(sql: str) -> list[str]:
    """The kinds of rows `sql` locks, in the order it names them (unknown tables left out)."""
    found: list[tuple[int, str]] = []
    for m in WRITE.finditer(sql):
        verb, name = m.group(1).split()[0].upper(), m.group(2)
        if verb == "INSERT" and name != IdempotencyRecord._meta.db_table:
            continue
        found.append((m.start(), name))
    lock = SELECT_LOCK.search(sql)
    if lock:
        tables = [(m.start(), m.group(1), m.group(2)) for m in FROM.finditer(sql[:lock.start()])]
        of = {a.strip().strip('"') for a in lock.group(2).split(",")} if lock.group(2) else None
        found += [(pos, name) for pos, name, alias in tables
                  if of is None or name in of or alias in of]
    return [KIND[name] for _pos, name in sorted(found) if name in KIND]


@dataclass
class Transaction:
    statements: list[str] = field(default_factory=list)
    locks: list[tuple[str, str]] = field(default_factory=list)  # (kind, statement)


@dataclass
class Recorder:
    transactions: list[Transaction] = field(default_factory=list)
    off: bool = False

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool,
                 context: dict[str, Any]) -> Any:
        if self.off:
            return execute(sql, params, many, context)
        raw = context["connection"].connection
        if not self.transactions or raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            self.transactions.append(Transaction())
        current = self.transactions[-1]
        current.statements.append(sql)
        current.locks += [(kind, sql) for kind in locks_of(sql)]
        return execute(sql, params, many, context)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The test's own writes (a deadline moved back): not a service's."""
        self.transactions.append(Transaction())
        self.off = True
        try:
            yield
        finally:
            self.off = False
            self.transactions.append(Transaction())

    def taken(self) -> list[list[str]]:
        return [[kind for kind, _sql in t.locks] for t in self.transactions if t.locks]

    def violations(self) -> list[str]:
        return [problem for t in self.transactions for problem in out_of_order(t)]


def out_of_order(t: Transaction) -> list[str]:
    """What in `t` breaks the order of locks.py (empty when nothing does)."""
    problems, held, cashier_top = [], set(), 0
    kinds = {kind for kind, _ in t.locks}
    for kind, sql in t.locks:
        short = " ".join(sql.split())[:140]
        if kind == "config":
            problems.append(f"the TableConfig row is never locked: {short}")
        elif kind == "presence" and kinds - {"presence"}:
            problems.append(f"presence rows are locked on their own, not with {kinds}: {short}")
        elif kind == TOURNAMENT_ROW and TOURNAMENT_ROW not in held and held:
            problems.append(f"the tournament row after {sorted(held)}: {short}")
        elif kind in TOURNAMENT_OWN_KINDS and TOURNAMENT_ROW not in held:
            problems.append(f"{kind} without its tournament row held: {short}")
        elif kind == TABLE_ROW and TABLE_ROW not in held and held - {TOURNAMENT_ROW}:
            problems.append(f"the table row after {sorted(held)}: {short}")
        elif kind in OWN and TABLE_ROW not in held:
            problems.append(f"{kind} without its table row held: {short}")
        elif kind in RANK and kind not in held:
            if RANK[kind] < cashier_top:
                problems.append(f"{kind} after a later cashier lock: {short}")
            cashier_top = max(cashier_top, RANK[kind])
        held.add(kind)
    return problems


@contextmanager
def recorded() -> Iterator[Recorder]:
    recorder = Recorder()
    with connection.execute_wrapper(recorder):
        yield recorder


def test_the_recognised_statements():
    """The recogniser itself, on the statements the room sends."""
    assert locks_of('UPDATE "tables_tablestate" ts SET "version" = ts."version" FROM '
                    '"tables_tableconfig" tc WHERE ts."table_id" = %s') == [TABLE_ROW]
    assert locks_of('SELECT s."id" FROM "tables_seat" s JOIN "accounts_user" u ON u."id" = '
                    's."player_id" WHERE s."table_id" = %s ORDER BY s."id" FOR NO KEY UPDATE OF s'
                    ) == ["Seat"]
    assert locks_of('SELECT "cashier_ledgeraccount"."id" FROM "cashier_ledgeraccount" WHERE '
                    '"cashier_ledgeraccount"."id" IN (%s, %s) ORDER BY 1 FOR NO KEY UPDATE'
                    ) == ["LedgerAccount"]
    assert locks_of('WITH w0 AS (UPDATE "tables_seat" SET "chips" = %s WHERE "id" = %s), '
                    'w1 AS (INSERT INTO "tables_handevent" ("table_id") VALUES (%s)) '
                    'UPDATE "tables_tablestate" SET "version" = %s WHERE "table_id" = %s'
                    ) == ["Seat", TABLE_ROW]
    assert locks_of('INSERT INTO "cashier_idempotencyrecord" ("key") VALUES (%s)') \
        == ["IdempotencyRecord"]
    assert locks_of('SELECT "tables_seat"."id" FROM "tables_seat" WHERE "id" = %s') == []


def test_a_service_that_takes_locks_out_of_order_is_caught(play_table, make_player, sit):
    """Deliberately reordered steps: each must be reported."""
    alice = make_player("alice")
    seat = sit(play_table, alice, 1)
    wallet = LedgerAccount.objects.filter(user=alice).first()
    with recorded() as rec, transaction.atomic():  # the seat before its table row
        Seat.objects.select_for_update().get(pk=seat.pk)
        table_lock(play_table.pk)
    assert any("without its table row" in p for p in rec.violations()), rec.violations()
    with recorded() as rec, transaction.atomic():  # the cashier's accounts before the table row
        accounts_lock([wallet])
        table_lock(play_table.pk)
    assert any("the table row after ['LedgerAccount']" in p for p in rec.violations()), \
        rec.violations()
    with recorded() as rec, transaction.atomic():  # pending top-ups before ledger accounts
        table_lock(play_table.pk)
        list(PendingTopUp.objects.select_for_update().filter(seat=seat))
        accounts_lock([wallet])
    assert any("LedgerAccount after a later cashier lock" in p for p in rec.violations()), \
        rec.violations()


def test_every_service_that_locks_takes_its_locks_in_the_stated_order(
        make_table, make_player, sit, fake_timers, monkeypatch):
    """A table through everything its services do: seats taken and left (now and after a
    hand), top-ups by hand and by standing order, sit out / in, post or wait for the big
    blind, hands started, acted on (under the lock and on the copy), timed out (the time bank,
    then the rule: a sit-out), ended with a raked settlement, cards shown after the hand,
    always show, the reconnect bonus, chat said and hidden, a waiting list's offers, the
    sit-out limit's sweep, presence."""
    monkeypatch.setattr("tables.services.waitlist.offer_expire_schedule", lambda **kw: None)
    table = make_table(name="Order", structure="NL", lower_stake=2, max_seats=3,
                       hand_pause_seconds=60, rake_percent=5, rake_cap=10, time_bank_seconds=5, time_bank_cap_seconds=5,
                       sit_out_limit_minutes=1, chat_spectators=True)
    alice, bob, carol, dave = (make_player(n) for n in ("alice", "bob", "carol", "dave"))
    staff = make_player("staff")
    staff.is_staff = True
    staff.save()
    with recorded() as rec:
        for number, user in enumerate((alice, bob, carol), start=1):
            sit(table, user, number)
        waitlist_join(table_id=table.pk, user=dave)
        services.presence_join(table_id=table.pk, user_id=alice.pk)
        services.presence_leave(table_id=table.pk, user_id=alice.pk)
        auto_top_up_set(table=table, user_id=bob.pk, mode="max")
        services.seat_always_show(table_id=table.pk, user_id=carol.pk, on=True)
        message = chat_say(table_id=table.pk, user_id=alice.pk, text="hello")
        chat_hide(message_id=message.pk, by_user_id=staff.pk)

        services.hand_start(table_id=table.pk, force=True)
        for _ in range(2):  # under the lock, then on the copy
            user_id = to_act_user(table.pk)
            services.act(table_id=table.pk, user_id=user_id, action="call")
        hand = live(table.pk)[1]
        services.hand_reconnect_bonus(table_id=table.pk, user_id=to_act_user(table.pk),
                                      dropped_at=hand.turn_started_at)
        for _ in range(2):  # the time bank, then the timeout rule (he sits out)
            hand = live(table.pk)[1]
            with rec.paused():
                Hand.objects.filter(pk=hand.pk).update(
                    deadline=timezone.now() - timezone.timedelta(seconds=1))
            services.hand_timeout(hand_id=hand.pk, version=hand.version)
        services.seat_leave(table_id=table.pk, user_id=carol.pk, idempotency_key="c-leaves")
        folded = None
        while (user_id := to_act_user(table.pk)) is not None:  # one folds, the rest check
            if folded is None and live(table.pk)[2].board:
                folded = user_id
            action = "fold" if user_id == folded else "check"
            try:
                services.act(table_id=table.pk, user_id=user_id, action=action)
            except services.TableError:
                services.act(table_id=table.pk, user_id=user_id, action="call")
        services.hand_show(table_id=table.pk, user_id=folded)  # raked: the flop was seen
        assert not Seat.objects.filter(player=carol).exists()  # left after the hand
        low = Seat.objects.filter(table=table).order_by("chips").first()
        services.seat_top_up(table_id=table.pk, user_id=low.player_id, amount=1,
                             idempotency_key="tops-up")
        absent = Seat.objects.filter(table=table, status="sitting_out").first()
        if absent is not None:
            services.sit_in(table_id=table.pk, user_id=absent.player_id)
        services.sit_out(table_id=table.pk, user_id=alice.pk)
        services.sit_in(table_id=table.pk, user_id=alice.pk)
        sit(table, dave, 3)  # the offer's seat; he waits for the big blind
        services.post_big_blind_now(table_id=table.pk, user_id=dave.pk)
        services.wait_for_big_blind(table_id=table.pk, user_id=dave.pk)
        services.hand_start(table_id=table.pk, force=True)  # top-ups join, standing order
        play_out(table.pk, passive=True)
        services.sit_out(table_id=table.pk, user_id=dave.pk)
        with rec.paused():
            Seat.objects.filter(player=dave).update(
                sat_out_at=timezone.now() - timezone.timedelta(minutes=5))
        assert sit_outs_expire(table_id=table.pk) == 1
        waitlist_leave_after = make_player("erin")
        sit(table, waitlist_leave_after, 3)  # full again: frank waits, then leaves the list
        frank = make_player("frank")
        waitlist_join(table_id=table.pk, user=frank)
        waitlist_leave(table_id=table.pk, user_id=frank.pk)
    assert rec.violations() == [], "\n".join(rec.violations())
    kinds = {kind for taken in rec.taken() for kind in taken}
    assert {TABLE_ROW, "IdempotencyRecord", "LedgerAccount", "PendingTopUp", "Seat", "Hand",
            "ChatMessage", "WaitingListEntry", "DeckEntropy", "presence"} <= kinds, kinds


def test_tournament_services_take_the_tournament_row_first(make_player):
    """Registering (and its retry), re-registering, unregistering and cancelling: the
    tournament row, then the cashier's rows; entries only under the tournament row."""
    event = tournament_make()
    ann, bob = make_player("ann"), make_player("bob")
    with recorded() as rec:
        tournament_register(tournament_id=event.pk, user=ann, key="ann-in")
        tournament_register(tournament_id=event.pk, user=ann, key="ann-in")
        tournament_register(tournament_id=event.pk, user=bob, key="bob-in")
        tournament_unregister(tournament_id=event.pk, user=bob, key="bob-out")
        tournament_cancel(tournament_id=event.pk)
    assert rec.violations() == [], "\n".join(rec.violations())
    assert rec.taken()[0][:3] == [
        TOURNAMENT_ROW, "IdempotencyRecord", "LedgerAccount"]
    assert {"Entry", TOURNAMENT_ROW} <= {kind for taken in rec.taken() for kind in taken}


def test_a_sit_and_go_played_to_its_end_takes_the_tournament_row_first(make_player,
                                                                       fake_timers):
    """Its start (the tournament row, then its new table's), every hand start (the row,
    then the table's: busts, the clock) and the end (prizes: the cashier's rows last)."""
    import random

    event = tournament_make()
    players = [make_player(f"p{k}") for k in range(6)]
    with recorded() as rec:
        for player in players:
            tournament_register(tournament_id=event.pk, user=player, key=f"in-{player.pk}")
        table = TableConfig.objects.get(tournament=event)
        rng = random.Random(6)
        while services.hand_start(table_id=table.pk, force=True) is not None:
            play_out(table.pk, rng=rng)
    assert rec.violations() == [], "\n".join(rec.violations())
    assert Tournament.objects.get(pk=event.pk).state == "finished"
    assert [TOURNAMENT_ROW, TABLE_ROW] in [taken[:2] for taken in rec.taken()]
    assert any(taken[:2] == [TOURNAMENT_ROW, TABLE_ROW] and "LedgerAccount" in taken
               for taken in rec.taken())  # the end: the prizes paid after the table


def test_a_tournament_row_locked_late_is_caught(make_player):
    event = tournament_make()
    wallet = LedgerAccount.objects.filter(user=make_player("ann")).first()
    with recorded() as rec, transaction.atomic():
        accounts_lock([wallet])
        tournament_lock(event.pk)
    assert any("the tournament row after ['LedgerAccount']" in p for p in rec.violations()), \
        rec.violations()
    with recorded() as rec, transaction.atomic():
        Entry.objects.filter(tournament=event).update(chips=0)
    assert any("Entry without its tournament row" in p for p in rec.violations()), \
        rec.violations()


@pytest.mark.django_db(transaction=False)
def test_table_and_seat_locks_are_taken_only_in_locks_py():
    """The SQL that locks a table row or its seats (table_sql.py) is called from locks.py alone,
    and no other tables module locks rows with the ORM (presence rows aside)."""
    root = Path(__file__).resolve().parents[3] / "tables"
    callers = {}
    for path in root.rglob("*.py"):
        text = path.read_text()
        name = str(path.relative_to(root))
        for needle in ("table_row_lock(", "table_seats(", "select_for_update("):
            for line in text.splitlines():
                code = line.split("#")[0]
                if needle in code and not code.lstrip().startswith("def "):
                    if needle == "table_seats(" and "lock=True" not in code:
                        continue
                    callers.setdefault(needle, set()).add(name)
    assert callers.get("table_row_lock(") == {"services/locks.py"}
    assert callers.get("table_seats(") == {"services/locks.py"}
    assert callers.get("select_for_update(", set()) == {"services/locks.py",
                                                         "services/presence.py"}


def test_a_multi_table_step_locks_all_its_tables_in_ascending_id_after_its_tournament(
        make_player, fake_timers):
    """A scheduled event's hand start holds the tournament's row, then every one of its
    tables in ascending id (the lock order's one exception): busts across tables, moves."""
    import random

    from tests.tables.tournaments.services.test_mtt import bust, started, tables_of

    event, _users = started(make_player, 12)
    tables = tables_of(event)
    order: list[list[int]] = []

    def watch(execute: Callable[..., Any], sql: str, params: Any, many: bool,
              context: dict[str, Any]) -> Any:
        raw = context["connection"].connection
        if not order or raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            order.append([])
        if re.search(r'UPDATE "tables_tablestate" ts SET "version" = ts\."version"', sql):
            order[-1].append(int(params[0]))  # table_sql.table_row_lock: the table's lock
        return execute(sql, params, many, context)

    rng = random.Random(7)
    with recorded() as rec, connection.execute_wrapper(watch):
        for table in tables:
            services.hand_start(table_id=table.pk, force=True)
            play_out(table.pk, rng=rng, passive=True)
        with rec.paused():  # the test's own writes
            bust(tables[0], 3)  # 9 left: a table of 3 and one of 6; balancing moves one
        services.hand_start(table_id=tables[0].pk, force=True)
    assert rec.violations() == [], "\n".join(rec.violations())
    several = [ids for ids in order if len(set(ids)) > 1]
    assert several and all(ids == sorted(ids) for ids in several), order
    assert any(taken[:3] == [TOURNAMENT_ROW, TABLE_ROW, TABLE_ROW] for taken in rec.taken())
    assert TournamentEvent.objects.filter(tournament=event, type="moved").exists()
