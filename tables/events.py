"""The table protocol's one vocabulary: every event a table records and the snapshot a socket
gets, typed, and the one redaction that decides who sees what of an event (docs/protocol.md is
checked against this module).

Events are complete: a client that applies them in order, from a snapshot, knows everything it
shows (pots and side pots, the street, who is to act and what he may do, stacks, statuses,
blinds owed, recent hands), so snapshots serve only connect, reconnect and gaps.

An event is recorded once (HandEvent) as its public payload plus, for events addressed to one
player (`PRIVATE`), that player's own copy. Everyone else — opponents, spectators, admins,
hand histories — sees the public payload only.
"""
# No `from __future__ import annotations` here: Python 3.11 reads NotRequired only from
# evaluated annotations.
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, get_args, get_origin, get_type_hints

Cards = list[str]


class SeatTaken(TypedDict):
    """A player sat down with `stack` chips."""

    type: Literal["seat_taken"]
    seat: int
    player_id: int
    name: str
    avatar: str  # a key (accounts/avatars.py), drawn by /accounts/avatars/<key>.svg
    stack: int
    status: str
    next_commitment: NotRequired[str]  # the table's first deck, committed (dealing.py)


class SeatLeft(TypedDict):
    """The seat is free again; `cashed_out` went back to the wallet. At a tournament table,
    `moved_to` names the table the player was moved to (balancing, a broken table)."""

    type: Literal["seat_left"]
    seat: int
    player_id: int
    cashed_out: int
    moved_to: NotRequired[int]


class TableClosed(TypedDict):
    """A tournament's table broke (its players were moved) or the tournament ended: no hand
    is dealt here again."""

    type: Literal["table_closed"]


class Leaving(TypedDict):
    """Will leave when the current hand ends."""

    type: Literal["leaving"]
    seat: int


class Status(TypedDict):
    """Sit out / in, post or wait for the big blind, a blind missed while sitting out, sit out
    when the big blind comes (`sit_out_next_bb`)."""

    type: Literal["status"]
    seat: int
    status: str
    post_bb: bool
    missed_blinds: bool
    sit_out_next_bb: bool


class TopUp(TypedDict):
    """Chips bought; they join the stack when the next hand starts."""

    type: Literal["top_up"]
    seat: int
    amount: int
    pending: bool


class Stacks(TypedDict):
    """Stacks after a hand settled, top-ups joined, or (a tournament table) rebuy and add-on
    chips joined at a hand start: {"<seat>": chips}."""

    type: Literal["stacks"]
    stacks: dict[str, int]


class HandPlayer(TypedDict):
    seat: int
    player_id: int
    name: str
    stack: int


class HandStart(TypedDict):
    """A hand begins: `seats` dealt in dealing order, from the deck committed as `commitment`
    before the deal; `next_commitment` binds the next hand's deck (clients answer it with
    entropy, tables/services/dealing.py)."""

    type: Literal["hand_start"]
    hand_id: int
    number: int
    button: int
    seats: list[int]
    commitment: str
    next_commitment: str
    small_blind: int
    big_blind: int
    players: list[HandPlayer]


class PostedBlind(TypedDict):
    """A live blind (`sb`, `bb`, `extra_bb`) or the straddle under the gun (`straddle`)."""

    type: Literal["posted_blind"]
    seat: int
    kind: str
    amount: int
    stack: int


class PostedAnte(TypedDict):
    """A dead ante."""

    type: Literal["posted_ante"]
    seat: int
    kind: str
    amount: int
    stack: int


class HoleCards(TypedDict):
    """Cards dealt to `seat`: `cards` only in his own copy."""

    type: Literal["hole_cards"]
    seat: int
    cards: NotRequired[Cards]


class Turn(TypedDict):
    """`seat` is to act on `street` (`showdown`: show or muck); `legal` only in his copy."""

    type: Literal["turn"]
    seat: int
    street: str
    deadline: str | None
    countdown_at: str | None
    legal: NotRequired[dict[str, Any] | None]


