"""The private fair deal ("merkle-v2"): every deck position committed before the deal, the deal
order fixed afterwards by players' entropy, and only what became public ever opened.

Why this shape (docs/engine.md, "Fair deal", has the threat model):

- **Commit.** A secret 32-byte ``key`` orders the deck (``committed(key)``) and salts every
  position. Leaf ``j`` is ``sha256(0x00 || j || card || salt_j)``; the 52 leaves, padded to 64
  with ``sha256(0x02 || j)``, form a Merkle tree whose nodes are ``sha256(0x01 || left ||
  right)``. Its ``root`` is published before anybody acts — for the next hand, while the
  current one plays — and binds every position, each of which can be opened on its own.
- **Nobody steers.** Seated players' clients answer a published root with 32 random bytes
  each. The deal order is a permutation drawn from ``sha256("deal" || root || entropy...)``
  (the contributions sorted, so their arrival order does not matter): the k-th card dealt is
  the committed card at position ``order[k]``. The server fixed the deck before it could know
  the entropy; a player cannot aim at a card he cannot see.
- **Open only what became public.** After the hand the board and the shown hands are opened
  publicly (card, salt, Merkle path); each player privately gets the openings of his own hole
  cards. The key is never published: a salt opens one position and tells nothing about another.

Hands dealt before this scheme ("seed-v1") published their seed; ``verify_hand`` still checks
them with ``deck.verify``.

    python -m tables.engine.fairness verify FILE...   # a hand's JSON (/tables/hands/<id>.json)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .deck import FRESH_DECK, shuffled
from .deck import verify as verify_seed

SCHEME = "merkle-v2"
LEGACY = "seed-v1"
KEY_BYTES = 32
SALT_BYTES = 16
ENTROPY_BYTES = 32
DECK_SIZE = 52
LEAVES = 64  # the tree's width: 52 positions and 12 padding leaves
DEPTH = 6
HEX64 = frozenset("0123456789abcdef")


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def leaf_hash(position: int, card: str, salt: bytes) -> bytes:
    return _sha(b"\x00" + bytes((position,)) + card.encode("ascii") + salt)


def pad_hash(position: int) -> bytes:
    return _sha(b"\x02" + bytes((position,)))


def node_hash(left: bytes, right: bytes) -> bytes:
    return _sha(b"\x01" + left + right)


def is_hex(value: object, size: int) -> bool:
    """``value`` is ``size`` bytes written as lowercase hex."""
    return isinstance(value, str) and len(value) == 2 * size and set(value) <= HEX64


def new_key() -> str:
    """A fresh secret deck key (hex) from the OS cryptographic random source."""
    return secrets.token_hex(KEY_BYTES)


@dataclass(frozen=True, slots=True)
class CommittedDeck:
    """A deck as committed: the cards by position, their salts and the Merkle tree's levels
    (``levels[0]`` the 64 leaves, ``levels[-1]`` the root). Holds secrets: server side only."""

    cards: tuple[str, ...]
    salts: tuple[bytes, ...]
    levels: tuple[tuple[bytes, ...], ...]

    @property
    def root(self) -> str:
        return self.levels[-1][0].hex()

    def opening(self, deal: int, position: int) -> dict[str, Any]:
        """What proves that deal position ``deal`` took committed ``position``'s card."""
        path, index = [], position
        for level in self.levels[:-1]:
            path.append(level[index ^ 1].hex())
            index >>= 1
        return {"deal": deal, "position": position, "card": self.cards[position],
                "salt": self.salts[position].hex(), "path": path}


def committed(key: str) -> CommittedDeck:
    """The deck that ``key`` (hex) commits to."""
    raw = bytes.fromhex(key)
    cards = tuple(shuffled(hmac.digest(raw, b"order", "sha256"), FRESH_DECK))
    salts = tuple(hmac.digest(raw, b"salt" + bytes((j,)), "sha256")[:SALT_BYTES]
                  for j in range(DECK_SIZE))
    level = tuple([*(leaf_hash(j, cards[j], salts[j]) for j in range(DECK_SIZE)),
                   *(pad_hash(j) for j in range(DECK_SIZE, LEAVES))])
    levels = [level]
    while len(level) > 1:
        level = tuple(node_hash(level[i], level[i + 1]) for i in range(0, len(level), 2))
        levels.append(level)
    return CommittedDeck(cards, salts, tuple(levels))


