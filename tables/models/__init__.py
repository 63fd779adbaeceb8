"""The tables app's models, one module per concern; every name is importable from here."""
from __future__ import annotations

from tables.models.chat import ChatBan, ChatMessage, ChatMute
from tables.models.config import (
    ENGINE_SMALL_BLIND_RULE,
    ENGINE_STRUCTURE,
    ENGINE_TIMEOUT_POLICY,
    MAX_RAKE_PERCENT,
    Currency,
    SmallBlindRule,
    Structure,
    TableConfig,
    TimeoutPolicy,
)
from tables.models.hands import DeckEntropy, DeckReveal, Hand, HandEvent, HandSummary, TimeoutAllIn
from tables.models.players import (
    NOTE_MAX_LENGTH,
    HandStatsCounted,
    NoteTag,
    PlayerNote,
    PlayerStats,
)
from tables.models.seats import (
    AutoTopUp,
    AutoTopUpMode,
    Seat,
    SeatStatus,
    TablePresence,
    TableState,
)
from tables.models.waitlist import WaitingListEntry

__all__ = [
    "ENGINE_SMALL_BLIND_RULE", "ENGINE_STRUCTURE", "ENGINE_TIMEOUT_POLICY", "MAX_RAKE_PERCENT",
    "NOTE_MAX_LENGTH", "AutoTopUp", "AutoTopUpMode", "ChatBan", "ChatMessage", "ChatMute",
    "Currency", "DeckEntropy", "DeckReveal", "Hand", "HandEvent", "HandStatsCounted",
    "HandSummary", "NoteTag", "PlayerNote", "PlayerStats", "Seat", "SeatStatus",
    "SmallBlindRule", "Structure", "TableConfig", "TablePresence", "TableState",
    "TimeoutAllIn", "TimeoutPolicy", "WaitingListEntry",
]