class DeadlineExtended(TypedDict):
    """The reconnect bonus."""

    type: Literal["deadline_extended"]
    seat: int
    deadline: str | None
    countdown_at: str | None
    reason: str


class TimeBank(TypedDict):
    """The countdown of `seat` ended and his time bank runs: `seconds` (all of it) more, to
    `deadline`; the countdown shown runs from `countdown_at` (its start) to `deadline`."""

    type: Literal["time_bank"]
    seat: int
    deadline: str | None
    countdown_at: str | None
    seconds: int


class TimeBanks(TypedDict):
    """Time banks that changed, {"<seat>": seconds}: `seated` (the starting bank), `used` (what
    is left after a turn that used it), `refill` (topped up at a hand's start)."""

    type: Literal["time_banks"]
    banks: dict[str, int]
    reason: str


class Action(TypedDict):
    """A player acted (or the server for him: `timeout`). call: `amount` added; bet/raise:
    `amount` is the to-total and `added` what went in."""

    type: Literal["action"]
    seat: int
    action: str
    stack: int
    amount: NotRequired[int]
    added: NotRequired[int]
    allin: NotRequired[bool]
    timeout: NotRequired[bool]


class ReturnedUncalled(TypedDict):
    type: Literal["returned_uncalled"]
    seat: int
    amount: int
    stack: int


class Pot(TypedDict):
    amount: int
    eligible: list[int]


class Board(TypedDict):
    """Flop, turn or river: `cards` new, `board` all, `pots` the pots collected so far (main
    pot first, then side pots, each with the seats that may win it)."""

    type: Literal["board"]
    street: str
    cards: Cards
    board: Cards
    pots: list[Pot]


class RunTwiceOffer(TypedDict):
    """Everyone still in is all in before the river: `seats` are asked whether to run the
    rest of the board twice, until `deadline` (no answer: once). Send `run_twice`."""

    type: Literal["run_twice_offer"]
    seats: list[int]
    deadline: str


class RunTwiceVote(TypedDict):
    """A player asked answered: `twice` true, or false (once: that settles it)."""

    type: Literal["run_twice_vote"]
    seat: int
    twice: bool


class RunTwiceDecided(TypedDict):
    """The board is run `runs` times (1 or 2); the `board` and `second_board` events follow."""

    type: Literal["run_twice_decided"]
    runs: int


class SecondBoard(TypedDict):
    """The second run's street: `cards` new, `board` the second run's whole board so far (the
    cards out when the players were asked, then its own)."""

    type: Literal["second_board"]
    street: str
    cards: Cards
    board: Cards


class Shown(TypedDict):
    type: Literal["shown"]
    seat: int
    cards: Cards
    description: NotRequired[str]


class RabbitHunt(TypedDict):
    """After hand `hand_id` was folded to one player before the river, `seat` (dealt in) asked
    for its rabbit: `cards` would have come after `board`. Not part of the hand (its board,
    result and history are unchanged); `openings` open those board positions of the deck's
    commitment and nothing else (tables/engine/rabbit.py)."""

    type: Literal["rabbit_hunt"]
    hand_id: int
    seat: int
    board: Cards
    cards: Cards
    openings: list[dict[str, Any]]


class Mucked(TypedDict):
    type: Literal["mucked"]
    seat: int


class PotAwarded(TypedDict):
    """A pot (after rake) is paid: `shares` [[seat, amount]], `hands` [[seat, description]]."""

    type: Literal["pot_awarded"]
    amount: int
    eligible: list[int]
    winners: list[int]
    shares: list[list[int]]
    hands: NotRequired[list[list[Any]]]
    runs: NotRequired[list[dict[str, Any]]]  # run it twice: per run its board, amount, shares


class Rake(TypedDict):
    type: Literal["rake"]
    amount: int


class RecentHand(TypedDict):
    id: int
    number: int
    finished_at: str | None
    commitment: str
    summary: str