def deal_order(root: str, entropy: Iterable[str]) -> list[int]:
    """Committed positions in dealing order: ``order[k]`` is the position the k-th card dealt
    comes from. A pure function of the published root and the players' contributions."""
    parts = sorted(bytes.fromhex(value) for value in entropy)
    return shuffled(_sha(b"deal" + bytes.fromhex(root) + b"".join(parts)), range(DECK_SIZE))


def dealt_deck(deck: CommittedDeck, entropy: Iterable[str]) -> list[str]:
    """The 52 cards in the order the engine deals them."""
    return [deck.cards[j] for j in deal_order(deck.root, entropy)]


def openings(deck: CommittedDeck, entropy: Iterable[str], deals: Iterable[int]
             ) -> list[dict[str, Any]]:
    """The openings of deal positions ``deals`` (sorted, each once)."""
    order = deal_order(deck.root, entropy)
    return [deck.opening(k, order[k]) for k in sorted(set(deals))]


# Where cards are dealt -----------------------------------------------------------------------
def hole_deals(players: int, index: int) -> tuple[int, int]:
    """Deal positions of the hole cards of the ``index``-th player in dealing order."""
    return index, players + index


def board_deals(players: int, cards: int) -> list[int]:
    """Deal positions of the first ``cards`` board cards (a burn before each street)."""
    base = 2 * players
    return [base + k for k in (1, 2, 3, 5, 7)[:cards]]


def second_board_deals(players: int, shared: int, cards: int) -> list[int]:
    """Deal positions of a second run's own cards (run it twice, runs.py): its board is the
    ``shared`` cards out when the players agreed, then cards dealt after the first run's river
    (position 2n + 8 on), a burn before each street; ``cards`` is its whole board's length."""
    pos, out = 2 * players + 8, []
    streets = [(0, 3), (3, 1), (4, 1)]
    for start, count in streets:
        if start < shared or start >= cards:
            continue
        pos += 1  # the burn
        out += list(range(pos, pos + count))
        pos += count
    return out


# Verification --------------------------------------------------------------------------------
def opening_problems(root: str, order: Sequence[int], opening: Any) -> list[str]:
    """Why ``opening`` does not prove its card under ``root`` (empty when it does)."""
    try:
        deal, position, card = opening["deal"], opening["position"], opening["card"]
        salt, path = opening["salt"], opening["path"]
    except (KeyError, TypeError):
        return [f"malformed opening {opening!r}"]
    if not (type(deal) is int and 0 <= deal < DECK_SIZE and type(position) is int
            and 0 <= position < DECK_SIZE and card in FRESH_DECK and is_hex(salt, SALT_BYTES)
            and isinstance(path, list) and len(path) == DEPTH
            and all(is_hex(p, 32) for p in path)):
        return [f"malformed opening {opening!r}"]
    if order[deal] != position:
        return [f"deal position {deal}: the deal order takes position {order[deal]}, "
                f"not {position}"]
    node, index = leaf_hash(position, card, bytes.fromhex(salt)), position
    for sibling in path:
        pair = (node, bytes.fromhex(sibling)) if index % 2 == 0 else (bytes.fromhex(sibling), node)
        node = node_hash(*pair)
        index >>= 1
    if not hmac.compare_digest(node.hex(), root):
        return [f"deal position {deal}: {card} with its salt and path does not lead to the root"]
    return []


