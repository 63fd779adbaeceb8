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
    stack: int
    status: str
    next_commitment: NotRequired[str]  # the table's first deck, committed (dealing.py)


class SeatLeft(TypedDict):
    """The seat is free again; `cashed_out` went back to the wallet."""

    type: Literal["seat_left"]
    seat: int
    player_id: int
    cashed_out: int


class Leaving(TypedDict):
    """Will leave when the current hand ends."""

    type: Literal["leaving"]
    seat: int


class Status(TypedDict):
    """Sit out / in, post or wait for the big blind, a blind missed while sitting out."""

    type: Literal["status"]
    seat: int
    status: str
    post_bb: bool
    missed_blinds: bool


class TopUp(TypedDict):
    """Chips bought; they join the stack when the next hand starts."""

    type: Literal["top_up"]
    seat: int
    amount: int
    pending: bool


class Stacks(TypedDict):
    """Stacks after a hand settled or top-ups joined: {"<seat>": chips}."""

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
    """A live blind (`sb`, `bb`, `extra_bb`)."""

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


class Shown(TypedDict):
    type: Literal["shown"]
    seat: int
    cards: Cards
    description: NotRequired[str]


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
    time_bank: TimeBankTerms | None  # None: the table has no time bank


class SnapshotSeat(TypedDict):
    """An occupied seat; `cards` as the one rule lets the viewer see them (`hole_visible`)."""

    seat: int
    player_id: int
    name: str
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
    leaving: bool
    time_bank: int
    time_bank_running: bool


class Blinds(TypedDict):
    sb: int
    bb: int


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
              Shown, Mucked, PotAwarded, Rake, HandEnd, TimeBank, TimeBanks, Chat, ChatHidden)
}
# Fields only the addressee's copy carries.
PRIVATE: dict[str, frozenset[str]] = {"hole_cards": frozenset({"cards"}),
                                      "turn": frozenset({"legal"})}
# Events that leave the running hand as it was: they never make an `act` stale.
NOT_HAND_PROGRESS = frozenset({"deadline_extended", "time_bank", "time_banks", "chat",
                               "chat_hidden"})


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
def problems(event: dict[str, Any]) -> list[str]:
    """What is wrong with `event` against its definition (empty when it conforms): unknown type,
    missing or unexpected fields, values of the wrong type. Zulip's event-schema check."""
    kind = event.get("type")
    schema = EVENTS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        return [f"unknown event type {kind!r}"]
    return _check(schema, event, kind)


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