class HandEnd(TypedDict):
    """The hand is over: `result` settled, `recent` its line in the recent hands list,
    `next_hand_at` when the next one is dealt. The proof of the deal is the hand's page's
    (tables/histories/views.py): nothing secret rides on events."""

    type: Literal["hand_end"]
    hand_id: int
    result: dict[str, Any]
    next_hand_at: str | None
    recent: RecentHand


class ChatLine(TypedDict):
    """A chat line (tables/services/chat.py): `text` is plain text, never HTML; `id` is the
    line's id (`chat_hidden` names it), `at` when it was said."""

    id: int
    player_id: int
    name: str
    text: str
    at: str


class Chat(ChatLine):
    """A chat line said now (the snapshot's `chat` lists the recent ones)."""

    type: Literal["chat"]


class ChatHidden(TypedDict):
    """Staff hid the chat line `id`: pages drop it."""

    type: Literal["chat_hidden"]
    id: int


# The snapshot (tables/snapshots.py): the whole table as one viewer may see it ---------------
class TimeBankTerms(TypedDict):
    seconds: int
    refill_seconds: int
    refill_hands: int
    cap_seconds: int


class SnapshotTable(TypedDict):
    id: int
    name: str
    structure: str
    currency: str
    stakes: str
    small_blind: int
    big_blind: int
    upper_stake: int
    ante: int
    max_seats: int
    min_buy_in: int
    max_buy_in: int
    action_seconds: int
    countdown_seconds: int
    hand_pause_seconds: int
    chat_spectators: bool
    straddle_allowed: bool
    run_it_twice_allowed: bool
    time_bank: TimeBankTerms | None  # None: the table has no time bank
    rabbit_hunt: bool  # players may ask for a folded-out hand's rabbit


class SnapshotSeat(TypedDict):
    """An occupied seat; `cards` as the one rule lets the viewer see them (`hole_visible`)."""

    seat: int
    player_id: int
    name: str
    avatar: str  # a key (accounts/avatars.py), as in `seat_taken`
    stack: int
    status: str
    in_hand: bool
    bet: int
    contributed: int
    folded: bool
    allin: bool
    timed_out: bool
    has_cards: bool
    cards: Cards | None
    shown: bool
    mucked: bool
    missed_blinds: bool
    post_bb: bool
    sit_out_next_bb: bool
    leaving: bool
    time_bank: int
    time_bank_running: bool


class Blinds(TypedDict):
    sb: int
    bb: int
    straddle: int | None  # the seat that straddled under the gun, if one did


class RunOffer(TypedDict):
    """The run-it-twice question while open: `votes` seat (as text) -> true/false/null."""

    seats: list[int]
    votes: dict[str, bool | None]
    deadline: str | None


class SnapshotHand(TypedDict):
    """The current hand, or the last one until the next starts (`is_over`, `result`)."""

    id: int
    number: int
    street: str
    board: Cards
    pots: list[Pot]
    pot_total: int
    current_bet: int
    to_act: int | None
    deadline: str | None
    countdown_at: str | None
    seconds_left: float | None
    commitment: str
    is_over: bool
    result: dict[str, Any] | None
    deal_order: list[int]
    blinds: Blinds | None
    rabbit: Cards | None  # the rabbit hunt's cards, once shown (never part of `board`)
    board2: Cards | None  # run it twice: the second run's board
    run_offer: RunOffer | None  # run it twice: the open question


class MutedPlayer(TypedDict):
    """A player whose chat the viewer muted, named as at the table."""

    player_id: int
    name: str


class SnapshotViewer(TypedDict):
    """`you`: the viewer (a spectator: no user id or seat); `legal` only on his turn."""

    user_id: int | None
    name: str | None
    seat: int | None
    always_show: bool
    straddle: bool
    legal: dict[str, Any] | None
    muted: list[int]
    muted_players: list[MutedPlayer]