def proof_problems(proof: Mapping[str, Any], cards: Mapping[int, str]) -> list[str]:
    """Why ``proof`` (root, entropy, openings) fails to prove ``cards`` (deal position → card):
    every opening must lead to the root at the position the deal order gives, and every card
    in ``cards`` must be opened as itself. Empty when all is proven."""
    root, entropy = proof.get("root"), proof.get("entropy")
    if not is_hex(root, 32):
        return ["the proof has no valid root"]
    if not isinstance(entropy, list) or not all(
            isinstance(e, dict) and is_hex(e.get("value"), ENTROPY_BYTES) for e in entropy):
        return ["the proof's entropy is malformed"]
    order = deal_order(root, [e["value"] for e in entropy])
    found, opened = [], {}
    for opening in proof.get("openings") or []:
        bad = opening_problems(root, order, opening)
        found += bad
        if not bad:
            opened[opening["deal"]] = opening["card"]
    cards_opened = list(opened.values())
    if len(set(cards_opened)) != len(cards_opened):
        found.append("the same card is opened at two positions")
    for deal, card in sorted(cards.items()):
        if deal not in opened:
            found.append(f"deal position {deal} ({card}) is not opened")
        elif opened[deal] != card:
            found.append(f"deal position {deal}: {card} was seen, {opened[deal]} is committed")
    return found


def seen_cards(hand: Mapping[str, Any]) -> dict[int, str]:
    """From a hand's JSON (/tables/hands/<id>.json): every card its reader saw, by deal position
    — the board, shown hands, and the reader's own hole cards."""
    events = hand.get("events") or []
    start = next((e for e in events if e.get("type") == "hand_start"), {})
    seats = list(start.get("seats") or [])
    index = {seat: i for i, seat in enumerate(seats)}
    out: dict[int, str] = {}
    board: list[str] = []
    board2: list[str] = []  # a second run's board (run it twice), and its own cards' count
    own = 0
    for e in events:
        kind, seat, cards = e.get("type"), e.get("seat"), e.get("cards")
        if kind in ("hole_cards", "shown") and seat in index and cards:
            for deal, card in zip(hole_deals(len(seats), index[seat]), cards, strict=False):
                if card:
                    out[deal] = card
        if kind == "board":
            board = list(e.get("board") or [])
        if kind == "second_board":  # run it twice: cards after the first run's river
            board2 = list(e.get("board") or [])
            own += len(cards or [])
    board = list((hand.get("result") or {}).get("board") or board)
    out.update(zip(board_deals(len(seats), len(board)), board, strict=True))
    if board2:
        shared = len(board2) - own
        out.update(zip(second_board_deals(len(seats), shared, len(board2)), board2[shared:],
                       strict=True))
    return out


def verify_hand(hand: Mapping[str, Any], my_entropy: str | None = None) -> list[str]:
    """Every problem with a hand's JSON proof of the deal (empty: the deal is proven).

    ``my_entropy``: the contribution the reader's client sent; it must be in the proof."""
    proof = hand.get("proof") or {}
    cards = seen_cards(hand)
    if proof.get("scheme") == LEGACY:
        dealt: list[str | None] = [None] * DECK_SIZE
        for deal, card in cards.items():
            dealt[deal] = card
        ok = verify_seed(str(proof.get("commitment", "")), str(proof.get("seed", "")), dealt)
        return [] if ok else ["the seed does not match the commitment and the cards seen"]
    if proof.get("scheme") != SCHEME:
        return [f"unknown proof scheme {proof.get('scheme')!r}"]
    found = []
    if proof.get("root") != hand.get("commitment"):
        found.append("the proof's root is not the commitment published at the deal")
    if my_entropy is not None and my_entropy not in {
            e.get("value") for e in proof.get("entropy") or [] if isinstance(e, dict)}:
        found.append("your entropy was not used in this deal")
    openings_all = [*(proof.get("openings") or []), *(hand.get("own_openings") or [])]
    return found + proof_problems({**proof, "openings": openings_all}, cards)


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "verify":
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for path in argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                hand = json.load(f)
            found = verify_hand(hand)
        except (OSError, ValueError) as e:
            found = [f"cannot read: {e}"]
        if found:
            failed += 1
            print(f"{path}: FAILED")
            for problem in found:
                print(f"  {problem}")
        else:
            opened = len(seen_cards(hand))
            print(f"{path}: ok ({hand.get('proof', {}).get('scheme')}, {opened} cards proven)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
