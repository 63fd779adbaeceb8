"""Each hand's deck, dealt privately and provably fair (tables/engine/fairness.py).

A table always has its next deck committed (`TableState.next_commitment`, published in
`hand_start` and `seat_taken` and in snapshots) before that deck is dealt. Seated players'
clients answer it with entropy (`entropy_add`); the deal takes the contributions sent for it
and fixes the deal order from them, then commits the deck after it. The deck key stays on the
server for ever; openings leave it only through `hand_proof`, `board_openings` (the rabbit
hunt's board positions) and a recorded `deck_reveal`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection

from tables.engine import HandState, fairness, hole_visible
from tables.engine.fairness import new_key  # tests fix the decks here
from tables.models import DeckEntropy, DeckReveal, Hand, Seat, TableState


@dataclass(frozen=True)
class Deal:
    key: str  # secret
    root: str  # the commitment published before the deal
    entropy: list[dict[str, Any]]  # [{"seat", "value"}] that fixed the deal order
    cards: list[str]  # in dealing order


def deck_commit_next(ts: TableState) -> None:
    """Commit the table's next deck (the caller saves `next_deck_key` and `next_commitment`)."""
    ts.next_deck_key = new_key()
    ts.next_commitment = fairness.committed(ts.next_deck_key).root


def deck_deal(ts: TableState, seats: list[Seat]) -> Deal:
    """The deck committed for this hand, in the deal order the seated players' entropy fixes;
    commits the next one. Takes (and deletes) the table's entropy rows in one statement: a
    contribution to an older commitment is dropped. Needs the table lock; the caller saves the
    table's `next_deck_key` and `next_commitment`."""
    if not ts.next_deck_key:  # a table that never committed one: nobody could contribute
        deck_commit_next(ts)
    deck = fairness.committed(ts.next_deck_key)
    seat_of = {s.player_id: s.number for s in seats}
    entropy = sorted(({"seat": seat_of[player], "value": value}
                      for player, commitment, value in _entropy_take(ts.table_id)
                      if commitment == deck.root and player in seat_of),
                     key=lambda e: e["seat"])
    key = ts.next_deck_key
    deck_commit_next(ts)
    return Deal(key=key, root=deck.root, entropy=entropy,
                cards=fairness.dealt_deck(deck, [e["value"] for e in entropy]))


def entropy_add(*, table_id: int, user_id: int, commitment: str, value: str) -> bool:
    """Record a seated player's contribution to the deck committed as `commitment`; one per
    player and deck. False (nothing written) unless the player is seated at the table, the
    commitment is the table's next one and he has not contributed to it yet. One statement,
    no lock: the deal takes what has arrived when it takes the table lock."""
    if not (fairness.is_hex(commitment, 32) and fairness.is_hex(value, fairness.ENTROPY_BYTES)):
        raise ValueError("commitment and value are 32 bytes each, in lowercase hex")
    entropy, seat, state = (m._meta.db_table for m in (DeckEntropy, Seat, TableState))
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {q(entropy)} (table_id, commitment, player_id, value) "
            f"SELECT %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM {q(seat)} "
            f"WHERE table_id = %s AND player_id = %s) AND EXISTS (SELECT 1 FROM {q(state)} "
            f"WHERE table_id = %s AND next_commitment = %s) "
            f"ON CONFLICT (table_id, commitment, player_id) DO NOTHING",
            [table_id, commitment, user_id, value, table_id, user_id, table_id, commitment])
        return cursor.rowcount == 1


def _entropy_take(table_id: int) -> list[tuple[int, str, str]]:
    """Delete the table's contributions and return them as (player id, commitment, value)."""
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {q(DeckEntropy._meta.db_table)} WHERE table_id = %s "
                       f"RETURNING player_id, commitment, value", [table_id])
        return list(cursor.fetchall())


# Openings -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HandProof:
    public: dict[str, Any]  # anybody's: root, entropy, the board's and shown hands' openings
    own_openings: list[dict[str, Any]]  # the viewer's own hole cards': his eyes only


def hand_proof(hand: Hand, state: HandState, seat: int | None) -> HandProof:
    """What may be checked of a finished hand's deal, `state` being its parsed `hand.state`:
    publicly the root and entropy and the openings of the board and the shown hands, and for
    `seat` (None: not a player of the hand) the openings of his own hole cards — one rule,
    `hole_visible`, decides both, and one Merkle tree serves both. Hands dealt before the
    private fair deal keep their published seed (and open nothing more)."""
    if hand.fairness == fairness.LEGACY:
        return HandProof({"scheme": fairness.LEGACY, "commitment": hand.commitment,
                          "seed": hand.seed}, [])
    n = len(state.players)
    public = fairness.board_deals(n, len(state.board))
    if state.board2 is not None:  # run it twice: the second run's own cards are public too
        public += fairness.second_board_deals(n, state.run_from, len(state.board2))
    own: list[int] = []
    for i, p in enumerate(state.players):
        if hole_visible(p, None):  # shown hands
            public += fairness.hole_deals(n, i)
        if seat is not None and p.seat == seat and hole_visible(p, seat):
            own += fairness.hole_deals(n, i)
    deck = fairness.committed(hand.deck_key)
    entropy = [e["value"] for e in hand.entropy]
    return HandProof({"scheme": fairness.SCHEME, "root": hand.commitment,
                      "entropy": hand.entropy,
                      "openings": fairness.openings(deck, entropy, public)},
                     fairness.openings(deck, entropy, own) if own else [])


def _openings(hand: Hand, deals: list[int]) -> list[dict[str, Any]]:
    deck = fairness.committed(hand.deck_key)
    return fairness.openings(deck, [e["value"] for e in hand.entropy], deals)


def board_openings(hand: Hand, deals: list[int]) -> list[dict[str, Any]]:
    """The public openings of a finished hand's board positions `deals` — the rabbit hunt's
    cards (services/rabbit_hunting.py). Refuses any other position: a hole card or a burn
    card is never opened this way."""
    n = len(hand.state["players"])
    if hand.finished_at is None or not set(deals) <= set(fairness.board_deals(n, 5)):
        raise ValueError("only a finished hand's board positions are opened")
    return _openings(hand, deals)


def deck_reveal(*, hand: Hand, staff: Any, reason: str) -> list[dict[str, Any]]:
    """Every position of a finished hand's deck, for a dispute: recorded (who, when, why)
    before it is shown. Staff only; never for a running hand."""
    if not getattr(staff, "is_staff", False):
        raise PermissionError("only staff may reveal a deck")
    if hand.finished_at is None:
        raise ValueError("a running hand's deck is never revealed")
    if not reason.strip():
        raise ValueError("say why the deck is revealed")
    if hand.fairness != fairness.SCHEME:
        raise ValueError("this hand's seed was published: its deck is public")
    DeckReveal.objects.create(hand=hand, staff=staff, reason=reason.strip())
    return _openings(hand, list(range(fairness.DECK_SIZE)))