class Snapshot(TypedDict):
    """Connect, reconnect too far behind, a gap: the table at `version` (docs/protocol.md)."""

    type: Literal["snapshot"]
    version: int
    server_time: str
    table: SnapshotTable
    button: int | None
    next_hand_at: str | None
    next_commitment: str
    seats: list[SnapshotSeat]
    hand: SnapshotHand | None
    you: SnapshotViewer
    recent_hands: list[RecentHand]
    chat: list[ChatLine]


EVENTS: dict[str, type] = {
    get_args(get_type_hints(t)["type"])[0]: t
    for t in (SeatTaken, SeatLeft, Leaving, Status, TopUp, Stacks, HandStart, PostedBlind,
              PostedAnte, HoleCards, Turn, DeadlineExtended, Action, ReturnedUncalled, Board,
              Shown, Mucked, PotAwarded, Rake, HandEnd, TimeBank, TimeBanks, Chat, ChatHidden,
              RabbitHunt, RunTwiceOffer, RunTwiceVote, RunTwiceDecided, SecondBoard,
              TableClosed)
}
# Fields only the addressee's copy carries.
PRIVATE: dict[str, frozenset[str]] = {"hole_cards": frozenset({"cards"}),
                                      "turn": frozenset({"legal"})}
# Events that leave the running hand as it was: they never make an `act` stale.
NOT_HAND_PROGRESS = frozenset({"deadline_extended", "time_bank", "time_banks", "chat",
                               "chat_hidden", "rabbit_hunt"})


# The tournament protocol (/ws/tournaments/<id>/, tables/tournaments/consumers.py) ------------
# Every tournament event is public: nothing is redacted. Players are named by their public
# table name (`player`) and user id (`player_id`), never by their login.
class PayoutPlace(TypedDict):
    """A paid place for the field so far: its share (basis points) and prize (minor units)."""

    place: int
    share: int
    prize: int


class TournamentCreated(TypedDict):
    type: Literal["created"]
    state: str
    name: str
    starts_at: str | None


class _EntryChange(TypedDict):
    """An entry bought or refunded, and the field and payouts it leaves."""

    player: str
    player_id: int
    entry: int
    entries: int
    players: int
    prize_pool: int
    payouts: list[PayoutPlace]


class TournamentRegistered(_EntryChange):
    """An entry (or a re-entry: `entry` 2, 3, ...) bought; the field and payouts now."""

    type: Literal["registered"]


class TournamentUnregistered(_EntryChange):
    """An entry refunded before the start; the field and payouts now."""

    type: Literal["unregistered"]


class SeatedPlayer(TypedDict):
    seat: int
    player_id: int
    name: str


class TournamentTable(TypedDict):
    table_id: int
    name: str
    players: list[SeatedPlayer]


class TournamentStarted(TypedDict):
    """The tournament started with `entries`, seated at `tables`."""

    type: Literal["started"]
    entries: int
    tables: list[TournamentTable]


class NextLevel(TypedDict):
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool


class TournamentLevel(TypedDict):
    """Level `level` (1, 2, ...) is in force from the next hand until `until` (None: the last
    level never ends); `next` the level after it (None: none), a break or not."""

    type: Literal["level"]
    level: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    until: str | None
    next: NextLevel | None


class TournamentBreak(TypedDict):
    """A break after level `after_level`, `seconds` long, until `until`: no hand starts."""

    type: Literal["break"]
    after_level: int
    seconds: int | None
    until: str | None


class TournamentChips(TypedDict):
    """The stacks at `table_id` as its next hand starts: {"<player_id>": chips}."""

    type: Literal["chips"]
    table_id: int
    stacks: dict[str, int]


class TournamentBusted(TypedDict):
    """An entry is out, in `place`. In a multi-table event: the `table_id` he busted at, and
    `reentry` whether he may buy in again (registration open, his re-entries not used up)."""

    type: Literal["busted"]
    player: str
    player_id: int
    entry: int
    place: int
    players_left: int
    table_id: NotRequired[int]
    reentry: NotRequired[bool]


