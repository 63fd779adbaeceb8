"""Table chat: players (and, where the table allows, spectators) say lines; staff hide lines and
ban players from chat; a player mutes another for himself.

A line is stored (ChatMessage) and recorded as a `chat` event through the table's EventLog, so
it reaches every socket in version order and replays on reconnect like any other event; a hidden
line is a `chat_hidden` event. Neither moves the hand on (`NOT_HAND_PROGRESS`). Text is kept as
typed, minus control characters: it is plain text, and every page renders it as text (never as
HTML), so `<b>` shows as `<b>`.

The rate limit counts the author's stored lines, under the table lock, so it holds across
server processes."""
from __future__ import annotations

import datetime
import re
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from tables.errors import TableError
from tables.events import ChatLine, MutedPlayer
from tables.models import ChatBan, ChatMessage, ChatMute, Seat
from tables.recent import iso
from tables.services.copies import copy_offer
from tables.services.eventlog import EventLog
from tables.services.locks import table_lock

CHAT_MAX_LENGTH = getattr(settings, "ROOM_CHAT_MAX_LENGTH", 200)  # characters, after cleaning
CHAT_RATE_LINES = getattr(settings, "ROOM_CHAT_RATE_LINES", 5)  # lines per author and table...
CHAT_RATE_SECONDS = getattr(settings, "ROOM_CHAT_RATE_SECONDS", 10)  # ...in this many seconds
CHAT_RECENT_LINES = getattr(settings, "ROOM_CHAT_RECENT_LINES", 30)  # in the snapshot
CHAT_BAN_HOURS = 24  # the admin's default ban