class TournamentSeated(TypedDict):
    """A late registrant or a re-entry took a seat, with a full starting `stack`."""

    type: Literal["seated"]
    player: str
    player_id: int
    entry: int
    table_id: int
    seat: int
    stack: int


class TournamentMoved(TypedDict):
    """A player was moved between hands (`reason`: balancing, or his table broke)."""

    type: Literal["moved"]
    player: str
    player_id: int
    reason: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


class TournamentHandForHand(TypedDict):
    """Hand-for-hand on (at the bubble) or off (in the money): while on, no table deals its
    next hand until every table has finished the current one."""

    type: Literal["hand_for_hand"]
    on: bool
    players_left: int
    paid: int


class FinishedPlace(TypedDict):
    place: int | None
    player: str
    player_id: int
    entry: int
    prize: int


class TournamentFinished(TypedDict):
    """The end: every entry's place and prize (minor units), best first."""

    type: Literal["finished"]
    places: list[FinishedPlace]


class TournamentCancelled(TypedDict):
    type: Literal["cancelled"]
    reason: str
    refunded: int


class TournamentRebuy(TypedDict):
    """An entry bought a rebuy: `chips` for `price` (minor units, all to the pool), its
    `rebuys` so far; the chips join its stack at its table's next hand start. `chips_bought`:
    every chip the tournament's rebuys and add-ons bought; the field, pool and payouts now."""

    type: Literal["rebuy"]
    player: str
    player_id: int
    entry: int
    chips: int
    price: int
    rebuys: int
    chips_bought: int
    entries: int
    players: int
    prize_pool: int
    payouts: list[PayoutPlace]


class TournamentAddon(TypedDict):
    """An entry took the add-on (once, at the add-on break): as `rebuy`, without a count."""

    type: Literal["addon"]
    player: str
    player_id: int
    entry: int
    chips: int
    price: int
    chips_bought: int
    entries: int
    players: int
    prize_pool: int
    payouts: list[PayoutPlace]


TOURNAMENT_EVENTS: dict[str, type] = {
    get_args(get_type_hints(t)["type"])[0]: t
    for t in (TournamentCreated, TournamentRegistered, TournamentUnregistered, TournamentStarted,
              TournamentLevel, TournamentBreak, TournamentChips, TournamentBusted,
              TournamentSeated, TournamentMoved, TournamentHandForHand, TournamentFinished,
              TournamentCancelled, TournamentRebuy, TournamentAddon)
}


class LevelTerms(TypedDict):
    """A level or a break of the structure, as the tournament copied it."""

    order: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    minutes: int
    is_break: bool


class PurchaseTermsInfo(TypedDict):
    """Rebuys and the add-on (docs/tournaments.md): prices in minor units, chips are chips;
    `addon_after_level`: the level after which the add-on break comes (None: no add-on)."""

    max_rebuys: int
    rebuy_levels: int
    rebuy_price: int
    rebuy_chips: int
    rebuy_max_stack: int
    addon_price: int
    addon_chips: int
    addon_after_level: int | None


class TournamentInfo(TypedDict):
    id: int
    name: str
    kind: str
    state: str
    currency: str
    buy_in: int
    fee: int
    starting_stack: int
    entries_cap: int | None
    max_reentries: int  # 0: a freezeout
    late_registration_levels: int  # registration and re-entry stay open through this level
    starts_at: str | None
    started_at: str | None
    finished_at: str | None
    purchases: PurchaseTermsInfo


class TournamentClock(TypedDict):
    """The level in force (0 before the start) and when the clock changes next (`until`)."""

    level: int
    on_break: bool
    until: str | None


class TournamentStanding(TypedDict):
    """One entry: `chips` while in, `place` and `prize` once out (or at the end)."""

    player: str
    player_id: int
    entry: int
    state: str
    chips: int
    place: int | None
    prize: int
    table_id: int | None
    rebuys: int
    addon: bool


class TournamentSnapshot(TypedDict):
    """Connect, reconnect too far behind, a gap: the tournament at `version`."""

    type: Literal["snapshot"]
    version: int
    server_time: str
    tournament: TournamentInfo
    clock: TournamentClock
    levels: list[LevelTerms]
    entries: int
    players_left: int
    prize_pool: int
    chips_bought: int
    payouts: list[PayoutPlace]
    standings: list[TournamentStanding]
    tables: list[int]


# Redaction ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Recorded:
    """An event as it is stored and sent: what everybody sees, and the addressee's copy."""

    public: dict[str, Any]
    private_for: int | None = None  # a user id
    private: dict[str, Any] | None = None


def redact(event: dict[str, Any], *, owner: int | None = None) -> Recorded:
    """The only place that decides who sees what: an event with private fields (`PRIVATE`) is
    recorded as a public copy without them and, for its `owner` (a user id), the whole event.
    Engine events name their addressee with `to_seat`; the caller maps it to `owner`. The
    engine's hand-local `version` is dropped (events carry the table's version)."""
    clean = {k: v for k, v in event.items() if k not in ("version", "to_seat")}
    hidden = PRIVATE.get(clean["type"], frozenset())
    if owner is None or not hidden:
        return Recorded({k: v for k, v in clean.items() if k not in hidden})
    return Recorded({k: v for k, v in clean.items() if k not in hidden}, owner, clean)


# Schema ---------------------------------------------------------------------------------------
def problems(event: dict[str, Any], schemas: dict[str, Any] | None = None,
             what: str = "event") -> list[str]:
    """What is wrong with `event` against its definition in `schemas` (the table's `EVENTS`
    by default; empty when it conforms): unknown type, missing or unexpected fields, values
    of the wrong type. Zulip's event-schema check."""
    kind = event.get("type")
    schema = (EVENTS if schemas is None else schemas).get(kind) if isinstance(kind, str) else None
    if schema is None:
        return [f"unknown {what} type {kind!r}"]
    return _check(schema, event, kind)


def tournament_problems(event: dict[str, Any]) -> list[str]:
    """`problems` for a tournament event (`TOURNAMENT_EVENTS`)."""
    return problems(event, TOURNAMENT_EVENTS, "tournament event")


def tournament_snapshot_problems(snapshot: dict[str, Any]) -> list[str]:
    return _check(TournamentSnapshot, snapshot, "snapshot")


def snapshot_problems(snapshot: dict[str, Any]) -> list[str]:
    """What is wrong with `snapshot` against `Snapshot`, at every level (empty when it
    conforms): the snapshot's shape is declared there only."""
    return _check(Snapshot, snapshot, "snapshot")


def _check(schema: type, value: dict[str, Any], where: str) -> list[str]:
    hints = get_type_hints(schema)
    found = []
    missing = schema.__required_keys__ - value.keys()
    extra = value.keys() - hints.keys()
    found += [f"{where}: missing {k!r}" for k in sorted(missing)]
    found += [f"{where}: unexpected {k!r}" for k in sorted(extra)]
    for key in value.keys() & hints.keys():
        found += _check_value(hints[key], value[key], f"{where}.{key}")
    return found


def _check_value(hint: Any, value: Any, where: str) -> list[str]:
    origin, args = get_origin(hint), get_args(hint)
    if origin is NotRequired:
        return _check_value(args[0], value, where)
    if hint is Any:
        return []
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin in (typing.Union, types.UnionType):
        for option in args:
            if not _check_value(option, value, where):
                return []
        return [f"{where}: {value!r} is not {hint}"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        return _check(hint, value, where)
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for i, item in enumerate(value) for p in _check_value(args[0], item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        return [p for k, v in value.items() for p in
                _check_value(args[0], k, f"{where} key") + _check_value(args[1], v, f"{where}.{k}")]
    if hint is int:
        return [] if type(value) is int else [f"{where}: {value!r} is not an integer"]
    if isinstance(hint, type):
        return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint.__name__}"]
    raise TypeError(f"{where}: cannot check {hint!r}")