WHITESPACE = re.compile(r"\s+")
# Characters that change how text around them is shown without being seen: bidi overrides and
# isolates, zero-width space, byte-order mark. (Zero-width joiners stay: emoji need them.)
INVISIBLE = frozenset("\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                      "\u2066\u2067\u2068\u2069\ufeff")


def chat_clean(text: str) -> str:
    """`text` as it is stored: NFC, any run of whitespace (newlines, tabs) one space, control
    and invisible direction characters dropped, no spaces at either end."""
    text = WHITESPACE.sub(" ", unicodedata.normalize("NFC", text))
    return "".join(ch for ch in text if ch not in INVISIBLE
                   and unicodedata.category(ch) != "Cc").strip()


def chat_line(message: ChatMessage) -> ChatLine:
    """A line as the `chat` event and the snapshot's `chat` list give it."""
    return {"id": message.pk, "player_id": message.author_id, "name": message.author.table_name,
            "text": message.text, "at": iso(message.created_at)}


def chat_say(*, table_id: int, user_id: int, text: str) -> ChatMessage:
    """Say `text` at the table: a seated player always may, a spectator only where the table
    allows it (`chat_spectators`), a player banned from chat never. Refused: an empty line
    (`chat_empty`), one over CHAT_MAX_LENGTH characters (`chat_too_long`), more than
    CHAT_RATE_LINES lines in CHAT_RATE_SECONDS at this table (`chat_rate_limited`).
    Records a `chat` event. Locks: the table row, for the seat, the rate and the line (the
    author and his bans are read before it: six statements under it, not eight)."""
    if not isinstance(text, str):
        raise TableError("bad_request", "'text' must be a string.")
    if len(text) > 4 * CHAT_MAX_LENGTH:  # not worth cleaning
        raise TableError("chat_too_long", f"A chat line is at most {CHAT_MAX_LENGTH} characters.")
    clean = chat_clean(text)
    if not clean:
        raise TableError("chat_empty", "Type something to say.")
    if len(clean) > CHAT_MAX_LENGTH:
        raise TableError("chat_too_long", f"A chat line is at most {CHAT_MAX_LENGTH} characters "
                         f"(this one has {len(clean)}).")
    author = (get_user_model().objects.filter(pk=user_id)
              .annotate(banned_until=Subquery(ChatBan.objects.filter(
                  player_id=OuterRef("pk"), until__gt=timezone.now())
                  .order_by("-until").values("until")[:1])).first())
    if author is None:
        raise TableError("no_player", f"There is no player {user_id}.")
    if author.banned_until is not None:
        raise TableError("chat_banned", "You may not chat until "
                         f"{timezone.localtime(author.banned_until):%Y-%m-%d %H:%M %Z}.")
    with transaction.atomic():
        held = table_lock(table_id)
        ts, now = held.state, timezone.now()
        if not ts.table.is_active:
            raise TableError("table_closed", "This table is closed.")
        seated = Seat.objects.filter(table_id=table_id, player_id=user_id).exists()
        if not seated and not ts.table.chat_spectators:
            raise TableError("chat_players_only",
                             "Only the players at this table may chat. Take a seat to chat.")
        since = now - datetime.timedelta(seconds=CHAT_RATE_SECONDS)
        recent = ChatMessage.objects.filter(table_id=table_id, author_id=user_id,
                                            created_at__gt=since).count()
        if recent >= CHAT_RATE_LINES:
            raise TableError("chat_rate_limited", f"Slow down: at most {CHAT_RATE_LINES} lines "
                             f"in {CHAT_RATE_SECONDS} seconds.")
        message = ChatMessage.objects.create(table_id=table_id, author=author, text=clean)
        log = EventLog(held)
        log.add({"type": "chat", **chat_line(message)})
        log.flush()
        copy_offer(held)
        return message


def chat_hide(*, message_id: int, by_user_id: int) -> bool:
    """Staff hide a line: it leaves every page (`chat_hidden` event) and the snapshots. Returns
    False when it was hidden already (nothing recorded). Locks: the line's table row."""
    if not get_user_model().objects.filter(pk=by_user_id, is_staff=True, is_active=True).exists():
        raise TableError("staff_only", "Only staff may hide chat lines.")
    table_id = ChatMessage.objects.filter(pk=message_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise TableError("no_message", f"There is no chat line {message_id}.")
    with transaction.atomic():
        log = EventLog(table_lock(table_id))
        message = log.track(ChatMessage.objects.get(pk=message_id))  # changed under the lock only
        if message.hidden:
            return False
        message.hidden, message.hidden_by_id, message.hidden_at = True, by_user_id, timezone.now()
        log.add({"type": "chat_hidden", "id": message.pk})
        log.flush()
        return True


def chat_ban(*, player_id: int, by_user_id: int | None, until: datetime.datetime,
             reason: str = "") -> ChatBan:
    """Staff take the player's chat away at every table until `until`. Locks nothing (one new
    row; `chat_say` reads it before each line)."""
    return ChatBan.objects.create(player_id=player_id, created_by_id=by_user_id, until=until,
                                  reason=reason[:200])


def chat_mute(*, user_id: int, player_id: int, muted: bool) -> list[int]:
    """`user_id` mutes (or unmutes) `player_id`'s chat for himself, at every table. Private:
    nothing is broadcast. Returns the ids he mutes now. Locks nothing (his own rows)."""
    if player_id == user_id:
        raise TableError("mute_self", "You cannot mute yourself.")
    if not get_user_model().objects.filter(pk=player_id).exists():
        raise TableError("no_player", f"There is no player {player_id}.")
    if muted:
        ChatMute.objects.get_or_create(muter_id=user_id, muted_id=player_id)
    else:
        ChatMute.objects.filter(muter_id=user_id, muted_id=player_id).delete()
    return chat_muted_ids(user_id=user_id)


# Reads ----------------------------------------------------------------------------------------
def chat_recent(*, table_id: int, limit: int = CHAT_RECENT_LINES) -> list[ChatLine]:
    """The table's last `limit` visible lines, oldest first (the snapshot's `chat`)."""
    rows = (ChatMessage.objects.filter(table_id=table_id, hidden=False)
            .select_related("author").order_by("-id")[:limit])
    return [chat_line(m) for m in reversed(rows)]


def chat_muted_ids(*, user_id: int | None) -> list[int]:
    """The players whose chat `user_id` muted, ascending."""
    if user_id is None:
        return []
    return sorted(ChatMute.objects.filter(muter_id=user_id).values_list("muted_id", flat=True))


def chat_muted_players(*, user_id: int | None) -> list[MutedPlayer]:
    """The players `user_id` muted, with their table names, ascending by id: the page's mute
    list names them even when they left the table and their lines scrolled away."""
    if user_id is None:
        return []
    mutes = ChatMute.objects.filter(muter_id=user_id).select_related("muted").order_by("muted_id")
    return [{"player_id": m.muted_id, "name": m.muted.table_name} for m in mutes]
